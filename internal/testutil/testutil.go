// Package testutil holds helpers shared by twl's tests: random probability
// vectors and random forests given as plain parent arrays, a brute-force tree
// metric, and a panic catcher.
//
// It deliberately does not import package tree: TreeMetric computes
// shortest-path distances by a breadth-first search over an adjacency list
// built from the parent array, sharing no code (and no algorithm) with the
// root-distance/LCA formula of tree.Distance or the sweeps of package tw, so
// tests can use it as an independent reference.
package testutil

import (
	"fmt"
	"math/rand/v2"
)

// Dist returns a random probability vector of length n with every entry
// strictly positive: mass on every node, internal nodes included.
func Dist(rng *rand.Rand, n int) []float64 {
	p := make([]float64, n)
	var s float64
	for i := range p {
		p[i] = 0.05 + rng.Float64()
		s += p[i]
	}
	for i := range p {
		p[i] /= s
	}
	return p
}

// SparseDist returns a random probability vector of length n with at most k
// non-zero entries at random positions (k is clamped to [1, n]).
func SparseDist(rng *rand.Rand, n, k int) []float64 {
	k = max(1, min(k, n))
	p := make([]float64, n)
	var s float64
	for _, i := range rng.Perm(n)[:k] {
		p[i] = 0.05 + rng.Float64()
		s += p[i]
	}
	for i := range p {
		p[i] /= s
	}
	return p
}

// PointMass returns the vector of length n with 1 at i and 0 elsewhere.
func PointMass(n, i int) []float64 {
	p := make([]float64, n)
	p[i] = 1
	return p
}

// RandomParents returns the parent array of a random forest on n nodes with
// the given number of roots (clamped to [1, n]); roots have parent -1. Node
// labels are a random permutation, so the user order is neither breadth-first
// nor depth-first and parents often come after their children.
func RandomParents(rng *rand.Rand, n, roots int) []int {
	roots = max(1, min(roots, n))
	perm := rng.Perm(n)
	parent := make([]int, n)
	for k, v := range perm {
		if k < roots {
			parent[v] = -1
		} else {
			parent[v] = perm[rng.IntN(k)]
		}
	}
	return parent
}

// DyadicWeights returns n random weights from {0, 0.25, 0.5, 1, 1.5, 2, 3}:
// dyadic rationals, so that every path sum of a small tree is exact in
// floating point and distances can be compared with ==. Zero weights are
// included on purpose.
func DyadicWeights(rng *rand.Rand, n int) []float64 {
	set := [...]float64{0, 0.25, 0.5, 1, 1.5, 2, 3}
	w := make([]float64, n)
	for i := range w {
		w[i] = set[rng.IntN(len(set))]
	}
	return w
}

// UniformWeights returns n weights uniform in [0, 2).
func UniformWeights(rng *rand.Rand, n int) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = 2 * rng.Float64()
	}
	return w
}

// TreeMetric returns the n×n row-major matrix of shortest-path distances
// between the nodes of the forest given by parent (n = len(parent)). The edge
// (parent[i], i) has weight weight[i] (1 when weight is nil). If there are
// several roots they are joined to an extra virtual node by edges of weight
// virtualWeight, as package tree does; the virtual node is not in the result.
//
// It runs one breadth-first search per source over an undirected adjacency
// list, accumulating weights along the search tree: O(n²). It panics if
// parent does not describe a forest.
func TreeMetric(parent []int, weight []float64, virtualWeight float64) []float64 {
	n := len(parent)
	roots := 0
	for _, p := range parent {
		if p < 0 {
			roots++
		}
	}
	N := n
	if roots > 1 {
		N = n + 1
	}
	type arc struct {
		to int
		w  float64
	}
	adj := make([][]arc, N)
	link := func(u, v int, w float64) {
		adj[u] = append(adj[u], arc{v, w})
		adj[v] = append(adj[v], arc{u, w})
	}
	for i, p := range parent {
		switch {
		case p >= 0:
			w := 1.0
			if weight != nil {
				w = weight[i]
			}
			link(p, i, w)
		case roots > 1:
			link(n, i, virtualWeight)
		}
	}
	if edges := func() int {
		e := 0
		for _, a := range adj {
			e += len(a)
		}
		return e / 2
	}(); edges != N-1 {
		panic(fmt.Sprintf("testutil: %d nodes but %d edges: not a tree", N, edges))
	}
	D := make([]float64, n*n)
	dist := make([]float64, N)
	seen := make([]bool, N)
	queue := make([]int, 0, N)
	for s := 0; s < n; s++ {
		clear(seen)
		queue = append(queue[:0], s)
		seen[s] = true
		dist[s] = 0
		for h := 0; h < len(queue); h++ {
			u := queue[h]
			for _, a := range adj[u] {
				if !seen[a.to] {
					seen[a.to] = true
					dist[a.to] = dist[u] + a.w
					queue = append(queue, a.to)
				}
			}
		}
		if len(queue) != N {
			panic("testutil: parent array is not connected through its roots")
		}
		copy(D[s*n:(s+1)*n], dist[:n])
	}
	return D
}

// Panics calls f and reports whether it panicked, and with what value.
func Panics(f func()) (panicked bool, value any) {
	defer func() {
		if r := recover(); r != nil {
			panicked, value = true, r
		}
	}()
	f()
	return false, nil
}
