package metric

import "math"

// Eps is the lower end of the clipping interval [Eps, 1] of PyLDL's
// convention: the float64 machine epsilon, math.Nextafter(1, 2) − 1 =
// 2.220446049250313e-16.
const Eps = 0x1p-52

// Names lists the metrics that an Evaluator computes, in the column order of
// Table 1 of the paper. The package keeps its own copy: changing Names
// changes nothing else.
var Names = append([]string(nil), names[:]...)

var names = [numMetrics]string{"wasserstein", "kl", "chebyshev", "clark", "canberra", "cosine", "intersection"}

// SlicedNames lists the metrics of an Evaluator made by
// NewSlicedEvaluator: Names with "tsw", the tree-sliced Wasserstein
// distance, in place of "wasserstein", in the same column. Like Names, it
// is a copy: changing it changes nothing else.
var SlicedNames = append([]string(nil), slicedNames[:]...)

var slicedNames = [numMetrics]string{"tsw", "kl", "chebyshev", "clark", "canberra", "cosine", "intersection"}

// Positions of the metrics in Names and in the dst of Evaluator.Row.
// iWasserstein holds tsw for a sliced Evaluator.
const (
	iWasserstein = iota
	iKL
	iChebyshev
	iClark
	iCanberra
	iCosine
	iIntersection
	numMetrics
)

// LowerIsBetter reports whether lower values of the named metric are better:
// true for the distances wasserstein, tsw, kl, chebyshev, clark and
// canberra, false for the similarities cosine and intersection. It panics
// for a name in neither Names nor SlicedNames.
func LowerIsBetter(name string) bool {
	switch name {
	case "wasserstein", "tsw", "kl", "chebyshev", "clark", "canberra":
		return true
	case "cosine", "intersection":
		return false
	}
	panic("metric: unknown metric " + name)
}

func checkLen(p, q []float64) {
	if len(p) != len(q) {
		panic("metric: len(p) != len(q)")
	}
}

// Chebyshev returns max_i |p_i − q_i|, 0 for empty vectors.
func Chebyshev(p, q []float64) float64 {
	checkLen(p, q)
	var m float64
	for i, pi := range p {
		m = max(m, math.Abs(pi-q[i])) // the builtin max propagates NaN
	}
	return m
}

// Clark returns sqrt(Σ_i (p_i − q_i)² / (p_i + q_i)²). A term with
// p_i + q_i = 0 counts 0.
func Clark(p, q []float64) float64 {
	checkLen(p, q)
	var s float64
	for i, pi := range p {
		den := pi + q[i]
		if den == 0 {
			continue
		}
		r := (pi - q[i]) / den
		s += r * r
	}
	return math.Sqrt(s)
}

// Canberra returns Σ_i |p_i − q_i| / (p_i + q_i). A term with p_i + q_i = 0
// counts 0.
func Canberra(p, q []float64) float64 {
	checkLen(p, q)
	var s float64
	for i, pi := range p {
		den := pi + q[i]
		if den == 0 {
			continue
		}
		s += math.Abs(pi-q[i]) / den
	}
	return s
}

// KL returns the Kullback-Leibler divergence of the prediction p from the
// target q, KL(q ‖ p) = Σ_i q_i ln(q_i / p_i): note the order, target first
// in the divergence, prediction first in the arguments as for every metric.
// A term with q_i = 0 counts 0; q_i > 0 with p_i = 0 gives +Inf.
func KL(p, q []float64) float64 {
	checkLen(p, q)
	var s float64
	for i, qi := range q {
		if qi == 0 {
			continue
		}
		// ln q − ln p rather than ln(q/p): the quotient overflows to +Inf
		// for a subnormal p_i, the difference of logarithms does not.
		s += qi * (ln(qi) - ln(p[i]))
	}
	return s
}

// ln is math.Log, correct for subnormal x as well. On amd64 and s390x
// math.Log does not normalize a subnormal argument and is off by up to
// 35: it gives −709.09 for 2⁻¹⁰⁷⁴ instead of −744.44 (Go issue 56600).
// Scaling by 2⁵⁴ first makes the argument normal.
func ln(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log(x*0x1p54) - 54*math.Ln2
	}
	return math.Log(x)
}

// Cosine returns the cosine similarity Σ_i p_i q_i / (‖p‖₂ ‖q‖₂); NaN if p
// or q is zero.
func Cosine(p, q []float64) float64 {
	checkLen(p, q)
	var dot, pp, qq float64
	for i, pi := range p {
		dot += pi * q[i]
		pp += pi * pi
		qq += q[i] * q[i]
	}
	return dot / (math.Sqrt(pp) * math.Sqrt(qq))
}

// Intersection returns Σ_i min(p_i, q_i).
func Intersection(p, q []float64) float64 {
	checkLen(p, q)
	var s float64
	for i, pi := range p {
		s += min(pi, q[i]) // the builtin min propagates NaN
	}
	return s
}

// Clip stores x clipped to [Eps, 1] in dst, as PyLDL does before Clark,
// Canberra and KL, and returns dst. dst may be x. It panics if the lengths
// differ. NaN stays NaN.
func Clip(dst, x []float64) []float64 {
	if len(dst) != len(x) {
		panic("metric: len(dst) != len(x)")
	}
	for i, v := range x {
		dst[i] = min(max(v, Eps), 1)
	}
	return dst
}

// TotalVariation returns the total variation distance between p and q,
// ½ Σ_i |p_i − q_i|: the mass that sits on other labels, whatever the
// labels' distances in a tree.
func TotalVariation(p, q []float64) float64 {
	checkLen(p, q)
	var s float64
	for i := range p {
		s += math.Abs(p[i] - q[i])
	}
	return s / 2
}
