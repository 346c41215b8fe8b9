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

// TestSumRowsKernel: sumRows (the AVX2 kernel, 96 values of a row at a
// time, where there is one) gives the bits of sumRowsGo for dimensions
// around the kernel's block, features repeated, none, and values of every
// magnitude; a feature outside the table panics.
func TestSumRowsKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, D := range []int{1, 7, 8, 95, 96, 97, 100, 191, 192, 200, 300} {
		const rows = 40
		emb := make([]float32, rows*D)
		for i := range emb {
			emb[i] = float32(rng.NormFloat64() * math.Pow(2, float64(rng.IntN(60)-30)))
		}
		for _, n := range []int{0, 1, 5, 9, 30} {
			feats := make([]int32, n)
			for i := range feats {
				feats[i] = int32(rng.IntN(rows))
			}
			got, want := make([]float32, D), make([]float32, D)
			for i := range got {
				got[i] = float32(rng.NormFloat64())
				want[i] = got[i]
			}
			sumRows(got, emb, feats, D)
			sumRowsGo(want, emb, feats, D)
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("D %d, %d features, value %d: %v, want %v", D, n, i, got[i], want[i])
				}
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("a feature outside the table did not panic")
		}
	}()
	sumRows(make([]float32, 100), make([]float32, 300), []int32{0, 3}, 100)
}
