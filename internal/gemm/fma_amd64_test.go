//go:build amd64 && !purego

package gemm

import (
	"math"
	"math/rand/v2"
	"testing"

	"golang.org/x/sys/cpu"
)

// TestFMA32Hardware checks fma32 against the processor's VFMADD231SS on
// millions of random inputs (raw random bit patterns, which include NaNs,
// infinities and subnormals, and the magnitudes of randomFMACase), on the
// constructed double-rounding cases and on the special cases.
func TestFMA32Hardware(t *testing.T) {
	if !cpu.X86.HasFMA || !cpu.X86.HasAVX {
		t.Skip("no FMA")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	n := 3_000_000
	if testing.Short() {
		n = 300_000
	}
	check := func(a, b, c float32) {
		if got, want := fma32(a, b, c), fmaAsm(a, b, c); !sameFloat32(got, want) {
			t.Fatalf("fma32(%x, %x, %x) = %x, VFMADD231SS %x", a, b, c, got, want)
		}
	}
	for _, c := range specialCases() {
		check(c[0], c[1], c[2])
	}
	for _, c := range doubleRoundingCases(rng, 200000) {
		check(c[0], c[1], c[2])
	}
	for i := range n {
		if i%2 == 0 {
			check(math.Float32frombits(rng.Uint32()), math.Float32frombits(rng.Uint32()), math.Float32frombits(rng.Uint32()))
		} else {
			c := randomFMACase(rng)
			check(c[0], c[1], c[2])
		}
	}
}
