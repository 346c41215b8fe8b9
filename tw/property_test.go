package tw_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tw"
)

// TestMetricProperties checks that TW is a metric on distributions, on
// random trees of up to 200 nodes: TW(a, a) = 0 and symmetry exactly (the
// subtree differences of (b, a) are the negated ones of (a, b), and IEEE
// rounding is symmetric), non-negativity, and the triangle inequality up to
// rounding.
func TestMetricProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for _, c := range smallCases(t, rng, 200, 30) {
		n := c.tr.Len()
		ws := tw.NewWorkspace(c.tr)
		for k := range 10 {
			a, b, d := testutil.Dist(rng, n), testutil.Dist(rng, n), testutil.SparseDist(rng, n, 1+k)
			ab, ba := ws.Distance(a, b), ws.Distance(b, a)
			if ab != ba {
				t.Errorf("%s: TW(a, b) = %v, TW(b, a) = %v", c.name, ab, ba)
			}
			if aa := ws.Distance(a, a); aa != 0 {
				t.Errorf("%s: TW(a, a) = %v", c.name, aa)
			}
			ad, db := ws.Distance(a, d), ws.Distance(d, b)
			if ab < 0 || ad < 0 || db < 0 {
				t.Errorf("%s: negative distance %v %v %v", c.name, ab, ad, db)
			}
			if ab > ad+db+1e-12*(ad+db) {
				t.Errorf("%s: TW(a, b) = %v > TW(a, d) + TW(d, b) = %v", c.name, ab, ad+db)
			}
		}
	}
}

// TestEmbed checks Embed against Φ(a)_i = w_i·a(Γ(i)) computed from the
// parent array, and the isometry TW(a, b) = ‖Φ(a) − Φ(b)‖₁.
func TestEmbed(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	for _, c := range smallCases(t, rng, 60, 30) {
		n := c.tr.Len()
		ws := tw.NewWorkspace(c.tr)
		ea, eb := make([]float64, n), make([]float64, n)
		zero := make([]float64, n)
		for range 5 {
			a, b := testutil.Dist(rng, n), testutil.SparseDist(rng, n, 3)
			ac := slices.Clone(a)
			ws.Embed(ea, a)
			ws.Embed(eb, b)
			if !slices.Equal(a, ac) {
				t.Fatalf("%s: Embed changed its input", c.name)
			}
			mass := c.subtreeDiff(a, zero) // a(Γ(i))
			for i := range n {
				want := c.edgeWeight(i) * mass[i]
				if math.Abs(ea[i]-want) > 1e-14*math.Max(1, math.Abs(want)) {
					t.Errorf("%s: Φ(a)_%d = %v, want %v", c.name, i, ea[i], want)
				}
			}
			var l1 float64
			for i := range n {
				l1 += math.Abs(ea[i] - eb[i])
			}
			if d := ws.Distance(a, b); math.Abs(d-l1) > 1e-12*math.Max(1, d) {
				t.Errorf("%s: TW = %.17g, ‖Φ(a) − Φ(b)‖₁ = %.17g", c.name, d, l1)
			}
		}
	}
}

// TestWorkspaceNoAlloc checks the documented promise that a Workspace does
// not allocate after construction.
func TestWorkspaceNoAlloc(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	for _, tr := range []*tree.Tree{tree.Random(300, rand.NewPCG(1, 1)), tree.Chain(300), tree.Star(300)} {
		n := tr.Len()
		ws := tw.NewWorkspace(tr)
		a, b := testutil.Dist(rng, n), testutil.Dist(rng, n)
		g := make([]float64, n)
		for name, f := range map[string]func(){
			"Distance":     func() { ws.Distance(a, b) },
			"DistanceGrad": func() { ws.DistanceGrad(g, a, b) },
			"LogitGrad":    func() { ws.LogitGrad(g, a, b) },
			"Embed":        func() { ws.Embed(g, a) },
		} {
			if allocs := testing.AllocsPerRun(10, f); allocs != 0 {
				t.Errorf("%v: %s allocates %v times per call", tr, name, allocs)
			}
		}
		if ws.Tree() != tr {
			t.Error("Workspace.Tree is not the tree it was built for")
		}
	}
}

// TestWorkspacePanics checks that length mismatches panic.
func TestWorkspacePanics(t *testing.T) {
	ws := tw.NewWorkspace(tree.Chain(4))
	ok4, short := make([]float64, 4), make([]float64, 3)
	for name, f := range map[string]func(){
		"Distance a":        func() { ws.Distance(short, ok4) },
		"Distance b":        func() { ws.Distance(ok4, short) },
		"DistanceGrad grad": func() { ws.DistanceGrad(short, ok4, ok4) },
		"DistanceGrad a":    func() { ws.DistanceGrad(ok4, short, ok4) },
		"LogitGrad z":       func() { ws.LogitGrad(ok4, short, ok4) },
		"LogitGrad b":       func() { ws.LogitGrad(ok4, ok4, make([]float64, 5)) },
		"Embed dst":         func() { ws.Embed(short, ok4) },
		"Embed a":           func() { ws.Embed(ok4, short) },
		"tw.Distance":       func() { tw.Distance(tree.Chain(4), ok4, short) },
	} {
		if ok, _ := testutil.Panics(f); !ok {
			t.Errorf("%s: no panic on a length mismatch", name)
		}
	}
}

// TestLogitGradExtreme checks that LogitGrad stays finite for logits far
// beyond exp's range: softmax is shifted by max(z), so z = (1000, 0, −1000,
// …) gives p = δ_0 up to e^−1000 = 0 in float64, TW(δ_0, b) as the value,
// and a gradient that vanishes where p does and sums to zero (the rows of the
// softmax Jacobian sum to zero).
func TestLogitGradExtreme(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 48))
	for _, c := range smallCases(t, rng, 20, 10) {
		n := c.tr.Len()
		ws := tw.NewWorkspace(c.tr)
		z := make([]float64, n)
		for i := range z {
			z[i] = -1000 * float64(i%3)
		}
		z[0] = 1000
		b := testutil.Dist(rng, n)
		grad := make([]float64, n)
		v := ws.LogitGrad(grad, z, b)
		if want := ws.Distance(testutil.PointMass(n, 0), b); v != want {
			t.Errorf("%s: TW(softmax(z), b) = %v, want TW(δ_0, b) = %v", c.name, v, want)
		}
		var sum float64
		for i, g := range grad {
			if math.IsNaN(g) || math.IsInf(g, 0) || (i > 0 && g != 0) {
				t.Errorf("%s: grad[%d] = %v, want 0 (finite at 0)", c.name, i, g)
			}
			sum += g
		}
		if sum != 0 {
			t.Errorf("%s: Σ grad = %v, want 0", c.name, sum)
		}
	}
}

// TestNaNPropagates checks the documented behaviour on unvalidated input:
// NaN in gives NaN out, never a panic or a silent number.
func TestNaNPropagates(t *testing.T) {
	tr := tree.Random(20, rand.NewPCG(3, 3))
	ws := tw.NewWorkspace(tr)
	a := testutil.Dist(rand.New(rand.NewPCG(1, 1)), 20)
	b := slices.Clone(a)
	a[7] = math.NaN()
	if v := ws.Distance(a, b); !math.IsNaN(v) {
		t.Errorf("TW with a NaN mass = %v, want NaN", v)
	}
}
