package dataset

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Dataset is a label-distribution-learning data set of n samples.
type Dataset struct {
	X      *mat.Dense // n×d features, row i is sample i
	Y      *mat.Dense // n×L label distributions, rows sum to 1
	Labels []string   // L label names; Labels[j] names column j of Y
	Lines  []int      // 1-based source line of each sample, nil when the source has no lines
}

// Len returns the number of samples.
func (ds *Dataset) Len() int {
	r, _ := ds.X.Dims()
	return r
}

// Subset returns a new Dataset with rows idx[0], idx[1], ... of ds, in that
// order (an index may repeat). It copies the rows; ds is not changed. It
// panics if idx is empty (a mat.Dense cannot be empty) or holds an index
// out of range.
func Subset(ds *Dataset, idx []int) *Dataset {
	if len(idx) == 0 {
		panic("dataset: Subset of no rows")
	}
	n, d := ds.X.Dims()
	_, l := ds.Y.Dims()
	x := make([]float64, len(idx)*d)
	y := make([]float64, len(idx)*l)
	var lines []int
	if ds.Lines != nil {
		lines = make([]int, len(idx))
	}
	for k, i := range idx {
		if i < 0 || i >= n {
			panic(fmt.Sprintf("dataset: Subset index %d out of range [0, %d)", i, n))
		}
		copy(x[k*d:], ds.X.RawRowView(i))
		copy(y[k*l:], ds.Y.RawRowView(i))
		if lines != nil {
			lines[k] = ds.Lines[i]
		}
	}
	return &Dataset{
		X:      mat.NewDense(len(idx), d, x),
		Y:      mat.NewDense(len(idx), l, y),
		Labels: slices.Clone(ds.Labels),
		Lines:  lines,
	}
}

// Options control how label rows are checked. The zero value (or a nil
// *Options) gives the defaults.
type Options struct {
	// Tol is the largest |Σ_j y_j − 1| for which a label row is kept as
	// written. Default (0): 1e-6. A negative, NaN or infinite Tol is a
	// programmer error: the readers panic.
	Tol float64
	// Strict makes a row outside the tolerance an error (ErrSum). Default:
	// such rows are rescaled to sum 1 and counted in the Report.
	Strict bool
}

func (o *Options) tol() float64 {
	if o == nil || o.Tol == 0 {
		return 1e-6
	}
	if !(o.Tol > 0) || math.IsInf(o.Tol, 1) {
		panic(fmt.Sprintf("dataset: Options.Tol must be positive and finite, got %v", o.Tol))
	}
	return o.Tol
}

func (o *Options) strict() bool { return o != nil && o.Strict }

// Report says what the readers changed in the data: the label rows that
// were rescaled to sum 1. Its zero value means nothing was changed.
type Report struct {
	File         string  // the file read
	Rows         int     // number of samples read
	Tol          float64 // the tolerance used
	Rescaled     int     // number of label rows that were rescaled
	FirstRow     int     // 0-based index of the first rescaled row, -1 if none
	FirstLine    int     // source line of that row, 0 if none or the source has no lines
	MaxDeviation float64 // largest |Σ_j y_j − 1| before rescaling
}

// String describes the rescaling for a warning, or returns "" when no row
// was rescaled, as in
//
//	data.jsonl:7: 3 of 120 label rows did not sum to 1 within 1e-06 (largest deviation 0.25) and were rescaled; the first is on this line
func (r Report) String() string {
	if r.Rescaled == 0 {
		return ""
	}
	msg := fmt.Sprintf("%d of %d label rows did not sum to 1 within %g (largest deviation %.3g) and were rescaled",
		r.Rescaled, r.Rows, r.Tol, r.MaxDeviation)
	if r.FirstLine > 0 {
		return fmt.Sprintf("%s:%d: %s; the first is on this line", r.File, r.FirstLine, msg)
	}
	return fmt.Sprintf("%s: %s; the first is row %d", r.File, msg, r.FirstRow+1)
}

// checker validates label rows and rescales those off the tolerance.
type checker struct {
	tol    float64
	strict bool
	rep    Report
}

func newChecker(file string, opts *Options) checker {
	c := checker{tol: opts.tol(), strict: opts.strict()}
	c.rep = Report{File: file, Tol: c.tol, FirstRow: -1}
	return c
}

// check validates the non-negative, finite masses of row, which is sample
// i from line (0 if none), and rescales them if needed. The returned error
// has no File or Line.
func (c *checker) check(row []float64, i, line int) *Error {
	var s float64
	for _, v := range row {
		s += v
	}
	switch {
	case s == 0:
		return &Error{Err: ErrZeroRow}
	case math.IsInf(s, 0):
		return &Error{Err: ErrNonFinite, Msg: "the masses sum to +Inf"}
	}
	dev := math.Abs(s - 1)
	if dev <= c.tol {
		return nil
	}
	if c.strict {
		return &Error{Err: ErrSum, Msg: fmt.Sprintf("they sum to %v (tolerance %g)", s, c.tol)}
	}
	if s < 0x1p-1022 {
		return &Error{Err: ErrUnderflow, Msg: fmt.Sprintf("they sum to %v, below 2.2e-308, the smallest normal float64 (scale them up)", s)}
	}
	for j := range row {
		row[j] /= s
	}
	if c.rep.Rescaled == 0 {
		c.rep.FirstRow, c.rep.FirstLine = i, line
	}
	c.rep.Rescaled++
	c.rep.MaxDeviation = max(c.rep.MaxDeviation, dev)
	return nil
}
