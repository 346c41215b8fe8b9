package optim

import (
	"math"

	"github.com/twl-ldl/twl/internal/parallel"
)

// Adam32 is Adam for float32 parameters, with float32 moments, as PyTorch
// keeps them for float32 parameters. Its settings and update are Adam's;
// the zero value uses the defaults listed there.
//
// Moments below 2⁻¹⁰⁰ in magnitude are flushed to zero. A parameter whose
// gradient is zero for many steps (the vector of a rare word, when word
// vectors are trained) has moments that decay geometrically, by β₁ and β₂
// per step, into the subnormal range, where every operation on them costs
// the processor a microcode assist; PyTorch avoids this with
// torch.set_flush_denormal. Flushed at 2⁻¹⁰⁰, a moment changes the update
// by less than 2⁻¹⁰⁰/ε ≈ 1e-22 of the step size.
type Adam32 struct {
	LR          float64 // step size α; 0 means 1e-3
	Beta1       float64 // first-moment decay; 0 means 0.9
	Beta2       float64 // second-moment decay; 0 means 0.999
	Eps         float64 // ε; 0 means 1e-8
	WeightDecay float64 // L2 coefficient added to the gradient; 0 means none

	m, v []float32
	t    int
}

// momentFloor is the magnitude below which moments are flushed to zero.
const momentFloor = 0x1p-100

// Step updates params in place from grad. grad is not modified. The lengths
// must agree with each other and with every earlier Step (else it panics).
// The update of each parameter is, in float32,
//
//	g += wd·p;  m = β₁m + (1−β₁)g;  v = β₂v + (1−β₂)g²;  p −= s·m/(√v + ε̂)
//
// with s = α√(1−β₂ᵗ)/(1−β₁ᵗ) and ε̂ = ε√(1−β₂ᵗ), Adam's bias correction
// folded into the constants.
func (a *Adam32) Step(params, grad []float32) {
	if len(params) != len(grad) {
		panic("optim: len(params) != len(grad)")
	}
	if a.m == nil {
		a.m = make([]float32, len(params))
		a.v = make([]float32, len(params))
	}
	if len(a.m) != len(params) {
		panic("optim: Adam32 used with parameters of another length")
	}
	b1 := orDefault(a.Beta1, 0.9)
	b2 := orDefault(a.Beta2, 0.999)
	a.t++
	bc1 := 1 - math.Pow(b1, float64(a.t))
	bc2 := 1 - math.Pow(b2, float64(a.t))
	sb := math.Sqrt(bc2)
	k := adam32Consts{
		b1: float32(b1), c1: float32(1 - b1), b2: float32(b2), c2: float32(1 - b2),
		step: float32(orDefault(a.LR, 1e-3) / bc1 * sb), epsHat: float32(orDefault(a.Eps, 1e-8) * sb),
		wd: float32(a.WeightDecay),
	}
	parallel.For(len(params), 0, 1<<14, func(lo, hi int) {
		adam32Update(params[lo:hi], grad[lo:hi], a.m[lo:hi], a.v[lo:hi], &k)
	})
}

type adam32Consts struct {
	b1, c1, b2, c2, step, epsHat, wd float32
}

// adam32Update updates one block of parameters; products are rounded to
// float32 before they are added (no fused multiply-add), so the result
// does not depend on the compiler's choice.
func adam32Update(p, g, m, v []float32, k *adam32Consts) {
	g = g[:len(p)]
	m = m[:len(p)]
	v = v[:len(p)]
	for i, pi := range p {
		gi := g[i]
		if k.wd != 0 {
			gi += float32(k.wd * pi)
		}
		mi := float32(k.b1*m[i]) + float32(k.c1*gi)
		vi := float32(k.b2*v[i]) + float32(float32(k.c2*gi)*gi)
		if mi < momentFloor && mi > -momentFloor {
			mi = 0
		}
		if vi < momentFloor {
			vi = 0
		}
		m[i], v[i] = mi, vi
		p[i] = pi - float32(k.step*mi)/(float32(math.Sqrt(float64(vi)))+k.epsHat)
	}
}

// Adam32State is the optimizer's state, for checkpoints.
type Adam32State struct {
	T    int
	M, V []float32
}

// State returns the step count and copies of the moment buffers.
func (a *Adam32) State() Adam32State {
	return Adam32State{T: a.t, M: append([]float32(nil), a.m...), V: append([]float32(nil), a.v...)}
}

// SetState restores a state saved by State. It panics if the buffers have
// different lengths.
func (a *Adam32) SetState(s Adam32State) {
	if len(s.M) != len(s.V) {
		panic("optim: Adam32State buffers differ in length")
	}
	a.t = s.T
	a.m = append([]float32(nil), s.M...)
	a.v = append([]float32(nil), s.V...)
}
