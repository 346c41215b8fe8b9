package sinkhorn

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

// expMin is the exponent below which a term of a log-sum-exp, relative to
// its largest term, is skipped: exp(−708) ≈ 3.3e−308.
const expMin = -708

// minNormal is the smallest positive normal float64.
const minNormal = 0x1p-1022

// kernelFloor returns the smallest kernel entry stored, τ·minNormal;
// smaller entries are stored as 0. Since the Log method keeps the scalings
// in [1/τ, τ], no product of a kernel entry and a scaling is then subnormal
// (subnormal arithmetic is two orders of magnitude slower on x86), and a
// dropped entry contributes at most τ²·kernelFloor ≈ 1e−158 (τ = 1e50) to
// the plan.
func kernelFloor(tau float64) float64 { return tau * minNormal }

// buildKernel writes k[i*m+j] = exp(−λ·cost[i*m+j]) for the rows
// [i0, i1), validating the costs, and sets p to the sum of these rows. It
// returns the flat index of the first invalid cost or −1. Runs of equal
// costs (common for 0/1 and integer tree metrics) reuse the previous
// exponential.
func buildKernel(k, cost, p []float64, i0, i1 int, lambda, xmin float64) int {
	m := len(p)
	clear(p)
	prevC, prevK := math.NaN(), 0.0
	for i := i0; i < i1; i++ {
		ki := k[i*m : (i+1)*m]
		for j, c := range cost[i*m : (i+1)*m] {
			if c == prevC {
				ki[j] = prevK
				continue
			}
			if !(c >= 0) || c > math.MaxFloat64 {
				return i*m + j
			}
			e := 0.0
			if x := -lambda * c; x >= xmin {
				e = math.Exp(x)
			}
			prevC, prevK = c, e
			ki[j] = e
		}
		floats.Add(p, ki)
	}
	return -1
}

// setKernel validates cost and builds the shared kernel s.k0 and its
// column sums s.t0 using up to s.set.workers goroutines. The column sums are
// reduced block by block in order, like every pass of the iteration.
func (s *Solver) setKernel(cost []float64) error {
	n, m := s.n, s.m
	bad := s.buildBad
	part := s.lanes[0].part
	par := s.par()
	parallel(par, s.nChunk, func(c int) {
		i0, i1 := span(c, s.chunkRows, n)
		bad[c] = buildKernel(s.k0, cost, part[c*m:(c+1)*m], i0, i1, s.set.lambda, s.xmin)
	})
	reduceBlocks(s.t0, part, s.nChunk, par)
	for _, idx := range bad[:s.nChunk] {
		if idx >= 0 {
			return fmt.Errorf("%w: cost[%d,%d] = %v", ErrCost, idx/m, idx%m, cost[idx])
		}
	}
	s.cost = cost
	return nil
}

// lseRow computes over the columns j with w[j] > 0 the exponents
// z_j = λ(shift_j − c_j), their maximum M, and
//
//	S = Σ_j ω_j exp(z_j − M),  ω_j = w_j, or 1 if unit,
//
// so that Σ_j ω_j exp(z_j) = exp(M)·S with 1·min ω ≤ S. If dst is not nil
// it receives exp(z_j − M), and 0 where w[j] == 0. If no w[j] > 0, M = −Inf
// and S = 0.
func lseRow(dst, c, shift, w []float64, lambda float64, unit bool) (M, S float64) {
	M = math.Inf(-1)
	for j, wj := range w {
		if wj > 0 {
			if z := lambda * (shift[j] - c[j]); z > M {
				M = z
			}
		}
	}
	for j, wj := range w {
		e := 0.0
		if wj > 0 {
			if x := lambda*(shift[j]-c[j]) - M; x >= expMin {
				e = math.Exp(x)
			}
			if unit {
				S += e
			} else {
				S += wj * e
			}
		}
		if dst != nil {
			dst[j] = e
		}
	}
	return M, S
}

// lseCols is lseRow along columns: for every column j = cols[k] it computes,
// over the rows i with w[i] > 0, z_i = λ(shift_i − C_ij), l.colM[k] = max z_i
// and l.colS[k] = Σ_i ω_i exp(z_i − colM[k]). If store is set it writes
// exp(z_i − colM[k]) into the lane's private kernel at (i, j) for those rows
// (which the caller must own). Columns are split into blocks processed in
// parallel; within a column rows are summed in order, so the result does not
// depend on par.
func (l *lane) lseCols(cols []int, shift, w []float64, unit, store bool, par int) {
	s := l.s
	n, m, lambda := s.n, s.m, s.set.lambda
	cost := s.cost
	nc := len(cols)
	blk := max(256, (nc+4*par-1)/(4*par))
	nb := (nc + blk - 1) / blk
	if n*nc < parMin {
		par = 1
	}
	parallel(par, nb, func(b int) {
		k0, k1 := span(b, blk, nc)
		cm, cs := l.colM[k0:k1], l.colS[k0:k1]
		cl := cols[k0:k1]
		for k := range cm {
			cm[k] = math.Inf(-1)
			cs[k] = 0
		}
		for i := range n {
			if !(w[i] > 0) {
				continue
			}
			ci := cost[i*m : (i+1)*m]
			for k, j := range cl {
				if z := lambda * (shift[i] - ci[j]); z > cm[k] {
					cm[k] = z
				}
			}
		}
		for i := range n {
			wi := w[i]
			if !(wi > 0) {
				continue
			}
			ci := cost[i*m : (i+1)*m]
			var ki []float64
			if store {
				ki = l.kern[i*m : (i+1)*m]
			}
			for k, j := range cl {
				e := 0.0
				if x := lambda*(shift[i]-ci[j]) - cm[k]; x >= expMin {
					e = math.Exp(x)
				}
				if unit {
					cs[k] += e
				} else {
					cs[k] += wi * e
				}
				if store {
					ki[j] = e
				}
			}
		}
	})
}
