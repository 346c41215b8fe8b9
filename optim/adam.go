package optim

import (
	"math"

	"github.com/twl-ldl/twl/internal/parallel"
)

// Adam is the Adam optimizer. The zero value uses the defaults listed per
// field; its moment buffers are allocated on the first Step.
type Adam struct {
	LR          float64 // step size α; 0 means 1e-3
	Beta1       float64 // first-moment decay; 0 means 0.9
	Beta2       float64 // second-moment decay; 0 means 0.999
	Eps         float64 // ε; 0 means 1e-8
	WeightDecay float64 // L2 coefficient added to the gradient; 0 means none
	// DecayEnd limits weight decay to params[:DecayEnd] (put the parameters
	// to decay first: model.Linear keeps W before b, so that biases, which
	// decay would pull toward a uniform prediction, can be excluded). Zero
	// means every parameter.
	DecayEnd int

	m, v []float64
	t    int
	// k and k0 are the constants of the current step, with and without
	// weight decay.
	k, k0 adamConsts
	// stepFn is Step's parallel loop, made for self; params and grad are
	// its operands during a Step.
	stepFn       func(lo, hi int)
	self         *Adam
	params, grad []float64
}

func orDefault(x, def float64) float64 {
	if x == 0 {
		return def
	}
	return x
}

// Step updates params in place from grad. grad is not modified. The lengths
// must agree with each other and with every earlier Step (else it panics).
// It is Begin followed by Update over every parameter, split across cores.
func (a *Adam) Step(params, grad []float64) {
	if len(params) != len(grad) {
		panic("optim: len(params) != len(grad)")
	}
	a.Begin(len(params))
	if a.stepFn == nil || a.self != a {
		// The loop's function is made once (and again for a copy of a),
		// so that a step allocates nothing.
		a.self = a
		a.stepFn = func(lo, hi int) { a.Update(a.params, a.grad, lo, hi) }
	}
	a.params, a.grad = params, grad
	// Every parameter is updated independently: split them across cores.
	parallel.For(len(params), 0, 1<<14, a.stepFn)
	a.params, a.grad = nil, nil
}

// Begin starts a step over n parameters: it counts the step and fixes its
// constants, and allocates the moment buffers on the first step. Update
// then updates the parameters, in ranges that may be handed to different
// goroutines (a training step can update each block of parameters as soon
// as its gradient is known, while it is in cache). Begin panics if n
// differs from the length of earlier steps.
func (a *Adam) Begin(n int) {
	if a.m == nil {
		a.m = make([]float64, n)
		a.v = make([]float64, n)
	}
	if len(a.m) != n {
		panic("optim: Adam used with parameters of another length")
	}
	lr := orDefault(a.LR, 1e-3)
	b1 := orDefault(a.Beta1, 0.9)
	b2 := orDefault(a.Beta2, 0.999)
	eps := orDefault(a.Eps, 1e-8)
	a.t++
	bc1 := 1 - math.Pow(b1, float64(a.t))
	bc2 := 1 - math.Pow(b2, float64(a.t))
	step := lr / bc1
	// √v/√bc2 + ε = (√v + ε√bc2)/√bc2, so the update is
	// step·√bc2 · m/(√v + ε√bc2).
	sb := math.Sqrt(bc2)
	step *= sb
	epsHat := eps * sb
	a.k = adamConsts{b1: b1, c1: 1 - b1, b2: b2, c2: 1 - b2, step: step, epsHat: epsHat, wd: a.WeightDecay}
	a.k0 = a.k
	a.k0.wd = 0
}

// Update updates params[lo:hi] in place from grad[lo:hi], in the step
// begun by Begin(len(params)); grad is not modified. Concurrent calls on
// disjoint ranges are safe, and the results are those of Step whatever
// the ranges. It panics if params and grad differ in length from each
// other or from the step's.
func (a *Adam) Update(params, grad []float64, lo, hi int) {
	if len(params) != len(grad) || len(params) != len(a.m) {
		panic("optim: Update with lengths other than the step's")
	}
	end := len(params)
	if a.DecayEnd > 0 {
		end = min(a.DecayEnd, end)
	}
	if mid := min(max(end, lo), hi); mid > lo {
		adamUpdate(params[lo:mid], grad[lo:mid], a.m[lo:mid], a.v[lo:mid], &a.k)
		lo = mid
	}
	if lo < hi {
		adamUpdate(params[lo:hi], grad[lo:hi], a.m[lo:hi], a.v[lo:hi], &a.k0)
	}
}

// AdamStep is the step begun by Adam.Begin, for a caller that updates
// parameters in a pass of its own (package train's fused training step
// updates each weight right after computing its gradient). With g the
// gradient, plus WeightDecay·p for the parameters weight decay applies to
// (params[:DecayEnd], or all), Update computes, each product rounded
// before it is added (no fused multiply-add):
//
//	m ← Beta1·m + C1·g
//	v ← Beta2·v + (C2·g)·g
//	p ← p − (Step·m)/(√v + EpsHat)
//
// M and V are the optimizer's moment buffers themselves, not copies: a
// caller that updates parameter i updates M[i] and V[i] as Update would.
type AdamStep struct {
	Beta1, C1, Beta2, C2 float64
	Step, EpsHat         float64
	WeightDecay          float64
	M, V                 []float64
}

// Current returns the step begun by the last Begin. It panics before the
// first Begin.
func (a *Adam) Current() AdamStep {
	if a.t == 0 {
		panic("optim: Adam.Current before Begin")
	}
	k := a.k
	return AdamStep{Beta1: k.b1, C1: k.c1, Beta2: k.b2, C2: k.c2, Step: k.step, EpsHat: k.epsHat,
		WeightDecay: k.wd, M: a.m, V: a.v}
}

// adamConsts are the per-step constants of the update; the layout is read
// by the assembly kernel.
type adamConsts struct {
	b1, c1, b2, c2, step, epsHat, wd float64
}

// adamGo is the reference form of the update of one block of parameters.
// The assembly kernel (adam_amd64.s) performs the same operations in the
// same order on two parameters at a time, so the results are identical.
func adamGo(p, g, m, v []float64, k *adamConsts) {
	g = g[:len(p)]
	m = m[:len(p)]
	v = v[:len(p)]
	for i, pi := range p {
		gi := g[i]
		if k.wd != 0 {
			gi += k.wd * pi
		}
		mi := k.b1*m[i] + k.c1*gi
		vi := k.b2*v[i] + k.c2*gi*gi
		m[i], v[i] = mi, vi
		p[i] = pi - k.step*mi/(math.Sqrt(vi)+k.epsHat)
	}
}

// AdamState is the optimizer's state, for checkpoints.
type AdamState struct {
	T    int       `json:"t"`
	M, V []float64 `json:"-"`
}

// State returns the step count and copies of the moment buffers.
func (a *Adam) State() AdamState {
	return AdamState{T: a.t, M: append([]float64(nil), a.m...), V: append([]float64(nil), a.v...)}
}

// SetState restores a state saved by State. It panics if the buffers have
// different lengths.
func (a *Adam) SetState(s AdamState) {
	if len(s.M) != len(s.V) {
		panic("optim: AdamState buffers differ in length")
	}
	a.t = s.T
	a.m = append([]float64(nil), s.M...)
	a.v = append([]float64(nil), s.V...)
}
