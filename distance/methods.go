package distance

import (
	"math"

	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/ot/emd"
	"github.com/twl-ldl/twl/ot/sinkhorn"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
	"github.com/twl-ldl/twl/tw"
	"github.com/twl-ldl/twl/utw"
)

// NewTW returns the tree-Wasserstein distance on t: exact, no cost
// matrix. Rows computes each pair by tw.Sparse, in time in the pair's
// non-zero labels; Columns and Pairwise go through package unifrac's
// all-pairs engine (unifrac.Columns, weighted unnormalized UniFrac of the
// masses as they are), whose values agree with tw.Sparse's to rounding
// relative to the two rows' weighted masses (see the package
// documentation).
func NewTW(t *tree.Tree, o *Options) Method {
	m := newMethod("tw", o.workers(0), o, func(int) pairFunc {
		s := tw.NewSparse(t)
		return func(ai []int, am []float64, bi []int, bm []float64) (float64, error) {
			return s.Distance(ai, am, bi, bm), nil
		}
	})
	m.tree = t
	return m
}

// NewUTW returns the unbalanced tree-Wasserstein distance UTW_λ on t
// (package utw): transport at the tree's path lengths plus lambda per
// unit of mass destroyed or created, between rows of any total mass
// (read them with labeldist.Options.Measures). Each pair is computed by
// utw.Sparse on the tree spanned by its labels, in time independent of the
// tree's size. It panics if lambda is not positive and finite.
func NewUTW(t *tree.Tree, lambda float64, o *Options) Method {
	return newMethod("utw", o.workers(0), o, func(int) pairFunc {
		s := utw.NewSparse(t, lambda)
		return func(ai []int, am []float64, bi []int, bm []float64) (float64, error) {
			return s.Distance(ai, am, bi, bm), nil
		}
	})
}

// NewTSW returns the tree-sliced Wasserstein distance of s, over its
// points (the labels of the rows). s is not modified: each worker works
// on a clone.
func NewTSW(s *tsw.Sliced, o *Options) Method {
	workers := o.workers(0)
	var sliced []*tsw.Sliced
	m := newMethod("tsw", workers, o, func(int) pairFunc {
		c := s.Clone()
		sliced = append(sliced, c)
		return func(ai []int, am []float64, bi []int, bm []float64) (float64, error) {
			return c.SparseDistance(ai, am, bi, bm), nil
		}
	})
	m.sliced, m.s = sliced, s.Clone()
	return m
}

// CostBytes returns the memory of the L×L cost matrix of emd and sinkhorn:
// 8·L² bytes, saturating at math.MaxInt64.
func CostBytes(L int) int64 {
	b := 8 * float64(L) * float64(L)
	if b >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(b)
}

// SinkhornBytes returns the memory NewSinkhorn needs for L labels with
// the settings s: the cost matrix and the solver's kernel and vectors
// (sinkhorn.Bytes), saturating at math.MaxInt64.
func SinkhornBytes(L int, s sinkhorn.Settings) int64 {
	b := float64(sinkhorn.Bytes(L, L, s)) + 8*float64(L)*float64(L)
	if b >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(b)
}

// NewEMD returns exact optimal transport by the network simplex on the
// tree's L×L cost matrix of path lengths (equal to tw to rounding). It
// returns a *MemoryError if CostBytes(L) exceeds o.MaxBytes.
func NewEMD(t *tree.Tree, o *Options) (Method, error) {
	cost, err := costMatrix(t, "emd", "cost matrix", CostBytes(t.Len()), o)
	if err != nil {
		return nil, err
	}
	L := t.Len()
	return newMethod("emd", o.workers(1), o, func(int) pairFunc {
		var s emd.Solver
		return densePair(L, func(a, b []float64) (float64, error) { return s.Cost(cost, a, b) })
	}), nil
}

// NewSinkhorn returns entropic optimal transport by Sinkhorn's iterations
// with the settings s on the tree's L×L cost matrix: the transport cost of
// the entropic plan. A pair whose iterations end with a marginal error
// above 2·s.Tol (s.Tol ≥ 0; zero means sinkhorn.DefaultTol) fails with a
// *ConvergenceError. It returns a *MemoryError if SinkhornBytes(L, s)
// exceeds o.MaxBytes, and sinkhorn.New's error for invalid settings.
// Pairs are computed one at a time whatever o.Workers.
func NewSinkhorn(t *tree.Tree, s sinkhorn.Settings, o *Options) (Method, error) {
	L := t.Len()
	cost, err := costMatrix(t, "sinkhorn", "cost matrix and kernel", SinkhornBytes(L, s), o)
	if err != nil {
		return nil, err
	}
	solver, err := sinkhorn.New(cost, L, L, s)
	if err != nil {
		return nil, err
	}
	tol := s.Tol
	if tol == 0 {
		tol = sinkhorn.DefaultTol
	}
	return newMethod("sinkhorn", 1, o, func(int) pairFunc {
		return densePair(L, func(a, b []float64) (float64, error) {
			r, err := solver.Solve(a, b)
			if err == nil && tol >= 0 && r.MarginalErr > 2*tol {
				err = &ConvergenceError{Iters: r.Iters, MarginalErr: r.MarginalErr, Tol: tol}
			}
			return r.Value, err
		})
	}), nil
}

// costMatrix returns the L×L path-length matrix of t, or a *MemoryError if
// need exceeds o.MaxBytes.
func costMatrix(t *tree.Tree, name, what string, need int64, o *Options) ([]float64, error) {
	if o != nil && o.MaxBytes > 0 && need > o.MaxBytes {
		return nil, &MemoryError{Method: name, What: what, Need: need, Limit: o.MaxBytes}
	}
	return t.DistanceMatrix(nil).RawMatrix().Data, nil
}

// densePair adapts a solver of dense vectors to sparse rows, scattering
// each row into reused buffers of length L.
func densePair(L int, f func(a, b []float64) (float64, error)) pairFunc {
	a, b := make([]float64, L), make([]float64, L)
	return func(ai []int, am []float64, bi []int, bm []float64) (float64, error) {
		return f(labeldist.Sparse{Index: ai, Mass: am}.Dense(a), labeldist.Sparse{Index: bi, Mass: bm}.Dense(b))
	}
}
