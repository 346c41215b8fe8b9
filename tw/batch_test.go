package tw_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tw"
)

// batchTrees returns trees for the batch tests: permuted, breadth-first,
// chain, star and forest layouts, with unit and non-unit weights.
func batchTrees(t *testing.T) []*tree.Tree {
	rng := rand.New(rand.NewPCG(51, 52))
	random := tree.Random(37, rand.NewPCG(5, 5))
	weighted, err := random.Reweight(testutil.UniformWeights(rng, 37))
	if err != nil {
		t.Fatal(err)
	}
	forest, err := tree.FromParents(testutil.RandomParents(rng, 23, 4), testutil.DyadicWeights(rng, 23), nil,
		&tree.Options{VirtualRootWeight: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	return []*tree.Tree{random, weighted, weighted.BreadthFirst(), forest, tree.Chain(10), tree.Star(9), tree.Chain(1)}
}

func randMatrix(rng *rand.Rand, rows, n int, logits bool) []float64 {
	m := make([]float64, 0, rows*n)
	for range rows {
		if logits {
			for range n {
				m = append(m, 3*rng.NormFloat64())
			}
		} else {
			m = append(m, testutil.Dist(rng, n)...)
		}
	}
	return m
}

// TestBatchMatchesWorkspace checks that Batch gives, bit for bit, the
// Workspace results row by row, for several worker counts (0 meaning
// GOMAXPROCS) and odd row counts, reusing one Batch across calls, without
// touching its inputs.
func TestBatchMatchesWorkspace(t *testing.T) {
	rng := rand.New(rand.NewPCG(53, 54))
	for _, tr := range batchTrees(t) {
		L := tr.Len()
		ws := tw.NewWorkspace(tr)
		for _, workers := range []int{1, 2, 3, 8, 0} {
			bt := tw.NewBatch(tr, workers)
			if bt.Tree() != tr {
				t.Fatal("Batch.Tree is not the tree it was built for")
			}
			for _, rows := range []int{0, 1, 5, 7, 13, 3} {
				name := fmt.Sprintf("%v workers=%d rows=%d", tr, workers, rows)
				A, B, Z := randMatrix(rng, rows, L, false), randMatrix(rng, rows, L, false), randMatrix(rng, rows, L, true)
				A0, B0, Z0 := slices.Clone(A), slices.Clone(B), slices.Clone(Z)

				wantD, wantG, wantL, wantLG, wantE := make([]float64, rows), make([]float64, rows*L), make([]float64, rows), make([]float64, rows*L), make([]float64, rows*L)
				for r := range rows {
					s := r * L
					wantD[r] = ws.DistanceGrad(wantG[s:s+L], A[s:s+L], B[s:s+L])
					wantL[r] = ws.LogitGrad(wantLG[s:s+L], Z[s:s+L], B[s:s+L])
					ws.Embed(wantE[s:s+L], A[s:s+L])
				}

				dst, grad := make([]float64, rows), make([]float64, rows*L)
				bt.Distance(dst, A, B)
				same(t, name+" Distance", dst, wantD)
				clear(dst)
				bt.DistanceGrad(dst, grad, A, B)
				same(t, name+" DistanceGrad value", dst, wantD)
				same(t, name+" DistanceGrad grad", grad, wantG)
				bt.LogitGrad(dst, grad, Z, B)
				same(t, name+" LogitGrad value", dst, wantL)
				same(t, name+" LogitGrad grad", grad, wantLG)
				bt.Embed(grad, A)
				same(t, name+" Embed", grad, wantE)
				if !slices.Equal(A, A0) || !slices.Equal(B, B0) || !slices.Equal(Z, Z0) {
					t.Fatalf("%s: inputs mutated", name)
				}

				// grad may alias A (or Z): each row is read before it is written.
				G := slices.Clone(A)
				bt.DistanceGrad(dst, G, G, B)
				same(t, name+" DistanceGrad grad = A", G, wantG)
				same(t, name+" DistanceGrad grad = A value", dst, wantD)
				G = slices.Clone(Z)
				bt.LogitGrad(dst, G, G, B)
				same(t, name+" LogitGrad grad = Z", G, wantLG)
				same(t, name+" LogitGrad grad = Z value", dst, wantL)
			}
		}
	}
}

// same checks bit-for-bit equality.
func same(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: length %d, want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Errorf("%s: [%d] = %v, want %v (bit for bit)", what, i, got[i], want[i])
			return
		}
	}
}

// TestPairwise checks Pairwise against Workspace.Distance for every pair of
// rows, to 1e-12 relative (the sums are ordered differently), for unequal
// and odd row counts.
func TestPairwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(55, 56))
	for _, tr := range batchTrees(t) {
		L := tr.Len()
		ws := tw.NewWorkspace(tr)
		for _, workers := range []int{1, 3, 8} {
			bt := tw.NewBatch(tr, workers)
			for _, sz := range [][2]int{{0, 3}, {3, 0}, {1, 1}, {5, 7}, {11, 2}} {
				nA, nB := sz[0], sz[1]
				A, B := randMatrix(rng, nA, L, false), randMatrix(rng, nB, L, false)
				if nA > 0 && nB > 0 {
					copy(B[:L], A[:L]) // an identical pair: exactly 0
				}
				A0, B0 := slices.Clone(A), slices.Clone(B)
				dst := make([]float64, nA*nB)
				bt.Pairwise(dst, A, B)
				for i := range nA {
					for j := range nB {
						want := ws.Distance(A[i*L:(i+1)*L], B[j*L:(j+1)*L])
						if got := dst[i*nB+j]; math.Abs(got-want) > 1e-12*math.Abs(want) {
							t.Errorf("%v workers=%d: Pairwise[%d][%d] = %.17g, Distance %.17g", tr, workers, i, j, got, want)
						}
					}
				}
				if !slices.Equal(A, A0) || !slices.Equal(B, B0) {
					t.Fatalf("%v: Pairwise mutated its inputs", tr)
				}
			}
		}
	}
}

// TestBatchPanics checks that shape mistakes panic.
func TestBatchPanics(t *testing.T) {
	const L = 4
	bt := tw.NewBatch(tree.Chain(L), 2)
	m := func(n int) []float64 { return make([]float64, n) }
	for name, f := range map[string]func(){
		"Distance ragged A":     func() { bt.Distance(m(2), m(2*L+1), m(2*L+1)) },
		"Distance A≠B":          func() { bt.Distance(m(2), m(2*L), m(3*L)) },
		"Distance dst":          func() { bt.Distance(m(3), m(2*L), m(2*L)) },
		"DistanceGrad grad":     func() { bt.DistanceGrad(m(2), m(L), m(2*L), m(2*L)) },
		"DistanceGrad dst":      func() { bt.DistanceGrad(m(1), m(2*L), m(2*L), m(2*L)) },
		"DistanceGrad B":        func() { bt.DistanceGrad(m(2), m(2*L), m(2*L), m(2*L-1)) },
		"LogitGrad Z":           func() { bt.LogitGrad(m(2), m(2*L), m(3*L), m(2*L)) },
		"LogitGrad dst":         func() { bt.LogitGrad(m(0), m(2*L), m(2*L), m(2*L)) },
		"Embed dst":             func() { bt.Embed(m(L), m(2*L)) },
		"Embed ragged":          func() { bt.Embed(m(L+1), m(L+1)) },
		"Pairwise ragged A":     func() { bt.Pairwise(m(2), m(2*L-1), m(L)) },
		"Pairwise ragged B":     func() { bt.Pairwise(m(2), m(2*L), m(L+2)) },
		"Pairwise dst":          func() { bt.Pairwise(m(5), m(2*L), m(3*L)) },
		"Pairwise dst too long": func() { bt.Pairwise(m(7), m(2*L), m(3*L)) },
	} {
		if ok, _ := testutil.Panics(f); !ok {
			t.Errorf("%s: no panic", name)
		}
	}
}
