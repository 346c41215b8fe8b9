package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestKernelMatchesGo compares the microkernel in use (the AVX2 + FMA
// assembly on amd64 processors that have both) with kernelGo bit for bit:
// depths around the unrolling by four and the block depth kc, A packed and
// read in place with both strides, every tile size from 1×1 to mr×nr (the
// masked stores of edge tiles), storing and adding. The elements of C
// outside the tile must keep their values.
func TestKernelMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	const ldc = nr + 5
	for _, kb := range []int{1, 2, 3, 4, 5, 7, 8, 9, 31, kc - 1, kc, kc + 1} {
		for _, layout := range []struct {
			name           string
			rsa, csa, size int
		}{
			{"packed", 1, mr, mr * kb},
			{"rows", kb + 3, 1, (mr-1)*(kb+3) + kb},
			{"columns", 1, mr + 7, (kb-1)*(mr+7) + mr},
		} {
			a := randMatrix(rng, 1, layout.size, layout.size)
			b := randMatrix(rng, kb, nr, nr+2)
			c0 := randMatrix(rng, mr+1, ldc, ldc)
			for rows := 1; rows <= mr; rows++ {
				for cols := 1; cols <= nr; cols++ {
					for _, add := range []bool{false, true} {
						got, want := slices.Clone(c0), slices.Clone(c0)
						kernel(kb, a, layout.rsa, layout.csa, b, nr+2, got, ldc, rows, cols, add)
						kernelGo(kb, a, layout.rsa, layout.csa, b, nr+2, want, ldc, rows, cols, add)
						what := fmt.Sprintf("kc=%d %s rows=%d cols=%d add=%v", kb, layout.name, rows, cols, add)
						compareC(t, what, got, want, ldc)
						if rows == mr && cols == nr && slices.Equal(got, c0) {
							t.Fatalf("%s: C unchanged", what)
						}
					}
				}
			}
		}
	}
}

// TestKernelSpecialValues runs the microkernel on panels holding zeros of
// both signs, subnormals, values near overflow, infinities and NaN, where
// the fused multiply-adds of fma32 and of the processor must still agree
// (NaN with NaN, whatever the payload).
func TestKernelSpecialValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	special := []float32{0, float32(math.Copysign(0, -1)), math.SmallestNonzeroFloat32, -0x1p-130,
		0x1p-75, math.MaxFloat32, -0x1p100, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1, -1}
	const kb = 9
	for range 300 {
		a := make([]float32, mr*kb)
		b := make([]float32, kb*nr)
		for _, s := range [][]float32{a, b} {
			for i := range s {
				if rng.IntN(3) == 0 {
					s[i] = special[rng.IntN(len(special))]
				} else {
					s[i] = randFloat32(rng, -80, 80)
				}
			}
		}
		c0 := randMatrix(rng, mr, nr, nr)
		for _, add := range []bool{false, true} {
			got, want := slices.Clone(c0), slices.Clone(c0)
			kernel(kb, a, 1, mr, b, nr, got, nr, mr, nr, add)
			kernelGo(kb, a, 1, mr, b, nr, want, nr, mr, nr, add)
			for x := range want {
				if !sameFloat32(got[x], want[x]) {
					t.Fatalf("add=%v: C(%d, %d) = %x, kernelGo %x", add, x/nr, x%nr, got[x], want[x])
				}
			}
		}
	}
}

// TestKernel2MatchesGo compares the kernel of two row panels (kernel2, in
// AVX-512 assembly where the processor has it) with kernelGo run on each
// panel, bit for bit: depths around the unrolling by four and the block
// depth kc, A read in place with both strides, every number of columns
// from 1 to nr (the masked stores of edge tiles), storing and adding, with
// ordinary and special values (zeros of both signs, subnormals, values
// near overflow, infinities, NaN). The elements of C outside the tile
// must keep their values.
func TestKernel2MatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	special := []float32{0, float32(math.Copysign(0, -1)), math.SmallestNonzeroFloat32, -0x1p-130,
		0x1p-75, math.MaxFloat32, -0x1p100, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1, -1}
	const ldc = nr + 5
	for _, kb := range []int{1, 2, 3, 4, 5, 7, 8, 9, 31, kc - 1, kc, kc + 1} {
		for _, layout := range []struct {
			name           string
			rsa, csa, size int
		}{
			{"rows", kb + 3, 1, (2*mr-1)*(kb+3) + kb},
			{"columns", 1, 2*mr + 7, (kb-1)*(2*mr+7) + 2*mr},
		} {
			for _, odd := range []bool{false, true} {
				a := randMatrix(rng, 1, layout.size, layout.size)
				b := randMatrix(rng, kb, nr, nr+2)
				if odd {
					for _, s := range [][]float32{a, b} {
						for i := range s {
							if rng.IntN(3) == 0 {
								s[i] = special[rng.IntN(len(special))]
							}
						}
					}
				}
				c0 := randMatrix(rng, 2*mr+1, ldc, ldc)
				for cols := 1; cols <= nr; cols++ {
					for _, add := range []bool{false, true} {
						got, want := slices.Clone(c0), slices.Clone(c0)
						kernel2(kb, a, layout.rsa, layout.csa, b, nr+2, got, ldc, cols, add)
						kernelGo(kb, a, layout.rsa, layout.csa, b, nr+2, want, ldc, mr, cols, add)
						kernelGo(kb, a[mr*layout.rsa:], layout.rsa, layout.csa, b, nr+2, want[mr*ldc:], ldc, mr, cols, add)
						what := fmt.Sprintf("kc=%d %s special=%v cols=%d add=%v", kb, layout.name, odd, cols, add)
						for x := range want {
							if !sameFloat32(got[x], want[x]) {
								t.Fatalf("%s: C(%d, %d) = %x, kernelGo %x", what, x/ldc, x%ldc, got[x], want[x])
							}
						}
						if !odd && cols == nr && slices.Equal(got, c0) {
							t.Fatalf("%s: C unchanged", what)
						}
					}
				}
			}
		}
	}
}
