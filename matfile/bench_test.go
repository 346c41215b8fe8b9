package matfile

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkRead reads a file holding one compressed n×n double matrix of
// random values and converts it with Matrix.
func BenchmarkRead(b *testing.B) {
	for _, n := range []int{10, 200, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			v := make([]float64, n*n)
			for i := range v {
				v[i] = rng.Float64()
			}
			file := le.file(le.compress(le.double("A", int32(n), int32(n), v...)))
			b.SetBytes(int64(8 * n * n))
			b.ReportAllocs()
			for b.Loop() {
				f, err := Read(bytes.NewReader(file), "b.mat")
				if err != nil {
					b.Fatal(err)
				}
				if _, err := f.Matrix("A"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
