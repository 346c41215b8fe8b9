package metric

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"

	"github.com/twl-ldl/twl/internal/parallel"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
)

// DefaultChunkRows is the number of row pairs Score holds at once when
// ScoreOptions.ChunkRows is 0.
const DefaultChunkRows = 4096

// ScoreOptions controls Score. The zero value (and a nil *ScoreOptions)
// scores with the exact measures of NewEvaluator.
type ScoreOptions struct {
	Options // how the measures are computed (Clip: as PyLDL)

	// Sliced, when not nil, scores the tree-sliced distance over its
	// points ("tsw", NewSlicedEvaluator) in place of the tree's
	// wasserstein; the rows are then read over a tree whose labels are
	// those points, in their order.
	Sliced *tsw.Sliced

	// ChunkRows is how many pairs are read and scored at once
	// (DefaultChunkRows when 0); Workers how many goroutines score a
	// chunk (GOMAXPROCS when 0).
	ChunkRows, Workers int

	// Why ends the message of an *labeldist.UnpairedError when the files
	// have different numbers of rows.
	Why string

	// Progress, when not nil, is called after each chunk with the number
	// of pairs scored so far; an error it returns stops Score.
	Progress func(rows int) error
}

// Table is the summary of predictions scored against their targets: the
// mean and sample standard deviation of every measure (a Result without
// Values), and where kl is infinite.
type Table struct {
	*Result

	// InfKL counts the pairs whose kl is +Inf (a prediction with no mass
	// on a label of its target); FirstInfKL locates the first, as
	// FILE:LINE of the prediction.
	InfKL      int
	FirstInfKL string
}

// Score reads the predictions P and their targets T in step, row r of P
// against row r of T, a chunk at a time, and scores every pair with the
// measures of Names (SlicedNames with o.Sliced): memory independent of the
// number of rows, time in the rows' non-zero labels rather than in the
// tree's size. The rows of P and T must be over the labels of t. It stops
// with ctx's error once ctx is done. Files of different lengths give an
// *labeldist.UnpairedError; files with no rows an error naming both.
func Score(ctx context.Context, t *tree.Tree, P, T *labeldist.Reader, o *ScoreOptions) (*Table, error) {
	if o == nil {
		o = &ScoreOptions{}
	}
	chunk, workers := o.ChunkRows, o.Workers
	if chunk <= 0 {
		chunk = DefaultChunkRows
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	evs := make([]*Evaluator, workers)
	for k := range evs {
		if o.Sliced != nil {
			evs[k] = NewSlicedEvaluator(o.Sliced, &o.Options)
		} else {
			evs[k] = NewEvaluator(t, &o.Options)
		}
	}
	names := evs[0].Names()
	M := len(names)
	var (
		cP, cT labeldist.Rows
		sum    = Summary{Names: names}
		tab    Table
		vals   = make([]float64, chunk*M)
		kl     = slices.Index(names, "kl")
	)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		np, err := labeldist.FillPair(&cP, &cT, P, T, chunk, o.Why)
		if err != nil {
			return nil, err
		}
		parallel.ForParts(np, workers, 64, func(part, lo, hi int) {
			ev := evs[part]
			for r := lo; r < hi; r++ {
				pi, pm := cP.Row(r)
				ti, tm := cT.Row(r)
				ev.RowSparse(vals[r*M:(r+1)*M], pi, pm, ti, tm)
			}
		})
		for r := range np {
			row := vals[r*M : (r+1)*M]
			sum.Add(row)
			if math.IsInf(row[kl], 1) {
				if tab.InfKL == 0 {
					tab.FirstInfKL = fmt.Sprintf("%s:%d", P.File(), cP.Line(r))
				}
				tab.InfKL++
			}
		}
		if o.Progress != nil {
			if err := o.Progress(P.Rows()); err != nil {
				return nil, err
			}
		}
		if np < chunk {
			break
		}
	}
	if P.Rows() == 0 {
		return nil, fmt.Errorf("%s and %s hold no distributions to evaluate", P.File(), T.File())
	}
	tab.Result = sum.Result()
	return &tab, nil
}

// NewTable returns the Table of res, counting the rows whose kl is +Inf in
// res.Values; at(r) locates row r for FirstInfKL.
func NewTable(res *Result, at func(r int) string) *Table {
	tab := &Table{Result: res}
	for r, v := range res.Values["kl"] {
		if math.IsInf(v, 1) {
			if tab.InfKL == 0 {
				tab.FirstInfKL = at(r)
			}
			tab.InfKL++
		}
	}
	return tab
}
