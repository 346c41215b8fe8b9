package pointtree_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/pointtree"
	"github.com/twl-ldl/twl/tree"
)

// benchData returns n points of dimension d: standard normal, or 100
// blobs of unit spread with centres in [−3, 3]^d.
func benchData(n, d int, clustered bool) []float64 {
	rng := rand.New(rand.NewPCG(uint64(n), uint64(d)))
	if clustered {
		return blobs(rng, 100, n/100, d, 3)
	}
	return gaussian(rng, n, d)
}

// forData runs f on n × 100 points, Gaussian and clustered.
func forData(b *testing.B, sizes []int, f func(b *testing.B, x []float64, n, d int)) {
	const d = 100
	for _, clustered := range []bool{false, true} {
		kind := "gauss"
		if clustered {
			kind = "blobs"
		}
		for _, n := range sizes {
			b.Run(fmt.Sprintf("%s/n=%d/d=%d", kind, n, d), func(b *testing.B) {
				x := benchData(n, d, clustered)
				b.ReportAllocs()
				f(b, x, n, d)
			})
		}
	}
}

func BenchmarkCluster(b *testing.B) {
	forData(b, []int{10_000, 100_000}, func(b *testing.B, x []float64, n, d int) {
		for b.Loop() {
			if _, err := pointtree.Cluster(x, n, d, nil, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkQuad(b *testing.B) {
	forData(b, []int{10_000, 100_000}, func(b *testing.B, x []float64, n, d int) {
		for b.Loop() {
			if _, err := pointtree.Quad(x, n, d, nil, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkFitWeights fits the default 20·n pairs on a clustering tree
// and on a quadtree.
func BenchmarkFitWeights(b *testing.B) {
	forData(b, []int{10_000}, func(b *testing.B, x []float64, n, d int) {
		ct, err := pointtree.Cluster(x, n, d, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		qt, err := pointtree.Quad(x, n, d, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, tc := range []struct {
			name string
			t    *tree.Tree
		}{{"cluster", ct}, {"quad", qt}} {
			b.Run(tc.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := pointtree.FitWeights(tc.t, x, n, d, nil, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	})
}
