package utw_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/utw"
)

// BenchmarkDistance times UTW_λ and its gradient between two random
// measures with mass on every node (totals about 1 and 1.5), unit
// weights: on uniformly random trees numbered breadth-first with λ = 1
// (the mass cost is comparable to one edge, so both transport and
// creation happen), and on a chain and a star of 10⁶ nodes with λ = 1 and
// λ = 1000 (on the chain, a mass cost of 1000 keeps some 2000 breakpoints
// per function: the slowest case).
func BenchmarkDistance(b *testing.B) {
	type shape struct {
		name   string
		n      int
		lambda float64
	}
	var shapes []shape
	for _, n := range []int{1000, 10000, 100000, 1000000} {
		shapes = append(shapes, shape{"random", n, 1})
	}
	shapes = append(shapes, shape{"chain", 1000000, 1}, shape{"chain", 1000000, 1000},
		shape{"star", 1000000, 1}, shape{"star", 1000000, 1000})
	for _, c := range shapes {
		b.Run(fmt.Sprintf("tree=%s/L=%d/λ=%g", c.name, c.n, c.lambda), func(b *testing.B) {
			var tr *tree.Tree
			switch c.name {
			case "chain":
				tr = tree.Chain(c.n)
			case "star":
				tr = tree.Star(c.n)
			default:
				tr = tree.Random(c.n, rand.NewPCG(1, uint64(c.n))).BreadthFirst()
			}
			rng := rand.New(rand.NewPCG(2, uint64(c.n)))
			x, y := measure(rng, c.n, 1, 1), measure(rng, c.n, 1, 1.5)
			ws := utw.NewWorkspace(tr, c.lambda)
			g := make([]float64, c.n)
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
