package distance_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/twl-ldl/twl/distance"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/ot/emd"
	"github.com/twl-ldl/twl/ot/sinkhorn"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
	"github.com/twl-ldl/twl/utw"
)

// randomTree returns a random tree of n nodes, node i's parent a random
// earlier node, with weights in (0, 2], and its parent and weight arrays.
func randomTree(t testing.TB, rng *rand.Rand, n int) (*tree.Tree, []int, []float64) {
	t.Helper()
	parent, weight := make([]int, n), make([]float64, n)
	parent[0] = -1
	for i := 1; i < n; i++ {
		parent[i], weight[i] = rng.IntN(i), float64(1+rng.IntN(8))/4
	}
	tr, err := tree.FromParents(parent, weight, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tr, parent, weight
}

// randomRows returns n random distributions over L labels, each on about a
// third of them.
func randomRows(rng *rand.Rand, n, L int) *labeldist.Rows {
	var s labeldist.Rows
	for range n {
		var idx []int
		var mass []float64
		sum := 0.0
		for i := range L {
			if rng.IntN(3) == 0 || (i == L-1 && len(idx) == 0) {
				v := float64(1 + rng.IntN(9))
				idx, mass, sum = append(idx, i), append(mass, v), sum+v
			}
		}
		for k := range mass {
			mass[k] /= sum
		}
		s.Append(idx, mass)
	}
	return &s
}

// bruteTW is the tree-Wasserstein distance by its definition,
// Σ_v w_v |a(T_v) − b(T_v)|, with the subtree masses accumulated up the
// parent array (parents precede their children). It shares no code with
// package tw.
func bruteTW(parent []int, weight []float64, a, b []float64) float64 {
	d := make([]float64, len(parent))
	for i := range d {
		d[i] = a[i] - b[i]
	}
	sum := 0.0
	for i := len(parent) - 1; i > 0; i-- {
		sum += weight[i] * math.Abs(d[i])
		d[parent[i]] += d[i]
	}
	return sum
}

// brutePaths is the matrix of path lengths by walking up from both ends.
func brutePaths(parent []int, weight []float64) []float64 {
	L := len(parent)
	depth := make([]float64, L)
	for i := 1; i < L; i++ {
		depth[i] = depth[parent[i]] + weight[i]
	}
	anc := func(i, j int) int {
		seen := map[int]bool{}
		for ; i >= 0; i = parent[i] {
			seen[i] = true
		}
		for ; !seen[j]; j = parent[j] {
		}
		return j
	}
	c := make([]float64, L*L)
	for i := range L {
		for j := range L {
			c[i*L+j] = depth[i] + depth[j] - 2*depth[anc(i, j)]
		}
	}
	return c
}

// closeMass reports whether x and y agree to a few units of rounding
// relative to sa + sb, the weighted masses of the two rows (the error bound
// of the all-pairs engine's subtraction).
func closeMass(x, y, sa, sb float64) bool { return math.Abs(x-y) <= 16*0x1p-52*(sa+sb) }

func close(x, y float64) bool { return math.Abs(x-y) <= 1e-12*max(1, math.Abs(y)) }

func dense(s *labeldist.Rows, r, L int) []float64 {
	v := make([]float64, L)
	s.Dense(v, r)
	return v
}

// pairwise runs Columns and Pairwise.
func pairwise(t *testing.T, m distance.Method, A, B *labeldist.Rows) []float64 {
	t.Helper()
	cols, err := m.Columns(context.Background(), B)
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]float64, A.Rows()*B.Rows())
	if err := m.Pairwise(context.Background(), dst, A, cols); err != nil {
		t.Fatal(err)
	}
	return dst
}

func rows(t *testing.T, m distance.Method, A, B *labeldist.Rows) []float64 {
	t.Helper()
	dst := make([]float64, A.Rows())
	if err := m.Rows(context.Background(), dst, A, B); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestTWBrute compares tw and emd with the definition of TW and the path
// matrix on random trees, and sinkhorn with ot/sinkhorn on the same cost.
func TestTWBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, L := range []int{2, 5, 17, 40} {
		tr, parent, weight := randomTree(t, rng, L)
		A, B := randomRows(rng, 30, L), randomRows(rng, 20, L)
		cost := brutePaths(parent, weight)
		twm := distance.NewTW(tr, nil)
		em, err := distance.NewEMD(tr, nil)
		if err != nil {
			t.Fatal(err)
		}
		set := sinkhorn.Settings{Lambda: 20, Iters: 50, Tol: -1}
		sk, err := distance.NewSinkhorn(tr, set, nil)
		if err != nil {
			t.Fatal(err)
		}
		pw, pe, ps := pairwise(t, twm, A, B), pairwise(t, em, A, B), pairwise(t, sk, A, B)
		for i := range A.Rows() {
			for j := range B.Rows() {
				a, b := dense(A, i, L), dense(B, j, L)
				want := bruteTW(parent, weight, a, b)
				if k := i*B.Rows() + j; !close(pw[k], want) || !close(pe[k], want) {
					t.Fatalf("L=%d (%d,%d): tw %v emd %v, definition %v", L, i, j, pw[k], pe[k], want)
				}
				wantE, err := emd.Solve(cost, a, b, nil)
				if err != nil {
					t.Fatal(err)
				}
				if k := i*B.Rows() + j; !close(pe[k], wantE.Cost) {
					t.Fatalf("L=%d (%d,%d): emd %v, ot/emd %v", L, i, j, pe[k], wantE.Cost)
				}
				wantS, err := sinkhorn.Solve(cost, a, b, set)
				if err != nil {
					t.Fatal(err)
				}
				if k := i*B.Rows() + j; !close(ps[k], wantS.Value) {
					t.Fatalf("L=%d (%d,%d): sinkhorn %v, ot/sinkhorn %v", L, i, j, ps[k], wantS.Value)
				}
			}
		}
		// Rows (tw.Sparse) and Pairwise (the all-pairs engine) agree to
		// rounding relative to the rows' total mass.
		rw := rows(t, twm, A.Subset(seq(20)), B)
		for i, v := range rw {
			if !closeMass(v, pw[i*B.Rows()+i], 1, 1) {
				t.Fatalf("L=%d: Rows %v, Pairwise %v", L, v, pw[i*B.Rows()+i])
			}
		}
	}
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// slicedCase returns two random trees over the points 0 … k−1 (named by
// their indices, placed at random nodes), the Sliced over them, and for
// each tree its parent and weight arrays and the node of each point.
func slicedCase(t testing.TB, rng *rand.Rand, k, n int) (*tsw.Sliced, [][]int, [][]float64, [][]int) {
	var trees []*tree.Tree
	var parents [][]int
	var weights [][]float64
	var nodes [][]int
	names := make([]string, k)
	for i := range names {
		names[i] = strconv.Itoa(i)
	}
	for range 3 {
		tr, parent, weight := randomTree(t, rng, n)
		perm := rng.Perm(n)[:k]
		trNames := make([]string, n)
		for i := range trNames {
			trNames[i] = "x" + strconv.Itoa(i)
		}
		for p, node := range perm {
			trNames[node] = names[p]
		}
		tr, err := tree.FromParents(parent, weight, trNames, nil)
		if err != nil {
			t.Fatal(err)
		}
		trees, parents, weights, nodes = append(trees, tr), append(parents, parent), append(weights, weight), append(nodes, perm)
	}
	s, err := tsw.New(trees, names)
	if err != nil {
		t.Fatal(err)
	}
	return s, parents, weights, nodes
}

// TestTSWBrute compares tsw's Rows and Pairwise (through the embeddings)
// with the mean of the definition of TW over the trees.
func TestTSWBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const k, n = 12, 30
	s, parents, weights, nodes := slicedCase(t, rng, k, n)
	A, B := randomRows(rng, 25, k), randomRows(rng, 25, k)
	m := distance.NewTSW(s, nil)
	pw, rw := pairwise(t, m, A, B), rows(t, m, A, B)
	for i := range A.Rows() {
		for j := range B.Rows() {
			want := 0.0
			for tr := range parents {
				a, b := make([]float64, n), make([]float64, n)
				ia, ma := A.Row(i)
				for q, p := range ia {
					a[nodes[tr][p]] = ma[q]
				}
				ib, mb := B.Row(j)
				for q, p := range ib {
					b[nodes[tr][p]] = mb[q]
				}
				want += bruteTW(parents[tr], weights[tr], a, b)
			}
			want /= float64(len(parents))
			if v := pw[i*B.Rows()+j]; !close(v, want) {
				t.Fatalf("(%d,%d): Pairwise %v, definition %v", i, j, v, want)
			}
			if i == j && !close(rw[i], want) {
				t.Fatalf("row %d: Rows %v, definition %v", i, rw[i], want)
			}
		}
	}
}

// TestWorkers checks that every method gives the same bits for any
// number of workers, and that Progress counts every pair.
func TestWorkers(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	tr, _, _ := randomTree(t, rng, 60)
	A, B := randomRows(rng, 700, 60), randomRows(rng, 700, 60)
	s, _, _, _ := slicedCase(t, rng, 60, 90)
	make := func(name string, o *distance.Options) distance.Method {
		switch name {
		case "tsw":
			return distance.NewTSW(s, o)
		case "emd":
			m, err := distance.NewEMD(tr, o)
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
		if name == "utw" {
			return distance.NewUTW(tr, 0.3, o)
		}
		return distance.NewTW(tr, o)
	}
	for _, name := range []string{"tw", "tsw", "emd", "utw"} {
		A, B := A, B
		if name == "emd" {
			A, B = A.Subset(seq(150)), B.Subset(seq(150))
		}
		var ref, refP []float64
		for _, w := range []int{1, 2, 3, 8} {
			var done atomic.Int64
			m := make(name, &distance.Options{Workers: w, Progress: func(n int) { done.Add(int64(n)) }})
			r, p := rows(t, m, A, B), pairwise(t, m, A.Subset(seq(3)), B)
			if got, want := done.Load(), int64(A.Rows()+3*B.Rows()); got != want {
				t.Errorf("%s, %d workers: progress %d pairs, want %d", name, w, got, want)
			}
			if ref == nil {
				ref, refP = r, p
				continue
			}
			for k := range r {
				if math.Float64bits(r[k]) != math.Float64bits(ref[k]) {
					t.Fatalf("%s, %d workers: Rows[%d] %v, one worker %v", name, w, k, r[k], ref[k])
				}
			}
			for k := range p {
				if math.Float64bits(p[k]) != math.Float64bits(refP[k]) {
					t.Fatalf("%s, %d workers: Pairwise[%d] %v, one worker %v", name, w, k, p[k], refP[k])
				}
			}
		}
	}
}

// TestUTW compares utw's Rows and Pairwise, on rows of different total
// masses, with utw.Workspace on the dense rows (another path of package
// utw: the whole tree rather than the tree spanned by the pair's labels),
// to rounding.
func TestUTW(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 50))
	tr, _, _ := randomTree(t, rng, 40)
	A, B := randomRows(rng, 30, 40), randomRows(rng, 30, 40)
	for k := range A.Mass {
		A.Mass[k] *= 3
	}
	const lambda = 0.7
	m := distance.NewUTW(tr, lambda, nil)
	if m.Name() != "utw" {
		t.Errorf("name %q", m.Name())
	}
	ws := utw.NewWorkspace(tr, lambda)
	r, p := rows(t, m, A, B), pairwise(t, m, A, B)
	for i := range A.Rows() {
		a := dense(A, i, 40)
		if want := ws.Distance(a, dense(B, i, 40)); !close(r[i], want) {
			t.Errorf("Rows[%d] = %v, want %v", i, r[i], want)
		}
		for j := range B.Rows() {
			if want := ws.Distance(a, dense(B, j, 40)); !close(p[i*B.Rows()+j], want) {
				t.Errorf("Pairwise[%d,%d] = %v, want %v", i, j, p[i*B.Rows()+j], want)
			}
		}
	}
}

// TestErrors checks the errors of data, memory and cancellation.
func TestErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	tr, _, _ := randomTree(t, rng, 9)
	A, B := randomRows(rng, 200, 9), randomRows(rng, 200, 9)
	ctx := context.Background()

	// Sinkhorn stopped after 2 iterations misses its tolerance: the first
	// pair in row-major order fails, whatever the workers.
	sk, err := distance.NewSinkhorn(tr, sinkhorn.Settings{Lambda: 50, Iters: 2, Tol: 1e-12}, &distance.Options{Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	err = sk.Rows(ctx, make([]float64, A.Rows()), A, B)
	var pe *distance.PairError
	var ce *distance.ConvergenceError
	if !errors.As(err, &pe) || !errors.As(err, &ce) || pe.A != 0 || pe.B != 0 || ce.Iters != 2 || ce.Tol != 1e-12 {
		t.Errorf("sinkhorn of 2 iterations: %v", err)
	}

	// Memory limits.
	var me *distance.MemoryError
	if _, err := distance.NewEMD(tr, &distance.Options{MaxBytes: distance.CostBytes(9) - 1}); !errors.As(err, &me) || me.Need != 8*81 {
		t.Errorf("emd over its limit: %v", err)
	}
	if _, err := distance.NewEMD(tr, &distance.Options{MaxBytes: distance.CostBytes(9)}); err != nil {
		t.Errorf("emd at its limit: %v", err)
	}
	set := sinkhorn.Settings{}
	if _, err := distance.NewSinkhorn(tr, set, &distance.Options{MaxBytes: distance.SinkhornBytes(9, set) - 1}); !errors.As(err, &me) || me.Method != "sinkhorn" {
		t.Errorf("sinkhorn over its limit: %v", err)
	}
	s, _, _, _ := slicedCase(t, rng, 9, 20)
	if _, err := distance.NewTSW(s, &distance.Options{MaxBytes: B.Bytes() + 100}).Columns(ctx, B); !errors.As(err, &me) || me.Rows != B.Rows() {
		t.Errorf("tsw embeddings over the limit: %v", err)
	}
	cols, err := distance.NewTSW(s, nil).Columns(ctx, B)
	if err != nil || cols.Len() != B.Rows() || cols.Bytes() <= B.Bytes()+int64(48*B.Rows()) {
		t.Errorf("tsw Columns: %v, %d rows, %d bytes", err, cols.Len(), cols.Bytes())
	}

	// A cancelled context.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	em, _ := distance.NewEMD(tr, nil)
	if err := em.Rows(cctx, make([]float64, A.Rows()), A, B); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Rows: %v", err)
	}
	tw := distance.NewTW(tr, nil)
	c, _ := tw.Columns(ctx, B)
	if err := tw.Pairwise(cctx, make([]float64, B.Rows()), A.Subset([]int{0}), c); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Pairwise: %v", err)
	}
}

func TestPanics(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	tr, _, _ := randomTree(t, rng, 5)
	A := randomRows(rng, 3, 5)
	m, other := distance.NewTW(tr, nil), distance.NewTW(tr, nil)
	ctx := context.Background()
	c, _ := other.Columns(ctx, A)
	for name, f := range map[string]func(){
		"Rows dst":      func() { m.Rows(ctx, make([]float64, 2), A, A) },
		"Rows B":        func() { m.Rows(ctx, make([]float64, 3), A, A.Subset([]int{0})) },
		"Pairwise dst":  func() { m.Pairwise(ctx, make([]float64, 3), A, c) },
		"other Columns": func() { m.Pairwise(ctx, make([]float64, 9), A, c) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// sparseRandom returns n random distributions over L labels, each on k of
// them.
func sparseRandom(rng *rand.Rand, n, L, k int) *labeldist.Rows {
	var s labeldist.Rows
	for range n {
		idx := rng.Perm(L)[:min(k, L)]
		slices.Sort(idx)
		mass := make([]float64, len(idx))
		for j := range mass {
			mass[j] = 1 / float64(len(idx))
		}
		s.Append(idx, mass)
	}
	return &s
}
