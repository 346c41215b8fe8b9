package optim_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/optim"
)

// textbookAdam is an independent reference: Kingma & Ba (2015),
// Algorithm 1, written out with the explicit bias-corrected moments
//
//	g ← g + λθ                  (PyTorch's weight_decay, before the moments)
//	m ← β₁m + (1−β₁)g,  v ← β₂v + (1−β₂)g²
//	m̂ = m/(1−β₁ᵗ),      v̂ = v/(1−β₂ᵗ)
//	θ ← θ − α·m̂/(√v̂ + ε)
//
// which is also torch.optim.Adam's update (torch/optim/adam.py,
// _single_tensor_adam: denom = v.sqrt()/sqrt(bc2) + eps; θ −= lr/bc1·m/denom;
// the two differ only in rounding).
type textbookAdam struct {
	lr, b1, b2, eps, wd float64
	m, v                []float64
	t                   int
}

func (a *textbookAdam) step(theta, g []float64) {
	if a.m == nil {
		a.m = make([]float64, len(theta))
		a.v = make([]float64, len(theta))
	}
	a.t++
	for i := range theta {
		gi := g[i] + a.wd*theta[i]
		a.m[i] = a.b1*a.m[i] + (1-a.b1)*gi
		a.v[i] = a.b2*a.v[i] + (1-a.b2)*gi*gi
		mhat := a.m[i] / (1 - math.Pow(a.b1, float64(a.t)))
		vhat := a.v[i] / (1 - math.Pow(a.b2, float64(a.t)))
		theta[i] -= a.lr * mhat / (math.Sqrt(vhat) + a.eps)
	}
}

func randVec(rng *rand.Rand, n int, scale float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = scale * rng.NormFloat64()
	}
	return x
}

// TestAdamTextbook runs Adam and textbookAdam side by side on the same
// random gradient sequence and compares the parameters after every step.
// The per-step updates are equal in real arithmetic (see the package doc);
// in floating point they differ by a few ulps of the update, so the
// parameters agree to about 1e-15 of their magnitude (the tolerance is
// 1e-14 relative to max(|θ|, lr) to allow ulps to accumulate over 20 steps).
// Gradient scales include 1e-9, where ε dominates √v̂ and the ε folding
// matters, and 1e3. With more than 2^14 parameters Step splits the work
// across goroutines.
func TestAdamTextbook(t *testing.T) {
	cases := []struct {
		name  string
		adam  optim.Adam
		ref   textbookAdam
		n     int
		scale float64 // gradient magnitude
	}{
		{"defaults", optim.Adam{}, textbookAdam{lr: 1e-3, b1: 0.9, b2: 0.999, eps: 1e-8}, 7, 1},
		{"explicit defaults", optim.Adam{LR: 1e-3, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8}, textbookAdam{lr: 1e-3, b1: 0.9, b2: 0.999, eps: 1e-8}, 7, 1},
		{"custom", optim.Adam{LR: 0.05, Beta1: 0.8, Beta2: 0.99, Eps: 1e-6}, textbookAdam{lr: 0.05, b1: 0.8, b2: 0.99, eps: 1e-6}, 11, 1},
		{"tiny gradients", optim.Adam{LR: 0.01}, textbookAdam{lr: 0.01, b1: 0.9, b2: 0.999, eps: 1e-8}, 5, 1e-9},
		{"large gradients", optim.Adam{LR: 0.1}, textbookAdam{lr: 0.1, b1: 0.9, b2: 0.999, eps: 1e-8}, 5, 1e3},
		{"weight decay", optim.Adam{LR: 0.01, WeightDecay: 0.1}, textbookAdam{lr: 0.01, b1: 0.9, b2: 0.999, eps: 1e-8, wd: 0.1}, 9, 1},
		{"parallel", optim.Adam{LR: 0.01, WeightDecay: 1e-3}, textbookAdam{lr: 0.01, b1: 0.9, b2: 0.999, eps: 1e-8, wd: 1e-3}, 40000, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(c.n)))
			theta := randVec(rng, c.n, 1)
			ref := slices.Clone(theta)
			adam, tb := c.adam, c.ref
			for step := 1; step <= 20; step++ {
				g := randVec(rng, c.n, c.scale)
				g0 := slices.Clone(g)
				adam.Step(theta, g)
				if !slices.Equal(g, g0) {
					t.Fatal("Step modified grad")
				}
				tb.step(ref, g)
				for i := range theta {
					tol := 1e-14 * math.Max(math.Abs(ref[i]), tb.lr)
					if math.Abs(theta[i]-ref[i]) > tol {
						t.Fatalf("step %d: θ[%d] = %.17g, textbook %.17g", step, i, theta[i], ref[i])
					}
				}
			}
		})
	}
}

// TestAdamFirstStep checks a value by hand: at t = 1, m̂ = g and v̂ = g²,
// so the update is −lr·g/(|g| + ε) ≈ −lr·sign(g) (Kingma & Ba, Sec. 2.1:
// the effective step is bounded by α). With g = (2, −0.5, 0) and lr = 0.1,
// θ changes by (−0.1·2/(2+1e-8), +0.1·0.5/(0.5+1e-8), 0).
func TestAdamFirstStep(t *testing.T) {
	a := optim.Adam{LR: 0.1}
	theta := []float64{1, 1, 1}
	a.Step(theta, []float64{2, -0.5, 0})
	want := []float64{1 - 0.1*2/(2+1e-8), 1 + 0.1*0.5/(0.5+1e-8), 1}
	for i := range theta {
		if math.Abs(theta[i]-want[i]) > 1e-16 {
			t.Errorf("θ[%d] = %.17g, want %.17g", i, theta[i], want[i])
		}
	}
}

// TestAdamWeightDecay checks PyTorch's coupled weight decay: with a zero
// gradient, the first step sees g = λθ, so every θ_i ≠ 0 moves by
// −lr·λθ_i/(|λθ_i| + ε) ≈ −lr·sign(θ_i); without decay nothing moves.
func TestAdamWeightDecay(t *testing.T) {
	theta := []float64{3, -2, 0}
	zero := make([]float64, 3)
	a := optim.Adam{LR: 0.01, WeightDecay: 0.5}
	a.Step(theta, zero)
	want := []float64{3 - 0.01*1.5/(1.5+1e-8), -2 + 0.01*1/(1+1e-8), 0}
	for i := range theta {
		if math.Abs(theta[i]-want[i]) > 1e-15 {
			t.Errorf("θ[%d] = %.17g, want %.17g", i, theta[i], want[i])
		}
	}
	theta = []float64{3, -2, 0}
	var plain optim.Adam
	plain.Step(theta, zero)
	if !slices.Equal(theta, []float64{3, -2, 0}) {
		t.Errorf("zero gradient without decay moved θ to %v", theta)
	}
}

// TestAdamStateRoundTrip checks that an optimizer restored from State
// continues bit for bit like the original, and that State is a copy.
func TestAdamStateRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	const n = 6
	theta := randVec(rng, n, 1)
	grads := make([][]float64, 10)
	for i := range grads {
		grads[i] = randVec(rng, n, 1)
	}
	a := optim.Adam{LR: 0.02, WeightDecay: 0.01}
	for _, g := range grads[:4] {
		a.Step(theta, g)
	}
	s := a.State()
	if s.T != 4 || len(s.M) != n || len(s.V) != n {
		t.Fatalf("State = t %d, %d/%d moments; want t 4, %d", s.T, len(s.M), len(s.V), n)
	}
	saved := slices.Clone(theta)
	mCopy := slices.Clone(s.M)

	for _, g := range grads[4:] {
		a.Step(theta, g)
	}
	if !slices.Equal(s.M, mCopy) {
		t.Error("State shares its buffers with the optimizer")
	}

	b := optim.Adam{LR: 0.02, WeightDecay: 0.01}
	b.SetState(s)
	s.M[0] = 1e9 // SetState must copy too
	resumed := saved
	for _, g := range grads[4:] {
		b.Step(resumed, g)
	}
	if !slices.Equal(resumed, theta) {
		t.Errorf("resumed θ %v, uninterrupted %v", resumed, theta)
	}
	if b.State().T != 10 {
		t.Errorf("resumed step count %d, want 10", b.State().T)
	}
}

// TestAdamQuadratic minimizes f(θ) = ½ Σ_i c_i (θ_i − θ*_i)² with
// curvatures c_i from 0.1 to 100: Adam's per-coordinate scaling makes
// progress independent of c_i, and with lr = 0.05 decaying to 1e-4 over
// the run the iterate settles within 1e-3 of θ* (checked empirically).
func TestAdamQuadratic(t *testing.T) {
	target := []float64{1, -2, 3, 0.5, -0.25}
	curv := []float64{0.1, 1, 10, 100, 3}
	theta := make([]float64, len(target))
	g := make([]float64, len(target))
	a := optim.Adam{LR: 0.05}
	const steps = 3000
	for k := range steps {
		a.LR = 0.05 * math.Pow(1e-4/0.05, float64(k)/steps)
		for i := range theta {
			g[i] = curv[i] * (theta[i] - target[i])
		}
		a.Step(theta, g)
	}
	for i := range theta {
		if math.Abs(theta[i]-target[i]) > 1e-3 {
			t.Errorf("θ[%d] = %v, minimum at %v", i, theta[i], target[i])
		}
	}
}

func TestAdamPanics(t *testing.T) {
	cases := []struct {
		name string
		f    func()
	}{
		{"length mismatch", func() { new(optim.Adam).Step(make([]float64, 2), make([]float64, 3)) }},
		{"length changes", func() {
			var a optim.Adam
			a.Step(make([]float64, 2), make([]float64, 2))
			a.Step(make([]float64, 3), make([]float64, 3))
		}},
		{"state buffers differ", func() { new(optim.Adam).SetState(optim.AdamState{M: make([]float64, 2), V: make([]float64, 1)}) }},
	}
	for _, c := range cases {
		ok, v := testutil.Panics(c.f)
		if !ok {
			t.Errorf("%s: no panic", c.name)
			continue
		}
		if s, _ := v.(string); len(s) < 7 || s[:7] != "optim: " {
			t.Errorf("%s: panic value %v does not start with \"optim: \"", c.name, v)
		}
	}
}

// Example minimizes (θ − 3)² with Adam. Early steps move by about lr each
// (|m̂/√v̂| ≤ 1); the iterate then oscillates towards the minimum.
func Example() {
	theta := []float64{0}
	a := optim.Adam{LR: 0.1}
	for range 500 {
		a.Step(theta, []float64{2 * (theta[0] - 3)})
	}
	fmt.Printf("%.3f\n", theta[0])
	// Output:
	// 3.000
}
