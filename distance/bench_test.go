package distance_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/distance"
	"github.com/twl-ldl/twl/unifrac"
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

// BenchmarkPairwise compares the all-pairs paths on one set of 200
// proportion rows of 100 labels each on a 20,000-node tree: tw's Pairwise,
// one row of A against the Columns at a time as 'twl distance --pairwise
// --tree' calls it, and package unifrac's engine, whose weighted
// unnormalized UniFrac is the same distance (condensed, each pair once).
func BenchmarkPairwise(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 20000))
	tr, _, _ := randomTree(b, rng, 20000)
	const n = 200
	rows := sparseRandom(rng, n, tr.Len(), 100)
	b.Run("tw", func(b *testing.B) {
		m := distance.NewTW(tr, nil)
		cols, err := m.Columns(context.Background(), rows)
		if err != nil {
			b.Fatal(err)
		}
		dst := make([]float64, n)
		b.ReportAllocs()
		for b.Loop() {
			for i := range n {
				if err := m.Pairwise(context.Background(), dst, rows.Subset([]int{i}), cols); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("unifrac", func(b *testing.B) {
		tab := &unifrac.Table{Indptr: make([]int, 0, n+1), Values: rows.Mass}
		for _, o := range rows.Off {
			tab.Indptr = append(tab.Indptr, o)
		}
		for _, i := range rows.Index {
			tab.Indices = append(tab.Indices, int32(i))
		}
		dst := make([]float64, n*(n-1)/2)
		b.ReportAllocs()
		for b.Loop() {
			e, err := unifrac.New(tr, tab, unifrac.WeightedUnnormalized, nil)
			if err != nil {
				b.Fatal(err)
			}
			if err := e.Condensed(context.Background(), dst); err != nil {
				b.Fatal(err)
			}
		}
	})
}
