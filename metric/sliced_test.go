package metric

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/ot/emd"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
)

// threeLeaves returns the tree-sliced distance over the points a, b, c (in
// that order) of two trees: a star r → a, b, c with unit weights, and
// r → x (1), x → a (1), x → b (1), r → c (2), given in the user order
// r, c, x, b, a.
func threeLeaves(t testing.TB) *tsw.Sliced {
	star, err := tree.FromParents([]int{-1, 0, 0, 0}, nil, []string{"r", "a", "b", "c"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	deep, err := tree.FromParents([]int{-1, 0, 0, 2, 2}, []float64{0, 2, 1, 1, 1}, []string{"r", "c", "x", "b", "a"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := tsw.New([]*tree.Tree{star, deep}, []string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSlicedHand scores p = (a .5, b .25, c .25) against q = (b .5, c .5)
// on the two trees of threeLeaves, by hand:
//
//	star: TW = Σ_leaves |p − q| = .5 + .25 + .25 = 1
//	deep: x→a .5·1 + x→b .25·1 + r→x |.75 − .5|·1 + r→c .25·2 = 1.5
//	      (the plan: .25 a→b at 2, .25 a→c at 4: .5 + 1)
//	tsw = (1 + 1.5)/2 = 1.25
//
// and, over the points, kl = .5 ln(.5/.25)·2 = ln 2, chebyshev .5, clark
// sqrt(1 + 2·(1/3)²) = √11/3, canberra 1 + 2/3 = 5/3, cosine .25 /
// (√.375 √.5) = 1/√3, intersection .5. The second row is a perfect
// prediction (every distance 0, cosine and intersection 1), so the means are
// half the first row's (plus ½ for the similarities) and the sample std of
// two values x, y is |x − y|/√2.
func TestSlicedHand(t *testing.T) {
	p := []float64{0.5, 0.25, 0.25}
	q := []float64{0, 0.5, 0.5}
	want := []float64{1.25, math.Ln2, 0.5, math.Sqrt(11) / 3, 5.0 / 3, 1 / math.Sqrt(3), 0.5}
	ev := NewSlicedEvaluator(threeLeaves(t), nil)
	if !slices.Equal(ev.Names(), SlicedNames) || ev.Names()[0] != "tsw" || ev.Len() != 3 {
		t.Fatalf("Names %q, Len %d; want %q, 3", ev.Names(), ev.Len(), SlicedNames)
	}
	dense, sparse := make([]float64, len(Names)), make([]float64, len(Names))
	ev.Row(dense, p, q)
	ev.RowSparse(sparse, []int{0, 1, 2}, p, []int{1, 2}, q[1:])
	for m, name := range SlicedNames {
		if !same(dense[m], want[m], 1e-15) || !same(sparse[m], want[m], 1e-15) {
			t.Errorf("%s: Row %v, RowSparse %v, want %v", name, dense[m], sparse[m], want[m])
		}
	}

	res := ev.Evaluate(slices.Concat(p, q), slices.Concat(q, q))
	var s Summary
	s.Names = ev.Names()
	for _, pred := range [][]float64{p, q} {
		row := make([]float64, len(Names))
		ev.Row(row, pred, q)
		s.Add(row)
	}
	streamed := s.Result()
	for _, got := range []*Result{res, streamed} {
		if !slices.Equal(got.Names, SlicedNames) || got.Rows != 2 {
			t.Fatalf("Result names %q, rows %d", got.Names, got.Rows)
		}
		if _, ok := got.Mean["wasserstein"]; ok {
			t.Error("a sliced Result has a wasserstein entry")
		}
		for m, name := range SlicedNames {
			perfect := 0.0
			if !LowerIsBetter(name) {
				perfect = 1
			}
			mean, std := (want[m]+perfect)/2, math.Abs(want[m]-perfect)/math.Sqrt2
			if !same(got.Mean[name], mean, 1e-15) || !same(got.Std[name], std, 1e-15) {
				t.Errorf("%s: mean %v std %v, want %v %v", name, got.Mean[name], got.Std[name], mean, std)
			}
		}
	}
	if got := res.Values["tsw"]; len(got) != 2 || !same(got[0], 1.25, 1e-15) || got[1] != 0 {
		t.Errorf("Values[tsw] = %v, want [1.25 0]", got)
	}
}

// namedTree is a random tree over named points, with the shortest-path
// distances between its points computed from the parent array it was drawn
// from (testutil.TreeMetric, a breadth-first search that shares no code
// with package tw or tsw).
type namedTree struct {
	t    *tree.Tree
	cost []float64 // n×n, row-major, in the order of the points
}

// randomNamedTree draws a random recursive tree of 1 … n internal nodes,
// hangs each point as a leaf from a random one, weighs the edges uniformly
// in [0, 2) and numbers the nodes in a random user order.
func randomNamedTree(t *testing.T, rng *rand.Rand, names []string) namedTree {
	t.Helper()
	n := len(names)
	m := 1 + rng.IntN(n)
	N := m + n
	par, name := make([]int, N), make([]string, N)
	for j := range m {
		par[j] = -1
		if j > 0 {
			par[j] = rng.IntN(j)
		}
		name[j] = fmt.Sprintf("in%d", j)
	}
	for i := range n {
		par[m+i], name[m+i] = rng.IntN(m), names[i]
	}
	w := testutil.UniformWeights(rng, N)
	perm := rng.Perm(N) // generation index → user index
	up, uw, un := make([]int, N), make([]float64, N), make([]string, N)
	for j, k := range perm {
		up[k], uw[k], un[k] = -1, w[j], name[j]
		if par[j] >= 0 {
			up[k] = perm[par[j]]
		}
	}
	tr, err := tree.FromParents(up, uw, un, nil)
	if err != nil {
		t.Fatal(err)
	}
	full := testutil.TreeMetric(par, w, 1)
	cost := make([]float64, n*n)
	for i := range n {
		for j := range n {
			cost[i*n+j] = full[(m+i)*N+m+j]
		}
	}
	return namedTree{tr, cost}
}

// TestSlicedMatchesDefinition checks a sliced Evaluator on random trees
// against independent computations: tsw equals the mean over the trees of
// the exact W1 under each tree's metric on the points (network simplex,
// package ot/emd, on costs from testutil.TreeMetric) within 1e-9, by Row
// and RowSparse; every other measure equals a one-tree Evaluator's over a
// flat tree of the points bit for bit, with and without clipping.
func TestSlicedMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const n = 12
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("p%d", i)
	}
	var trees []*tree.Tree
	var costs [][]float64
	for range 3 {
		nt := randomNamedTree(t, rng, names)
		trees, costs = append(trees, nt.t), append(costs, nt.cost)
	}
	s, err := tsw.New(trees, names)
	if err != nil {
		t.Fatal(err)
	}
	flatParents := make([]int, n)
	for i := range flatParents {
		flatParents[i] = -1
	}
	flat, err := tree.FromParents(flatParents, nil, names, nil)
	if err != nil {
		t.Fatal(err)
	}
	var solver emd.Solver
	for _, clip := range []bool{false, true} {
		ev := NewSlicedEvaluator(s, &Options{Clip: clip})
		one := NewEvaluator(flat, &Options{Clip: clip})
		dense, sparse, ref := make([]float64, len(Names)), make([]float64, len(Names)), make([]float64, len(Names))
		for trial := range 40 {
			pi, pm, p := sparseRow(rng, n, 1+rng.IntN(n))
			qi, qm, q := sparseRow(rng, n, 1+rng.IntN(n))
			var want float64
			for _, c := range costs {
				w, err := solver.Cost(c, p, q)
				if err != nil {
					t.Fatal(err)
				}
				want += w / float64(len(costs))
			}
			ev.Row(dense, p, q)
			ev.RowSparse(sparse, pi, pm, qi, qm)
			one.Row(ref, p, q)
			if math.Abs(dense[0]-want) > 1e-9 || math.Abs(sparse[0]-want) > 1e-9 {
				t.Errorf("clip %v, trial %d: tsw Row %v, RowSparse %v, mean of the trees' W1 %v", clip, trial, dense[0], sparse[0], want)
			}
			for m := 1; m < len(Names); m++ {
				if !same(dense[m], ref[m], 0) || !same(sparse[m], ref[m], 0) {
					t.Errorf("clip %v, trial %d: %s Row %v, RowSparse %v, one tree %v", clip, trial, Names[m], dense[m], sparse[m], ref[m])
				}
			}
		}
	}
}

// TestSlicedEvaluatorOwnScratch checks that a sliced Evaluator computes with
// a clone of its tsw.Sliced: Row allocates nothing once warm, and two
// Evaluators of one Sliced score concurrently (run with -race) the same
// values as the Sliced itself.
func TestSlicedEvaluatorOwnScratch(t *testing.T) {
	s := threeLeaves(t)
	p, q := []float64{0.5, 0.25, 0.25}, []float64{0, 0.5, 0.5}
	want := s.Distance(p, q)
	row := make([]float64, len(Names))
	ev := NewSlicedEvaluator(s, nil)
	ev.Row(row, p, q)
	if n := testing.AllocsPerRun(50, func() { ev.Row(row, p, q) }); n != 0 {
		t.Errorf("Row allocates %v times", n)
	}
	got := make([]float64, 2)
	done := make(chan int)
	for g := range 2 {
		go func() {
			e := NewSlicedEvaluator(s, nil)
			r := make([]float64, len(Names))
			for range 200 {
				e.Row(r, p, q)
			}
			got[g] = r[0]
			done <- g
		}()
	}
	<-done
	<-done
	if got[0] != want || got[1] != want {
		t.Errorf("concurrent tsw %v, want %v", got, want)
	}
}

// TestSlicedNames checks that tsw is a distance, that SlicedNames is a copy
// the package does not depend on, that Summary.Names are the keys of its
// Result, copied, and that a Summary with names of the wrong length panics.
func TestSlicedNames(t *testing.T) {
	if !LowerIsBetter("tsw") {
		t.Error("LowerIsBetter(tsw) = false")
	}
	saved := slices.Clone(SlicedNames)
	defer copy(SlicedNames, saved)
	SlicedNames[0] = "changed"
	ev := NewSlicedEvaluator(threeLeaves(t), nil)
	if ev.Names()[0] != "tsw" {
		t.Error("changing SlicedNames changed the Evaluator's names")
	}
	names := ev.Names()
	s := Summary{Names: names}
	s.Add(make([]float64, len(Names)))
	res := s.Result()
	names[0] = "changed"
	if _, ok := res.Mean["tsw"]; !ok || res.Names[0] != "tsw" {
		t.Errorf("Result of Summary{Names: SlicedNames}: names %q, keys %v", res.Names, res.Mean)
	}
	bad := Summary{Names: []string{"tsw"}}
	if p, v := testutil.Panics(func() { bad.Result() }); !p || !strings.HasPrefix(v.(string), "metric: ") {
		t.Errorf("Summary with one name: panicked %v with %v", p, v)
	}
}
