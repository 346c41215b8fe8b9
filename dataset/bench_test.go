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

// BenchmarkReader streams 100 samples of 20 features with 20 labels a
// line over stars of several sizes, reading the targets or skipping them.
func BenchmarkReader(b *testing.B) {
	for _, L := range []int{1000, 100000} {
		const n, d, k = 100, 20, 20
		rng := rand.New(rand.NewPCG(1, 2))
		tr := tree.Star(L)
		var buf bytes.Buffer
		for range n {
			buf.WriteString(`{"x": [`)
			for i := range d {
				if i > 0 {
					buf.WriteByte(',')
				}
				fmt.Fprintf(&buf, "%v", rng.NormFloat64())
			}
			buf.WriteString(`], "y": {`)
			for i, j := range rng.Perm(L)[:k] {
				if i > 0 {
					buf.WriteByte(',')
				}
				fmt.Fprintf(&buf, `"%s": 0.05`, tr.Name(j))
			}
			buf.WriteString("}}\n")
		}
		for _, targets := range []Targets{TargetsRequired, TargetsIgnored} {
			b.Run(fmt.Sprintf("L=%d/targets=%d", L, targets), func(b *testing.B) {
				b.SetBytes(int64(buf.Len()))
				b.ReportAllocs()
				for b.Loop() {
					rd := NewReader(bytes.NewReader(buf.Bytes()), "b.jsonl", tr, &ReaderOptions{Targets: targets})
					for rd.Next() {
					}
					if err := rd.Err(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
