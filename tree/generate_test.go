package tree_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/tree"
)

// TestRandom checks that Random(n) is a tree on the nodes "0" … "n-1" rooted
// at "0" with n−1 unit edges, and that it is a function of the seed.
func TestRandom(t *testing.T) {
	for n := 1; n <= 60; n++ {
		tr := tree.Random(n, rand.NewPCG(uint64(n), 5))
		if tr.Len() != n || tr.Edges() != n-1 || tr.Virtual() || tr.Root() != 0 || tr.RootName() != "0" {
			t.Fatalf("Random(%d): len %d edges %d virtual %v root %d %q",
				n, tr.Len(), tr.Edges(), tr.Virtual(), tr.Root(), tr.RootName())
		}
		for i := range n {
			if tr.Name(i) != strconv.Itoa(i) {
				t.Errorf("Random(%d): Name(%d) = %q", n, i, tr.Name(i))
			}
			if i > 0 && tr.Weight(i) != 1 {
				t.Errorf("Random(%d): Weight(%d) = %v", n, i, tr.Weight(i))
			}
		}
		checkOrder(t, tr)
		again := tree.Random(n, rand.NewPCG(uint64(n), 5))
		if again.Format() != tr.Format() {
			t.Errorf("Random(%d) differs for the same seed", n)
		}
	}
	// 50^48 labelled trees on 50 nodes: two seeds agreeing would be a bug.
	a := tree.Random(50, rand.NewPCG(1, 1)).Format()
	b := tree.Random(50, rand.NewPCG(1, 2)).Format()
	if a == b {
		t.Error("Random(50) ignores its seed")
	}
	for _, f := range []func(){
		func() { tree.Random(0, rand.NewPCG(1, 1)) },
		func() { tree.Chain(0) },
		func() { tree.Star(-1) },
	} {
		if ok, _ := testutil.Panics(f); !ok {
			t.Error("n < 1: no panic")
		}
	}
}

// TestRandomUniform checks that Random draws every labelled tree equally
// often. By Cayley's formula there are n^(n−2) labelled trees: 3 on 3 nodes,
// 16 on 4, 125 on 5. Rooting at node 0 makes the parent array a unique key
// for each. A chi-square goodness-of-fit statistic with n^(n−2) − 1 degrees
// of freedom is compared with the χ² quantile at 1 − 1e-6: a uniform
// generator exceeds it once in a million seeds (the test is seeded, so it is
// deterministic). For n = 4 the bound is 56.5 (mean 15, sd 5.5): generous,
// yet a 20% excess on a single tree alone adds (0.2·2000)²/2000 = 80, and
// non-uniform schemes fail outright (random attachment of node k below one of
// 0 … k−1 reaches only the 6 increasing trees of the 16).
func TestRandomUniform(t *testing.T) {
	for _, tc := range []struct {
		n, trees, draws int
	}{
		{3, 3, 6000},
		{4, 16, 32000},
		{5, 125, 25000},
	} {
		src := rand.NewPCG(uint64(tc.n), 99)
		count := map[string]int{}
		for range tc.draws {
			tr := tree.Random(tc.n, src)
			key := make([]byte, tc.n)
			for i := range key {
				key[i] = byte(tr.Parent(i) + 1)
			}
			count[string(key)]++
		}
		if len(count) != tc.trees {
			t.Errorf("n=%d: %d distinct trees in %d draws, want %d", tc.n, len(count), tc.draws, tc.trees)
			continue
		}
		exp := float64(tc.draws) / float64(tc.trees)
		var chi2 float64
		for _, c := range count {
			chi2 += (float64(c) - exp) * (float64(c) - exp) / exp
		}
		bound := distuv.ChiSquared{K: float64(tc.trees - 1)}.Quantile(1 - 1e-6)
		if chi2 > bound {
			t.Errorf("n=%d: χ² = %.1f > %.1f (df %d): not uniform; counts %v", tc.n, chi2, bound, tc.trees-1, count)
		}
		t.Logf("n=%d: χ² = %.1f, bound %.1f", tc.n, chi2, bound)
	}
}

// TestChain checks the path 0 — 1 — … — n−1: d(i, j) = |i − j|, depth i,
// breadth-first user order.
func TestChain(t *testing.T) {
	for _, n := range []int{1, 2, 3, 17} {
		tr := tree.Chain(n)
		if tr.Len() != n || tr.Root() != 0 || tr.Virtual() || !tr.Order().Identity {
			t.Errorf("Chain(%d): len %d root %d virtual %v identity %v", n, tr.Len(), tr.Root(), tr.Virtual(), tr.Order().Identity)
		}
		for i := range n {
			if tr.Depth(i) != i || tr.Name(i) != strconv.Itoa(i) || tr.IsLeaf(i) != (i == n-1) {
				t.Errorf("Chain(%d): node %d: depth %d name %q leaf %v", n, i, tr.Depth(i), tr.Name(i), tr.IsLeaf(i))
			}
			for j := range n {
				if got, want := tr.Distance(i, j), math.Abs(float64(i-j)); got != want {
					t.Errorf("Chain(%d): d(%d, %d) = %v, want %v", n, i, j, got, want)
				}
				if got, want := tr.LCA(i, j), min(i, j); got != want {
					t.Errorf("Chain(%d): LCA(%d, %d) = %d, want %d", n, i, j, got, want)
				}
			}
		}
	}
}

// TestStar checks n leaves around a virtual centre: distance 2 between
// distinct leaves; Star(1) is a single real node.
func TestStar(t *testing.T) {
	for _, n := range []int{2, 3, 12} {
		tr := tree.Star(n)
		if tr.Len() != n || !tr.Virtual() || tr.Root() != -1 || tr.Edges() != n {
			t.Errorf("Star(%d): len %d virtual %v root %d edges %d", n, tr.Len(), tr.Virtual(), tr.Root(), tr.Edges())
		}
		for i := range n {
			if tr.Depth(i) != 1 || !tr.IsLeaf(i) || tr.Parent(i) != -1 {
				t.Errorf("Star(%d): node %d: depth %d leaf %v parent %d", n, i, tr.Depth(i), tr.IsLeaf(i), tr.Parent(i))
			}
			for j := range n {
				want := 2.0
				if i == j {
					want = 0
				}
				if got := tr.Distance(i, j); got != want {
					t.Errorf("Star(%d): d(%d, %d) = %v, want %v", n, i, j, got, want)
				}
			}
		}
	}
	one := tree.Star(1)
	if one.Len() != 1 || one.Virtual() || one.Root() != 0 || one.Edges() != 0 || one.Distance(0, 0) != 0 {
		t.Errorf("Star(1): len %d virtual %v root %d edges %d", one.Len(), one.Virtual(), one.Root(), one.Edges())
	}
}

// TestBreadthFirst checks that BreadthFirst renumbers the nodes into the
// internal order without changing names, parents or weights.
func TestBreadthFirst(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for iter := 0; iter < 40; iter++ {
		n := 1 + rng.IntN(40)
		parent := testutil.RandomParents(rng, n, 1+iter%4)
		tr, err := tree.FromParents(parent, testutil.DyadicWeights(rng, n), randomNames(rng, n), nil)
		if err != nil {
			t.Fatal(err)
		}
		before := tr.Format()
		u := tr.BreadthFirst()
		sameTree(t, u, tr)
		checkOrder(t, u)
		if !u.Order().Identity {
			t.Errorf("BreadthFirst: Identity is false")
		}
		if u.Format() != before || tr.Format() != before {
			t.Error("BreadthFirst changed the text form or the original")
		}
		for i := range n {
			j, _ := u.Index(tr.Name(i))
			if u.Depth(j) != tr.Depth(i) || u.RootDistance(j) != tr.RootDistance(i) || u.SubtreeSize(j) != tr.SubtreeSize(i) {
				t.Errorf("node %q: queries differ after BreadthFirst", tr.Name(i))
			}
			var kids []string
			for _, c := range u.Children(nil, j) {
				kids = append(kids, u.Name(c))
			}
			var want []string
			for _, c := range tr.Children(nil, i) {
				want = append(want, tr.Name(c))
			}
			if !slices.Equal(kids, want) {
				t.Errorf("children of %q: %q, want %q (order kept)", tr.Name(i), kids, want)
			}
		}
		if v := u.BreadthFirst(); v != u {
			t.Error("BreadthFirst of a breadth-first tree is not the tree itself")
		}
	}
}
