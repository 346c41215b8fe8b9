package emd

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Sentinel errors. Errors returned by Solve and Cost wrap one of them with
// detail; test for them with errors.Is.
var (
	// ErrIterLimit: the pivot limit was reached before the plan was optimal.
	ErrIterLimit = errors.New("emd: iteration limit reached")
	// ErrMassMismatch: a and b have different total masses.
	ErrMassMismatch = errors.New("emd: total masses differ")
	// ErrBadValue: a mass or a cost is negative, NaN or infinite.
	ErrBadValue = errors.New("emd: negative, NaN or infinite value")
)

// Default values of the Settings fields.
const (
	DefaultMassTol = 1e-9
	DefaultCostTol = 1e-12
)

// Settings control the solver. The zero value gives the defaults.
type Settings struct {
	// MaxIter bounds the number of pivots. Zero means the default,
	// 1000·(n+m) + 10⁶ for the problem left after removing zero masses
	// (n rows, m columns): far above the pivot counts seen in practice
	// (at most about 5·(n+m) on the benchmarks and tests) and still finite.
	// Negative values panic.
	MaxIter int

	// MassTol is the relative tolerance of the balance check
	// |Σa − Σb| ≤ MassTol·max(Σa, Σb). Zero means DefaultMassTol (1e-9).
	// When the sums differ within the tolerance, the plan moves the
	// smaller total: its marginals fall short of a or b by at most the
	// difference in all. Negative values panic.
	MassTol float64

	// CostTol is the relative optimality tolerance: an arc enters the basis
	// only when its reduced cost C[i,j] − U[i] − V[j] is below −CostTol·Cmax,
	// where Cmax is the largest cost between a row and a column with mass.
	// The returned duals are then feasible to that tolerance, and the cost
	// is within CostTol·Cmax·Σa of the optimum. Zero means DefaultCostTol
	// (1e-12); values near the float64 epsilon or below risk endless
	// pivoting on rounding noise. Negative values panic.
	CostTol float64
}

// Flow is one non-zero entry of a transport plan: Mass moves from row I to
// column J.
type Flow struct {
	I, J int
	Mass float64
}

// Result is an optimal transport plan with its cost and an optimality
// certificate.
type Result struct {
	// Cost is Σ C[i,j]·P[i,j] over the plan.
	Cost float64
	// Plan lists the non-zero entries of P, sorted by I then J. It has at
	// most n+m−1 entries (a basic solution).
	Plan []Flow
	// U and V are dual potentials (length n and m): U[i] + V[j] ≤ C[i,j]
	// for all i, j, up to CostTol·Cmax and rounding, with equality on the
	// plan's support, so that Cost = Σ a[i]·U[i] + Σ b[j]·V[j] up to
	// rounding. They are unique only up to adding a constant to U and
	// subtracting it from V (and not even then on degenerate problems).
	// Columns with zero mass get V[j] = min_i (C[i,j] − U[i]) over the rows
	// with mass (0 if there are none), then rows with zero mass get
	// U[i] = min_j (C[i,j] − V[j]) over all columns: the largest values
	// that keep the certificate valid.
	U, V []float64
	// Iterations is the number of pivots.
	Iterations int
}

// Solver solves exact optimal transport problems by the network simplex
// method. The zero value is ready to use, with default Settings. A Solver
// keeps its workspace between calls, so that repeated solves of problems of
// similar size allocate nothing beyond their results; it must not be used
// by several goroutines at once.
type Solver struct {
	Settings

	w network

	// Workspace for the reduction of zero masses.
	rows, cols []int // kept original indices
	ra, rb     []float64
	ccost      []float64 // compacted costs when some column is dropped

	// Workspace for the first shortlist and the starting tree.
	colD, colThr                     []float64
	colI, colCnt, count              []int32
	head, adjNext, order, stack, act []int32
	arcs                             []arc
	tmpShort                         []sarc
}

// Solve returns an optimal plan for transporting a (length n) onto b
// (length m) under the row-major n×m cost matrix cost, together with
// optimal dual potentials.
//
// Masses and costs must be non-negative and finite, and Σa must equal Σb up
// to the relative tolerance s.MassTol; a and b need not sum to one. Rows and
// columns with zero mass are removed before the solve. Inputs are not
// modified.
//
// Solve panics if len(cost) != len(a)·len(b) or if a setting is negative.
// It returns an error wrapping ErrBadValue or ErrMassMismatch for invalid
// data, and ErrIterLimit, with a NaN cost and no plan, when the pivot limit
// is reached.
func (s *Solver) Solve(cost, a, b []float64) (Result, error) {
	n, m := len(a), len(b)
	c, it, err := s.run(cost, a, b)
	defer s.release()
	if err != nil {
		return Result{Cost: math.NaN(), Iterations: it}, err
	}
	w := &s.w
	nr, nc := w.n, w.m
	// Tree arcs with positive flow form the plan.
	k := 0
	for u := range nr + nc {
		if w.pred[u] >= 0 && w.flow[u] > 0 {
			k++
		}
	}
	res := Result{
		Cost:       c,
		Iterations: it,
		Plan:       make([]Flow, 0, k),
		U:          make([]float64, n),
		V:          make([]float64, m),
	}
	for u := range nr + nc {
		if e := w.pred[u]; e >= 0 && w.flow[u] > 0 {
			i, j := e/nc, e%nc
			res.Plan = append(res.Plan, Flow{I: s.rows[i], J: s.cols[j], Mass: w.flow[u]})
		}
	}
	slices.SortFunc(res.Plan, func(x, y Flow) int {
		if x.I != y.I {
			return x.I - y.I
		}
		return x.J - y.J
	})
	s.duals(cost, res.U, res.V)
	return res, nil
}

// Cost returns the optimal transport cost of Solve without building the plan
// or the potentials; it allocates nothing once the workspace has grown to
// the problem's size. Errors and panics are those of Solve; on error the
// cost is NaN.
func (s *Solver) Cost(cost, a, b []float64) (float64, error) {
	c, _, err := s.run(cost, a, b)
	s.release()
	if err != nil {
		return math.NaN(), err
	}
	return c, nil
}

// release drops the Solver's reference to the caller's cost matrix.
func (s *Solver) release() {
	s.w.cost = nil
}

// Solve solves one problem with a fresh Solver; see Solver.Solve. A nil
// settings means the defaults.
func Solve(cost, a, b []float64, settings *Settings) (Result, error) {
	var s Solver
	if settings != nil {
		s.Settings = *settings
	}
	return s.Solve(cost, a, b)
}

// run validates the input, reduces it and runs the simplex. It returns the
// primal cost and the number of pivots.
func (s *Solver) run(cost, a, b []float64) (float64, int, error) {
	maxIter, err := s.prepare(cost, a, b)
	if err != nil || s.w.n == 0 {
		return 0, 0, err
	}
	w := &s.w
	it := 0
	for {
		in, ok := w.findEntering()
		if !ok {
			break
		}
		if it == maxIter {
			return 0, it, fmt.Errorf("%w: %d pivots on a %d×%d problem without reaching optimality",
				ErrIterLimit, it, w.n, w.m)
		}
		it++
		w.pivot(int(in.i), int(in.j), in.c)
	}
	return w.primalCost(), it, nil
}

// prepare validates the input, removes zero masses and builds the first
// shortlist and the starting tree. It returns the pivot limit. When no mass
// is left, w.n and w.m are zero and there is nothing to solve.
func (s *Solver) prepare(cost, a, b []float64) (maxIter int, err error) {
	n, m := len(a), len(b)
	if len(cost) != n*m {
		panic(fmt.Sprintf("emd: len(cost) = %d, want len(a)·len(b) = %d·%d", len(cost), n, m))
	}
	if s.MaxIter < 0 || s.MassTol < 0 || s.CostTol < 0 {
		panic("emd: negative setting")
	}
	massTol, costTol := s.MassTol, s.CostTol
	if massTol == 0 {
		massTol = DefaultMassTol
	}
	if costTol == 0 {
		costTol = DefaultCostTol
	}
	w := &s.w
	s.rows, s.cols = s.rows[:0], s.cols[:0]
	w.n, w.m = 0, 0

	sa, err := checkMass(a, "a")
	if err != nil {
		return 0, err
	}
	sb, err := checkMass(b, "b")
	if err != nil {
		return 0, err
	}
	if math.IsInf(sa, 0) || math.IsInf(sb, 0) {
		return 0, fmt.Errorf("%w: total mass overflows (Σa = %v, Σb = %v)", ErrBadValue, sa, sb)
	}
	if math.Abs(sa-sb) > massTol*math.Max(sa, sb) {
		return 0, fmt.Errorf("%w: Σa = %v, Σb = %v", ErrMassMismatch, sa, sb)
	}

	// Drop zero masses. Costs in the dropped rows and columns are checked
	// here; the others are checked by buildShort, which reads them anyway.
	for i, v := range a {
		if v > 0 {
			s.rows = append(s.rows, i)
		} else if err := checkCosts(cost[i*m:i*m+m], i*m); err != nil {
			return 0, err
		}
	}
	for j, v := range b {
		if v > 0 {
			s.cols = append(s.cols, j)
		}
	}
	nr, nc := len(s.rows), len(s.cols)
	if nr == 0 || nc == 0 {
		// No mass at all (the balance check rules out mass on one side
		// only): nothing moves, but the costs must still be valid.
		s.rows, s.cols = s.rows[:0], s.cols[:0]
		return 0, checkCosts(cost, 0)
	}
	w.rowOff = growI(&w.rowOff, nr)
	if nc == m {
		w.cost = cost
		for k, i := range s.rows {
			w.rowOff[k] = i * m
		}
	} else {
		cc := growF(&s.ccost, nr*nc)
		for k, i := range s.rows {
			row := cost[i*m : i*m+m]
			if err := checkCosts(row, i*m); err != nil {
				return 0, err
			}
			dst := cc[k*nc : k*nc+nc]
			for l, j := range s.cols {
				dst[l] = row[j]
			}
			w.rowOff[k] = k * nc
		}
		w.cost = cc
	}
	if nr+nc >= math.MaxInt32 {
		panic("emd: too many rows and columns")
	}
	w.n, w.m = nr, nc
	N := nr + nc + 1
	w.parent = grow32(&w.parent, N)
	w.pred = growI(&w.pred, N)
	w.flow = growF(&w.flow, N)
	w.pi = growF(&w.pi, N)
	w.thread = grow32(&w.thread, N)
	w.rev = grow32(&w.rev, N)
	w.size = grow32(&w.size, N)
	w.last = grow32(&w.last, N)
	w.stem = grow32(&w.stem, N)
	w.aEnd = grow32(&w.aEnd, N)
	w.bStart = grow32(&w.bStart, N)
	w.bEnd = grow32(&w.bEnd, N)
	w.topD = growF(&w.topD, max(shortK0, shortK1))
	w.topJ = grow32(&w.topJ, max(shortK0, shortK1))

	maxC, err := s.buildShort(s.rows, s.cols, m)
	if err != nil {
		w.n, w.m = 0, 0
		return 0, err
	}
	w.eps = costTol * maxC
	w.piBound = 64 * maxC

	ra := growF(&s.ra, nr)
	for k, i := range s.rows {
		ra[k] = a[i]
	}
	rb := growF(&s.rb, nc)
	for k, j := range s.cols {
		rb[k] = b[j]
	}
	s.initial(ra, rb)

	maxIter = s.MaxIter
	if maxIter == 0 {
		maxIter = 1000*(nr+nc) + 1_000_000
	}
	return maxIter, nil
}

// checkCosts returns an error if an entry of c is negative, NaN or infinite;
// off is the index of c[0] in the caller's matrix.
func checkCosts(c []float64, off int) error {
	for k, v := range c {
		if !(v >= 0 && v <= math.MaxFloat64) {
			return fmt.Errorf("%w: cost[%d] = %v", ErrBadValue, off+k, v)
		}
	}
	return nil
}

// primalCost returns Σ flow·cost over the tree arcs.
func (w *network) primalCost() float64 {
	var total float64
	for u := range w.n + w.m {
		if e := w.pred[u]; e >= 0 {
			total += w.flow[u] * w.arcCost(e)
		}
	}
	return total
}

// checkMass returns the sum of x, or an error if an entry is negative, NaN
// or infinite.
func checkMass(x []float64, name string) (float64, error) {
	var sum float64
	for k, v := range x {
		if !(v >= 0 && v <= math.MaxFloat64) {
			return 0, fmt.Errorf("%w: %s[%d] = %v", ErrBadValue, name, k, v)
		}
		sum += v
	}
	return sum, nil
}

// duals fills U and V (original sizes) from the final tree: potentials are
// recomputed along the thread, exact on tree arcs up to one rounding each,
// then extended to the rows and columns with zero mass.
func (s *Solver) duals(cost, U, V []float64) {
	w := &s.w
	nr := w.n
	m := len(V)
	if nr > 0 {
		pi := w.pi
		pi[w.root] = 0
		for u := w.thread[w.root]; u != w.root; u = w.thread[u] {
			p, e := w.parent[u], w.pred[u]
			switch {
			case e < 0:
				pi[u] = pi[p] // artificial arc of cost 0
			case int(u) < nr:
				pi[u] = pi[p] - w.arcCost(e) // arc u → p
			default:
				pi[u] = pi[p] + w.arcCost(e) // arc p → u
			}
		}
	}
	// Mark the zero-mass rows and columns with NaN, then fill them in.
	for i := range U {
		U[i] = math.NaN()
	}
	for j := range V {
		V[j] = math.NaN()
	}
	for k, i := range s.rows {
		U[i] = -w.pi[k]
	}
	for k, j := range s.cols {
		V[j] = w.pi[nr+k]
	}
	for j := range V {
		if !math.IsNaN(V[j]) {
			continue
		}
		v := 0.0
		if len(s.rows) > 0 {
			v = inf
			for _, i := range s.rows {
				v = min(v, cost[i*m+j]-U[i])
			}
		}
		V[j] = v
	}
	for i := range U {
		if !math.IsNaN(U[i]) {
			continue
		}
		u := 0.0
		if m > 0 {
			u = inf
			for j, c := range cost[i*m : i*m+m] {
				u = min(u, c-V[j])
			}
		}
		U[i] = u
	}
}

// arcCost returns the cost of arc e = i*m + j.
func (w *network) arcCost(e int) float64 {
	i := e / w.m
	return w.cost[w.rowOff[i]+e-i*w.m]
}
