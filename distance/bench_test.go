package distance_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/distance"
)

// BenchmarkRows times tw and tsw on 4096 pairs (one chunk of 'twl
// distance') at several tree sizes.
func BenchmarkRows(b *testing.B) {
	for _, L := range []int{100, 10000} {
		rng := rand.New(rand.NewPCG(1, uint64(L)))
		tr, _, _ := randomTree(b, rng, L)
		s, _, _, _ := slicedCase(b, rng, min(L, 200), 2*min(L, 200))
		for _, name := range []string{"tw", "tsw"} {
			m, labels := distance.NewTW(tr, nil), L
			if name == "tsw" {
				m, labels = distance.NewTSW(s, nil), min(L, 200)
			}
			A, B := sparseRandom(rng, 4096, labels, 20), sparseRandom(rng, 4096, labels, 20)
			dst := make([]float64, A.Rows())
			b.Run(fmt.Sprintf("%s/L=%d", name, L), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := m.Rows(context.Background(), dst, A, B); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
