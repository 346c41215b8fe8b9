package emd

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randHist returns n random masses in [0, 1) normalized to sum 1, with
// each entry set to zero with probability pZero (at least one entry stays
// positive).
func randHist(rng *rand.Rand, n int, pZero float64) []float64 {
	h := make([]float64, n)
	var sum float64
	for i := range h {
		if rng.Float64() >= pZero {
			h[i] = rng.Float64()
			sum += h[i]
		}
	}
	if sum == 0 {
		h[rng.IntN(n)] = 1
		sum = 1
	}
	for i := range h {
		h[i] /= sum
	}
	return h
}

// randTree returns the parent array of a random tree on n nodes rooted at
// node 0 (parent[0] = -1, parent[i] < i) and its edge weights (weight[i] is
// the weight of the edge from i to parent[i]), drawn from [0, 1) or equal to
// 1 when unit is set.
func randTree(rng *rand.Rand, n int, unit bool) (parent []int, weight []float64) {
	parent = make([]int, n)
	weight = make([]float64, n)
	parent[0] = -1
	for i := 1; i < n; i++ {
		parent[i] = rng.IntN(i)
		if unit {
			weight[i] = 1
		} else {
			weight[i] = rng.Float64()
		}
	}
	return parent, weight
}

// treeMetric returns the n×n shortest-path distance matrix of a tree given
// by parent and weight, by a depth-first search from every node.
func treeMetric(parent []int, weight []float64) []float64 {
	n := len(parent)
	adj := make([][]int, n)
	for i := 1; i < n; i++ {
		adj[i] = append(adj[i], parent[i])
		adj[parent[i]] = append(adj[parent[i]], i)
	}
	edge := func(u, v int) float64 { // weight of the edge u–v
		if parent[u] == v {
			return weight[u]
		}
		return weight[v]
	}
	d := make([]float64, n*n)
	stack := make([]int, 0, n)
	seen := make([]bool, n)
	for s := 0; s < n; s++ {
		row := d[s*n : s*n+n]
		clear(seen)
		seen[s] = true
		stack = append(stack[:0], s)
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, v := range adj[u] {
				if !seen[v] {
					seen[v] = true
					row[v] = row[u] + edge(u, v)
					stack = append(stack, v)
				}
			}
		}
	}
	return d
}

// treeW1 is the closed form of the Wasserstein distance on a tree:
// Σ_e w_e |a(subtree below e) − b(subtree below e)| (Evans & Matsen 2012,
// Le et al. 2019). Children have larger indices than their parents, so one
// backward sweep accumulates the subtree masses.
func treeW1(parent []int, weight, a, b []float64) float64 {
	n := len(parent)
	sa := append([]float64(nil), a...)
	sb := append([]float64(nil), b...)
	var tw float64
	for i := n - 1; i > 0; i-- {
		tw += weight[i] * math.Abs(sa[i]-sb[i])
		sa[parent[i]] += sa[i]
		sb[parent[i]] += sb[i]
	}
	return tw
}

// checkCertificate verifies that res is an optimal solution of the problem
// by its own optimality certificate: primal feasibility, basic support,
// dual feasibility, complementary slackness and equal primal and dual
// costs.
func checkCertificate(t *testing.T, name string, cost, a, b []float64, res Result) {
	t.Helper()
	n, m := len(a), len(b)
	var mass, maxC float64
	for _, v := range a {
		mass += v
	}
	for _, c := range cost {
		maxC = math.Max(maxC, c)
	}
	scale := math.Max(maxC, 1e-300) * math.Max(mass, 1e-300)

	if len(res.Plan) > max(n+m-1, 0) {
		t.Errorf("%s: plan has %d entries, more than n+m-1 = %d", name, len(res.Plan), n+m-1)
	}
	rs := make([]float64, n)
	cs := make([]float64, m)
	var primal float64
	for _, f := range res.Plan {
		if f.I < 0 || f.I >= n || f.J < 0 || f.J >= m || !(f.Mass > 0) {
			t.Fatalf("%s: bad plan entry %+v", name, f)
		}
		rs[f.I] += f.Mass
		cs[f.J] += f.Mass
		primal += f.Mass * cost[f.I*m+f.J]
	}
	for i := range a {
		if math.Abs(rs[i]-a[i]) > 1e-12*mass {
			t.Errorf("%s: row %d carries %v, want %v", name, i, rs[i], a[i])
		}
	}
	for j := range b {
		if math.Abs(cs[j]-b[j]) > 1e-12*mass {
			t.Errorf("%s: column %d receives %v, want %v", name, j, cs[j], b[j])
		}
	}
	if math.Abs(primal-res.Cost) > 1e-12*scale {
		t.Errorf("%s: Cost = %v, plan costs %v", name, res.Cost, primal)
	}
	if len(res.U) != n || len(res.V) != m {
		t.Fatalf("%s: len(U), len(V) = %d, %d, want %d, %d", name, len(res.U), len(res.V), n, m)
	}
	tol := 1e-10 * math.Max(maxC, 1e-300)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			if s := res.U[i] + res.V[j] - cost[i*m+j]; s > tol {
				t.Errorf("%s: dual infeasible at (%d,%d): U+V−C = %v", name, i, j, s)
			}
		}
	}
	for _, f := range res.Plan {
		if s := res.U[f.I] + res.V[f.J] - cost[f.I*m+f.J]; math.Abs(s) > tol {
			t.Errorf("%s: complementary slackness fails at (%d,%d): U+V−C = %v", name, f.I, f.J, s)
		}
	}
	var dual float64
	for i, v := range a {
		dual += v * res.U[i]
	}
	for j, v := range b {
		dual += v * res.V[j]
	}
	if math.Abs(dual-res.Cost) > 1e-10*scale {
		t.Errorf("%s: primal %v ≠ dual %v", name, res.Cost, dual)
	}
}

// panics reports whether f panics.
func panics(f func()) (panicked bool) {
	defer func() {
		if recover() != nil {
			panicked = true
		}
	}()
	f()
	return false
}

func relErr(got, want, scale float64) float64 {
	return math.Abs(got-want) / math.Max(math.Abs(want), scale)
}
