package tw_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/tree"
)

// twCase is a tree with the parent array, weights and virtual edge weight
// it was built from, so that references can be computed without package
// tree.
type twCase struct {
	name   string
	tr     *tree.Tree
	parent []int
	weight []float64 // nil: unit weights
	vw     float64   // weight of the virtual edges of a forest
}

// cost returns the tree metric on the labels by breadth-first search
// (testutil.TreeMetric), row-major.
func (c twCase) cost() []float64 { return testutil.TreeMetric(c.parent, c.weight, c.vw) }

// subtreeDiff returns a(Γ(v)) − b(Γ(v)) for every node v, by adding each
// node's difference to all its ancestors: O(n·depth), no package code.
func (c twCase) subtreeDiff(a, b []float64) []float64 {
	d := make([]float64, len(a))
	for i := range a {
		x := a[i] - b[i]
		for v := i; v >= 0; v = c.parent[v] {
			d[v] += x
		}
	}
	return d
}

// edgeWeight returns the weight of the edge above node i: the virtual edge
// for a root of a forest, nothing (0) for a single real root.
func (c twCase) edgeWeight(i int) float64 {
	if c.parent[i] < 0 {
		if c.tr.Virtual() {
			return c.vw
		}
		return 0
	}
	if c.weight == nil {
		return 1
	}
	return c.weight[i]
}

// newCase builds a twCase; breadthFirst renumbers it with tree.BreadthFirst
// so that the workspace takes its in-place fast path.
func newCase(t testing.TB, name string, parent []int, weight []float64, vw float64, breadthFirst bool) twCase {
	t.Helper()
	tr, err := tree.FromParents(parent, weight, nil, &tree.Options{VirtualRootWeight: vw})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if vw == 0 {
		vw = 1 // documented default
	}
	c := twCase{name, tr, parent, weight, vw}
	if !breadthFirst {
		return c
	}
	// Renumber the parent array and weights the same way BreadthFirst does
	// (by name: the default names are the old indices).
	u := tr.BreadthFirst()
	n := len(parent)
	p2 := make([]int, n)
	var w2 []float64
	if weight != nil {
		w2 = make([]float64, n)
	}
	for j := range n {
		var old int
		fmt.Sscan(u.Name(j), &old)
		if q := parent[old]; q >= 0 {
			p2[j], _ = u.Index(tr.Name(q))
		} else {
			p2[j] = -1
		}
		if weight != nil {
			w2[j] = weight[old]
		}
	}
	return twCase{name + " breadth-first", u, p2, w2, vw}
}

// smallCases returns trees of at most maxN nodes covering every layout and
// weight pattern: random trees and forests in permuted and breadth-first
// order, unit, uniform non-unit, dyadic (with zeros), uniform random and
// all-zero weights, chains, stars and a single node.
func smallCases(t testing.TB, rng *rand.Rand, maxN, count int) []twCase {
	var cs []twCase
	cs = append(cs,
		newCase(t, "single", []int{-1}, nil, 0, false),
		newCase(t, "pair", []int{-1, 0}, []float64{0, 2.5}, 0, false),
		newCase(t, "two roots", []int{-1, -1}, nil, 0.75, false),
	)
	for k := range count {
		n := 2 + rng.IntN(maxN-1)
		roots := 1
		if k%3 == 1 {
			roots = 2 + rng.IntN(n-1)
		}
		parent := testutil.RandomParents(rng, n, roots)
		var weight []float64
		var wname string
		switch k % 5 {
		case 0:
			wname = "unit"
		case 1:
			wname = "dyadic"
			weight = testutil.DyadicWeights(rng, n)
		case 2:
			wname = "uniform random"
			weight = testutil.UniformWeights(rng, n)
		case 3:
			wname = "all 2.5"
			weight = make([]float64, n)
			for i := range weight {
				weight[i] = 2.5
			}
		case 4:
			wname = "all zero"
			weight = make([]float64, n)
		}
		vw := []float64{0, 0.5, 2}[k%3]
		if wname == "all 2.5" {
			vw = 2.5 // keep every edge equal, virtual ones included
		}
		name := fmt.Sprintf("n=%d roots=%d %s", n, roots, wname)
		cs = append(cs, newCase(t, name, parent, weight, vw, k%2 == 1))
	}
	chain := make([]int, maxN)
	star := make([]int, maxN)
	for i := range chain {
		chain[i], star[i] = i-1, -1
	}
	cs = append(cs,
		newCase(t, "chain", chain, nil, 0, false),
		newCase(t, "weighted chain", chain, testutil.UniformWeights(rng, maxN), 0, false),
		newCase(t, "star", star, nil, 0, false),
		newCase(t, "weighted star", star, nil, 0.3, false),
	)
	return cs
}

// leaves reports which nodes have no children.
func leaves(parent []int) []bool {
	leaf := make([]bool, len(parent))
	for i := range leaf {
		leaf[i] = true
	}
	for _, p := range parent {
		if p >= 0 {
			leaf[p] = false
		}
	}
	return leaf
}

// normalize scales p to sum 1 in place and returns it.
func normalize(p []float64) []float64 {
	var s float64
	for _, v := range p {
		s += v
	}
	for i := range p {
		p[i] /= s
	}
	return p
}
