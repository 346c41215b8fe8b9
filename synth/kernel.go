package synth

import (
	"fmt"
	"math"
)

// F stores in dst the distribution F_vuσ over the nodes of a tree,
//
//	F_vuσ(s) ∝ exp(±dv[s]/σ²) + exp(±du[s]/σ²),
//
// where dv[s] = d(v, s) and du[s] = d(u, s) are the distances from the two
// centres to every node s, and the sign is − for Decay and + for Grow. It
// computes in log space (see the package documentation), so that the result
// is a probability vector without NaN for every σ ≥ 0, σ = 0 giving the
// limit σ → 0⁺. It returns dst, which is allocated when nil.
//
// F panics if the lengths of dst (when not nil), dv and du differ or are 0,
// if a distance is negative, NaN or infinite, or if sigma is negative or
// NaN (programmer errors: Generator computes them).
func F(dst, dv, du []float64, sigma float64, sign Sign) []float64 {
	n := len(dv)
	if n == 0 || len(du) != n {
		panic("synth: F needs two distance vectors of the same positive length")
	}
	if dst == nil {
		dst = make([]float64, n)
	} else if len(dst) != n {
		panic("synth: len(dst) differs from the number of nodes")
	}
	if !(sigma >= 0) {
		panic(fmt.Sprintf("synth: F with σ = %v", sigma))
	}
	// β = 1/σ², capped so that β·0 = 0 when σ² underflows to 0.
	beta := math.Min(1/(sigma*sigma), math.MaxFloat64)
	f := sign.factor()
	top := math.Inf(-1)
	for s := range n {
		if !(dv[s] >= 0) || !(du[s] >= 0) || math.IsInf(dv[s], 1) || math.IsInf(du[s], 1) {
			panic(fmt.Sprintf("synth: F with distances %v, %v at node %d", dv[s], du[s], s))
		}
		top = math.Max(top, math.Max(f*dv[s], f*du[s]))
	}
	var sum float64
	for s := range n {
		a, b := f*dv[s], f*du[s]
		// log(exp(βa) + exp(βb)) − β·top, at most log 2 and 0 or more
		// where max(a, b) = top.
		w := math.Exp(beta*(math.Max(a, b)-top) + math.Log1p(math.Exp(-beta*math.Abs(a-b))))
		dst[s] = w
		sum += w
	}
	for s := range dst {
		dst[s] /= sum
	}
	return dst
}
