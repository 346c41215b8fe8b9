package metric

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/tree"
)

// BenchmarkRow times all seven metrics of one pair on a random tree.
func BenchmarkRow(b *testing.B) {
	for _, L := range []int{100, 10000, 100000} {
		for _, clip := range []bool{false, true} {
			b.Run(fmt.Sprintf("L=%d/clip=%v", L, clip), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(1, uint64(L)))
				ev := NewEvaluator(tree.Random(L, rng), &Options{Clip: clip})
				p, q := testutil.Dist(rng, L), testutil.SparseDist(rng, L, L/10)
				row := make([]float64, len(Names))
				b.ReportAllocs()
				b.SetBytes(int64(16 * L))
				for b.Loop() {
					ev.Row(row, p, q)
				}
			})
		}
	}
}
