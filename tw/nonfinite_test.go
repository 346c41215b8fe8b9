package tw_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tw"
)

// TestRootNaNHand is the reported case, by hand: on the tree 0 → 1 with a
// unit edge, TW(δ_1, δ_0) = 1 (one unit of mass crosses the edge). Putting
// NaN (or ±Inf) on the root's mass of a must give NaN; the sweep used to
// stop below the root and return 1.
func TestRootNaNHand(t *testing.T) {
	tr := tree.Chain(2)
	ws := tw.NewWorkspace(tr)
	if v := ws.Distance([]float64{0, 1}, []float64{1, 0}); v != 1 {
		t.Fatalf("TW(δ_1, δ_0) = %v, want 1", v)
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if v := ws.Distance([]float64{bad, 1}, []float64{1, 0}); !math.IsNaN(v) {
			t.Errorf("root mass %v: TW = %v, want NaN", bad, v)
		}
		if v := tw.Distance(tr, []float64{0, 1}, []float64{bad, 0}); !math.IsNaN(v) {
			t.Errorf("root mass %v in b: tw.Distance = %v, want NaN", bad, v)
		}
	}
}

// nonFiniteTrees returns trees covering every path of the sweeps: the small
// cases (permuted and breadth-first layouts, forests, unit and other
// weights), and breadth-first random trees of 1000 nodes, where the vector
// kernels run on amd64, with unit and random weights and as a forest.
func nonFiniteTrees(t *testing.T) []*tree.Tree {
	rng := rand.New(rand.NewPCG(61, 62))
	var trs []*tree.Tree
	for _, c := range smallCases(t, rng, 40, 12) {
		trs = append(trs, c.tr)
	}
	big := tree.Random(1000, rand.NewPCG(9, 9)).BreadthFirst()
	weighted, err := big.Reweight(testutil.UniformWeights(rng, 1000))
	if err != nil {
		t.Fatal(err)
	}
	forest, err := tree.FromParents(testutil.RandomParents(rng, 1000, 3), nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return append(trs, big, weighted, forest.BreadthFirst(), tree.Chain(1000).BreadthFirst())
}

// allNaN reports whether every element of x is NaN.
func allNaN(x []float64) bool {
	for _, v := range x {
		if !math.IsNaN(v) {
			return false
		}
	}
	return true
}

// TestNonFiniteGivesNaN checks the documented rule on every entry point: a
// NaN, +Inf or −Inf at the root, at a leaf or at an internal node, of a or
// of b, makes the distance NaN, and the gradient and the embedding all NaN.
// A logit of −Inf is a probability of zero and is not an error. After such
// a call the workspace gives, bit for bit, what a fresh one gives.
func TestNonFiniteGivesNaN(t *testing.T) {
	rng := rand.New(rand.NewPCG(63, 64))
	bads := []float64{math.NaN(), math.Inf(1), math.Inf(-1)}
	for _, tr := range nonFiniteTrees(t) {
		n := tr.Len()
		ws := tw.NewWorkspace(tr)
		root := tr.Root()
		if root < 0 { // a forest: the first root below the virtual one
			for i := range n {
				if tr.Parent(i) < 0 {
					root = i
					break
				}
			}
		}
		nodes := []int{root, n - 1, n / 2}
		for i := range n {
			if tr.IsLeaf(i) {
				nodes = append(nodes, i)
				break
			}
		}
		grad := make([]float64, n)
		emb := make([]float64, n)
		for _, at := range nodes {
			for _, bad := range bads {
				name := fmt.Sprintf("%v: %v at node %d", tr, bad, at)
				a, b := testutil.Dist(rng, n), testutil.Dist(rng, n)
				a2 := slices.Clone(a)
				a2[at] = bad
				b2 := slices.Clone(b)
				b2[at] = bad
				for _, p := range [][2][]float64{{a2, b}, {a, b2}} {
					if v := ws.Distance(p[0], p[1]); !math.IsNaN(v) {
						t.Errorf("%s: Distance = %v, want NaN", name, v)
					}
					if v := ws.DistanceGrad(grad, p[0], p[1]); !math.IsNaN(v) || !allNaN(grad) {
						t.Errorf("%s: DistanceGrad = %v, grad all NaN %v", name, v, allNaN(grad))
					}
				}
				ws.Embed(emb, a2)
				if !allNaN(emb) {
					t.Errorf("%s: Embed not all NaN", name)
				}
				z := make([]float64, n)
				for i := range z {
					z[i] = rng.NormFloat64()
				}
				if v := ws.LogitGrad(grad, z, b2); !math.IsNaN(v) || !allNaN(grad) {
					t.Errorf("%s in b: LogitGrad = %v, grad all NaN %v", name, v, allNaN(grad))
				}
				z[at] = bad
				v := ws.LogitGrad(grad, z, b)
				if bad == math.Inf(-1) && n > 1 {
					// softmax gives probability 0 at that node (with a
					// single node, every logit is −Inf: NaN).
					if math.IsNaN(v) || slices.ContainsFunc(grad, math.IsNaN) {
						t.Errorf("%s: LogitGrad with a −Inf logit = %v, want a number", name, v)
					}
					if p := ws.Prob(); p[at] != 0 {
						t.Errorf("%s: softmax at a −Inf logit = %v, want 0", name, p[at])
					}
				} else if !math.IsNaN(v) || !allNaN(grad) {
					t.Errorf("%s in z: LogitGrad = %v, grad all NaN %v", name, v, allNaN(grad))
				}

				// The workspace is not left in a bad state.
				fresh := tw.NewWorkspace(tr)
				g1, g2 := make([]float64, n), make([]float64, n)
				v1, v2 := ws.DistanceGrad(g1, a, b), fresh.DistanceGrad(g2, a, b)
				if v1 != v2 || !slices.Equal(g1, g2) || ws.Distance(b, a) != fresh.Distance(b, a) {
					t.Errorf("%s: workspace differs from a fresh one after a NaN", name)
				}
			}
		}
	}
}

// TestBatchNonFinite checks the Batch entry points: a row holding a NaN or
// an infinity gives NaN in its value, gradient row, embedding row and
// Pairwise row (or column); the other rows are, bit for bit, what they are
// without the bad row.
func TestBatchNonFinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(65, 66))
	for _, tr := range []*tree.Tree{tree.Random(37, rand.NewPCG(5, 5)), tree.Random(1000, rand.NewPCG(9, 9)).BreadthFirst(), tree.Chain(3)} {
		L := tr.Len()
		for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			name := fmt.Sprintf("%v: %v", tr, bad)
			const rows, badRow = 5, 2
			bt := tw.NewBatch(tr, 2)
			A, B, Z := randMatrix(rng, rows, L, false), randMatrix(rng, rows, L, false), randMatrix(rng, rows, L, true)
			want, wantG := make([]float64, rows), make([]float64, rows*L)
			bt.DistanceGrad(want, wantG, A, B)
			wantE := make([]float64, rows*L)
			bt.Embed(wantE, A)
			wantP := make([]float64, rows*rows)
			bt.Pairwise(wantP, A, B)

			root := tr.Root()
			A[badRow*L+root] = bad // the root's mass
			Z[badRow*L] = math.NaN()
			dst, grad := make([]float64, rows), make([]float64, rows*L)
			bt.Distance(dst, A, B)
			checkRows(t, name+" Distance", dst, want, 1, badRow)
			bt.DistanceGrad(dst, grad, A, B)
			checkRows(t, name+" DistanceGrad", dst, want, 1, badRow)
			checkRows(t, name+" DistanceGrad grad", grad, wantG, L, badRow)
			bt.LogitGrad(dst, grad, Z, B)
			if !math.IsNaN(dst[badRow]) || !allNaN(grad[badRow*L:(badRow+1)*L]) {
				t.Errorf("%s: LogitGrad row with a NaN logit = %v", name, dst[badRow])
			}
			emb := make([]float64, rows*L)
			bt.Embed(emb, A)
			checkRows(t, name+" Embed", emb, wantE, L, badRow)
			pw := make([]float64, rows*rows)
			bt.Pairwise(pw, A, B)
			checkRows(t, name+" Pairwise", pw, wantP, rows, badRow)
			pw2 := make([]float64, rows*rows)
			bt.Pairwise(pw2, B, A) // the bad row of A is now column badRow
			for i := range rows {
				for j := range rows {
					got := pw2[i*rows+j]
					if j == badRow && !math.IsNaN(got) {
						t.Errorf("%s: Pairwise(B, A)[%d,%d] = %v, want NaN", name, i, j, got)
					}
					if j != badRow && math.IsNaN(got) {
						t.Errorf("%s: Pairwise(B, A)[%d,%d] = NaN", name, i, j)
					}
				}
			}
		}
	}
}

// checkRows checks that row bad of got (rows of width w) is all NaN and the
// others equal want bit for bit.
func checkRows(t *testing.T, what string, got, want []float64, w, bad int) {
	t.Helper()
	for r := range len(got) / w {
		row := got[r*w : (r+1)*w]
		if r == bad {
			if !allNaN(row) {
				t.Errorf("%s: row %d (non-finite input) = %v, want all NaN", what, r, row)
			}
			continue
		}
		same(t, fmt.Sprintf("%s row %d", what, r), row, want[r*w:(r+1)*w])
	}
}

// TestNilTreePanics checks that the constructors reject a nil tree with a
// "tw: " message instead of a nil dereference.
func TestNilTreePanics(t *testing.T) {
	for name, f := range map[string]func(){
		"NewWorkspace": func() { tw.NewWorkspace(nil) },
		"NewBatch":     func() { tw.NewBatch(nil, 1) },
		"Distance":     func() { tw.Distance(nil, nil, nil) },
	} {
		ok, v := testutil.Panics(f)
		msg, _ := v.(string)
		if !ok || !strings.HasPrefix(msg, "tw: ") || !strings.Contains(msg, "nil") {
			t.Errorf("%s(nil): panicked %v with %v, want a \"tw: ... nil ...\" message", name, ok, v)
		}
	}
}
