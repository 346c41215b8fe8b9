package fmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMixedGradBits checks MixedGrad (the AVX2 form where the processor
// has it) against the formula computed here entry by entry, one rounded
// operation after the other, bit for bit, for lengths 0 to 37 (every
// remainder of four) and values over many magnitudes, zeros included.
func TestMixedGradBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	val := func() float64 {
		if rng.IntN(8) == 0 {
			return 0
		}
		return rng.NormFloat64() * math.Pow(2, float64(rng.IntN(40)-20))
	}
	for n := range 38 {
		p, y, gp := make([]float64, n+3), make([]float64, n+3), make([]float64, n+3)
		for i := range p {
			p[i], y[i], gp[i] = math.Abs(val()), math.Abs(val()), val()
		}
		inv, lam, dot := 1/float64(n+1), math.Abs(val()), val()
		g := make([]float64, n)
		MixedGrad(g, p, y, gp, inv, lam, dot)
		for i := range g {
			// The conversions round each product before it is added.
			a := p[i] - y[i]
			b := float64(lam * p[i])
			c := gp[i] - dot
			want := inv * (a + float64(b*c))
			if math.Float64bits(g[i]) != math.Float64bits(want) {
				t.Fatalf("n %d, entry %d: %v, want %v", n, i, g[i], want)
			}
		}
	}
}
