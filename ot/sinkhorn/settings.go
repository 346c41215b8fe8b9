package sinkhorn

import (
	"errors"
	"fmt"
	"math"
	"runtime"
)

// Method selects the Sinkhorn variant.
type Method int

const (
	// Log is the log-domain algorithm stabilized by absorption
	// (Schmitzer 2019): the scalings live in [1/τ, τ] and whatever exceeds
	// that range is absorbed into the potentials α, β, with the affected
	// kernel row or column recomputed exactly by a log-sum-exp. It never
	// overflows or underflows to NaN/Inf. The default.
	Log Method = iota
	// Plain is the textbook scaling iteration u = a ⊘ (K v), v = b ⊘ (Kᵀ u)
	// on K = exp(−λC). It is the fastest per iteration but fails with
	// ErrUnstable when K v or Kᵀ u underflows (large λ·C).
	Plain
)

// String returns the name of the method.
func (m Method) String() string {
	switch m {
	case Log:
		return "log"
	case Plain:
		return "plain"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// Defaults used for zero-valued Settings fields.
const (
	DefaultLambda    = 50       // the paper's "regularization parameter 50"; ε = 1/λ = 0.02
	DefaultIters     = 1000     // iteration cap
	DefaultTol       = 1e-9     // relative L1 marginal error
	DefaultThreshold = 1e50     // absorption bound τ
	DefaultMaxBytes  = 16 << 30 // 16 GiB
)

// Settings configures a Solver. The zero value means the defaults listed
// per field.
type Settings struct {
	// Lambda is λ in the kernel K = exp(−λ·C) (Frogner et al. 2015). It is
	// the inverse of the entropic regularization ε of Peyré & Cuturi and of
	// POT's reg argument: ε = reg = 1/λ. Zero means DefaultLambda (50, the
	// paper's setting, POT reg = 0.02). Negative, NaN or infinite values are
	// an ErrSettings error.
	Lambda float64

	// Method is the variant; the zero value is Log.
	Method Method

	// Iters is the maximal number of iterations (one u-update and one
	// v-update each). Zero means DefaultIters. Negative is an error.
	Iters int

	// Tol stops the iteration early once the L1 error of the column
	// marginal, ‖Pᵀ1 − b‖₁ (the row marginal is exact after each u-update),
	// is at most Tol·Σa. Zero means DefaultTol; a negative Tol disables the
	// test, so that exactly Iters iterations run (the paper's "10
	// iterations" is Settings{Iters: 10, Tol: -1}).
	Tol float64

	// Threshold is the absorption bound τ > 1 of the Log method: a scaling
	// outside [1/τ, τ] is absorbed into the potentials. Zero means
	// DefaultThreshold. Ignored by Plain.
	Threshold float64

	// Workers bounds the goroutines used: for the kernel build and the
	// matrix-vector products of a single solve, and as the number of
	// concurrent pairs ("lanes") of a batch. Zero means runtime.GOMAXPROCS(0).
	// Results do not depend on Workers.
	Workers int

	// MaxBytes is the memory limit checked by New against Bytes. Zero means
	// DefaultMaxBytes (16 GiB); negative means no limit.
	MaxBytes int64
}

// Sentinel errors. Data-dependent problems are returned as errors wrapping
// one of these; shape mismatches (slice lengths) are programmer errors and
// panic with a "sinkhorn: " message.
var (
	// ErrSettings reports an invalid Settings field (λ < 0, Iters < 0, τ ≤ 1, ...).
	ErrSettings = errors.New("sinkhorn: invalid settings")
	// ErrCost reports a negative, NaN or infinite cost entry.
	ErrCost = errors.New("sinkhorn: cost entry negative, NaN or infinite")
	// ErrMass reports a negative, NaN or infinite histogram entry or logit.
	ErrMass = errors.New("sinkhorn: mass negative, NaN or infinite")
	// ErrMassMismatch reports histograms whose total masses differ by more
	// than MassTol relative.
	ErrMassMismatch = errors.New("sinkhorn: histograms have different total mass")
	// ErrTooLarge reports a problem whose memory need (Bytes) exceeds
	// Settings.MaxBytes.
	ErrTooLarge = errors.New("sinkhorn: problem exceeds memory limit")
	// ErrUnstable reports overflow or underflow of the Plain iteration.
	ErrUnstable = errors.New("sinkhorn: plain scaling overflowed or underflowed; use Method Log")
)

// MassTol is the relative tolerance on |Σa − Σb|. Within it, b is rescaled
// internally (not in place) by Σa/Σb so that the problem is balanced.
const MassTol = 1e-9

// settings is the resolved form of Settings.
type settings struct {
	lambda   float64
	method   Method
	iters    int
	tol      float64 // < 0: disabled
	tau      float64
	workers  int
	maxBytes int64 // < 0: unlimited
}

func (s Settings) resolve() (settings, error) {
	r := settings{
		lambda:   s.Lambda,
		method:   s.Method,
		iters:    s.Iters,
		tol:      s.Tol,
		tau:      s.Threshold,
		workers:  s.Workers,
		maxBytes: s.MaxBytes,
	}
	if r.lambda == 0 {
		r.lambda = DefaultLambda
	}
	if !(r.lambda > 0) || math.IsInf(r.lambda, 1) {
		return r, fmt.Errorf("%w: Lambda = %v, want finite > 0", ErrSettings, s.Lambda)
	}
	if r.method != Log && r.method != Plain {
		return r, fmt.Errorf("%w: unknown %v", ErrSettings, r.method)
	}
	if r.iters == 0 {
		r.iters = DefaultIters
	}
	if r.iters < 0 {
		return r, fmt.Errorf("%w: Iters = %d, want ≥ 0", ErrSettings, s.Iters)
	}
	if r.tol == 0 {
		r.tol = DefaultTol
	}
	if math.IsNaN(r.tol) {
		return r, fmt.Errorf("%w: Tol is NaN", ErrSettings)
	}
	if r.tau == 0 {
		r.tau = DefaultThreshold
	}
	if !(r.tau > 1) || math.IsInf(r.tau, 1) {
		return r, fmt.Errorf("%w: Threshold = %v, want finite > 1", ErrSettings, s.Threshold)
	}
	if r.workers == 0 {
		r.workers = runtime.GOMAXPROCS(0)
	}
	if r.workers < 0 {
		return r, fmt.Errorf("%w: Workers = %d, want ≥ 0", ErrSettings, s.Workers)
	}
	if r.maxBytes == 0 {
		r.maxBytes = DefaultMaxBytes
	}
	return r, nil
}

// chunking returns the fixed row blocking used by every pass: rows are
// processed in blocks of chunkRows, and column sums are reduced block by
// block in order. It depends on n only, which is what makes results
// independent of the number of goroutines.
func chunking(n int) (chunkRows, nChunk int) {
	chunkRows = max(64, (n+maxChunks-1)/maxChunks)
	nChunk = (n + chunkRows - 1) / chunkRows
	return chunkRows, nChunk
}

const maxChunks = 64

// memory returns the bytes needed by the cost matrix and the shared kernel
// (base), and the extra bytes for lane 0 and for every further batch lane.
// Computed in float64 so that huge sizes do not overflow.
func memory(n, m int) (base, lane0, lane float64) {
	nf, mf := float64(n), float64(m)
	_, nChunk := chunking(n)
	mat := 8 * nf * mf
	// Per lane: α, u, rowS, rowQ, pred, fv (6n floats), owned (n bytes);
	// β, v, t, colM, colS, gv (6m floats), part (m floats, counted below),
	// flag, cols (2m ints).
	vec := 8*(6*nf+7*mf) + nf + 16*mf
	base = 2*mat + 8*mf // cost (the caller's) + kernel exp(−λC) + its column sums
	lane = mat + vec
	lane0 = lane + 8*float64(nChunk-1)*mf // per-block column partials
	return base, lane0, lane
}

// lanesFor returns how many batch lanes fit into maxBytes (at least 1) and
// the resulting worst-case byte count.
func lanesFor(n, m, workers int, maxBytes int64) (lanes int, bytes float64) {
	base, lane0, lane := memory(n, m)
	lanes = max(workers, 1)
	bytes = base + lane0 + float64(lanes-1)*lane
	for maxBytes >= 0 && lanes > 1 && bytes > float64(maxBytes) {
		lanes--
		bytes -= lane
	}
	return lanes, bytes
}

// Bytes returns the worst-case number of bytes a Solver for an n×m problem
// with settings s uses: the cost matrix (owned by the caller, but it must be
// resident), the kernel exp(−λC), and per batch lane one private stabilized
// kernel plus O(n+m) vectors. The number of lanes is Workers, reduced until
// the total fits MaxBytes (at least one); private kernels are allocated
// only when stabilization has to rewrite a kernel row or column, so the
// typical footprint is 16·n·m bytes plus vectors. New fails with ErrTooLarge
// exactly when Bytes(n, m, s) > MaxBytes. Invalid settings are replaced by
// their defaults. The result saturates at math.MaxInt64.
func Bytes(n, m int, s Settings) int64 {
	r, err := s.resolve()
	if err != nil {
		r, _ = Settings{}.resolve()
		if s.Workers > 0 {
			r.workers = s.Workers
		}
		if s.MaxBytes != 0 {
			r.maxBytes = s.MaxBytes
		}
	}
	_, b := lanesFor(n, m, r.workers, r.maxBytes)
	if b >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(b)
}
