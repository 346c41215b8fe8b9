package model

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestKernelsMatchReference checks that the blocked kernels (assembly on
// amd64) give bit for bit the values of the reference Go forms (dotRef and
// rowSumRef, or dotFMARef and rowSumFMARef where the fused form runs; both
// forms are tested where the processor has FMA), for shapes that exercise
// every edge: feature counts with every remainder mod 4, label counts that
// leave remainders of 1–3 after blocks of 4 (and of 1 after pairs), odd row
// counts, and label ranges that start mid-way.
func TestKernelsMatchReference(t *testing.T) {
	defer func(v bool) { useFMA = v }(useFMA)
	for _, fma := range []bool{useFMA, false} {
		useFMA = fma
		testKernelsMatchReference(t)
	}
}

func testKernelsMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, sh := range []struct{ rows, in, out, lo, hi int }{
		{1, 1, 1, 0, 1}, {2, 2, 4, 0, 4}, {3, 5, 7, 0, 7}, {10, 100, 1000, 0, 1000},
		{10, 100, 1000, 3, 998}, {7, 33, 13, 1, 12}, {4, 2, 9, 0, 9}, {5, 101, 6, 2, 6},
		{3, 4, 8, 0, 8}, {6, 18, 11, 0, 11}, {2, 70, 5, 0, 5}, {9, 67, 3, 0, 3},
		{5, 8, 9, 1, 9}, {4, 12, 16, 0, 16}, {1, 8, 8, 0, 8}, {11, 40, 23, 2, 21},
	} {
		X := make([]float64, sh.rows*sh.in)
		W := make([]float64, sh.out*sh.in)
		b := make([]float64, sh.out)
		G := make([]float64, sh.rows*sh.out)
		for _, s := range [][]float64{X, W, b, G} {
			for i := range s {
				s[i] = rng.NormFloat64() * math.Pow(2, float64(rng.IntN(20)-10))
			}
		}
		// Columns of G of negative zeros: their bias gradient is +0 (the
		// sum starts from +0).
		for j := 0; j < sh.out; j += 5 {
			for r := 0; r < sh.rows; r++ {
				G[r*sh.out+j] = math.Copysign(0, -1)
			}
		}
		dst := make([]float64, sh.rows*sh.out)
		logitsBlock(dst, X, W, b, sh.rows, sh.in, sh.out, sh.lo, sh.hi)
		for r := 0; r < sh.rows; r++ {
			for j := sh.lo; j < sh.hi; j++ {
				want := b[j] + dot(X[r*sh.in:(r+1)*sh.in], W[j*sh.in:(j+1)*sh.in])
				if got := dst[r*sh.out+j]; math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("fma=%v %+v: logit (%d, %d) = %v, reference %v", useFMA, sh, r, j, got, want)
				}
			}
		}
		gw := make([]float64, sh.out*sh.in)
		gb := make([]float64, sh.out)
		backwardBlock(gw, gb, G, X, sh.rows, sh.in, sh.out, sh.lo, sh.hi, make([]float64, 4*sh.rows))
		for j := sh.lo; j < sh.hi; j++ {
			var sb float64
			for r := 0; r < sh.rows; r++ {
				sb += G[r*sh.out+j]
			}
			if math.Float64bits(gb[j]) != math.Float64bits(sb) {
				t.Fatalf("%+v: bias gradient %d = %v, want %v", sh, j, gb[j], sb)
			}
			for k := 0; k < sh.in; k++ {
				want := rowSum(G, X, sh.rows, sh.in, sh.out, j, k)
				if got := gw[j*sh.in+k]; math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("fma=%v %+v: weight gradient (%d, %d) = %v, reference %v", useFMA, sh, j, k, got, want)
				}
			}
		}
	}
}
