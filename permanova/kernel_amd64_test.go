//go:build amd64 && !purego

package permanova

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestKernelAVX2 checks the AVX2 kernel, which machines with AVX-512 do not
// choose, against the Go form bit for bit; and that a whole test gives the
// same statistics on each of the three kernels.
func TestKernelAVX2(t *testing.T) {
	if !hasAVX2 {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(17, 18))
	for chunks := 1; chunks < 70; chunks++ {
		row := make([]float64, 8*chunks)
		for i := range row {
			if rng.IntN(5) > 0 {
				row[i] = rng.ExpFloat64() * math.Pow(10, float64(rng.IntN(20)-10))
			}
		}
		var m [4][]byte
		for q := range m {
			m[q] = make([]byte, chunks)
			for c := range m[q] {
				m[q][c] = byte(rng.Uint32())
			}
		}
		var got, want [4]float64
		maskSum4AVX2(&got, row, m[0], m[1], m[2], m[3])
		maskSum4Go(&want, row, m[0], m[1], m[2], m[3])
		if got != want {
			t.Errorf("%d chunks: AVX2 %v, Go %v", chunks, got, want)
		}
	}

	n := 203
	labels := labelsOf(n, 3)
	d := randomMatrix(rng, n, 3, 0.2, labels)
	m := mustNew(t, d, n)
	groups := make([]int32, n)
	sizes := make([]int, 3)
	for i := range groups {
		groups[i] = int32(i % 3)
		sizes[i%3]++
	}
	run := func(avx512, avx2 bool) []float64 {
		defer func(a, b bool) { hasAVX512, hasAVX2 = a, b }(hasAVX512, hasAVX2)
		hasAVX512, hasAVX2 = avx512, avx2
		fs, err := m.statistics(context.Background(), groups, sizes, 301, 3, 2)
		if err != nil {
			t.Fatal(err)
		}
		return fs
	}
	goForm := run(false, false)
	if avx2 := run(false, true); !slices.Equal(avx2, goForm) {
		t.Error("the AVX2 kernel's statistics differ from the Go form's")
	}
	if hasAVX512 {
		if avx512 := run(true, true); !slices.Equal(avx512, goForm) {
			t.Error("the AVX-512 kernel's statistics differ from the Go form's")
		}
	}
}

// BenchmarkKernelAVX2 is BenchmarkKernel's asm case on the AVX2 kernel.
func BenchmarkKernelAVX2(b *testing.B) {
	if !hasAVX2 {
		b.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	row := make([]float64, 3000)
	for i := range row {
		row[i] = rng.Float64()
	}
	var m [4][]byte
	for q := range m {
		m[q] = make([]byte, 375)
		for c := range m[q] {
			m[q][c] = byte(rng.Uint32())
		}
	}
	var s [4]float64
	b.ReportAllocs()
	b.SetBytes(8 * 3000)
	for b.Loop() {
		maskSum4AVX2(&s, row, m[0], m[1], m[2], m[3])
	}
}
