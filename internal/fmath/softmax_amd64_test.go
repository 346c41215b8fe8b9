//go:build amd64 && !purego

package fmath

import (
	"math/rand/v2"
	"testing"
)

// TestExpShiftSum2Kernel calls the two-row kernel directly where the
// processor has it, so that a kernel that never runs (and leaves every
// entry to the Go form) fails too: on rows of arguments in range it must
// do every full block of eight, with the bits of expShiftSumGo, and it
// must stop at a block holding an argument out of range in either row.
func TestExpShiftSum2Kernel(t *testing.T) {
	if !use512 {
		t.Skip("no AVX-512")
	}
	rng := rand.New(rand.NewPCG(15, 16))
	for _, n := range []int{8, 15, 16, 1000, 1003} {
		z0, z1 := make([]float64, n), make([]float64, n)
		for i := range n {
			z0[i], z1[i] = 3*rng.NormFloat64(), 30*rng.NormFloat64()
		}
		m0, m1 := maxGo(z0), maxGo(z1)
		d0, d1 := make([]float64, n), make([]float64, n)
		s0, s1, done := expShiftSum2AVX512(d0, d1, z0, z1, m0, m1, 0, 0, &expConsts, &table)
		if done != n&^7 {
			t.Fatalf("n=%d: kernel did %d entries, want %d", n, done, n&^7)
		}
		w0, w1 := make([]float64, done), make([]float64, done)
		if g, w := s0, expShiftSumGo(w0, z0[:done], m0); !sameBits(g, w) {
			t.Fatalf("n=%d: row 0 sum %v, Go form %v", n, g, w)
		}
		if g, w := s1, expShiftSumGo(w1, z1[:done], m1); !sameBits(g, w) {
			t.Fatalf("n=%d: row 1 sum %v, Go form %v", n, g, w)
		}
		for i := range done {
			if !sameBits(d0[i], w0[i]) || !sameBits(d1[i], w1[i]) {
				t.Fatalf("n=%d, entry %d: %v %v, Go form %v %v", n, i, d0[i], d1[i], w0[i], w1[i])
			}
		}
		for i := done; i < n; i++ {
			if d0[i] != 0 || d1[i] != 0 {
				t.Fatalf("n=%d: kernel wrote entry %d past its blocks", n, i)
			}
		}
		if n < 16 {
			continue
		}
		// An argument out of range in row 1's second block only.
		z1[9] = m1 - 800
		_, _, done = expShiftSum2AVX512(d0, d1, z0, z1, m0, m1, 0, 0, &expConsts, &table)
		if done != 8 {
			t.Fatalf("n=%d: with z1[9] out of range the kernel did %d entries, want 8", n, done)
		}
	}
}
