package unifrac

import (
	"context"
	"fmt"
	"sync"

	"github.com/twl-ldl/twl/internal/parallel"
	"github.com/twl-ldl/twl/tree"
)

// Columns holds the samples of one table (the columns) prepared once, for
// computing the distances from the samples of other tables (the queries) to
// all of them: the two-sided form of an Engine. It is immutable once built
// and safe for concurrent use.
//
// A query's distance to a column is summed in an order fixed by the two
// samples alone (dense columns of the Columns' split, in chunks, then its
// sparse branches in order, or their groups for Unweighted), so the values
// do not depend on how the query rows are cut into calls nor on the number
// of workers. For the weighted and
// unweighted methods, a query sample equal to a column (the same masses on
// the same branches) is at distance exactly 0.
type Columns struct {
	method  Method
	kind    Method // see kindOf
	vw      *vaw   // variance-adjusted state (its one-sided sums are per tile)
	alpha   float64
	workers int
	prog    func(done, total int)
	ids     []string
	nodes   int

	layout
	side

	p      *prep
	spaces sync.Pool
}

// MemoryError is the error of NewColumns when the prepared columns would
// need more than Options.MaxBytes.
type MemoryError struct {
	Need, Limit int64 // bytes
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("unifrac: the prepared columns need %d bytes, more than the limit of %d", e.Need, e.Limit)
}

// NewColumns prepares the samples of B on t for method m as the columns of
// Query. Options.Raw, Alpha, Workers and Progress apply to the queries as
// well. It does not keep B. It panics if t or B is nil and returns an error
// for a table whose content does not fit the tree, and a *MemoryError,
// before allocating, if the prepared columns would take more than
// Options.MaxBytes.
func NewColumns(t *tree.Tree, B *Table, m Method, opts *Options) (*Columns, error) {
	o, err := checkArgs(t, B, m, opts)
	if err != nil {
		return nil, err
	}
	if o.BypassTips {
		return nil, fmt.Errorf("unifrac: columns cannot bypass tips (the branches left out depend on the whole table)")
	}
	k := kindOf(m, &o)
	c := &Columns{method: m, kind: k, alpha: o.Alpha, workers: o.Workers, prog: o.Progress, nodes: t.Len()}
	if B.IDs != nil {
		c.ids = append([]string(nil), B.IDs...)
	}
	ord := t.Order()
	c.p = &prep{o: &ord, m: k, alpha: o.Alpha, raw: o.Raw, workers: o.Workers, allSparse: k == kindVaw}
	reach := c.p.reach(B)
	if o.MaxBytes > 0 {
		if need := columnsBytes(reach, B.Len(), k); need > o.MaxBytes {
			return nil, &MemoryError{Need: need, Limit: o.MaxBytes}
		}
	}
	c.layout = c.p.classify(reach, B.Len(), defaultDense)
	c.side = c.p.fill(B, &c.layout)
	if k == kindVaw {
		c.vw = &vaw{form: formOf(m), alpha: o.Alpha}
	}
	return c, nil
}

// columnsBytes returns an upper bound of the bytes that n samples reaching
// the branches counted in reach take once prepared (see Columns.Bytes).
func columnsBytes(reach []int32, n int, m Method) int64 {
	limit := defaultDense * float64(n)
	var dense, entries, sparse int64
	for _, r := range reach {
		switch {
		case r == 0:
		case float64(r) >= limit && m != Generalized:
			dense++
		default:
			sparse++
			entries += int64(r)
		}
	}
	dp := (dense + 3) &^ 3
	per := int64(1 + 8) // loc and br/ptr
	switch m {
	case WeightedUnnormalized, WeightedNormalized:
		per += 8
	case Generalized, kindVaw:
		per += 16
	}
	if m == kindVaw {
		sparse = int64(len(reach)) // every branch is sparse
	}
	blocks := int64(n+blockSize-1) / blockSize
	return 4*int64(len(reach)) + 8*sparse + 8*int64(n)*(1+dp) + per*entries + 8*blocks
}

// Len returns the number of columns (the samples of B).
func (c *Columns) Len() int { return c.n }

// Method returns the columns' method.
func (c *Columns) Method() Method { return c.method }

// IDs returns a copy of the columns' sample ids, or nil if B had none.
func (c *Columns) IDs() []string { return append([]string(nil), c.ids...) }

// Bytes returns about how many bytes the columns hold: the branch split
// (4 bytes per tree node), the per-sample sums, the dense matrix of branch
// values and the sparse indexes. A query holds as much again for its own
// rows, on the columns' split, and BytesPerWorker per worker.
func (c *Columns) Bytes() int64 {
	return 4*int64(len(c.code)) + c.side.bytes(len(c.wsp))
}

// BytesPerWorker is the memory of one worker's workspace during a query,
// in bytes.
func (c *Columns) BytesPerWorker() int64 { return workspaceBytes(c.kind) }

// Query stores in dst[i·N + j] the distance between sample i of A and
// column j, for the N = Len() columns. A's samples are validated as B's
// were (with Options.Raw, the same masses as given). It panics if A is nil
// or len(dst) ≠ A.Len()·N; it returns an error for a table whose content
// does not fit the tree, or the context's error, dst then partly written.
func (c *Columns) Query(ctx context.Context, dst []float64, A *Table) error {
	if A == nil {
		panic("unifrac: Query with a nil table")
	}
	if len(dst) != A.Len()*c.n {
		panic("unifrac: destination has the wrong length")
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if err := A.check(c.nodes, c.p.raw); err != nil {
		return err
	}
	if A.Len() == 0 || c.n == 0 {
		return ctx.Err()
	}
	a := c.p.fill(A, &c.layout)
	nbA, nbB := len(a.blocks), len(c.blocks)
	total := nbA * nbB
	var mu sync.Mutex
	done := 0
	parallel.Each(total, c.workers, func(t int) {
		if ctx.Err() != nil {
			return
		}
		w, _ := c.spaces.Get().(*workspace)
		if w == nil {
			w = newWorkspace(c.kind)
		}
		c.tile(w, &a, t/nbB, t%nbB, dst)
		c.spaces.Put(w)
		if c.prog != nil {
			mu.Lock()
			done++
			c.prog(done, total)
			mu.Unlock()
		}
	})
	return ctx.Err()
}

// tile computes the distances of block bi of the queries a to block bj of
// the columns into dst.
func (c *Columns) tile(w *workspace, a *side, bi, bj int, dst []float64) {
	rlo, rhi := bi*blockSize, min((bi+1)*blockSize, a.n)
	clo, chi := bj*blockSize, min((bj+1)*blockSize, c.n)
	acc := w.acc
	clear(acc)
	switch c.kind {
	case Generalized:
		clear(w.acc2)
		sparseGeneralized(acc, w.acc2, &a.blocks[bi], &c.blocks[bj], c.wsp, c.alpha, false, false)
	case kindVaw:
		c.vawTile(w, a, bi, bj, false)
		for i := rlo; i < rhi; i++ {
			c.vawRow(w, dst[i*c.n+clo:i*c.n+chi], a.nent[i], i-rlo, clo)
		}
		return
	default:
		denseTile(acc, a.x, c.x, c.dp, rlo, rhi, clo, chi, false)
		sparseMin(acc, &a.blocks[bi], &c.blocks[bj], c.wsp, false, false)
	}
	for i := rlo; i < rhi; i++ {
		row := dst[i*c.n : (i+1)*c.n]
		k := (i - rlo) * blockSize
		for j := clo; j < chi; j++ {
			var m2 float64
			if w.acc2 != nil {
				m2 = w.acc2[k+j-clo]
			}
			row[j] = dist(c.method, a.total[i]+c.total[j], acc[k+j-clo], m2)
		}
	}
}

// vawTile computes the variance-adjusted sums of block bi of side a (rows)
// with block bj of the columns into w: the corrections of their shared
// branches (only pairs i < j with upper) and the tile's one-sided sums.
func (c *Columns) vawTile(w *workspace, a *side, bi, bj int, upper bool) {
	rlo, rhi := bi*blockSize, min((bi+1)*blockSize, a.n)
	clo, chi := bj*blockSize, min((bj+1)*blockSize, c.n)
	w.va.reset()
	c.vw.sparseVaw(&w.va, &a.blocks[bi], &c.blocks[bj], a.total[rlo:rhi], c.total[clo:chi], c.wsp, upper)
	c.vw.tileSums(&w.vs, &a.blocks[bi], &c.blocks[bj], a.total[rlo:rhi], c.total[clo:chi], c.wsp)
}

// vawRow sets d[t] to the variance-adjusted distance between row ri of
// the tile that vawTile computed (a sample with nr entries) and column
// j0+t, from the tile's shared and one-sided sums.
func (c *Columns) vawRow(w *workspace, d []float64, nr int32, ri, j0 int) {
	vs := &w.vs
	clo := j0 &^ (blockSize - 1)
	ncc, ncr := len(vs.cc), len(vs.cr)
	ui, ci := vs.ur[ri*ncc:(ri+1)*ncc], int(vs.kr[ri])
	c.vw.rowDists(c.method, d, &w.va, ri*blockSize+j0-clo, nr, c.nent[j0:j0+len(d)], func(t int) float64 {
		jl := j0 + t - clo
		return ui[vs.kc[jl]] + vs.uc[jl*ncr+ci]
	})
}
