package distance_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/distance"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/tw"
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

// BenchmarkPairwise compares the all-pairs paths on one set of 1,000
// proportion rows of 100 labels each on a 20,000-node tree, A = B:
//
//   - tw: Columns of B and Pairwise of A, in blocks of PairwiseBlock rows,
//     as 'twl distance --pairwise --tree' calls them (N² pairs);
//   - tw.Sparse: the distances of one row of A to all of B pair by pair,
//     the cost of a row of the pair-by-pair form;
//   - unifrac/matrix and unifrac/rows: package unifrac's symmetric engine,
//     whose weighted unnormalized UniFrac is the same distance, preparing
//     the rows once, Matrix computing each pair once (N(N−1)/2) and Rows
//     over all rows every pair of the matrix (N²).
func BenchmarkPairwise(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 20000))
	tr, _, _ := randomTree(b, rng, 20000)
	const n = 1000
	rows := sparseRandom(rng, n, tr.Len(), 100)
	ctx := context.Background()
	b.Run("tw", func(b *testing.B) {
		m := distance.NewTW(tr, nil)
		dst := make([]float64, n*n)
		blk := distance.PairwiseBlock()
		parts := make([]*labeldist.Rows, 0, n/blk+1)
		for lo := 0; lo < n; lo += blk {
			parts = append(parts, rows.Subset(seq(min(lo+blk, n))[lo:]))
		}
		b.ReportAllocs()
		for b.Loop() {
			cols, err := m.Columns(ctx, rows)
			if err != nil {
				b.Fatal(err)
			}
			for k, A := range parts {
				if err := m.Pairwise(ctx, dst[k*blk*n:(k*blk+A.Rows())*n], A, cols); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("tw.Sparse", func(b *testing.B) {
		s := tw.NewSparse(tr)
		dst := make([]float64, n)
		ai, am := rows.Row(0)
		b.ReportAllocs()
		for b.Loop() {
			for j := range n {
				bi, bm := rows.Row(j)
				dst[j] = s.Distance(ai, am, bi, bm)
			}
		}
	})
	tab := &unifrac.Table{Indptr: make([]int, 0, n+1), Values: rows.Mass}
	for _, o := range rows.Off {
		tab.Indptr = append(tab.Indptr, o)
	}
	for _, i := range rows.Index {
		tab.Indices = append(tab.Indices, int32(i))
	}
	for _, form := range []string{"matrix", "rows"} {
		b.Run("unifrac/"+form, func(b *testing.B) {
			dst := make([]float64, n*n)
			b.ReportAllocs()
			for b.Loop() {
				e, err := unifrac.New(tr, tab, unifrac.WeightedUnnormalized, nil)
				if err != nil {
					b.Fatal(err)
				}
				if form == "matrix" {
					err = e.Matrix(ctx, dst)
				} else {
					err = e.Rows(ctx, dst, 0, n)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
