package dataset

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/twl-ldl/twl/tree"
)

// BenchmarkReadJSONL reads 100 samples of 20 features with dense label
// rows over trees of several sizes, written by WriteJSONL.
func BenchmarkReadJSONL(b *testing.B) {
	for _, L := range []int{10, 1000, 100000} {
		b.Run(fmt.Sprintf("L=%d", L), func(b *testing.B) {
			const n, d = 100, 20
			rng := rand.New(rand.NewPCG(1, 2))
			x := make([]float64, n*d)
			for i := range x {
				x[i] = rng.NormFloat64()
			}
			y := make([]float64, n*L)
			for i := range n {
				row := y[i*L : (i+1)*L]
				for j := range row {
					row[j] = 1 / float64(L)
				}
			}
			tr := tree.Star(L)
			var buf bytes.Buffer
			if err := WriteJSONL(&buf, &Dataset{X: mat.NewDense(n, d, x), Y: mat.NewDense(n, L, y)}, tr); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(buf.Len()))
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := ReadJSONL(bytes.NewReader(buf.Bytes()), "b.jsonl", tr, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
