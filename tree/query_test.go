package tree_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/tree"
)

// queryCase is a tree together with the parent array, weights and virtual
// edge weight it was built from, for brute-force references.
type queryCase struct {
	name   string
	tr     *tree.Tree
	parent []int
	weight []float64 // nil: unit weights
	vw     float64
	exact  bool // dyadic or unit weights: every path sum is exact
}

// queryCases returns random trees, chains, stars and forests, with unit,
// dyadic (including zero) and uniform weights.
func queryCases(t *testing.T) []queryCase {
	rng := rand.New(rand.NewPCG(7, 7))
	var cs []queryCase
	add := func(name string, parent []int, weight []float64, vw float64, exact bool) {
		tr, err := tree.FromParents(parent, weight, nil, &tree.Options{VirtualRootWeight: vw})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if vw == 0 {
			vw = 1
		}
		cs = append(cs, queryCase{name, tr, parent, weight, vw, exact})
	}
	add("single", []int{-1}, nil, 0, true)
	chain := make([]int, 25)
	star := make([]int, 25)
	for i := range chain {
		chain[i], star[i] = i-1, -1
	}
	add("chain", chain, nil, 0, true)
	add("star", star, nil, 0, true)
	add("weighted chain", chain, testutil.DyadicWeights(rng, 25), 0, true)
	add("weighted star", star, testutil.DyadicWeights(rng, 25), 0.5, true)
	for iter := 0; iter < 60; iter++ {
		n := 2 + rng.IntN(60)
		roots := 1
		if iter%3 == 2 {
			roots = 2 + rng.IntN(n-1)
		}
		parent := testutil.RandomParents(rng, n, roots)
		switch iter % 4 {
		case 0:
			add(fmt.Sprintf("random %d unit", iter), parent, nil, 0, true)
		case 1, 2:
			add(fmt.Sprintf("random %d dyadic", iter), parent, testutil.DyadicWeights(rng, n), 0.25, true)
		case 3:
			add(fmt.Sprintf("random %d uniform", iter), parent, testutil.UniformWeights(rng, n), 1.5, false)
		}
	}
	// Prüfer trees from the package's own generator, reweighted.
	for s := range uint64(5) {
		n := 30 + int(s)
		tr := tree.Random(n, rand.NewPCG(s, 11))
		parent := make([]int, n)
		for i := range parent {
			parent[i] = tr.Parent(i)
		}
		add(fmt.Sprintf("Random(%d)", n), parent, testutil.DyadicWeights(rng, n), 0, true)
	}
	return cs
}

// ancestors returns i, its parent, … up to its root, from the parent array.
func ancestors(parent []int, i int) []int {
	var a []int
	for v := i; v >= 0; v = parent[v] {
		a = append(a, v)
	}
	return a
}

func near(got, want float64, exact bool) bool {
	if exact {
		return got == want
	}
	return math.Abs(got-want) <= 1e-12*math.Max(1, math.Abs(want))
}

// TestQueriesBruteForce checks every query against a naive reference built
// from the parent array: ancestor walks for Depth, RootDistance, InSubtree,
// SubtreeSize, Children and LCA, and testutil.TreeMetric (a BFS over an
// adjacency list) for Distance and DistanceMatrix. With dyadic weights every
// sum is exact and the comparison is ==.
func TestQueriesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for _, c := range queryCases(t) {
		tr, parent, n := c.tr, c.parent, len(c.parent)
		virt := tr.Virtual()
		w := func(i int) float64 {
			if parent[i] < 0 {
				if virt {
					return c.vw
				}
				return 0
			}
			if c.weight == nil {
				return 1
			}
			return c.weight[i]
		}
		D := testutil.TreeMetric(parent, c.weight, c.vw)
		anc := make([][]int, n)
		for i := range n {
			anc[i] = ancestors(parent, i)
		}
		for i := range n {
			// Depth and root distance: walk up, plus the virtual edge.
			depth, rd := len(anc[i])-1, 0.0
			for _, v := range anc[i] {
				rd += w(v)
			}
			if virt {
				depth++
			}
			if tr.Depth(i) != depth || !near(tr.RootDistance(i), rd, c.exact) {
				t.Errorf("%s: node %d: depth %d root distance %v, want %d %v",
					c.name, i, tr.Depth(i), tr.RootDistance(i), depth, rd)
			}
			var kids []int
			size := 0
			for v := range n {
				if parent[v] == i {
					kids = append(kids, v)
				}
				in := slices.Contains(anc[v], i)
				if in {
					size++
				}
				if tr.InSubtree(v, i) != in {
					t.Errorf("%s: InSubtree(%d, %d) = %v, want %v", c.name, v, i, !in, in)
				}
			}
			if got := tr.Children([]int{-7}, i); !slices.Equal(got[1:], kids) || got[0] != -7 {
				t.Errorf("%s: Children(%d) = %v, want [-7] + %v", c.name, i, got, kids)
			}
			if tr.SubtreeSize(i) != size || tr.IsLeaf(i) != (len(kids) == 0) {
				t.Errorf("%s: node %d: size %d leaf %v, want %d %v", c.name, i, tr.SubtreeSize(i), tr.IsLeaf(i), size, len(kids) == 0)
			}
		}
		// All pairs on small trees, random pairs on larger ones.
		pairs := n * n
		if n > 30 {
			pairs = 500
		}
		for k := range pairs {
			u, v := k/n, k%n
			if n > 30 {
				u, v = rng.IntN(n), rng.IntN(n)
			}
			lca := -1 // the virtual root when no common ancestor exists
			for _, x := range anc[v] {
				if slices.Contains(anc[u], x) {
					lca = x
					break
				}
			}
			if got := tr.LCA(u, v); got != lca {
				t.Errorf("%s: LCA(%d, %d) = %d, want %d", c.name, u, v, got, lca)
			}
			if got, want := tr.Distance(u, v), D[u*n+v]; !near(got, want, c.exact) || got < 0 {
				t.Errorf("%s: Distance(%d, %d) = %v, want %v", c.name, u, v, got, want)
			}
		}
		M := tr.DistanceMatrix(nil)
		for i := range n {
			for j := range n {
				if got := M.At(i, j); !near(got, D[i*n+j], c.exact) {
					t.Errorf("%s: DistanceMatrix[%d][%d] = %v, want %v", c.name, i, j, got, D[i*n+j])
				}
			}
		}
	}
}

// TestDistanceMatrixDst checks the destination rules of DistanceMatrix: an
// empty matrix is allocated, a matrix of the right shape is overwritten,
// any other shape panics.
func TestDistanceMatrixDst(t *testing.T) {
	tr := tree.Chain(4)
	want := tr.DistanceMatrix(nil)
	var empty mat.Dense
	if got := tr.DistanceMatrix(&empty); !mat.Equal(got, want) || got != &empty {
		t.Error("empty destination not filled in place")
	}
	full := mat.NewDense(4, 4, nil)
	for i := range 16 {
		full.Set(i/4, i%4, 99)
	}
	if got := tr.DistanceMatrix(full); !mat.Equal(got, want) {
		t.Errorf("reused destination:\n%v", mat.Formatted(got))
	}
	// Chain distances |i − j|, by definition of the path 0 — 1 — 2 — 3.
	for i := range 4 {
		for j := range 4 {
			if want.At(i, j) != math.Abs(float64(i-j)) {
				t.Errorf("chain D[%d][%d] = %v", i, j, want.At(i, j))
			}
		}
	}
	if ok, _ := testutil.Panics(func() { tr.DistanceMatrix(mat.NewDense(3, 4, nil)) }); !ok {
		t.Error("wrong shape: no panic")
	}
}

// TestReweight checks that Reweight equals building the tree with the new
// weights, leaves the original alone, and rejects bad weights.
func TestReweight(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for iter := 0; iter < 30; iter++ {
		n := 1 + rng.IntN(30)
		parent := testutil.RandomParents(rng, n, 1+iter%3)
		old := testutil.DyadicWeights(rng, n)
		nw := testutil.DyadicWeights(rng, n)
		tr, err := tree.FromParents(parent, old, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		before := tr.Format()
		u, err := tr.Reweight(nw)
		if err != nil {
			t.Fatal(err)
		}
		// FromParents ignores a root's weight, so a forest's new virtual
		// edges are checked separately below.
		want, err := tree.FromParents(parent, nw, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			wi := want.Weight(i)
			if parent[i] < 0 && tr.Virtual() {
				wi = nw[i]
			}
			if u.Weight(i) != wi {
				t.Errorf("Weight(%d) = %v, want %v", i, u.Weight(i), wi)
			}
		}
		// Root distances by walking up with the new weights; in a forest
		// the root's own entry is the weight of its virtual edge.
		for i := range n {
			var rd float64
			for _, v := range ancestors(parent, i) {
				if parent[v] >= 0 || tr.Virtual() {
					rd += nw[v]
				}
			}
			if u.RootDistance(i) != rd {
				t.Errorf("RootDistance(%d) = %v, want %v", i, u.RootDistance(i), rd)
			}
		}
		if !tr.Virtual() {
			D := testutil.TreeMetric(parent, nw, 0)
			for k := range n * n {
				if got := u.Distance(k/n, k%n); got != D[k] {
					t.Errorf("Distance(%d, %d) = %v, want %v", k/n, k%n, got, D[k])
				}
			}
		}
		if tr.Format() != before {
			t.Error("Reweight changed the original tree")
		}
		checkOrder(t, u)
	}

	tr := tree.Chain(3)
	_, err := tr.Reweight([]float64{1, 1, math.NaN()})
	checkErr(t, err, tree.ErrBadWeight, "", 3)
	_, err = tr.Reweight([]float64{1, -1, 1})
	checkErr(t, err, tree.ErrBadWeight, "", 2)
	if _, err := tr.Reweight([]float64{math.NaN(), 1, 1}); err != nil {
		t.Errorf("the root's entry is ignored, got %v", err)
	}
	if ok, _ := testutil.Panics(func() { tr.Reweight([]float64{1}) }); !ok {
		t.Error("wrong length: no panic")
	}
}

// TestReweightForest checks that Reweight sets the virtual edge of each
// forest root to that root's entry: hand-computed distances on the forest
// {a → b}, {c}.
func TestReweightForest(t *testing.T) {
	tr, err := tree.FromParents([]int{-1, 0, -1}, nil, []string{"a", "b", "c"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	u, err := tr.Reweight([]float64{2, 3, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	// d(b, c) = w(b) + w(a) + w(c) = 3 + 2 + 0.5.
	if got := u.Distance(1, 2); got != 5.5 {
		t.Errorf("d(b, c) = %v, want 5.5", got)
	}
	if got := u.RootDistance(1); got != 5 {
		t.Errorf("RootDistance(b) = %v, want 5", got)
	}
	// The original keeps unit weights: d(b, c) = 3.
	if got := tr.Distance(1, 2); got != 3 {
		t.Errorf("original d(b, c) = %v, want 3", got)
	}
}

// TestConcurrentReaders checks, under -race, that a Tree is safe for any
// number of concurrent readers: every goroutine gets the answers of a
// serial run.
func TestConcurrentReaders(t *testing.T) {
	tr := tree.Random(200, rand.NewPCG(10, 10))
	want := tr.DistanceMatrix(nil)
	done := make(chan bool)
	for g := range 8 {
		go func() {
			ok := true
			rng := rand.New(rand.NewPCG(uint64(g), 1))
			for range 2000 {
				u, v := rng.IntN(200), rng.IntN(200)
				ok = ok && tr.Distance(u, v) == want.At(u, v)
				tr.LCA(u, v)
				tr.InSubtree(u, v)
				tr.Children(nil, u)
			}
			if g%4 == 0 {
				ok = ok && mat.Equal(tr.DistanceMatrix(nil), want)
				_ = tr.Format()
			}
			done <- ok
		}()
	}
	for range 8 {
		if !<-done {
			t.Error("a concurrent reader got a different answer")
		}
	}
}
