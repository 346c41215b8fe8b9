package testutil

import (
	"math"
	"slices"
)

// Softmax is the reference softmax of the tests: exp(z_i − max z) by
// math.Exp, normalized. It shares no code with internal/fmath.
func Softmax(z []float64) []float64 {
	m := slices.Max(z)
	p := make([]float64, len(z))
	var s float64
	for i, v := range z {
		p[i] = math.Exp(v - m)
		s += p[i]
	}
	for i := range p {
		p[i] /= s
	}
	return p
}

// KL is KL(y‖p) = Σ y_i log(y_i/p_i) with 0·log 0 = 0, straight from the
// definition (the paper's Eq. 3), as the tests' reference.
func KL(y, p []float64) float64 {
	var s float64
	for i, yi := range y {
		if yi > 0 {
			s += yi * math.Log(yi/p[i])
		}
	}
	return s
}
