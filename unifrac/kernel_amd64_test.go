//go:build amd64 && !purego

package unifrac

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestKernelBits checks that the assembly kernel gives the Go reference's
// bits.
func TestKernelBits(t *testing.T) {
	if !hasAVX2 {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{4, 8, 128, 132} {
		ys := n + 4*rng.IntN(3)
		x0, x1 := make([]float64, n), make([]float64, n)
		y := make([]float64, 3*ys+n)
		fill := func(v []float64) {
			for k := range v {
				switch rng.IntN(4) {
				case 0:
				case 1:
					v[k] = rng.Float64() * 1e-9
				default:
					v[k] = rng.ExpFloat64()
				}
			}
		}
		fill(x0)
		fill(x1)
		fill(y)
		copy(y[ys:ys+n], x0) // equal values
		ld := 7
		a, b := make([]float64, ld+4), make([]float64, ld+4)
		for k := range a {
			a[k] = rng.Float64()
			b[k] = a[k]
		}
		minSum2x4(a, ld, x0, x1, y, ys)
		minSum2x4Go(b, ld, x0, x1, y, ys)
		for k := range a {
			if math.Float64bits(a[k]) != math.Float64bits(b[k]) {
				t.Fatalf("n=%d: acc[%d] = %v, Go %v", n, k, a[k], b[k])
			}
		}
	}
}
