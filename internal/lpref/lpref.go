// Package lpref is a test reference: it solves the discrete optimal transport
// problem
//
//	min ⟨C, P⟩  subject to  P ≥ 0,  P·1 = a,  Pᵀ·1 = b
//
// as a dense linear program with gonum's simplex solver
// (gonum.org/v1/gonum/optimize/convex/lp). It shares no code with twl's own
// solvers, so tests use it as an independent ground truth for the
// tree-Wasserstein closed form and for the network simplex. It is slow
// (the LP has n·m variables) and meant for problems with at most a few dozen
// support points.
package lpref

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// W1 returns the optimal transport cost between the histograms a (length n)
// and b (length m) under the row-major n×m cost matrix cost. The masses of a
// and b must be non-negative and have equal sums (to 1e-9 relative).
//
// Support points with zero mass are dropped before the LP is built; they carry
// no mass in any feasible plan, and removing them keeps the LP non-degenerate
// enough for gonum's solver. One equality row is dropped as well, because the
// marginal constraints are linearly dependent (both sum to the total mass).
func W1(cost []float64, a, b []float64) (float64, error) {
	n, m := len(a), len(b)
	if len(cost) != n*m {
		return 0, fmt.Errorf("lpref: cost has %d entries, want %d×%d", len(cost), n, m)
	}
	var sa, sb float64
	var ia, ib []int
	for i, v := range a {
		if v < 0 || math.IsNaN(v) {
			return 0, errors.New("lpref: negative or NaN mass in a")
		}
		sa += v
		if v > 0 {
			ia = append(ia, i)
		}
	}
	for j, v := range b {
		if v < 0 || math.IsNaN(v) {
			return 0, errors.New("lpref: negative or NaN mass in b")
		}
		sb += v
		if v > 0 {
			ib = append(ib, j)
		}
	}
	if math.Abs(sa-sb) > 1e-9*math.Max(sa, sb) {
		return 0, fmt.Errorf("lpref: masses differ: %v vs %v", sa, sb)
	}
	if len(ia) == 0 {
		return 0, nil
	}
	// Variables x[p*len(ib)+q] = P[ia[p], ib[q]].
	np, nq := len(ia), len(ib)
	nv := np * nq
	c := make([]float64, nv)
	for p, i := range ia {
		for q, j := range ib {
			c[p*nq+q] = cost[i*m+j]
		}
	}
	// Rows: np row-sum constraints, then nq-1 column-sum constraints (the
	// last column constraint is implied by the others).
	rows := np + nq - 1
	A := mat.NewDense(rows, nv, nil)
	rhs := make([]float64, rows)
	for p := range ia {
		for q := range ib {
			A.Set(p, p*nq+q, 1)
		}
		rhs[p] = a[ia[p]]
	}
	for q := 0; q < nq-1; q++ {
		for p := range ia {
			A.Set(np+q, p*nq+q, 1)
		}
		rhs[np+q] = b[ib[q]]
	}
	opt, _, err := lp.Simplex(c, A, rhs, 1e-12, nil)
	if err != nil {
		return 0, fmt.Errorf("lpref: %w", err)
	}
	return opt, nil
}
