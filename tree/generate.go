package tree

import (
	"math/rand/v2"
)

// Random returns a uniformly random labelled tree on n nodes named
// "0" … "n-1", with unit weights, rooted at node 0. It decodes a uniformly
// random Prüfer sequence of length n−2 drawn from src in O(n) time, as
// networkx's random_tree does (Prüfer 1918; the linear-time decoding is
// Wang, Wang & Wu 2009), so every one of the n^(n−2) labelled trees is
// equally likely. It panics if n < 1.
func Random(n int, src rand.Source) *Tree {
	if n < 1 {
		panic("tree: Random needs n ≥ 1")
	}
	parent := make([]int, n)
	if n == 1 {
		parent[0] = -1
		return mustParents(parent)
	}
	rng := rand.New(src)
	seq := make([]int32, n-2)
	degree := make([]int32, n)
	for i := range degree {
		degree[i] = 1
	}
	for i := range seq {
		seq[i] = int32(rng.IntN(n))
		degree[seq[i]]++
	}
	// Decode into an undirected edge list.
	eu := make([]int32, 0, n-1)
	ev := make([]int32, 0, n-1)
	ptr := int32(0)
	for degree[ptr] != 1 {
		ptr++
	}
	leaf := ptr
	for _, x := range seq {
		eu = append(eu, leaf)
		ev = append(ev, x)
		degree[x]--
		if degree[x] == 1 && x < ptr {
			leaf = x
		} else {
			ptr++
			for degree[ptr] != 1 {
				ptr++
			}
			leaf = ptr
		}
	}
	eu = append(eu, leaf)
	ev = append(ev, int32(n-1))
	return mustParents(orient(n, eu, ev, 0))
}

// orient roots the undirected tree with edges (eu[k], ev[k]) at root and
// returns its parent array.
func orient(n int, eu, ev []int32, root int) []int {
	start := make([]int32, n+1)
	for k := range eu {
		start[eu[k]+1]++
		start[ev[k]+1]++
	}
	for v := 0; v < n; v++ {
		start[v+1] += start[v]
	}
	adj := make([]int32, 2*len(eu))
	fill := append([]int32(nil), start[:n]...)
	for k := range eu {
		u, v := eu[k], ev[k]
		adj[fill[u]] = v
		fill[u]++
		adj[fill[v]] = u
		fill[v]++
	}
	parent := make([]int, n)
	for i := range parent {
		parent[i] = -2 // unvisited
	}
	parent[root] = -1
	queue := []int32{int32(root)}
	for h := 0; h < len(queue); h++ {
		v := queue[h]
		for _, u := range adj[start[v]:start[v+1]] {
			if parent[u] == -2 {
				parent[u] = int(v)
				queue = append(queue, u)
			}
		}
	}
	return parent
}

// Chain returns the path 0 — 1 — … — n−1 with unit weights, rooted at 0 and
// named "0" … "n-1": the tree of ordinal labels (ages, ratings, time points),
// on which the tree-Wasserstein distance is the 1-D Wasserstein distance
// between cumulative distributions. It panics if n < 1.
func Chain(n int) *Tree {
	if n < 1 {
		panic("tree: Chain needs n ≥ 1")
	}
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i - 1
	}
	return mustParents(parent)
}

// Star returns n leaves named "0" … "n-1" joined by unit edges to a virtual
// centre: the tree of unordered labels, on which every two distinct labels
// are at distance 2 and the tree-Wasserstein distance is Σ|a_i − b_i|, twice
// the total variation. For n = 1 it is a single node. It panics if n < 1.
func Star(n int) *Tree {
	if n < 1 {
		panic("tree: Star needs n ≥ 1")
	}
	parent := make([]int, n)
	for i := range parent {
		parent[i] = -1
	}
	return mustParents(parent)
}

func mustParents(parent []int) *Tree {
	t, err := FromParents(parent, nil, nil, nil)
	if err != nil {
		panic("tree: internal error: " + err.Error())
	}
	return t
}
