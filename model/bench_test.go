package model_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/model"
	"github.com/twl-ldl/twl/tree"
)

// BenchmarkLinear times a forward (Logits) and a backward pass at the
// paper's synthetic shape (batch 10, 100 features, 1000 labels) and at
// larger batches.
func BenchmarkLinear(b *testing.B) {
	for _, s := range []struct{ rows, in, out int }{{10, 100, 1000}, {256, 100, 1000}, {10, 100, 10000}} {
		rng := rand.New(rand.NewPCG(1, 2))
		m := model.NewLinear(s.in, s.out, rng)
		X := randSlice(rng, s.rows*s.in)
		G := randSlice(rng, s.rows*s.out)
		z := make([]float64, s.rows*s.out)
		g := make([]float64, len(m.Params))
		name := fmt.Sprintf("rows=%d/in=%d/out=%d", s.rows, s.in, s.out)
		b.Run("Logits/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				m.Logits(z, X)
			}
		})
		b.Run("Backward/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				m.Backward(g, G, X)
			}
		})
	}
}

// BenchmarkSave writes a model of the paper's synthetic shape (1000
// labels, 100 features, standardized) to memory.
func BenchmarkSave(b *testing.B) {
	const in, out = 100, 1000
	rng := rand.New(rand.NewPCG(1, 2))
	m := model.NewLinear(in, out, rng)
	labels := make([]string, out)
	for i := range labels {
		labels[i] = fmt.Sprint(i)
	}
	f := model.NewFile(m, labels)
	f.Loss = "kl"
	f.Tree = tree.Ref{Source: "star:1000", SHA256: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}
	f.Standardize = &model.Standardization{Mean: randSlice(rng, in), Scale: make([]float64, in)}
	for i := range f.Standardize.Scale {
		f.Standardize.Scale[i] = 1 + rng.Float64()
	}
	var buf bytes.Buffer
	if err := model.Save(&buf, f); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := model.Save(&buf, f); err != nil {
			b.Fatal(err)
		}
	}
}
