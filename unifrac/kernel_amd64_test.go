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

// TestOneSidedRowBits checks that the assembly forms of oneSidedRow give
// the Go reference's bits, for every length up to 40.
func TestOneSidedRowBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 4))
	saved512, saved2 := hasAVX512, hasAVX2
	defer func() { hasAVX512, hasAVX2 = saved512, saved2 }()
	for _, f := range []struct{ avx512, avx2 bool }{{saved512, saved2}, {false, saved2}} {
		hasAVX512, hasAVX2 = f.avx512, f.avx2
		for n := range 41 {
			cls := make([]float64, n)
			row, want := make([]float64, n+3), make([]float64, n+3)
			for d := range cls {
				cls[d] = float64(1 + rng.IntN(5000))
				row[d] = rng.ExpFloat64()
			}
			copy(want, row)
			c := float64(1 + rng.IntN(100))
			K, g := float64(rng.IntN(4000)), rng.ExpFloat64()
			oneSidedRow(row, cls, c, K, g)
			oneSidedRowGo(want, cls, c, K, g)
			for d := range row {
				if math.Float64bits(row[d]) != math.Float64bits(want[d]) {
					t.Fatalf("avx512=%v n=%d: row[%d] = %v, Go %v", f.avx512, n, d, row[d], want[d])
				}
			}
		}
	}
}

// TestVawTermsBits checks that the assembly forms of vawTermsW and
// vawTermsU give the Go references' bits, for every length up to 40 and
// column entries that hold all the counts of both samples (a zero
// divisor) among others.
func TestVawTermsBits(t *testing.T) {
	if !hasAVX512 {
		t.Skip("no AVX-512")
	}
	rng := rand.New(rand.NewPCG(29, 5))
	for n := range 41 {
		c2, a2, t2 := make([]float64, n), make([]float64, n), make([]float64, n)
		c1 := float64(1 + rng.IntN(50))
		C1 := c1 + float64(rng.IntN(3)*rng.IntN(100))
		a1 := c1 / C1
		for k := range n {
			c2[k] = float64(1 + rng.IntN(50))
			t2[k] = c2[k] + float64(rng.IntN(3)*rng.IntN(100))
			a2[k] = c2[k] / t2[k]
		}
		w := rng.ExpFloat64()
		got, want := make([][]float64, 5), make([][]float64, 5)
		for i := range got {
			got[i], want[i] = make([]float64, n), make([]float64, n)
		}
		vawTermsW(got[0], got[1], got[2], c2, a2, t2, c1, a1, C1, w, a1*w, C1-c1)
		vawTermsWGo(want[0], want[1], want[2], c2, a2, t2, c1, a1, C1, w, a1*w, C1-c1)
		vawTermsU(got[3], got[4], c2, t2, c1, C1, w, C1-c1)
		vawTermsUGo(want[3], want[4], c2, t2, c1, C1, w, C1-c1)
		for i := range got {
			for k := range got[i] {
				if math.Float64bits(got[i][k]) != math.Float64bits(want[i][k]) {
					t.Fatalf("n=%d output %d entry %d: %v, Go %v", n, i, k, got[i][k], want[i][k])
				}
			}
		}
	}
}
