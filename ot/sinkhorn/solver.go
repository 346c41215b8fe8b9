package sinkhorn

import (
	"fmt"
	"math"
	"sync"
)

// Result reports one solve.
type Result struct {
	// Value is the transport cost ⟨C, P⟩ of the entropic plan P (Frogner et
	// al.'s "Wasserstein loss", POT's sinkhorn2).
	Value float64
	// Entropic is the entropic objective ⟨C, P⟩ − H(P)/λ with
	// H(P) = −Σ P_ij log P_ij, evaluated at the returned plan. At
	// convergence it equals the dual value ⟨f, a⟩ + ⟨g, b⟩, and its gradient
	// with respect to a is the potential f (see Grad).
	Entropic float64
	// Iters is the number of iterations run.
	Iters int
	// MarginalErr is ‖P1 − a‖₁ + ‖Pᵀ1 − b‖₁ for the returned plan.
	MarginalErr float64
	// Fixes counts stabilization events of the Log method: kernel rows and
	// columns whose scaling left [1/τ, τ] and were recomputed in the log
	// domain.
	Fixes int
}

// Solver solves entropic transport problems sharing one n×m cost matrix.
// It holds the kernel exp(−λC), built once by New or SetCost, and
// workspaces so that repeated solves do not allocate.
//
// Aliasing: the Solver keeps a reference to the cost slice passed to New or
// SetCost and reads it during every solve; the caller must not modify it
// while the Solver is in use (call SetCost after changing it). No method
// modifies its inputs. A Solver is not safe for concurrent use; the batch
// methods parallelize internally.
type Solver struct {
	n, m    int
	set     settings
	cost    []float64
	costErr error
	k0      []float64 // exp(−λC), shared, read-only during solves
	t0      []float64 // column sums of k0
	kmin    float64   // kernel entries below are stored as 0
	xmin    float64   // log(kmin)

	chunkRows, nChunk int
	buildBad          []int // first invalid cost index per row block, or −1

	lanes []*lane
}

// lane is the workspace of one solve at a time.
type lane struct {
	s *Solver

	a, b []float64 // current histograms (not owned)
	rho  float64   // Σa/Σb

	alpha, u, rowS, rowQ, pred, fv []float64 // length n
	beta, v, t, colM, colS, gv     []float64 // length m
	part                           []float64 // column partials: m, or nChunk·m for lane 0
	flag                           []int     // length m
	cols                           []int     // length m
	supp                           []int     // columns with b_j > 0 (in cols)
	sparse                         bool      // passes gather supp

	chFix []int  // per row block: rows absorbed
	chBad []bool // per row block: Plain overflowed

	// Private stabilized kernel, allocated on first need. Row i of the
	// current kernel K̃ is kern's row if owned[i], else the shared k0's.
	mu    sync.Mutex
	kern  []float64
	owned []bool

	err  error // first batch error of this lane and its row
	errK int
}

// New returns a Solver for the row-major n×m cost matrix cost (cost[i*m+j]
// is the cost of moving mass from point i of a to point j of b), building
// the kernel exp(−λC) with up to Workers goroutines.
//
// It panics if n or m is not positive or len(cost) != n·m. It returns an
// error wrapping ErrSettings for invalid settings, ErrTooLarge if
// Bytes(n, m, s) exceeds s.MaxBytes (before allocating anything), and
// ErrCost for a negative, NaN or infinite cost.
func New(cost []float64, n, m int, s Settings) (*Solver, error) {
	if n <= 0 || m <= 0 {
		panic("sinkhorn: non-positive dimension")
	}
	if len(cost) != n*m {
		panic("sinkhorn: cost length mismatch")
	}
	set, err := s.resolve()
	if err != nil {
		return nil, err
	}
	nLanes, bytes := lanesFor(n, m, set.workers, set.maxBytes)
	if set.maxBytes >= 0 && bytes > float64(set.maxBytes) {
		return nil, fmt.Errorf("%w: %d×%d needs %.3g GB, limit %.3g GB",
			ErrTooLarge, n, m, bytes/1e9, float64(set.maxBytes)/1e9)
	}
	sv := &Solver{n: n, m: m, set: set}
	sv.kmin = kernelFloor(set.tau)
	sv.xmin = math.Log(sv.kmin)
	sv.chunkRows, sv.nChunk = chunking(n)
	sv.buildBad = make([]int, sv.nChunk)
	sv.k0 = make([]float64, n*m)
	sv.t0 = make([]float64, m)
	sv.lanes = make([]*lane, nLanes) // lanes 1.. are created by the first batch
	sv.lanes[0] = newLane(sv, sv.nChunk*m)
	if err := sv.setKernel(cost); err != nil {
		return nil, err
	}
	return sv, nil
}

func newLane(s *Solver, parts int) *lane {
	n, m := s.n, s.m
	vn := make([]float64, 6*n)
	vm := make([]float64, 6*m)
	return &lane{
		s:     s,
		alpha: vn[0*n : 1*n], u: vn[1*n : 2*n], rowS: vn[2*n : 3*n],
		rowQ: vn[3*n : 4*n], pred: vn[4*n : 5*n], fv: vn[5*n : 6*n],
		beta: vm[0*m : 1*m], v: vm[1*m : 2*m], t: vm[2*m : 3*m],
		colM: vm[3*m : 4*m], colS: vm[4*m : 5*m], gv: vm[5*m : 6*m],
		part:  make([]float64, parts),
		flag:  make([]int, m),
		cols:  make([]int, m),
		chFix: make([]int, s.nChunk),
		chBad: make([]bool, s.nChunk),
		owned: make([]bool, n),
	}
}

// SetCost replaces the cost matrix (same shape) and rebuilds the kernel.
// It panics if len(cost) != n·m and returns an error wrapping ErrCost for
// invalid entries, after which the Solver refuses to solve until a
// successful SetCost.
func (s *Solver) SetCost(cost []float64) error {
	if len(cost) != s.n*s.m {
		panic("sinkhorn: cost length mismatch")
	}
	s.cost = nil
	s.costErr = nil
	if err := s.setKernel(cost); err != nil {
		s.costErr = err
		return err
	}
	return nil
}

// Dims returns the shape n×m of the cost matrix.
func (s *Solver) Dims() (n, m int) { return s.n, s.m }

// Lambda returns the resolved λ.
func (s *Solver) Lambda() float64 { return s.set.lambda }

// Iters returns the iteration count of the solver's settings (the most
// iterations when a tolerance stops them earlier).
func (s *Solver) Iters() int { return s.set.iters }

// par returns the goroutines used by a single solve.
func (s *Solver) par() int {
	if s.n*s.m < parMin {
		return 1
	}
	return s.set.workers
}

// Solve runs Sinkhorn on the histograms a (length n) and b (length m) and
// returns the result. It panics on length mismatch and returns errors
// wrapping ErrMass or ErrMassMismatch for invalid histograms, and
// ErrUnstable if the Plain method overflows.
func (s *Solver) Solve(a, b []float64) (Result, error) {
	s.checkLens(a, b)
	return s.lanes[0].run(a, b, s.par())
}

// Potentials solves like Solve and writes the dual potentials to f (length
// n) and g (length m); either may be nil. The plan is
// P_ij = exp(λ(f_i + g_j − C_ij)). The pair (f, g) is unique up to
// (f + c, g − c); it is returned as the iteration produced it, not
// normalized. At points of zero mass the potential is the soft c-transform
// of the other side, f_i = −(1/λ) log Σ_{j: b_j>0} exp(λ(g_j − C_ij)) (and
// symmetrically for g), which is the limit of f_i − log(a_i)/λ as a_i → 0.
func (s *Solver) Potentials(f, g, a, b []float64) (Result, error) {
	s.checkLens(a, b)
	if f != nil && len(f) != s.n {
		panic("sinkhorn: f length mismatch")
	}
	if g != nil && len(g) != s.m {
		panic("sinkhorn: g length mismatch")
	}
	l := s.lanes[0]
	par := s.par()
	res, err := l.run(a, b, par)
	if err != nil {
		return res, err
	}
	if f != nil {
		l.potF(f, true, par)
	}
	if g != nil {
		l.potG(g, par)
	}
	return res, nil
}

// Grad solves like Solve, writes to grad (length n) the gradient of the
// entropic objective Result.Entropic with respect to a, centred to sum to
// zero, and returns Result.Value, the transport cost ⟨C, P⟩.
//
// The gradient is the dual potential f (Frogner et al. 2015, Alg. 1:
// f = log(u)/λ) minus its mean: by the envelope theorem, ∂/∂a of
// min_P ⟨C,P⟩ − H(P)/λ is the multiplier of the constraint P1 = a, which is
// f up to an additive constant; the constant is not identified because a
// stays on the simplex, so the component along 1 is removed. It is the
// gradient of the converged entropic objective, not of ⟨C, P⟩ (which
// Frogner et al. use it for as an approximation). With few iterations it is
// the potential of the last iterate. grad must not overlap b.
func (s *Solver) Grad(grad, a, b []float64) (float64, error) {
	s.checkLens(a, b)
	if len(grad) != s.n {
		panic("sinkhorn: grad length mismatch")
	}
	l := s.lanes[0]
	par := s.par()
	res, err := l.run(a, b, par)
	if err != nil {
		return 0, err
	}
	l.centredGrad(grad, par)
	return res.Value, nil
}

// LogitGrad evaluates the loss at a = softmax(logits) (length n) and target
// b (length m, mass 1): it writes to grad the gradient of the entropic
// objective with respect to the logits, grad = a ⊙ (f − ⟨a, f⟩) with f the
// potential of Grad, and returns the transport cost ⟨C, P⟩. Non-finite
// logits are an ErrMass error. grad must not overlap b; it may be logits.
func (s *Solver) LogitGrad(grad, logits, b []float64) (float64, error) {
	s.checkLens(logits, b)
	if len(grad) != s.n {
		panic("sinkhorn: grad length mismatch")
	}
	return s.lanes[0].logitGrad(grad, logits, b, s.par())
}

func (s *Solver) checkLens(a, b []float64) {
	if len(a) != s.n {
		panic("sinkhorn: a length mismatch")
	}
	if len(b) != s.m {
		panic("sinkhorn: b length mismatch")
	}
}

// Solve is a one-shot convenience: it builds a Solver for the n×m cost
// (n = len(a), m = len(b)) and solves once.
func Solve(cost, a, b []float64, s Settings) (Result, error) {
	sv, err := New(cost, len(a), len(b), s)
	if err != nil {
		return Result{}, err
	}
	return sv.Solve(a, b)
}

// checkMass validates a histogram and returns its mass.
func checkMass(x []float64, name string) (float64, error) {
	var sum float64
	for i, v := range x {
		if !(v >= 0) || v > math.MaxFloat64 {
			return 0, fmt.Errorf("%w: %s[%d] = %v", ErrMass, name, i, v)
		}
		sum += v
	}
	if sum > math.MaxFloat64 {
		return 0, fmt.Errorf("%w: %s sums to +Inf", ErrMass, name)
	}
	return sum, nil
}
