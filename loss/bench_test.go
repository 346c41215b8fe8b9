package loss_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/tree"
)

// BenchmarkKLTW times KL + TW with its gradient on batches of the
// synthetic training benchmark's shape: 1000 labels on a random tree in
// breadth-first order, dense random targets, their Σ y log y given (as
// train.Fit gives them). Five rows are what one of two cores gets of a
// batch of ten; with GOMAXPROCS=1 (-cpu 1) every batch runs on one core.
func BenchmarkKLTW(b *testing.B) {
	t := tree.Random(1000, rand.NewPCG(1, 2)).BreadthFirst()
	L := t.Len()
	for _, rows := range []int{5, 10} {
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(3, uint64(rows)))
			z, y := make([]float64, rows*L), make([]float64, rows*L)
			for r := range rows {
				var s float64
				for i := r * L; i < (r+1)*L; i++ {
					z[i] = 3 * rng.NormFloat64()
					y[i] = rng.ExpFloat64()
					s += y[i]
				}
				for i := r * L; i < (r+1)*L; i++ {
					y[i] /= s
				}
			}
			l := loss.NewKLTW(t, 1)
			terms := make([]float64, rows)
			l.TargetTerms(terms, y)
			grad := make([]float64, rows*L)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := l.EvalTerms(grad, z, y, terms); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
