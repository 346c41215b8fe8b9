package metric

import (
	"gonum.org/v1/gonum/stat"

	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
	"github.com/twl-ldl/twl/tw"
)

// Options controls how an Evaluator computes the metrics. The zero value
// (and a nil *Options) gives the exact conventions of the package
// documentation.
type Options struct {
	// Clip reproduces PyLDL: p and q are clipped to [Eps, 1] before Clark,
	// Canberra and KL, and only those (see the package documentation).
	// Default false: no clipping, and KL is +Inf where the prediction
	// misses target mass.
	Clip bool
}

// Evaluator scores predicted distributions against targets on the labels of
// one tree, with every metric of Names, or on the points shared by several
// trees, with the tree-sliced distance in place of the tree's (see
// NewSlicedEvaluator). It holds scratch memory, so that Row allocates
// nothing; an Evaluator is not safe for concurrent use.
type Evaluator struct {
	ws     *tw.Workspace // nil for a sliced Evaluator
	sp     *tw.Sparse    // for RowSparse, made on first use
	sl     *tsw.Sliced   // the tree-sliced distance, or nil
	n      int           // the number of labels
	names  *[numMetrics]string
	clip   bool
	pc, qc []float64 // clipped copies of p and q when clip
}

// NewEvaluator returns an Evaluator for distributions over the labels of t,
// vectors of length t.Len() in the tree's user order.
func NewEvaluator(t *tree.Tree, opts *Options) *Evaluator {
	e := &Evaluator{ws: tw.NewWorkspace(t), n: t.Len(), names: &names}
	e.setOptions(opts)
	return e
}

// NewSlicedEvaluator returns an Evaluator for distributions over the s.Len()
// points of the tree-sliced distance s (package tsw), vectors in the order
// of its points, with the metrics of SlicedNames: "tsw", TSW(p, q) = (1/T)
// Σ_t TW_t(p, q), the mean over s's T trees of their tree-Wasserstein
// distances, in place of "wasserstein"; every other metric as NewEvaluator's,
// over the points. The Evaluator computes with a clone of s (tsw.Sliced.Clone),
// so s stays free for other use, on other goroutines too.
func NewSlicedEvaluator(s *tsw.Sliced, opts *Options) *Evaluator {
	e := &Evaluator{sl: s.Clone(), n: s.Len(), names: &slicedNames}
	e.setOptions(opts)
	return e
}

func (e *Evaluator) setOptions(opts *Options) {
	if opts != nil && opts.Clip {
		e.clip = true
		e.pc = make([]float64, e.n)
		e.qc = make([]float64, e.n)
	}
}

// Len returns the number of labels, the length of the vectors the Evaluator
// takes.
func (e *Evaluator) Len() int { return e.n }

// Names returns the names of the metrics that Row stores, in its order: a
// copy of Names, or of SlicedNames for an Evaluator of NewSlicedEvaluator.
func (e *Evaluator) Names() []string { return append([]string(nil), e.names[:]...) }

// Row stores the metrics of the prediction p against the target q in dst, in
// the order of e.Names(). It panics unless len(dst) == len(Names) and len(p) ==
// len(q) == e.Len(). p and q are not modified.
func (e *Evaluator) Row(dst, p, q []float64) {
	if len(dst) != numMetrics {
		panic("metric: len(dst) != len(Names)")
	}
	if len(p) != e.Len() || len(q) != e.Len() {
		panic("metric: vector length differs from the tree's number of labels")
	}
	if e.sl != nil {
		dst[iWasserstein] = e.sl.Distance(p, q)
	} else {
		dst[iWasserstein] = e.ws.Distance(p, q)
	}
	dst[iChebyshev] = Chebyshev(p, q)
	dst[iCosine] = Cosine(p, q)
	dst[iIntersection] = Intersection(p, q)
	pc, qc := p, q
	if e.clip {
		pc, qc = Clip(e.pc, p), Clip(e.qc, q)
	}
	dst[iKL] = KL(pc, qc)
	dst[iClark] = Clark(pc, qc)
	dst[iCanberra] = Canberra(pc, qc)
}

// Result holds the scores of a set of predictions against their targets.
// Its maps have one entry per name of Names (SlicedNames for a sliced
// Evaluator).
type Result struct {
	Rows int // number of (prediction, target) pairs

	// Names lists the metrics, the keys of the maps, in the column order
	// of Evaluator.Row: a copy of the Evaluator's Names.
	Names []string

	// Values[name][r] is the metric name of row r.
	Values map[string][]float64

	// Mean and Std are, per metric, the mean over rows and the sample
	// standard deviation (n − 1 in the denominator; NaN for one row). A
	// metric that is +Inf on some row has Mean +Inf and Std NaN.
	Mean, Std map[string]float64
}

// Evaluate scores every row of P against the same row of Q. P and Q are
// row-major matrices with e.Len() columns, as in package tw and
// labeldist.Set.Data: row r is P[r*L:(r+1)*L]. It panics if len(P) !=
// len(Q) or if the length is not a multiple of e.Len(). With no rows, Mean
// and Std are NaN.
func (e *Evaluator) Evaluate(P, Q []float64) *Result {
	L := e.Len()
	if len(P) != len(Q) {
		panic("metric: len(P) != len(Q)")
	}
	if L == 0 || len(P)%L != 0 {
		panic("metric: matrix length is not a multiple of the number of labels")
	}
	rows := len(P) / L
	res := &Result{
		Rows:   rows,
		Names:  e.Names(),
		Values: make(map[string][]float64, numMetrics),
		Mean:   make(map[string]float64, numMetrics),
		Std:    make(map[string]float64, numMetrics),
	}
	// One slab, metric-major, so that each metric's values are contiguous.
	slab := make([]float64, numMetrics*rows)
	var row [numMetrics]float64
	for r := range rows {
		e.Row(row[:], P[r*L:(r+1)*L], Q[r*L:(r+1)*L])
		for m, v := range row {
			slab[m*rows+r] = v
		}
	}
	for m, name := range e.names {
		v := slab[m*rows : (m+1)*rows : (m+1)*rows]
		res.Values[name] = v
		res.Mean[name], res.Std[name] = stat.MeanStdDev(v, nil)
	}
	return res
}
