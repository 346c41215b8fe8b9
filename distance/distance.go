package distance

import (
	"context"
	"fmt"
	"runtime"

	"github.com/twl-ldl/twl/internal/parallel"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
)

// Method computes distances between rows of labeldist.Rows, whose labels
// are user indices of one tree (for tsw, the leaves of tsw.Sliced). It is
// not safe for concurrent use.
type Method interface {
	// Name returns the method's name: "tw", "emd", "sinkhorn", "utw" or
	// "tsw".
	Name() string

	// Rows stores in dst[i] the distance between row i of A and row i of
	// B. It panics unless A, B and dst have the same length.
	Rows(ctx context.Context, dst []float64, A, B *labeldist.Rows) error

	// Columns prepares the rows of B for Pairwise. B must not change
	// while the Columns are in use; Columns neither copies nor modifies
	// it.
	Columns(ctx context.Context, B *labeldist.Rows) (*Columns, error)

	// Pairwise stores in dst[i·n + j] the distance between row i of A and
	// row j of B, for the n = B.Len() rows of B. It panics unless
	// len(dst) = A.Rows()·n, or if B was prepared by another Method.
	Pairwise(ctx context.Context, dst []float64, A *labeldist.Rows, B *Columns) error
}

// Options are the settings every method shares. The zero value (and a nil
// *Options) uses the default of each field.
type Options struct {
	// Workers is the number of goroutines computing distances. Zero means
	// runtime.GOMAXPROCS(0) for tw and tsw and 1 for emd, whose pairs
	// take milliseconds and a network of L² arcs each. sinkhorn always
	// computes one pair at a time: its solver parallelizes each pair
	// (sinkhorn.Settings.Workers).
	Workers int

	// MaxBytes bounds the memory a method holds: the cost matrix of emd
	// and sinkhorn, sinkhorn's kernel, the embeddings of tsw's Columns,
	// the rows of tw's Columns prepared for the all-pairs engine.
	// Zero or negative means no limit.
	MaxBytes int64

	// Progress, if not nil, is called with the number of pairs done since
	// its last call, every 64 pairs or so. It is called from the worker
	// goroutines, concurrently: it must be safe for concurrent use.
	Progress func(pairs int)
}

// Columns are the rows of B prepared by Method.Columns for any number of
// Method.Pairwise calls.
type Columns struct {
	m     Method
	rows  *labeldist.Rows
	emb   []tsw.SparseVec // tsw: the embeddings of the rows
	eng   *engineCols     // tw: the rows prepared by the all-pairs engine
	bytes int64
}

// Len returns the number of rows.
func (c *Columns) Len() int { return c.rows.Rows() }

// Rows returns the rows the Columns were prepared from.
func (c *Columns) Rows() *labeldist.Rows { return c.rows }

// Bytes returns the memory the Columns hold: that of the rows and, for
// tsw, of their embeddings, for tw, of the rows prepared for the all-pairs
// engine.
func (c *Columns) Bytes() int64 { return c.bytes }

// PairError is the error of a pair that a method cannot compute: row A
// of the first argument and row B of the second.
type PairError struct {
	A, B int
	Err  error
}

func (e *PairError) Error() string {
	return fmt.Sprintf("distance: row %d of A and row %d of B: %v", e.A, e.B, e.Err)
}

// Unwrap returns the pair's error.
func (e *PairError) Unwrap() error { return e.Err }

// MemoryError is the error of work that would hold more than
// Options.MaxBytes.
type MemoryError struct {
	Method string // "emd", "sinkhorn", "tsw" or "tw"
	What   string // "cost matrix", "cost matrix and kernel", "embeddings", "prepared rows", "prepared rows and distances" (NewSelf)
	Need   int64  // bytes needed (for embeddings, held so far)
	Limit  int64  // Options.MaxBytes
	Rows   int    // for embeddings, the rows embedded so far; else 0
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("distance: %s: the %s need %d bytes, more than the limit of %d", e.Method, e.What, e.Need, e.Limit)
}

// ConvergenceError reports Sinkhorn iterations that ended with a marginal
// error above twice the tolerance: their plan is no transport plan, and its
// cost no approximation of the distance (it can fall below the exact
// value).
type ConvergenceError struct {
	Iters       int     // iterations run
	MarginalErr float64 // relative L1 error of the plan's marginals
	Tol         float64 // the tolerance asked for
}

func (e *ConvergenceError) Error() string {
	return fmt.Sprintf("distance: sinkhorn did not converge in %d iterations (marginal error %.3g, tolerance %g)", e.Iters, e.MarginalErr, e.Tol)
}

// pairFunc computes one distance with a worker's workspace.
type pairFunc func(ai []int, am []float64, bi []int, bm []float64) (float64, error)

// method is every Method: a name and a pair function per worker, and for
// tsw the embeddings that Pairwise goes through.
type method struct {
	name     string
	pairs    []pairFunc
	maxBytes int64
	progress func(int)
	errs     []error
	bad      []int

	// tsw only: a Sliced per worker (those of pairs) and one for the rows
	// of A in Pairwise, with its embedding buffer.
	sliced []*tsw.Sliced
	s      *tsw.Sliced
	a      tsw.SparseVec

	// tw only: the tree, for the all-pairs engine, and the pairs of the
	// Pairwise call under way, for its progress.
	tree       *tree.Tree
	queryPairs int
}

var _ Method = (*method)(nil)

func (o *Options) workers(def int) int {
	if o != nil && o.Workers > 0 {
		return o.Workers
	}
	if def <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return def
}

// newMethod returns a method of workers workers, calling newPair once per
// worker.
func newMethod(name string, workers int, o *Options, newPair func(worker int) pairFunc) *method {
	m := &method{name: name, errs: make([]error, workers), bad: make([]int, workers)}
	if o != nil {
		m.maxBytes, m.progress = o.MaxBytes, o.Progress
	}
	for p := range workers {
		m.pairs = append(m.pairs, newPair(p))
	}
	return m
}

func (m *method) Name() string { return m.name }

// loop stores in dst[k] the distance of pair(k), in parallel, and returns
// the first pair that failed and its error, or -1 and the context's error,
// or -1 and nil.
func (m *method) loop(ctx context.Context, dst []float64, pair func(k int) ([]int, []float64, []int, []float64)) (int, error) {
	errs, bad := m.errs, m.bad
	clear(errs)
	parallel.ForParts(len(dst), len(m.pairs), 64, func(p, lo, hi int) {
		f := m.pairs[p]
		done := 0
		for k := lo; k < hi; k++ {
			if (k-lo)%64 == 63 {
				// emd and sinkhorn take milliseconds a pair: a
				// cancellation is heard within 64 of them.
				if err := ctx.Err(); err != nil {
					errs[p], bad[p] = err, -1
					return
				}
				if m.progress != nil {
					m.progress(done)
					done = 0
				}
			}
			v, err := f(pair(k))
			if err != nil {
				errs[p], bad[p] = err, k
				return
			}
			dst[k] = v
			done++
		}
		if m.progress != nil && done > 0 {
			m.progress(done)
		}
	})
	for p, err := range errs {
		if err != nil {
			return bad[p], err
		}
	}
	return -1, nil
}

func (m *method) Rows(ctx context.Context, dst []float64, A, B *labeldist.Rows) error {
	n := A.Rows()
	if B.Rows() != n || len(dst) != n {
		panic("distance: Rows with A, B and dst of different lengths")
	}
	k, err := m.loop(ctx, dst, func(k int) ([]int, []float64, []int, []float64) {
		ai, am := A.Row(k)
		bi, bm := B.Row(k)
		return ai, am, bi, bm
	})
	if k >= 0 {
		return &PairError{A: k, B: k, Err: err}
	}
	return err
}

func (m *method) Columns(ctx context.Context, B *labeldist.Rows) (*Columns, error) {
	c := &Columns{m: m, rows: B, bytes: B.Bytes()}
	if m.tree != nil {
		if err := m.engineColumns(ctx, c, B); err != nil {
			return nil, err
		}
		return c, nil
	}
	if m.s == nil {
		return c, nil
	}
	// tsw: B's rows embedded once, in blocks, the memory checked after
	// each: 12 bytes per stored entry (an int32 index, a float64 value)
	// and 48 per row.
	const block = 4096
	nB := B.Rows()
	c.emb = make([]tsw.SparseVec, nB)
	c.bytes += int64(48 * nB)
	for lo := 0; lo < nB; lo += block {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+block, nB)
		parallel.ForParts(hi-lo, len(m.sliced), 16, func(p, r0, r1 int) {
			for k := lo + r0; k < lo+r1; k++ {
				bi, bm := B.Row(k)
				c.emb[k] = m.sliced[p].SparseEmbed(tsw.SparseVec{}, bi, bm)
			}
		})
		for _, v := range c.emb[lo:hi] {
			c.bytes += int64(12 * v.Len())
		}
		if m.maxBytes > 0 && c.bytes > m.maxBytes {
			return nil, &MemoryError{Method: m.name, What: "embeddings", Need: c.bytes, Limit: m.maxBytes, Rows: hi}
		}
	}
	return c, nil
}

func (m *method) Pairwise(ctx context.Context, dst []float64, A *labeldist.Rows, B *Columns) error {
	if B.m != Method(m) {
		panic("distance: Pairwise with Columns of another Method")
	}
	nA, nB := A.Rows(), B.Len()
	if len(dst) != nA*nB {
		panic("distance: Pairwise with len(dst) != A.Rows()·B.Len()")
	}
	if B.eng != nil {
		return m.enginePairwise(ctx, dst, A, B)
	}
	for i := range nA {
		if err := ctx.Err(); err != nil {
			return err
		}
		row := dst[i*nB : (i+1)*nB]
		ai, am := A.Row(i)
		if m.s != nil {
			m.embeddedRow(row, ai, am, B.emb)
			continue
		}
		k, err := m.loop(ctx, row, func(k int) ([]int, []float64, []int, []float64) {
			bi, bm := B.rows.Row(k)
			return ai, am, bi, bm
		})
		if k >= 0 {
			return &PairError{A: i, B: k, Err: err}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// embeddedRow stores in dst[j] the tree-sliced distance between the row of
// A given by ai and am and the row of B embedded in b[j]: the ℓ₁ distance
// of their embeddings, which agrees with tsw.Sliced.SparseDistance to
// rounding.
func (m *method) embeddedRow(dst []float64, ai []int, am []float64, b []tsw.SparseVec) {
	m.a = m.s.SparseEmbed(m.a, ai, am)
	parallel.ForParts(len(dst), len(m.sliced), 256, func(_, lo, hi int) {
		for j := lo; j < hi; j++ {
			dst[j] = tsw.L1(m.a, b[j])
		}
		if m.progress != nil && hi > lo {
			m.progress(hi - lo)
		}
	})
}
