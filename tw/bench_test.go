package tw

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

var benchSizes = []int{100, 1000, 10000, 100000, 1000000}

// randomDist returns a random probability vector of length n.
func randomDist(rng *rand.Rand, n int) []float64 {
	p := make([]float64, n)
	var s float64
	for i := range p {
		p[i] = rng.Float64()
		s += p[i]
	}
	for i := range p {
		p[i] /= s
	}
	return p
}

func benchSetup(n int) (*tree.Tree, []float64, []float64) {
	t := tree.Random(n, rand.NewPCG(1, uint64(n)))
	rng := rand.New(rand.NewPCG(2, uint64(n)))
	return t, randomDist(rng, n), randomDist(rng, n)
}

func BenchmarkDistance(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("L=%d", n), func(b *testing.B) {
			t, x, y := benchSetup(n)
			ws := NewWorkspace(t)
			b.ReportAllocs()
			for b.Loop() {
				ws.Distance(x, y)
			}
		})
	}
}

func BenchmarkDistanceGrad(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("L=%d", n), func(b *testing.B) {
			t, x, y := benchSetup(n)
			ws := NewWorkspace(t)
			g := make([]float64, n)
			b.ReportAllocs()
			for b.Loop() {
				ws.DistanceGrad(g, x, y)
			}
		})
	}
}

func BenchmarkLogitGrad(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("L=%d", n), func(b *testing.B) {
			t, x, y := benchSetup(n)
			ws := NewWorkspace(t)
			g := make([]float64, n)
			b.ReportAllocs()
			for b.Loop() {
				ws.LogitGrad(g, x, y)
			}
		})
	}
}

// BenchmarkBatchDistanceGrad reports label entries per second
// (batch × labels per second) for a batch of 100 rows.
func BenchmarkBatchDistanceGrad(b *testing.B) {
	const rows = 100
	for _, n := range benchSizes[:4] {
		b.Run(fmt.Sprintf("L=%d", n), func(b *testing.B) {
			t := tree.Random(n, rand.NewPCG(1, uint64(n)))
			rng := rand.New(rand.NewPCG(2, uint64(n)))
			A := make([]float64, 0, rows*n)
			B := make([]float64, 0, rows*n)
			for range rows {
				A = append(A, randomDist(rng, n)...)
				B = append(B, randomDist(rng, n)...)
			}
			G := make([]float64, rows*n)
			v := make([]float64, rows)
			bt := NewBatch(t, 0)
			b.ReportAllocs()
			for b.Loop() {
				bt.DistanceGrad(v, G, A, B)
			}
			b.ReportMetric(float64(rows*n)*float64(b.N)/b.Elapsed().Seconds(), "entries/s")
		})
	}
}
