package distance

import (
	"context"
	"errors"
	"math"

	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/unifrac"
)

// PairwiseBlock returns the number of rows of A that tw's Pairwise computes
// together: calls with a multiple of it (or all the rows) as A are the
// most efficient, single rows the least.
func PairwiseBlock() int { return unifrac.RowBlock() }

// engineCols are the rows of B prepared for tw's Pairwise by package
// unifrac's all-pairs engine: the tree-Wasserstein distance between two
// rows is the weighted unnormalized UniFrac of their masses taken as they
// are (unifrac.Options.Raw). Rows the engine does not take (a negative or
// non-finite mass, a label out of range, masses whose sum overflows) are
// held empty there and their pairs computed by tw.Sparse.
type engineCols struct {
	c   *unifrac.Columns
	bad []int // rows of B computed by tw.Sparse
}

// engineTable returns the rows as a unifrac.Table, the rows the engine
// does not take left empty, and the list of those rows.
func engineTable(R *labeldist.Rows, L int) (*unifrac.Table, []int) {
	n := R.Rows()
	tab := &unifrac.Table{Indptr: make([]int, 1, n+1), Indices: make([]int32, 0, len(R.Index)), Values: make([]float64, 0, len(R.Mass))}
	var bad []int
	for r := range n {
		idx, mass := R.Row(r)
		ok := true
		var sum float64
		for k, i := range idx {
			v := mass[k]
			sum += v
			if uint(i) >= uint(L) || !(v >= 0) || math.IsInf(v, 0) {
				ok = false
				break
			}
		}
		if ok && !math.IsInf(sum, 0) {
			for k, i := range idx {
				tab.Indices = append(tab.Indices, int32(i))
				tab.Values = append(tab.Values, mass[k])
			}
		} else {
			bad = append(bad, r)
		}
		tab.Indptr = append(tab.Indptr, len(tab.Indices))
	}
	return tab, bad
}

// engineColumns prepares B for tw's Pairwise, refusing columns that would
// take more than the memory limit with B's rows included.
func (m *method) engineColumns(ctx context.Context, c *Columns, B *labeldist.Rows) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	tab, bad := engineTable(B, m.tree.Len())
	o := &unifrac.Options{Raw: true, Workers: len(m.pairs), Progress: m.tileProgress}
	if m.maxBytes > 0 {
		o.MaxBytes = max(m.maxBytes-c.bytes, 1)
	}
	uc, err := unifrac.NewColumns(m.tree, tab, unifrac.WeightedUnnormalized, o)
	if me := (*unifrac.MemoryError)(nil); errors.As(err, &me) {
		return &MemoryError{Method: m.name, What: "prepared rows", Need: c.bytes + me.Need, Limit: m.maxBytes}
	}
	if err != nil {
		return err
	}
	c.eng = &engineCols{c: uc, bad: bad}
	c.bytes += uc.Bytes()
	return nil
}

// tileProgress turns the engine's tiles done into pairs for
// Options.Progress.
func (m *method) tileProgress(done, total int) {
	if m.progress == nil {
		return
	}
	p := m.queryPairs
	m.progress(done*p/total - (done-1)*p/total)
}

// enginePairwise is Pairwise by the engine for the rows it takes, and by
// tw.Sparse for the others.
func (m *method) enginePairwise(ctx context.Context, dst []float64, A *labeldist.Rows, B *Columns) error {
	tab, badA := engineTable(A, m.tree.Len())
	nA, nB := A.Rows(), B.Len()
	m.queryPairs = nA * nB
	if err := B.eng.c.Query(ctx, dst, tab); err != nil {
		return err
	}
	if len(badA) == 0 && len(B.eng.bad) == 0 {
		return nil
	}
	f := m.pairs[0]
	for _, i := range badA {
		ai, am := A.Row(i)
		for j := range nB {
			bi, bm := B.rows.Row(j)
			dst[i*nB+j], _ = f(ai, am, bi, bm)
		}
	}
	for _, j := range B.eng.bad {
		bi, bm := B.rows.Row(j)
		for i := range nA {
			ai, am := A.Row(i)
			dst[i*nB+j], _ = f(ai, am, bi, bm)
		}
	}
	return ctx.Err()
}
