package sinkhorn

import (
	"math"
	"math/rand/v2"
)

// This file holds test helpers written independently of the package code:
// a textbook log-domain Sinkhorn in its most naive form, and random problem
// generators.

// refResult is what the reference solver returns.
type refResult struct {
	f, g     []float64
	value    float64 // ⟨C, P⟩
	entropic float64 // ⟨C, P⟩ + (1/λ) Σ P log P
	margErr  float64 // ‖P1 − a‖₁ + ‖Pᵀ1 − b‖₁
}

// refSinkhorn is log-domain Sinkhorn as in Peyré & Cuturi (2019), Sec. 4.4
// (written with λ = 1/ε), in the update order of Frogner et al. (2015),
// Alg. 1 and POT's sinkhorn_log: starting from f = 0, every iteration sets
//
//	g_j = (log b_j − log Σ_i exp(λ(f_i − C_ij)))/λ     for b_j > 0,
//	f_i = (log a_i − log Σ_j exp(λ(g_j − C_ij)))/λ     for a_i > 0,
//
// with max-shifted log-sum-exps over the points of positive mass, then
// forms P_ij = exp(λ(f_i + g_j − C_ij)) explicitly. Points of zero mass get
// f_i = g_j = NaN (the reference does not define them).
func refSinkhorn(cost, a, b []float64, lambda float64, iters int) refResult {
	n, m := len(a), len(b)
	f := make([]float64, n)
	g := make([]float64, m)
	lse := func(z []float64) float64 {
		mx := math.Inf(-1)
		for _, v := range z {
			mx = math.Max(mx, v)
		}
		s := 0.0
		for _, v := range z {
			s += math.Exp(v - mx)
		}
		return mx + math.Log(s)
	}
	for range iters {
		for j := range m {
			if b[j] == 0 {
				continue
			}
			var z []float64
			for i := range n {
				if a[i] > 0 {
					z = append(z, lambda*(f[i]-cost[i*m+j]))
				}
			}
			g[j] = (math.Log(b[j]) - lse(z)) / lambda
		}
		for i := range n {
			if a[i] == 0 {
				continue
			}
			var z []float64
			for j := range m {
				if b[j] > 0 {
					z = append(z, lambda*(g[j]-cost[i*m+j]))
				}
			}
			f[i] = (math.Log(a[i]) - lse(z)) / lambda
		}
	}
	var r refResult
	col := make([]float64, m)
	for i := range n {
		row := 0.0
		for j := range m {
			if a[i] == 0 || b[j] == 0 {
				continue
			}
			p := math.Exp(lambda * (f[i] + g[j] - cost[i*m+j]))
			row += p
			col[j] += p
			r.value += cost[i*m+j] * p
			if p > 0 {
				r.entropic += p * math.Log(p) / lambda
			}
		}
		r.margErr += math.Abs(row - a[i])
	}
	for j := range m {
		r.margErr += math.Abs(col[j] - b[j])
	}
	r.entropic += r.value
	for i := range n {
		if a[i] == 0 {
			f[i] = math.NaN()
		}
	}
	for j := range m {
		if b[j] == 0 {
			g[j] = math.NaN()
		}
	}
	r.f, r.g = f, g
	return r
}

// randHist returns a random histogram of length n with total mass 1 and
// the given number of zero entries (at random positions).
func randHist(rnd *rand.Rand, n, zeros int) []float64 {
	h := make([]float64, n)
	for i := range h {
		h[i] = 0.05 + rnd.Float64()
	}
	for _, i := range rnd.Perm(n)[:zeros] {
		h[i] = 0
	}
	s := 0.0
	for _, v := range h {
		s += v
	}
	for i := range h {
		h[i] /= s
	}
	return h
}

// randCost returns an n×m cost with entries uniform in [0, scale).
func randCost(rnd *rand.Rand, n, m int, scale float64) []float64 {
	c := make([]float64, n*m)
	for i := range c {
		c[i] = scale * rnd.Float64()
	}
	return c
}

// euclidCost returns |x_i − y_j| for random points on [0, 1], a metric
// cost whose optimal plans are unique for generic points.
func euclidCost(rnd *rand.Rand, n, m int) []float64 {
	x := make([]float64, n)
	y := make([]float64, m)
	for i := range x {
		x[i] = rnd.Float64()
	}
	for j := range y {
		y[j] = rnd.Float64()
	}
	c := make([]float64, n*m)
	for i := range n {
		for j := range m {
			c[i*m+j] = math.Abs(x[i] - y[j])
		}
	}
	return c
}

// treeCost returns the shortest-path metric (unit edge lengths) of a
// random recursive tree on n nodes: the kind of cost the loss is used with,
// where λ·C reaches several hundreds at λ = 50.
func treeCost(rnd *rand.Rand, n int) []float64 {
	parent := make([]int, n)
	depth := make([]int, n)
	for i := 1; i < n; i++ {
		parent[i] = rnd.IntN(i)
		depth[i] = depth[parent[i]] + 1
	}
	c := make([]float64, n*n)
	for i := range n {
		for j := range i {
			x, y, d := i, j, 0
			for x != y {
				if depth[x] >= depth[y] {
					x = parent[x]
				} else {
					y = parent[y]
				}
				d++
			}
			c[i*n+j], c[j*n+i] = float64(d), float64(d)
		}
	}
	return c
}

// paperCost returns the n×n matrix 11ᵀ − I of the paper's efficiency
// experiment.
func paperCost(n int) []float64 {
	c := make([]float64, n*n)
	for i := range c {
		c[i] = 1
	}
	for i := range n {
		c[i*n+i] = 0
	}
	return c
}

// relDiff returns |x − y| / max(1, |y|).
func relDiff(x, y float64) float64 {
	return math.Abs(x-y) / math.Max(1, math.Abs(y))
}
