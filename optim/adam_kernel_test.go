package optim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestAdamKernelMatchesGo checks that the update used by Step (on amd64
// the AVX-512 kernel, eight parameters at a time, the AVX kernel, four at a
// time, and the SSE2 kernel, two at a time, each run here where the
// processor has it) gives bit for bit the
// result of adamGo, the plain Go form of the same arithmetic, for lengths
// of every remainder mod 4, with and without weight decay, and on special
// values (zero gradients, huge and tiny moments, −0 weight decay).
func TestAdamKernelMatchesGo(t *testing.T) {
	defer func(avx, avx512 bool) { useAVX, useAVX512 = avx, avx512 }(useAVX, useAVX512)
	for _, form := range [][2]bool{{false, false}, {useAVX, false}, {useAVX, useAVX512}} {
		useAVX, useAVX512 = form[0], form[1]
		t.Run(fmt.Sprintf("avx=%v/avx512=%v", form[0], form[1]), testAdamKernel)
	}
}

func testAdamKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 64, 1001, 1002, 1003, 1004, 1005, 1006, 1007} {
		for _, wd := range []float64{0, math.Copysign(0, -1), 1e-2} {
			p := make([]float64, n)
			g := make([]float64, n)
			m := make([]float64, n)
			v := make([]float64, n)
			for i := range p {
				p[i] = rng.NormFloat64()
				g[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(20)-10))
				m[i] = rng.NormFloat64() * 1e-3
				v[i] = rng.Float64() * 1e-4
				if i%5 == 0 {
					g[i] = 0
				}
			}
			k := adamConsts{b1: 0.9, c1: 0.1, b2: 0.999, c2: 1 - 0.999, step: 1e-3 * 0.7, epsHat: 1e-8 * 0.3, wd: wd}
			p2, m2, v2 := append([]float64(nil), p...), append([]float64(nil), m...), append([]float64(nil), v...)
			adamUpdate(p, g, m, v, &k)
			adamGo(p2, g, m2, v2, &k)
			for i := range p {
				if math.Float64bits(p[i]) != math.Float64bits(p2[i]) ||
					math.Float64bits(m[i]) != math.Float64bits(m2[i]) ||
					math.Float64bits(v[i]) != math.Float64bits(v2[i]) {
					t.Fatalf("n=%d wd=%v i=%d: kernel (%v, %v, %v), Go (%v, %v, %v)",
						n, wd, i, p[i], m[i], v[i], p2[i], m2[i], v2[i])
				}
			}
		}
	}
}

// TestAdamDecayEnd checks that DecayEnd limits weight decay to the leading
// parameters: the decayed prefix matches an optimizer with decay on every
// parameter, and the rest matches one without decay (both computed on
// copies, an independent run of the same arithmetic). Lengths straddle the
// parallel chunk size so that the boundary falls inside and between chunks.
func TestAdamDecayEnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{5, 40000} {
		for _, end := range []int{1, 3, n / 2, 20000, n, n + 7} {
			p := make([]float64, n)
			g := make([]float64, n)
			for i := range p {
				p[i], g[i] = rng.NormFloat64(), rng.NormFloat64()
			}
			pAll, pNone := append([]float64(nil), p...), append([]float64(nil), p...)
			a := Adam{WeightDecay: 0.1, DecayEnd: end}
			all := Adam{WeightDecay: 0.1}
			none := Adam{}
			for range 3 {
				a.Step(p, g)
				all.Step(pAll, g)
				none.Step(pNone, g)
			}
			for i := range p {
				want := pNone[i]
				if i < end {
					want = pAll[i]
				}
				if p[i] != want {
					t.Fatalf("n=%d end=%d: param %d = %v, want %v", n, end, i, p[i], want)
				}
			}
		}
	}
}

// TestAdamBeginUpdate checks that a step made as Begin and Update over
// ranges covering the parameters (random cut points, updated in a shuffled
// order, some straddling DecayEnd) leaves bit for bit the parameters and
// moments of Step, over several steps.
func TestAdamBeginUpdate(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	const n = 1003
	p := make([]float64, n)
	for i := range p {
		p[i] = rng.NormFloat64()
	}
	q := append([]float64(nil), p...)
	a := Adam{LR: 0.01, WeightDecay: 0.1, DecayEnd: 700}
	b := a
	for range 4 {
		g := make([]float64, n)
		for i := range g {
			g[i] = rng.NormFloat64()
		}
		a.Step(p, g)
		cuts := []int{0, n, 700}
		for range 9 {
			cuts = append(cuts, rng.IntN(n+1))
		}
		slices.Sort(cuts)
		b.Begin(n)
		for _, k := range rng.Perm(len(cuts) - 1) {
			b.Update(q, g, cuts[k], cuts[k+1])
		}
		sa, sb := a.State(), b.State()
		for i := range p {
			if math.Float64bits(p[i]) != math.Float64bits(q[i]) || sa.M[i] != sb.M[i] || sa.V[i] != sb.V[i] {
				t.Fatalf("parameter %d: Begin+Update (%v, %v, %v), Step (%v, %v, %v)", i, q[i], sb.M[i], sb.V[i], p[i], sa.M[i], sa.V[i])
			}
		}
	}
}
