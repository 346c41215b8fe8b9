package bag

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestAxpyKernel: axpy (the AVX2 kernel where there is one) gives the bits
// of axpyGo for every length from 0 to 80, offsets that break the
// alignment, and values of every magnitude, subnormals and signed zeros
// included.
func TestAxpyKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	draw := func() float32 {
		switch rng.IntN(8) {
		case 0:
			return float32(math.Copysign(0, rng.NormFloat64()))
		case 1:
			return math.Float32frombits(rng.Uint32() & 0x807fffff) // subnormal
		}
		return float32(rng.NormFloat64() * math.Pow(2, float64(rng.IntN(40)-20)))
	}
	for n := range 81 {
		for off := range 3 {
			x := make([]float32, n+off)
			y := make([]float32, n+off)
			for i := range x {
				x[i], y[i] = draw(), draw()
			}
			a := draw()
			want := slices.Clone(y)
			axpyGo(want[off:], x[off:], a)
			axpy(y[off:], x[off:], a)
			for i := range y {
				if math.Float32bits(y[i]) != math.Float32bits(want[i]) {
					t.Fatalf("n %d, offset %d, entry %d: %v, want %v", n, off, i, y[i], want[i])
				}
			}
		}
	}
}
