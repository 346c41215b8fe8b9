package optim_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/twl-ldl/twl/optim"
)

// TestAdam32Textbook runs Adam32 and the float64 textbookAdam on the same
// gradients (rounded to float32) for 50 steps, with and without weight
// decay; Adam32 rounds every operation to float32, so the parameters agree
// to float32 precision: the tolerance, 1e-5 of max(|θ|, lr·steps), is a
// few hundred float32 ulps accumulated over the steps.
func TestAdam32Textbook(t *testing.T) {
	for _, wd := range []float64{0, 0.01} {
		rng := rand.New(rand.NewPCG(1, 2))
		const n, steps = 200, 50
		p32 := make([]float32, n)
		p64 := make([]float64, n)
		for i := range p32 {
			p32[i] = float32(rng.NormFloat64())
			p64[i] = float64(p32[i])
		}
		a := optim.Adam32{LR: 0.01, WeightDecay: wd}
		ref := textbookAdam{lr: 0.01, b1: 0.9, b2: 0.999, eps: 1e-8, wd: wd}
		g32 := make([]float32, n)
		g64 := make([]float64, n)
		for range steps {
			for i := range g32 {
				g32[i] = float32(rng.NormFloat64() * math.Exp(rng.NormFloat64()))
				g64[i] = float64(g32[i])
			}
			a.Step(p32, g32)
			ref.step(p64, g64)
		}
		for i := range p32 {
			if d := math.Abs(float64(p32[i]) - p64[i]); d > 1e-5*math.Max(math.Abs(p64[i]), 0.01*steps) {
				t.Fatalf("wd %v: θ[%d] = %v, textbook %v", wd, i, p32[i], p64[i])
			}
		}
	}
}

// TestAdam32Flush: after a first step with gradient 1 and then only zero
// gradients, m decays by 0.9 and v by 0.999 per step; both must reach
// exactly zero and never be subnormal on the way, and the parameter then
// stops moving.
func TestAdam32Flush(t *testing.T) {
	a := optim.Adam32{}
	p := []float32{1}
	a.Step(p, []float32{1})
	zero := []float32{0}
	for k := range 100_000 {
		a.Step(p, zero)
		s := a.State()
		for _, x := range []float32{s.M[0], s.V[0]} {
			if x != 0 && math.Abs(float64(x)) < 0x1p-126 {
				t.Fatalf("step %d: subnormal moment %g", k, x)
			}
		}
	}
	s := a.State()
	if s.M[0] != 0 || s.V[0] != 0 {
		t.Errorf("moments %g, %g after 100000 zero gradients", s.M[0], s.V[0])
	}
	before := p[0]
	a.Step(p, zero)
	if p[0] != before {
		t.Errorf("parameter moved with zero moments: %v → %v", before, p[0])
	}
}

// TestAdam32State: a run stopped after 3 steps, its state saved and
// restored into a new optimizer, continues bit for bit.
func TestAdam32State(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	grads := make([][]float32, 6)
	for k := range grads {
		grads[k] = make([]float32, 10)
		for i := range grads[k] {
			grads[k][i] = float32(rng.NormFloat64())
		}
	}
	run := func(a *optim.Adam32, p []float32, gs [][]float32) {
		for _, g := range gs {
			a.Step(p, g)
		}
	}
	want := make([]float32, 10)
	run(&optim.Adam32{LR: 0.1}, want, grads)
	got := make([]float32, 10)
	a := optim.Adam32{LR: 0.1}
	run(&a, got, grads[:3])
	b := optim.Adam32{LR: 0.1}
	b.SetState(a.State())
	run(&b, got, grads[3:])
	if !slices.Equal(got, want) {
		t.Errorf("resumed %v, uninterrupted %v", got, want)
	}
}
