package permanova

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkTest times a test of 999 permutations on n samples in 4 groups
// (the matrix prepared beforehand), one worker and all, and BenchmarkNew
// the preparation of the matrix.
func BenchmarkTest(b *testing.B) {
	for _, n := range []int{300, 1000, 3000} {
		labels := labelsOf(n, 4)
		d := randomMatrix(rand.New(rand.NewPCG(1, 2)), n, 10, 0.1, labels)
		m, err := New(d, n, 0)
		if err != nil {
			b.Fatal(err)
		}
		for _, w := range []int{1, 0} {
			b.Run(fmt.Sprintf("n=%d/workers=%d", n, w), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := m.Test(context.Background(), labels, &Options{Seed: 1, Workers: w}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkNew(b *testing.B) {
	n := 3000
	d := randomMatrix(rand.New(rand.NewPCG(1, 2)), n, 10, 0.1, labelsOf(n, 4))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(d, n, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkKernel times maskSum4 on a row of 3000 values (8·375): the
// work of one row for four permutations.
func BenchmarkKernel(b *testing.B) {
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
	b.Run("asm", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(8 * 3000)
		for b.Loop() {
			maskSum4(&s, row, m[0], m[1], m[2], m[3])
		}
	})
	b.Run("go", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(8 * 3000)
		for b.Loop() {
			maskSum4Go(&s, row, m[0], m[1], m[2], m[3])
		}
	})
}
