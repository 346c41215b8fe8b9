package pointtree_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/pointtree"
	"github.com/twl-ldl/twl/tree"
)

// caterpillar returns, for sorted points on the line, the tree whose spine
// s0 – s1 – … joins one node per point, point i hanging below s_i; with
// spine edges x_i − x_(i−1) and point edges 0 it is exact: its distances
// are |x_i − x_j|. The weights given are all 1.
func caterpillar(t *testing.T, n int) *tree.Tree {
	parent := make([]int, 2*n)
	nm := make([]string, 2*n)
	for i := range n {
		parent[i] = n + i
		nm[i] = strconv.Itoa(i)
		parent[n+i] = n + i - 1
		nm[n+i] = "s" + strconv.Itoa(i)
	}
	parent[n] = -1
	tr, err := tree.FromParents(parent, nil, nm, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// Points on a line lie on the caterpillar's tree metric: fitted from unit
// weights on all pairs, the tree distances are the Euclidean ones,
// |x_i − x_j|, checked on every pair (the expected values need no tree).
// The end point's edge and its spine edge occur together on every path
// but one pair's, so only the distances, not the weights, are unique.
func TestFitLineExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for _, n := range []int{2, 3, 10, 40} {
		x := make([]float64, n)
		for i := range x {
			x[i] = 10 * rng.Float64()
		}
		slices.Sort(x)
		tr := caterpillar(t, n)
		fit, err := pointtree.FitWeights(tr, x, n, 1, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			for j := i + 1; j < n; j++ {
				if got, want := fit.Distance(i, j), x[j]-x[i]; !near(got, want, 1e-7) {
					t.Errorf("n = %d: d_T(%d, %d) = %v, want %v", n, i, j, got, want)
				}
			}
		}
		// Started from the exact weights, nothing moves.
		w := make([]float64, 2*n)
		for i := 1; i < n; i++ {
			w[n+i] = x[i] - x[i-1]
		}
		parent := make([]int, 2*n)
		for i := range 2 * n {
			parent[i] = tr.Parent(i)
		}
		exact, err := tree.FromParents(parent, w, tr.Names(), nil)
		if err != nil {
			t.Fatal(err)
		}
		again, err := pointtree.FitWeights(exact, x, n, 1, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 2 * n {
			if !near(again.Weight(i), w[i], 1e-12) {
				t.Errorf("n = %d: refitting the exact weights moves node %q from %v to %v", n, tr.Name(i), w[i], again.Weight(i))
			}
		}
	}
}

// meanRelError is the mean of |d_T − d|/d over pairs drawn by rng,
// independently of the fit's sample.
func meanRelError(tr *tree.Tree, x []float64, n, d int, rng *rand.Rand) float64 {
	var s float64
	const pairs = 3000
	for range pairs {
		i, j := rng.IntN(n), rng.IntN(n-1)
		if j >= i {
			j++
		}
		e := euclid(x, d, i, j)
		s += math.Abs(tr.Distance(i, j)-e) / e
	}
	return s / pairs
}

// On random clouds, fitting the weights of a clustering tree or a
// quadtree reduces the mean relative error of the tree distance against
// the Euclidean one on pairs drawn independently of the fitted ones, by
// half at least (the log shows 4 to 70 times).
func TestFitReducesError(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, tc := range []struct {
		name      string
		n, d      int
		clustered bool
	}{
		{"gaussian", 400, 8, false}, {"blobs", 400, 16, true}, {"plane", 300, 2, false},
	} {
		var x []float64
		if tc.clustered {
			x = blobs(rng, 8, tc.n/8, tc.d, 6)
		} else {
			x = gaussian(rng, tc.n, tc.d)
		}
		n, d := tc.n, tc.d
		ct, err := pointtree.Cluster(x, n, d, nil, &pointtree.ClusterOptions{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		qt, err := pointtree.Quad(x, n, d, nil, &pointtree.QuadOptions{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range []struct {
			name string
			t    *tree.Tree
		}{{"cluster", ct}, {"quad", qt}} {
			fit, err := pointtree.FitWeights(tr.t, x, n, d, nil, &pointtree.FitOptions{Seed: 2})
			if err != nil {
				t.Fatal(err)
			}
			checkStructure(t, fit, n, nil, tr.t.Name(n))
			before := meanRelError(tr.t, x, n, d, rand.New(rand.NewPCG(3, 3)))
			after := meanRelError(fit, x, n, d, rand.New(rand.NewPCG(3, 3)))
			t.Logf("%s %s: mean relative error %.3f unfitted, %.3f fitted", tc.name, tr.name, before, after)
			if !(after < before/2) {
				t.Errorf("%s %s: fitting took the mean relative error from %v only to %v", tc.name, tr.name, before, after)
			}
			for i := range tr.t.Len() {
				if fit.Name(i) != tr.t.Name(i) || fit.Parent(i) != tr.t.Parent(i) {
					t.Fatalf("%s %s: the fit changed the topology at node %d", tc.name, tr.name, i)
				}
			}
		}
	}
}

// Lasso with λ = 0 is NNLS; a large λ zeroes every edge a pair crosses.
// A forest keeps its virtual root's edges, and an edge no pair crosses
// (above a node without points) keeps its weight.
func TestFitLassoAndFixedEdges(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	const n, d = 60, 3
	x := gaussian(rng, n, d)
	tr, err := pointtree.Cluster(x, n, d, nil, &pointtree.ClusterOptions{K: 3})
	if err != nil {
		t.Fatal(err)
	}
	a, err := pointtree.FitWeights(tr, x, n, d, nil, &pointtree.FitOptions{Method: pointtree.NNLS, Lambda: 5})
	if err != nil {
		t.Fatal(err)
	}
	b, err := pointtree.FitWeights(tr, x, n, d, nil, &pointtree.FitOptions{Method: pointtree.Lasso})
	if err != nil {
		t.Fatal(err)
	}
	if !sameTree(a, b) {
		t.Errorf("Lasso with λ = 0 differs from NNLS (which ignores Lambda)")
	}
	z, err := pointtree.FitWeights(tr, x, n, d, nil, &pointtree.FitOptions{Method: pointtree.Lasso, Lambda: 1e6})
	if err != nil {
		t.Fatal(err)
	}
	for i := range z.Len() {
		if i != n && z.Weight(i) != 0 {
			t.Errorf("λ = 1e6: node %q keeps weight %v", z.Name(i), z.Weight(i))
		}
	}

	// A forest of two copies of a little tree, one of whose copies also
	// has a node "extra" without points below it; points on the first
	// copy only.
	parent := []int{-1, 0, 0, -1, 3, 3, 3}
	w := []float64{0, 1, 1, 0, 1, 1, 7}
	nm := []string{"r", "a", "b", "r2", "c", "e", "extra"}
	f, err := tree.FromParents(parent, w, nm, &tree.Options{VirtualRootWeight: 2.5})
	if err != nil {
		t.Fatal(err)
	}
	// On the line a = 0, b = 3, c = 10, e = 12: the six pairs ask for
	// a + b = 3, c + e = 2 and, through the two virtual edges of 2.5,
	// a + c = 5, a + e = 7, b + c = 2, b + e = 4, which no weights meet.
	// The normal equations (2I + J)·w = Aᵀy = (15, 9, 9, 13), J all ones,
	// give Σw = 46/6 and w = (y − 23/3)/2 = (11/3, 2/3, 2/3, 8/3), all
	// positive: the NNLS solution, by hand.
	pts := []float64{0, 3, 10, 12}
	fit, err := pointtree.FitWeights(f, pts, 4, 1, []string{"a", "b", "c", "e"}, &pointtree.FitOptions{Tol: 1e-15, Sweeps: 1e5})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range map[int]float64{1: 11.0 / 3, 2: 2.0 / 3, 4: 2.0 / 3, 5: 8.0 / 3} {
		if !near(fit.Weight(i), want, 1e-7) { // the objective converges to 1e-15, the weights to its square root
			t.Errorf("edge above %q: %v, want %v", fit.Name(i), fit.Weight(i), want)
		}
	}
	if !fit.Virtual() || fit.Weight(0) != 2.5 || fit.Weight(3) != 2.5 {
		t.Errorf("virtual edges now %v and %v, want 2.5", fit.Weight(0), fit.Weight(3))
	}
	if fit.Weight(6) != 7 {
		t.Errorf("the edge above a node without points moved to %v", fit.Weight(6))
	}
	checkNormalEquations(t, fit, pts, 1, []string{"a", "b", "c", "e"}, 1e-6)
}

// checkNormalEquations checks the optimality (KKT) conditions of NNLS
// over all pairs by brute force: for every edge the sum g of the
// residuals over the pairs whose path crosses it is 0 if its weight is
// positive and ≤ 0 if it is 0, to within tol times the sum of their
// absolute values (the descent stops when the objective stalls in
// floating point, which leaves g at about 1e-7 of that sum). The paths
// come from walks up the ancestors.
func checkNormalEquations(t *testing.T, tr *tree.Tree, x []float64, d int, nm []string, tol float64) {
	t.Helper()
	n := len(x) / d
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
		if nm != nil {
			idx[i], _ = tr.Index(nm[i])
		}
	}
	grad := make([]float64, tr.Len())
	abs := make([]float64, tr.Len())
	for i := range n {
		for j := i + 1; j < n; j++ {
			u, v := idx[i], idx[j]
			res := euclid(x, d, i, j) - tr.Distance(u, v)
			anc := map[int]bool{-1: true} // -1: a forest's virtual root
			for a := u; a >= 0; a = tr.Parent(a) {
				anc[a] = true
			}
			l := v
			for !anc[l] {
				l = tr.Parent(l)
			}
			for _, s := range []int{u, v} {
				for a := s; a != l; a = tr.Parent(a) {
					grad[a] += res
					abs[a] += math.Abs(res)
				}
			}
		}
	}
	for k, g := range grad {
		if tr.Parent(k) < 0 {
			continue // the root, or a root of a forest: its edge is fixed
		}
		w := tr.Weight(k)
		if e := tol * abs[k]; (w > 0 && math.Abs(g) > e) || (w == 0 && g > e) {
			t.Errorf("edge above %q (weight %v): residual sum %v (of absolute values %v) breaks the optimality conditions", tr.Name(k), w, g, abs[k])
		}
	}
}

// Run to convergence on all pairs of small clouds, the fit meets the
// optimality conditions of NNLS, zero weights included.
func TestFitOptimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	for _, d := range []int{1, 2, 5} {
		const n = 40
		x := blobs(rng, 4, n/4, d, 3)
		ct, err := pointtree.Cluster(x, n, d, nil, &pointtree.ClusterOptions{K: 3, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		qt, err := pointtree.Quad(x, n, d, nil, &pointtree.QuadOptions{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range []*tree.Tree{ct, qt} {
			fit, err := pointtree.FitWeights(tr, x, n, d, nil, &pointtree.FitOptions{Tol: 1e-15, Sweeps: 1e5})
			if err != nil {
				t.Fatal(err)
			}
			zeros := 0
			for i := range fit.Len() {
				if i != n && fit.Weight(i) == 0 {
					zeros++
				}
			}
			t.Logf("d = %d, %s: %d of %d edges fitted to 0", d, tr.Name(n), zeros, fit.Edges())
			checkNormalEquations(t, fit, x, d, nil, 1e-6)
		}
	}
}

func TestFitErrors(t *testing.T) {
	x := []float64{0, 1, 10, 11}
	tr, err := pointtree.Cluster(x, 4, 1, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		nm   []string
		x    []float64
		opts *pointtree.FitOptions
		want error
		line int
	}{
		{"unknown name", []string{"0", "1", "zz", "3"}, x, nil, tree.ErrUnknownNode, 3},
		{"repeated name", []string{"0", "1", "0", "3"}, x, nil, tree.ErrBadName, 3},
		{"NaN", nil, []float64{0, 1, math.NaN(), 3}, nil, pointtree.ErrCoordinate, 3},
		{"negative Pairs", nil, x, &pointtree.FitOptions{Pairs: -1}, pointtree.ErrOption, 0},
		{"bad method", nil, x, &pointtree.FitOptions{Method: 7}, pointtree.ErrOption, 0},
		{"negative λ", nil, x, &pointtree.FitOptions{Method: pointtree.Lasso, Lambda: -1}, pointtree.ErrOption, 0},
		{"NaN tolerance", nil, x, &pointtree.FitOptions{Tol: math.NaN()}, pointtree.ErrOption, 0},
	} {
		_, err := pointtree.FitWeights(tr, tc.x, 4, 1, tc.nm, tc.opts)
		checkErr(t, tc.name, err, tc.want, tc.line)
	}
	if _, err := pointtree.FitWeights(tr, nil, 0, 1, nil, nil); !errors.Is(err, pointtree.ErrEmpty) {
		t.Errorf("no points: %v", err)
	}
	one, err := pointtree.FitWeights(tr, []float64{3}, 1, 1, nil, nil)
	if err != nil || one != tr {
		t.Errorf("one point: %v, %v; want the tree unchanged", one, err)
	}
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"nil tree", func() { pointtree.FitWeights(nil, x, 4, 1, nil, nil) }},
		{"short points", func() { pointtree.FitWeights(tr, x[:3], 4, 1, nil, nil) }},
		{"short names", func() { pointtree.FitWeights(tr, x, 4, 1, []string{"0"}, nil) }},
	} {
		if ok, v := testutil.Panics(tc.f); !ok {
			t.Errorf("%s: no panic", tc.name)
		} else if s, _ := v.(string); len(s) < 11 || s[:11] != "pointtree: " {
			t.Errorf("%s: panic %v lacks the \"pointtree: \" prefix", tc.name, v)
		}
	}
}
