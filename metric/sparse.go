package metric

import (
	"math"

	"github.com/twl-ldl/twl/tw"
)

// RowSparse stores the metrics of the prediction p against the target q in
// dst, in the order of e.Names(), as Row does, for distributions held by
// their non-zero masses: p is the labels pi (user indices, increasing) with
// masses pm, q is qi with qm. It costs time in the number of listed labels,
// not in e.Len(): the element-wise measures run over the union of the two
// supports, in label order, and wasserstein is tw.Sparse's (tsw,
// tsw.Sliced.SparseDistance's).
//
// A label that neither lists adds exactly 0 to every sum (also with
// Options.Clip, where both masses clip to Eps), and sums run in label
// order, so every measure but wasserstein (tsw) equals Row's on the dense
// vectors bit for bit; wasserstein and tsw agree to rounding (see
// tw.Sparse).
//
// It panics if len(dst) != len(Names), a label is out of range, the labels
// of p or q are not increasing, or labels and masses differ in length.
func (e *Evaluator) RowSparse(dst []float64, pi []int, pm []float64, qi []int, qm []float64) {
	if len(dst) != numMetrics {
		panic("metric: len(dst) != len(Names)")
	}
	if len(pi) != len(pm) || len(qi) != len(qm) {
		panic("metric: sparse labels and masses differ in length")
	}
	L := e.Len()
	if e.sl != nil {
		dst[iWasserstein] = e.sl.SparseDistance(pi, pm, qi, qm)
	} else {
		if e.sp == nil {
			e.sp = tw.NewSparse(e.ws.Tree())
		}
		dst[iWasserstein] = e.sp.Distance(pi, pm, qi, qm)
	}

	var cheb, clark, canb, kl, dot, pp, qq, inter float64
	term := func(p, q float64) {
		cheb = max(cheb, math.Abs(p-q))
		dot += p * q
		pp += p * p
		qq += q * q
		inter += min(p, q)
		if e.clip {
			p, q = min(max(p, Eps), 1), min(max(q, Eps), 1)
		}
		if den := p + q; den != 0 {
			r := (p - q) / den
			clark += r * r
			canb += math.Abs(p-q) / den
		}
		if q != 0 {
			kl += q * (ln(q) - ln(p))
		}
	}
	a, b := 0, 0
	last := -1
	for a < len(pi) || b < len(qi) {
		var i int
		var p, q float64
		switch {
		case b == len(qi) || a < len(pi) && pi[a] < qi[b]:
			i, p = pi[a], pm[a]
			a++
		case a == len(pi) || qi[b] < pi[a]:
			i, q = qi[b], qm[b]
			b++
		default:
			i, p, q = pi[a], pm[a], qm[b]
			a++
			b++
		}
		if i <= last || i >= L {
			panic("metric: sparse labels out of range or not increasing")
		}
		last = i
		term(p, q)
	}
	dst[iChebyshev] = cheb
	dst[iClark] = math.Sqrt(clark)
	dst[iCanberra] = canb
	dst[iKL] = kl
	dst[iCosine] = dot / (math.Sqrt(pp) * math.Sqrt(qq))
	dst[iIntersection] = inter
}

// Summary accumulates the metrics of rows one at a time, for evaluations
// that stream their rows: memory independent of the number of rows. Mean
// and sample standard deviation follow Welford's update, and agree with
// Evaluate's two-pass figures to rounding. A metric that is +Inf on some
// row (kl, a prediction with no mass on a target label) has mean +Inf and
// standard deviation NaN, as in Evaluate; NaN on some row gives NaN. The
// zero value is an empty Summary of the metrics of Names.
type Summary struct {
	// Names are the metrics of the rows' columns, the keys of Result's
	// maps: nil means Names; set it to the Evaluator's Names() for the
	// rows of a sliced Evaluator. Result panics unless it is nil or has
	// len(Names) names.
	Names []string

	n      int
	mean   [numMetrics]float64
	m2     [numMetrics]float64
	posInf [numMetrics]int
	negInf [numMetrics]int
	nan    [numMetrics]int
	finite [numMetrics]int
}

// Add adds one row of metrics, in the order of s.Names (as Row and
// RowSparse store them). It panics unless len(row) == len(Names).
func (s *Summary) Add(row []float64) {
	if len(row) != numMetrics {
		panic("metric: len(row) != len(Names)")
	}
	s.n++
	for m, v := range row {
		switch {
		case math.IsNaN(v):
			s.nan[m]++
		case math.IsInf(v, 1):
			s.posInf[m]++
		case math.IsInf(v, -1):
			s.negInf[m]++
		default:
			s.finite[m]++
			d := v - s.mean[m]
			s.mean[m] += d / float64(s.finite[m])
			s.m2[m] += d * (v - s.mean[m])
		}
	}
}

// Rows returns the number of rows added.
func (s *Summary) Rows() int { return s.n }

// Result returns the means and standard deviations of the rows added so far,
// as a Result without Values. With no rows they are NaN; with one row the
// standard deviation is NaN.
func (s *Summary) Result() *Result {
	keys := names[:]
	if s.Names != nil {
		if len(s.Names) != numMetrics {
			panic("metric: len(Summary.Names) != len(Names)")
		}
		keys = s.Names
	}
	res := &Result{
		Rows:  s.n,
		Names: append([]string(nil), keys...),
		Mean:  make(map[string]float64, numMetrics),
		Std:   make(map[string]float64, numMetrics),
	}
	for m, name := range keys {
		mean, std := s.mean[m], math.NaN()
		switch {
		case s.n == 0 || s.nan[m] > 0 || s.posInf[m] > 0 && s.negInf[m] > 0:
			mean = math.NaN()
		case s.posInf[m] > 0:
			mean = math.Inf(1)
		case s.negInf[m] > 0:
			mean = math.Inf(-1)
		case s.n > 1:
			std = math.Sqrt(s.m2[m] / float64(s.n-1))
		}
		res.Mean[name], res.Std[name] = mean, std
	}
	return res
}
