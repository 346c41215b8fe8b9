package tsw_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/twl-ldl/twl/internal/lpref"
	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
	"github.com/twl-ldl/twl/tw"
)

// specs are the tree shapes of the tests: leaves only, points on internal
// nodes too, forests, and dyadic weights (zero weights included).
var specs = []struct {
	name string
	spec treeSpec
}{
	{"leaves", treeSpec{internal: 6}},
	{"points inside", treeSpec{internal: 5, onNodes: 3}},
	{"forest", treeSpec{internal: 6, roots: 3, onNodes: 1}},
	{"dyadic", treeSpec{internal: 4, dyadic: true}},
	{"one internal", treeSpec{internal: 1}},
	// Fewer points than a quarter of the nodes: the scatter buffer is
	// cleared point by point, not whole.
	{"few points", treeSpec{internal: 40, onNodes: 2}},
}

// TestDistanceLP compares Distance with the definition solved as linear
// programs: the mean over the trees of W1(a, b) under the tree metric
// restricted to the points, the metric by breadth-first search over the
// generated parent arrays (testutil.TreeMetric) and W1 by gonum's simplex
// (internal/lpref). Neither shares code with package tw, tree or tsw; the
// LP's optimum is accurate to about 1e-9.
func TestDistanceLP(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range specs {
		for _, T := range []int{1, 3, 5} {
			const n = 7
			s, pts := newSliced(t, rng, n, T, c.spec)
			costs := make([][]float64, T)
			for k, pt := range pts {
				N := len(pt.parent)
				D := testutil.TreeMetric(pt.parent, pt.weight, 1)
				cost := make([]float64, n*n)
				for i, u := range pt.node {
					for j, v := range pt.node {
						cost[i*n+j] = D[u*N+v]
					}
				}
				costs[k] = cost
			}
			for r := range 4 {
				a := testutil.Dist(rng, n)
				b := testutil.SparseDist(rng, n, 3)
				var want float64
				for _, cost := range costs {
					w, err := lpref.W1(cost, a, b)
					if err != nil {
						t.Fatal(err)
					}
					want += w
				}
				want /= float64(T)
				if got := s.Distance(a, b); !relClose(got, want, 1e-9) {
					t.Errorf("%s T=%d #%d: TSW = %.15g, LP %.15g", c.name, T, r, got, want)
				}
			}
		}
	}
}

// TestDistanceScatter compares Distance with the mean of tw.Workspace
// distances on every tree as generated (not renumbered breadth-first), on
// vectors scattered by hand from the generation's own point-to-node map:
// the same closed form summed in another order, hence 1e-12.
func TestDistanceScatter(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		name string
		n, T int
		spec treeSpec
	}{
		{"leaves", 60, 7, treeSpec{internal: 30}},
		{"points inside", 40, 4, treeSpec{internal: 25, onNodes: 20}},
		{"forest", 50, 3, treeSpec{internal: 20, roots: 4}},
		{"dyadic", 30, 9, treeSpec{internal: 10, dyadic: true}},
		{"many trees", 5, 64, treeSpec{internal: 4}},
		{"few points", 6, 5, treeSpec{internal: 50, onNodes: 1}},
	} {
		s, pts := newSliced(t, rng, c.n, c.T, c.spec)
		if s.Trees() != c.T || s.Len() != c.n {
			t.Fatalf("%s: Trees, Len = %d, %d; want %d, %d", c.name, s.Trees(), s.Len(), c.T, c.n)
		}
		for r := range 5 {
			a := testutil.Dist(rng, c.n)
			b := testutil.SparseDist(rng, c.n, 1+r*c.n/5)
			want := meanTW(pts, a, b)
			if got := s.Distance(a, b); !relClose(got, want, 1e-12) {
				t.Errorf("%s #%d: TSW = %.17g, mean of TW %.17g", c.name, r, got, want)
			}
		}
	}
}

// TestSingleTree: with T = 1, TSW is TW. On a breadth-first tree whose
// nodes are the points in point order the vectors go to tw unchanged and
// the results are the same bits; with internal nodes, the scatter of a − b
// gives the bits of tw on the scattered a and b (tw adds a_i − b_i as one
// term); on a tree numbered otherwise (renumbered inside New), 1e-12.
func TestSingleTree(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 300
	bfs := tree.Random(n, rand.NewPCG(7, 8)).BreadthFirst()
	bfs, err := bfs.Reweight(testutil.UniformWeights(rng, n))
	if err != nil {
		t.Fatal(err)
	}
	perm, err := tree.FromParents(testutil.RandomParents(rng, n, 1), testutil.UniformWeights(rng, n), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := pointNames(40)
	inner := newPointTree(t, rng, names, treeSpec{internal: 30, onNodes: 5})
	innerBFS := inner.t.BreadthFirst()
	for _, c := range []struct {
		name  string
		t     *tree.Tree
		names []string
		exact bool
	}{
		{"identity", bfs, bfs.Names(), true},
		{"internal nodes", innerBFS, names, true},
		{"permuted", perm, perm.Names(), false},
		// The points in another order than the tree's nodes.
		{"points reversed", bfs, reversed(bfs.Names()), true},
	} {
		s, err := tsw.New([]*tree.Tree{c.t}, c.names)
		if err != nil {
			t.Fatal(err)
		}
		ws := tw.NewWorkspace(c.t)
		L := c.t.Len()
		np := len(c.names)
		at := func(x []float64) []float64 { // scatter by name
			v := make([]float64, L)
			for i, name := range c.names {
				k, _ := c.t.Index(name)
				v[k] = x[i]
			}
			return v
		}
		tol := 1e-12
		if c.exact {
			tol = 0
		}
		for r := range 3 {
			a, b := testutil.Dist(rng, np), testutil.SparseDist(rng, np, 1+r*np/3)
			want := ws.Distance(at(a), at(b))
			if got := s.Distance(a, b); !relClose(got, want, tol) {
				t.Errorf("%s: TSW = %.17g, TW %.17g", c.name, got, want)
			}
			gw := make([]float64, L)
			ws.DistanceGrad(gw, at(a), at(b))
			g := make([]float64, np)
			s.DistanceGrad(g, a, b)
			for i, name := range c.names {
				k, _ := c.t.Index(name)
				if !relClose(g[i], gw[k], tol) {
					t.Errorf("%s: grad[%d] = %v, TW gradient %v", c.name, i, g[i], gw[k])
				}
			}
			if c.exact && c.name != "points reversed" {
				// Same tree numbering: the embedding is tw's, coordinate by
				// coordinate.
				e, ew := make([]float64, s.EmbedLen()), make([]float64, L)
				s.Embed(e, a)
				ws.Embed(ew, at(a))
				if !slices.Equal(e, ew) {
					t.Errorf("%s: embedding differs from tw's", c.name)
				}
			}
		}
	}
}

func reversed(x []string) []string {
	y := slices.Clone(x)
	slices.Reverse(y)
	return y
}

// TestSparse compares SparseDistance with Distance on the same
// distributions, listed in random order with some explicit zeros, from one
// point to every point (which sends tw.Sparse to its dense form). Sums in
// other orders: 1e-12.
func TestSparse(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, c := range specs {
		s, _ := newSliced(t, rng, 200, 5, treeSpec{internal: 4 * c.spec.internal, roots: c.spec.roots, onNodes: 3 * c.spec.onNodes, dyadic: c.spec.dyadic})
		for _, k := range []int{1, 2, 5, 20, 200} {
			a := testutil.SparseDist(rng, 200, k)
			b := testutil.SparseDist(rng, 200, max(1, k/2))
			ai, am := sparseOf(rng, a)
			bi, bm := sparseOf(rng, b)
			want := s.Distance(a, b)
			if got := s.SparseDistance(ai, am, bi, bm); !relClose(got, want, 1e-12) {
				t.Errorf("%s k=%d: sparse %.17g, dense %.17g", c.name, k, got, want)
			}
			if got := s.SparseDistance(ai, am, ai, am); got != 0 {
				t.Errorf("%s k=%d: TSW(a, a) = %v", c.name, k, got)
			}
		}
		if got := s.SparseDistance(nil, nil, nil, nil); got != 0 {
			t.Errorf("%s: TSW of empty lists = %v", c.name, got)
		}
	}
}

// TestGradFD checks DistanceGrad against central differences of Distance
// in every coordinate of a. TSW(·, b) is piecewise linear: when moving a_i
// by ±h crosses no kink of any tree (no subtree difference on i's path to
// the root changes sign), the central difference is the gradient up to
// rounding (ε·TSW/h ≈ 1e-10). Coordinates within 10h of a kink, found from
// the generated parent arrays, are skipped; the test fails if most are.
// The gradient is also compared with the mean of tw's gradients on the
// hand-scattered vectors (meanGrad), at 1e-12.
func TestGradFD(t *testing.T) {
	const h = 1e-6
	rng := rand.New(rand.NewPCG(11, 12))
	checked, skipped := 0, 0
	for _, c := range specs {
		const n = 25
		s, pts := newSliced(t, rng, n, 4, treeSpec{internal: 3 * c.spec.internal, roots: c.spec.roots, onNodes: c.spec.onNodes, dyadic: c.spec.dyadic})
		g := make([]float64, n)
		for range 3 {
			a, b := testutil.Dist(rng, n), testutil.Dist(rng, n)
			v := s.DistanceGrad(g, a, b)
			if d := s.Distance(a, b); v != d {
				t.Errorf("%s: DistanceGrad value %v, Distance %v", c.name, v, d)
			}
			for i, w := range meanGrad(pts, a, b) {
				if !relClose(g[i], w, 1e-12) {
					t.Errorf("%s: grad[%d] = %v, mean of tw gradients %v", c.name, i, g[i], w)
				}
			}
			near := make([]float64, n)
			for i := range near {
				near[i] = math.Inf(1)
			}
			for _, pt := range pts {
				for i, k := range pt.kinkDist(a, b) {
					near[i] = min(near[i], k)
				}
			}
			x := slices.Clone(a)
			for i := range n {
				if near[i] < 10*h {
					skipped++
					continue
				}
				checked++
				x[i] = a[i] + h
				fp := s.Distance(x, b)
				x[i] = a[i] - h
				fm := s.Distance(x, b)
				x[i] = a[i]
				if fd := (fp - fm) / (2 * h); !relClose(g[i], fd, 1e-6) {
					t.Errorf("%s: ∂TSW/∂a_%d = %.10g, finite difference %.10g", c.name, i, g[i], fd)
				}
			}
		}
	}
	if checked < 10*skipped {
		t.Errorf("checked %d coordinates, skipped %d near kinks", checked, skipped)
	}
}

// TestGradAtEqual: at a = b every subtree difference is zero, and with
// sign(0) = 0 the gradient vanishes.
func TestGradAtEqual(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	s, _ := newSliced(t, rng, 30, 3, treeSpec{internal: 10, dyadic: true})
	a := testutil.Dist(rng, 30)
	g := make([]float64, 30)
	if v := s.DistanceGrad(g, a, a); v != 0 {
		t.Errorf("TSW(a, a) = %v", v)
	}
	for i, x := range g {
		if x != 0 {
			t.Errorf("grad[%d] = %v at a = b", i, x)
		}
	}
}

// TestEmbedPairwise: ‖Φ(a) − Φ(b)‖₁ and Pairwise agree with Distance to
// rounding (1e-12), and Batch's Distance, DistanceGrad and Embed give the
// bits of the serial methods, for several worker counts.
func TestEmbedPairwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	const n, nA, nB = 40, 9, 7
	s, _ := newSliced(t, rng, n, 6, treeSpec{internal: 20, onNodes: 4})
	E := s.EmbedLen()
	rowsOf := func(rows int) []float64 {
		var m []float64
		for r := range rows {
			m = append(m, testutil.SparseDist(rng, n, 1+r*4)...)
		}
		return m
	}
	A, B := rowsOf(nA), rowsOf(nB)
	row := func(M []float64, r int) []float64 { return M[r*n : (r+1)*n] }
	ea, eb := make([]float64, E), make([]float64, E)
	for i := range nA {
		s.Embed(ea, row(A, i))
		for j := range nB {
			s.Embed(eb, row(B, j))
			var l1 float64
			for k := range ea {
				l1 += math.Abs(ea[k] - eb[k])
			}
			if want := s.Distance(row(A, i), row(B, j)); !relClose(l1, want, 1e-12) {
				t.Errorf("‖Φ(A_%d) − Φ(B_%d)‖₁ = %.17g, TSW %.17g", i, j, l1, want)
			}
		}
	}
	want := make([]float64, nA*nB)
	for i := range nA {
		for j := range nB {
			want[i*nB+j] = s.Distance(row(A, i), row(B, j))
		}
	}
	got := make([]float64, nA*nB)
	s.Pairwise(got, A, B)
	for k := range got {
		if !relClose(got[k], want[k], 1e-12) {
			t.Errorf("Pairwise[%d] = %.17g, Distance %.17g", k, got[k], want[k])
		}
	}
	for _, workers := range []int{1, 2, 5} {
		bt := tsw.NewBatch(s, workers)
		if bt.Sliced() != s {
			t.Error("Batch.Sliced is not the Sliced given")
		}
		pw := make([]float64, nA*nB)
		bt.Pairwise(pw, A, B)
		if !slices.Equal(pw, got) {
			t.Errorf("workers=%d: Pairwise differs from Sliced.Pairwise", workers)
		}
		// Distance and DistanceGrad row by row (B's first nA rows, padded).
		B2 := append(slices.Clone(B), rowsOf(nA-nB)...)
		d := make([]float64, nA)
		dg := make([]float64, nA)
		G := make([]float64, nA*n)
		bt.Distance(d, A, B2)
		bt.DistanceGrad(dg, G, A, B2)
		g := make([]float64, n)
		for r := range nA {
			v := s.DistanceGrad(g, row(A, r), row(B2, r))
			if d[r] != v || dg[r] != v || !slices.Equal(row(G, r), g) {
				t.Errorf("workers=%d row %d: batch %v, %v; serial %v", workers, r, d[r], dg[r], v)
			}
		}
		EA := make([]float64, nA*E)
		bt.Embed(EA, A)
		for r := range nA {
			s.Embed(ea, row(A, r))
			if !slices.Equal(EA[r*E:(r+1)*E], ea) {
				t.Errorf("workers=%d: embedding of row %d differs", workers, r)
			}
		}
	}
}

// TestProperties checks on random distributions that TSW is symmetric,
// zero on equal arguments, non-negative and satisfies the triangle
// inequality (up to rounding), as a mean of metrics must.
func TestProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for _, c := range specs {
		const n = 30
		s, _ := newSliced(t, rng, n, 5, treeSpec{internal: 3 * c.spec.internal, roots: c.spec.roots, onNodes: c.spec.onNodes, dyadic: c.spec.dyadic})
		for range 20 {
			a, b, x := testutil.Dist(rng, n), testutil.SparseDist(rng, n, 4), testutil.SparseDist(rng, n, 10)
			ab, ba := s.Distance(a, b), s.Distance(b, a)
			if ab != ba {
				t.Errorf("%s: TSW(a, b) = %v, TSW(b, a) = %v", c.name, ab, ba)
			}
			if v := s.Distance(a, a); v != 0 {
				t.Errorf("%s: TSW(a, a) = %v", c.name, v)
			}
			if ab < 0 {
				t.Errorf("%s: TSW = %v < 0", c.name, ab)
			}
			if ax, xb := s.Distance(a, x), s.Distance(x, b); ab > ax+xb+1e-12 {
				t.Errorf("%s: TSW(a, b) = %v > TSW(a, x) + TSW(x, b) = %v", c.name, ab, ax+xb)
			}
		}
	}
}

// TestInputsUnchanged: no method modifies its inputs, and DistanceGrad
// accepts grad aliasing a or b.
func TestInputsUnchanged(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	const n = 20
	s, _ := newSliced(t, rng, n, 3, treeSpec{internal: 8})
	a, b := testutil.Dist(rng, n), testutil.SparseDist(rng, n, 5)
	a0, b0 := slices.Clone(a), slices.Clone(b)
	g := make([]float64, n)
	v := s.DistanceGrad(g, a, b)
	s.Distance(a, b)
	s.Embed(make([]float64, s.EmbedLen()), a)
	ai, am := sparseOf(rng, a)
	bi, bm := sparseOf(rng, b)
	ai0, am0 := slices.Clone(ai), slices.Clone(am)
	s.SparseDistance(ai, am, bi, bm)
	if !slices.Equal(a, a0) || !slices.Equal(b, b0) || !slices.Equal(ai, ai0) || !slices.Equal(am, am0) {
		t.Fatal("an input was modified")
	}
	x := slices.Clone(a)
	if w := s.DistanceGrad(x, x, b); w != v || !slices.Equal(x, g) {
		t.Errorf("grad aliasing a: %v %v, want %v %v", w, x, v, g)
	}
	y := slices.Clone(b)
	if w := s.DistanceGrad(y, a, y); w != v || !slices.Equal(y, g) {
		t.Errorf("grad aliasing b: %v %v, want %v %v", w, y, v, g)
	}
}

// TestNonFinite: a NaN or an infinity anywhere in a or b gives NaN, a
// gradient and an embedding all NaN, and leaves no trace in the scratch
// memory: the next call is exact.
func TestNonFinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, internal := range []int{10, 200} { // whole and pointwise clears
		nonFinite(t, rng, internal)
	}
}

func nonFinite(t *testing.T, rng *rand.Rand, internal int) {
	const n = 30
	s, _ := newSliced(t, rng, n, 4, treeSpec{internal: internal, onNodes: 2})
	a, b := testutil.Dist(rng, n), testutil.Dist(rng, n)
	want := s.Distance(a, b)
	wg := make([]float64, n)
	s.DistanceGrad(wg, a, b)
	we := make([]float64, s.EmbedLen())
	s.Embed(we, a)
	all := []int{}
	for i := range n {
		all = append(all, i)
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		for _, i := range []int{0, n / 2, n - 1} {
			x := slices.Clone(a)
			x[i] = bad
			if v := s.Distance(x, b); !math.IsNaN(v) {
				t.Errorf("a[%d] = %v: TSW = %v", i, bad, v)
			}
			if v := s.Distance(a, x); !math.IsNaN(v) {
				t.Errorf("b[%d] = %v: TSW = %v", i, bad, v)
			}
			g := make([]float64, n)
			if v := s.DistanceGrad(g, x, b); !math.IsNaN(v) || !allNaN(g) {
				t.Errorf("a[%d] = %v: DistanceGrad = %v, %v", i, bad, v, g)
			}
			e := make([]float64, s.EmbedLen())
			if s.Embed(e, x); !allNaN(e) {
				t.Errorf("a[%d] = %v: embedding not all NaN", i, bad)
			}
			if v := s.SparseDistance(all, x, all, b); !math.IsNaN(v) {
				t.Errorf("a[%d] = %v: sparse TSW = %v", i, bad, v)
			}
			if v := s.SparseDistance([]int{i}, []float64{bad}, []int{0}, []float64{1}); !math.IsNaN(v) {
				t.Errorf("sparse mass %v: TSW = %v", bad, v)
			}
			// The scratch is clean again.
			g2 := make([]float64, n)
			e2 := make([]float64, s.EmbedLen())
			s.Embed(e2, a)
			if v := s.DistanceGrad(g2, a, b); v != want || !slices.Equal(g2, wg) || !slices.Equal(e2, we) {
				t.Fatalf("after a non-finite input: %v, want %v", v, want)
			}
		}
	}
}

func allNaN(x []float64) bool {
	for _, v := range x {
		if !math.IsNaN(v) {
			return false
		}
	}
	return true
}

// TestErrors: data errors from New, with the tree and point named; shape
// mistakes panic with a "tsw: " message.
func TestErrors(t *testing.T) {
	t1, _ := tree.FromParents([]int{-1, 0, 0}, nil, []string{"r", "x", "y"}, nil)
	t2, _ := tree.FromParents([]int{-1, 0, 0, 0}, nil, []string{"r", "x", "z", "y"}, nil)
	t3, _ := tree.FromParents([]int{-1, 0}, nil, []string{"r", "x"}, nil)
	for _, c := range []struct {
		name  string
		trees []*tree.Tree
		names []string
		err   error
		msg   []string
	}{
		{"missing", []*tree.Tree{t1, t2, t3}, []string{"x", "y"}, tsw.ErrMissingPoint, []string{"tree 2", `"y"`}},
		{"missing z", []*tree.Tree{t2, t1}, []string{"z"}, tsw.ErrMissingPoint, []string{"tree 1", `"z"`}},
		{"duplicate", []*tree.Tree{t1}, []string{"x", "y", "x"}, tsw.ErrDuplicatePoint, []string{`"x"`, "0", "2"}},
		{"no points", []*tree.Tree{t1}, nil, nil, []string{"no points"}},
	} {
		s, err := tsw.New(c.trees, c.names)
		if err == nil || s != nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if c.err != nil && !errors.Is(err, c.err) {
			t.Errorf("%s: error %v does not wrap %v", c.name, err, c.err)
		}
		for _, m := range c.msg {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%s: error %q does not say %s", c.name, err, m)
			}
		}
	}
	// A point on the root is fine, as is a tree with exactly the points.
	if _, err := tsw.New([]*tree.Tree{t1, t2}, []string{"r", "y"}); err != nil {
		t.Error(err)
	}

	s, err := tsw.New([]*tree.Tree{t1, t2}, []string{"x", "y"})
	if err != nil {
		t.Fatal(err)
	}
	two := []float64{0.5, 0.5}
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"no trees", func() { tsw.New(nil, []string{"x"}) }},
		{"nil tree", func() { tsw.New([]*tree.Tree{t1, nil}, []string{"x"}) }},
		{"short a", func() { s.Distance(two[:1], two) }},
		{"short b", func() { s.Distance(two, two[:1]) }},
		{"short grad", func() { s.DistanceGrad(two[:1], two, two) }},
		{"short embedding", func() { s.Embed(make([]float64, s.EmbedLen()-1), two) }},
		{"sparse lengths", func() { s.SparseDistance([]int{0}, nil, nil, nil) }},
		{"sparse index", func() { s.SparseDistance([]int{2}, []float64{1}, nil, nil) }},
		{"negative index", func() { s.SparseDistance(nil, nil, []int{-1}, []float64{1}) }},
		{"nil batch", func() { tsw.NewBatch(nil, 1) }},
		{"ragged rows", func() { tsw.NewBatch(s, 1).Distance(make([]float64, 1), make([]float64, 3), make([]float64, 3)) }},
		{"batch dst", func() { tsw.NewBatch(s, 1).Distance(make([]float64, 2), two, two) }},
		{"pairwise dst", func() { s.Pairwise(make([]float64, 2), two, two) }},
	} {
		ok, v := testutil.Panics(c.f)
		if !ok {
			t.Errorf("%s: no panic", c.name)
			continue
		}
		if msg, _ := v.(string); !strings.HasPrefix(msg, "tsw: ") {
			t.Errorf("%s: panic %v, want a \"tsw: \" message", c.name, v)
		}
	}
}

// TestAccessors checks the names, indices and trees a Sliced reports.
func TestAccessors(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	s, pts := newSliced(t, rng, 10, 3, treeSpec{internal: 4})
	E := 0
	for k, pt := range pts {
		if s.Tree(k) != pt.t {
			t.Errorf("Tree(%d) is not the tree given", k)
		}
		E += pt.t.Len()
	}
	if s.EmbedLen() != E {
		t.Errorf("EmbedLen = %d, want %d", s.EmbedLen(), E)
	}
	for i := range 10 {
		name := fmt.Sprintf("p%d", i)
		if s.Name(i) != name {
			t.Errorf("Name(%d) = %q", i, s.Name(i))
		}
		if j, ok := s.Index(name); !ok || j != i {
			t.Errorf("Index(%q) = %d, %v", name, j, ok)
		}
	}
	if _, ok := s.Index("n0"); ok {
		t.Error("an internal node is a point")
	}
}

// TestClones runs clones on several goroutines at once (run with -race) and
// compares with the original's serial results.
func TestClones(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	const n = 50
	s, _ := newSliced(t, rng, n, 5, treeSpec{internal: 20, onNodes: 5})
	type pair struct{ a, b []float64 }
	var ps []pair
	for range 20 {
		ps = append(ps, pair{testutil.Dist(rng, n), testutil.SparseDist(rng, n, 5)})
	}
	want := make([]float64, len(ps))
	for k, p := range ps {
		want[k] = s.Distance(p.a, p.b)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4*len(ps))
	for range 4 {
		c := s.Clone()
		wg.Go(func() {
			g := make([]float64, n)
			for k, p := range ps {
				ai, am := sparseOf(rand.New(rand.NewPCG(1, uint64(k))), p.a)
				bi, bm := sparseOf(rand.New(rand.NewPCG(2, uint64(k))), p.b)
				if v := c.DistanceGrad(g, p.a, p.b); v != want[k] {
					errs <- fmt.Sprintf("pair %d: clone %v, original %v", k, v, want[k])
				}
				if v := c.SparseDistance(ai, am, bi, bm); !relClose(v, want[k], 1e-12) {
					errs <- fmt.Sprintf("pair %d: clone sparse %v, original %v", k, v, want[k])
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestAllocs: after the first call of each kind, no method but Pairwise
// allocates.
func TestAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	const n = 100
	s, _ := newSliced(t, rng, n, 4, treeSpec{internal: 40, onNodes: 10})
	a, b := testutil.Dist(rng, n), testutil.SparseDist(rng, n, 8)
	ai, am := sparseOf(rng, testutil.SparseDist(rng, n, 5))
	bi, bm := sparseOf(rng, b)
	g, e := make([]float64, n), make([]float64, s.EmbedLen())
	for name, f := range map[string]func(){
		"Distance":       func() { s.Distance(a, b) },
		"DistanceGrad":   func() { s.DistanceGrad(g, a, b) },
		"Embed":          func() { s.Embed(e, a) },
		"SparseDistance": func() { s.SparseDistance(ai, am, bi, bm) },
	} {
		f()
		if got := testing.AllocsPerRun(20, f); got != 0 {
			t.Errorf("%s: %v allocations per call", name, got)
		}
	}
}
