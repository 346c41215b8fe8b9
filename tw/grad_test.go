package tw_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/tw"
)

// minAbsOnPath returns the smallest |d_e| over the edges e on the path from
// node i up to the root (including the virtual edge of a forest root), or
// +Inf when the path has no edge.
func minAbsOnPath(c twCase, d []float64, i int) float64 {
	m := math.Inf(1)
	for v := i; v >= 0; v = c.parent[v] {
		if c.parent[v] >= 0 || c.tr.Virtual() {
			m = math.Min(m, math.Abs(d[v]))
		}
	}
	return m
}

// TestDistanceGradFD checks DistanceGrad against central finite differences
// of Distance in each coordinate of a. TW(·, b) is piecewise linear: when
// moving a_i by ±h changes no sign of a subtree difference on i's root path,
// the central difference equals the gradient up to rounding (≈ ε·TW/h).
// Coordinates within 10h of a kink are skipped, and the test fails if too
// many are.
func TestDistanceGradFD(t *testing.T) {
	const h = 1e-6
	rng := rand.New(rand.NewPCG(31, 32))
	checked, skipped := 0, 0
	for _, c := range smallCases(t, rng, 40, 30) {
		n := c.tr.Len()
		ws := tw.NewWorkspace(c.tr)
		grad := make([]float64, n)
		for range 3 {
			a, b := testutil.Dist(rng, n), testutil.Dist(rng, n)
			v := ws.DistanceGrad(grad, a, b)
			if d := ws.Distance(a, b); v != d {
				t.Errorf("%s: DistanceGrad value %v, Distance %v", c.name, v, d)
			}
			sd := c.subtreeDiff(a, b)
			x := slices.Clone(a)
			for i := range n {
				if minAbsOnPath(c, sd, i) < 10*h {
					skipped++
					continue
				}
				checked++
				x[i] = a[i] + h
				fp := ws.Distance(x, b)
				x[i] = a[i] - h
				fm := ws.Distance(x, b)
				x[i] = a[i]
				fd := (fp - fm) / (2 * h)
				if math.Abs(fd-grad[i]) > 1e-6*math.Max(1, math.Abs(grad[i])) {
					t.Errorf("%s: ∂TW/∂a_%d = %.10g, finite difference %.10g", c.name, i, grad[i], fd)
				}
			}
		}
	}
	t.Logf("%d coordinates checked, %d skipped near kinks", checked, skipped)
	if skipped > checked/10 {
		t.Errorf("%d coordinates near kinks skipped, %d checked", skipped, checked)
	}
}

// TestLogitGradFD checks LogitGrad against central finite differences of
// TW(softmax(z), b) in z, with softmax computed here. A step is used only if
// no subtree difference comes within twice its change over the step of
// zero, so no kink lies between z − h·e_j and z + h·e_j and the error is
// O(h²).
func TestLogitGradFD(t *testing.T) {
	const h = 1e-5
	rng := rand.New(rand.NewPCG(33, 34))
	checked, skipped := 0, 0
	for _, c := range smallCases(t, rng, 40, 30) {
		n := c.tr.Len()
		ws := tw.NewWorkspace(c.tr)
		ref := tw.NewWorkspace(c.tr)
		grad := make([]float64, n)
		g := make([]float64, n)
		for k := range 3 {
			z := make([]float64, n)
			for i := range z {
				z[i] = 2 * rng.NormFloat64()
			}
			b := testutil.Dist(rng, n)
			if k == 2 {
				b = testutil.SparseDist(rng, n, 2)
			}
			v := ws.LogitGrad(grad, z, b)
			p := testutil.Softmax(z)
			for i := range p {
				if math.Abs(ws.Prob()[i]-p[i]) > 1e-15 {
					t.Fatalf("%s: Prob()[%d] = %v, softmax %v", c.name, i, ws.Prob()[i], p[i])
				}
			}
			if want := ref.Distance(p, b); math.Abs(v-want) > 1e-13*math.Max(1, want) {
				t.Errorf("%s: LogitGrad value %v, TW(softmax(z), b) %v", c.name, v, want)
			}
			// The rows of the softmax Jacobian sum to zero, so does grad.
			var sum, l1 float64
			for _, g := range grad {
				sum += g
				l1 += math.Abs(g)
			}
			if math.Abs(sum) > 1e-14*math.Max(1, l1) {
				t.Errorf("%s: Σ ∂/∂z = %v, want 0", c.name, sum)
			}
			// Chain rule by hand: ∂/∂z_j = p_j (g_j − ⟨p, g⟩), g = ∂TW/∂p.
			ref.DistanceGrad(g, p, b)
			var dot float64
			for i := range p {
				dot += p[i] * g[i]
			}
			for j := range p {
				if want := p[j] * (g[j] - dot); math.Abs(grad[j]-want) > 1e-13*math.Max(1, math.Abs(want)) {
					t.Errorf("%s: ∂/∂z_%d = %v, chain rule %v", c.name, j, grad[j], want)
				}
			}

			sd := c.subtreeDiff(p, b)
			x := slices.Clone(z)
			for j := range n {
				x[j] = z[j] + h
				pp := testutil.Softmax(x)
				x[j] = z[j] - h
				pm := testutil.Softmax(x)
				x[j] = z[j]
				sp, sm := c.subtreeDiff(pp, b), c.subtreeDiff(pm, b)
				safe := true
				for v := range sd {
					if c.parent[v] < 0 && !c.tr.Virtual() {
						continue // a real root has no edge
					}
					move := math.Max(math.Abs(sp[v]-sd[v]), math.Abs(sm[v]-sd[v]))
					if math.Abs(sd[v]) <= 2*move {
						safe = false
					}
				}
				if !safe {
					skipped++
					continue
				}
				checked++
				fd := (ref.Distance(pp, b) - ref.Distance(pm, b)) / (2 * h)
				if math.Abs(fd-grad[j]) > 1e-6*math.Max(1, math.Abs(grad[j])) {
					t.Errorf("%s: ∂TW/∂z_%d = %.10g, finite difference %.10g", c.name, j, grad[j], fd)
				}
			}
		}
	}
	t.Logf("%d coordinates checked, %d skipped near kinks", checked, skipped)
	if skipped > checked/10 {
		t.Errorf("%d coordinates near kinks skipped, %d checked", skipped, checked)
	}
}

// TestSubgradient checks the subgradient inequality
// TW(a′, b) ≥ TW(a, b) + ⟨g, a′ − a⟩ for random a′, at points full of kinks
// (sparse a and b, so many subtree differences are exactly zero): with
// sign(0) = 0 the gradient must still be a subgradient of the convex TW(·, b).
func TestSubgradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	for _, c := range smallCases(t, rng, 25, 30) {
		n := c.tr.Len()
		ws := tw.NewWorkspace(c.tr)
		grad := make([]float64, n)
		for range 5 {
			a, b := testutil.SparseDist(rng, n, 2), testutil.SparseDist(rng, n, 2)
			if rng.IntN(2) == 0 {
				b = slices.Clone(a) // a = b: the minimum, gradient 0
			}
			f := ws.DistanceGrad(grad, a, b)
			for range 10 {
				a2 := testutil.SparseDist(rng, n, 3)
				lin := f
				for i := range a2 {
					lin += grad[i] * (a2[i] - a[i])
				}
				if f2 := ws.Distance(a2, b); f2 < lin-1e-12*math.Max(1, math.Abs(lin)) {
					t.Errorf("%s: TW(a′) = %v < TW(a) + ⟨g, a′−a⟩ = %v", c.name, f2, lin)
				}
			}
		}
	}
}

// TestGradZeroAtMinimum checks sign(0) = 0: at a = b every subtree
// difference is exactly zero, so DistanceGrad and LogitGrad write an exactly
// zero gradient (over a destination full of NaN) and a zero distance.
func TestGradZeroAtMinimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 38))
	for _, c := range smallCases(t, rng, 50, 20) {
		n := c.tr.Len()
		ws := tw.NewWorkspace(c.tr)
		grad := make([]float64, n)
		for k := range 3 {
			a := testutil.Dist(rng, n)
			if k == 1 {
				a = testutil.SparseDist(rng, n, 1)
			}
			for i := range grad {
				grad[i] = math.NaN()
			}
			if v := ws.DistanceGrad(grad, a, slices.Clone(a)); v != 0 || !allZero(grad) {
				t.Errorf("%s: DistanceGrad(a, a) = %v, grad %v", c.name, v, grad)
			}
			z := make([]float64, n)
			for i := range z {
				z[i] = rng.NormFloat64()
			}
			ws.LogitGrad(grad, z, a) // to get softmax(z) exactly as LogitGrad computes it
			p := slices.Clone(ws.Prob())
			for i := range grad {
				grad[i] = math.NaN()
			}
			if v := ws.LogitGrad(grad, z, p); v != 0 || !allZero(grad) {
				t.Errorf("%s: LogitGrad(z, softmax(z)) = %v, grad %v", c.name, v, grad)
			}
		}
	}
}

// TestGradAliasing checks the documented aliasing: grad may be the same
// slice as a, b or z.
func TestGradAliasing(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 40))
	for _, c := range smallCases(t, rng, 30, 10) {
		n := c.tr.Len()
		ws := tw.NewWorkspace(c.tr)
		a, b := testutil.Dist(rng, n), testutil.Dist(rng, n)
		want := make([]float64, n)
		wv := ws.DistanceGrad(want, a, b)
		x := slices.Clone(a)
		if v := ws.DistanceGrad(x, x, b); v != wv || !slices.Equal(x, want) {
			t.Errorf("%s: DistanceGrad with grad = a differs", c.name)
		}
		y := slices.Clone(b)
		if v := ws.DistanceGrad(y, a, y); v != wv || !slices.Equal(y, want) {
			t.Errorf("%s: DistanceGrad with grad = b differs", c.name)
		}
		z := make([]float64, n)
		for i := range z {
			z[i] = rng.NormFloat64()
		}
		lv := ws.LogitGrad(want, z, b)
		x = slices.Clone(z)
		if v := ws.LogitGrad(x, x, b); v != lv || !slices.Equal(x, want) {
			t.Errorf("%s: LogitGrad with grad = z differs", c.name)
		}
		y = slices.Clone(b)
		if v := ws.LogitGrad(y, z, y); v != lv || !slices.Equal(y, want) {
			t.Errorf("%s: LogitGrad with grad = b differs", c.name)
		}
	}
}
