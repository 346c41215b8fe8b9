package utw_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/utw"
)

// BenchmarkDistance times UTW_λ between two random measures with mass on
// every node (totals about 1 and 1.5) on uniformly random trees numbered
// breadth-first, λ = 1 (unit weights: the mass cost is comparable to one
// edge, so both transport and creation happen).
func BenchmarkDistance(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000, 1000000} {
		b.Run(fmt.Sprintf("L=%d", n), func(b *testing.B) {
			tr := tree.Random(n, rand.NewPCG(1, uint64(n))).BreadthFirst()
			rng := rand.New(rand.NewPCG(2, uint64(n)))
			x, y := measure(rng, n, 1, 1), measure(rng, n, 1, 1.5)
			ws := utw.NewWorkspace(tr, 1)
			g := make([]float64, n)
			b.ReportAllocs()
			for b.Loop() {
				ws.DistanceGrad(g, x, y)
			}
		})
	}
}

// BenchmarkSparse times UTW_λ between two measures of 20 labels each.
func BenchmarkSparse(b *testing.B) {
	for _, n := range []int{1000, 1000000} {
		b.Run(fmt.Sprintf("L=%d", n), func(b *testing.B) {
			tr := tree.Random(n, rand.NewPCG(1, uint64(n))).BreadthFirst()
			rng := rand.New(rand.NewPCG(2, uint64(n)))
			ai, am := rng.Perm(n)[:20], make([]float64, 20)
			bi, bm := rng.Perm(n)[:20], make([]float64, 20)
			for k := range am {
				am[k], bm[k] = rng.Float64(), rng.Float64()
			}
			s := utw.NewSparse(tr, 1)
			b.ReportAllocs()
			for b.Loop() {
				s.Distance(ai, am, bi, bm)
			}
		})
	}
}
