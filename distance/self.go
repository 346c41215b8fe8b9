package distance

import (
	"context"
	"math"

	"github.com/twl-ldl/twl/distmat"
)

// SelfBytes returns the memory NewSelf holds for n rows besides their
// Columns: the n(n−1)/2 distances of the pairs and the n of the diagonal,
// 8 bytes each, saturating at math.MaxInt64.
func SelfBytes(n int) int64 {
	b := 8 * (float64(n)*float64(n-1)/2 + float64(n))
	if b >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(b)
}

// Symmetric reports whether the Columns' method computes Pairwise of the
// Columns' own rows symmetrically, bit for bit, so that NewSelf can compute
// each pair once: true for tw.
func (c *Columns) Symmetric() bool { return c.eng != nil }

// Self holds the distances between every two rows of one Columns, each
// pair computed once, for writing the matrix that Pairwise gives when A is
// the Columns' own rows.
type Self struct {
	c    *Columns
	m    *method
	n    int
	cond []float64 // pairs i < j, in distmat's condensed order
	diag []float64
}

// NewSelf computes the distances between every two rows of c, whose method
// must be symmetric (c.Symmetric()), each pair once: by the all-pairs
// engine (unifrac.Columns.Self) for the rows it takes, by tw.Sparse, in
// Rows, for the others. It panics if c is not symmetric. It returns a
// *MemoryError, before allocating, if c.Bytes() + SelfBytes(c.Len())
// exceed Options.MaxBytes, and the context's error once ctx is done.
// Options.Progress counts the n(n−1)/2 pairs.
func NewSelf(ctx context.Context, c *Columns) (*Self, error) {
	if !c.Symmetric() {
		panic("distance: NewSelf with Columns of a method that is not symmetric")
	}
	m := c.m.(*method)
	n := c.Len()
	need := c.bytes + SelfBytes(n)
	if need < c.bytes {
		need = math.MaxInt64
	}
	if m.maxBytes > 0 && need > m.maxBytes {
		return nil, &MemoryError{Method: m.name, What: "prepared rows and distances", Need: need, Limit: m.maxBytes}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s := &Self{c: c, m: m, n: n, cond: make([]float64, n*(n-1)/2), diag: make([]float64, n)}
	m.queryPairs = len(s.cond)
	if err := c.eng.c.Self(ctx, s.cond, s.diag); err != nil {
		return nil, err
	}
	return s, nil
}

// Len returns the number of rows.
func (s *Self) Len() int { return s.n }

// Bytes returns the memory the distances hold: SelfBytes(Len()).
func (s *Self) Bytes() int64 { return SelfBytes(s.n) }

// Rows stores in dst rows [i0, i1) of the n×n matrix of the distances
// between the rows: dst[(i−i0)·n + j] is the distance between rows i and
// j, the value that Pairwise stores for row i of A when A is c.Rows(), bit
// for bit. Pairs of rows the engine does not take are computed here, by
// tw.Sparse. It panics unless 0 ≤ i0 ≤ i1 ≤ n and len(dst) = (i1−i0)·n.
func (s *Self) Rows(dst []float64, i0, i1 int) {
	n := s.n
	distmat.ExpandRows(dst, s.cond, n, i0, i1)
	for i := i0; i < i1; i++ {
		dst[(i-i0)*n+i] = s.diag[i]
	}
	bad := s.c.eng.bad
	if len(bad) == 0 {
		return
	}
	R := s.c.rows
	f := s.m.pairs[0]
	// As enginePairwise: the rows the engine does not take, then the
	// columns.
	for _, i := range bad {
		if i < i0 || i >= i1 {
			continue
		}
		ai, am := R.Row(i)
		for j := range n {
			bi, bm := R.Row(j)
			dst[(i-i0)*n+j], _ = f(ai, am, bi, bm)
		}
	}
	for _, j := range bad {
		bi, bm := R.Row(j)
		for i := i0; i < i1; i++ {
			ai, am := R.Row(i)
			dst[(i-i0)*n+j], _ = f(ai, am, bi, bm)
		}
	}
}
