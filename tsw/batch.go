package tsw

import (
	"math"
	"runtime"

	"github.com/twl-ldl/twl/internal/parallel"
)

// Batch computes tree-sliced Wasserstein values, gradients and embeddings
// for many rows at once. Matrices are row-major []float64 with n columns
// (one per point): row r of A is A[r*n : (r+1)*n]. Rows are split into
// contiguous blocks that run in parallel (on the worker team of
// internal/parallel), each on its own clone of the Sliced, so the results
// are identical bit for bit to computing the rows one by one with the
// Sliced's methods.
//
// The clones are kept between calls; the Sliced given to NewBatch is only
// read, and may be used meanwhile. A Batch is not safe for concurrent use:
// give each goroutine its own.
type Batch struct {
	s       *Sliced
	workers int
	ss      []*Sliced
}

// NewBatch returns a Batch for s running on at most workers goroutines;
// workers ≤ 0 means runtime.GOMAXPROCS(0). It panics if s is nil.
func NewBatch(s *Sliced, workers int) *Batch {
	if s == nil {
		panic("tsw: NewBatch with a nil Sliced")
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return &Batch{s: s, workers: workers}
}

// Sliced returns the Sliced the batch was made for.
func (b *Batch) Sliced() *Sliced { return b.s }

// rows checks that the matrices have whole rows of n columns, in equal
// numbers, and returns that number.
func (b *Batch) rows(mats ...[]float64) int {
	n := b.s.Len()
	m := len(mats[0])
	if m%n != 0 {
		panic("tsw: matrix length is not a multiple of the number of points")
	}
	for _, x := range mats[1:] {
		if len(x) != m {
			panic("tsw: matrices have different shapes")
		}
	}
	return m / n
}

// run calls f(s, r0, r1) on disjoint row blocks [r0, r1) covering [0, rows),
// each block at least about 1024/Σ_t L_t rows long (a row costs a few
// nanoseconds per tree node; handing a block to another core, about a
// microsecond).
func (b *Batch) run(rows int, f func(s *Sliced, r0, r1 int)) {
	minRows := 1 + 1024/max(1, b.s.EmbedLen())
	for len(b.ss) < parallel.Parts(rows, b.workers, minRows) {
		b.ss = append(b.ss, b.s.Clone())
	}
	parallel.ForParts(rows, b.workers, minRows, func(p, r0, r1 int) {
		f(b.ss[p], r0, r1)
	})
}

// Distance stores TSW(A_r, B_r) in dst[r] for every row r.
func (b *Batch) Distance(dst, A, B []float64) {
	m := b.rows(A, B)
	if len(dst) != m {
		panic("tsw: len(dst) != number of rows")
	}
	n := b.s.Len()
	b.run(m, func(s *Sliced, r0, r1 int) {
		for r := r0; r < r1; r++ {
			dst[r] = s.Distance(A[r*n:(r+1)*n], B[r*n:(r+1)*n])
		}
	})
}

// DistanceGrad stores TSW(A_r, B_r) in dst[r] and its gradient with respect
// to A_r in row r of grad, for every row r. grad may be the same slice as A
// or B.
func (b *Batch) DistanceGrad(dst, grad, A, B []float64) {
	m := b.rows(grad, A, B)
	if len(dst) != m {
		panic("tsw: len(dst) != number of rows")
	}
	n := b.s.Len()
	b.run(m, func(s *Sliced, r0, r1 int) {
		for r := r0; r < r1; r++ {
			i, j := r*n, (r+1)*n
			dst[r] = s.DistanceGrad(grad[i:j], A[i:j], B[i:j])
		}
	})
}

// Embed stores Φ(A_r) in row r of dst (EmbedLen columns) for every row r of
// A (see Sliced.Embed).
func (b *Batch) Embed(dst, A []float64) {
	m := b.rows(A)
	E := b.s.EmbedLen()
	if len(dst) != m*E {
		panic("tsw: len(dst) != rows(A)·EmbedLen()")
	}
	n := b.s.Len()
	b.run(m, func(s *Sliced, r0, r1 int) {
		for r := r0; r < r1; r++ {
			s.Embed(dst[r*E:(r+1)*E], A[r*n:(r+1)*n])
		}
	})
}

// Pairwise stores TSW(A_i, B_j) in dst[i*nB+j] for every row i of A (nA
// rows) and row j of B (nB rows), so dst is the nA×nB distance matrix,
// row-major. It embeds both sets once (O((nA+nB)·E) time and
// (nA+nB)·E extra floats, E = EmbedLen = Σ_t L_t) and takes ℓ₁ distances
// between embeddings (O(nA·nB·E) time), parallel over the rows of dst.
// Values agree with Distance up to rounding: the sums are ordered
// differently. A row of A (of B) holding a NaN or an infinity gives NaN in
// its whole row (column) of dst.
func (b *Batch) Pairwise(dst, A, B []float64) {
	n := b.s.Len()
	if len(A)%n != 0 || len(B)%n != 0 {
		panic("tsw: matrix length is not a multiple of the number of points")
	}
	nA, nB := len(A)/n, len(B)/n
	if len(dst) != nA*nB {
		panic("tsw: len(dst) != rows(A)·rows(B)")
	}
	E := b.s.EmbedLen()
	EA := make([]float64, nA*E)
	EB := make([]float64, nB*E)
	b.Embed(EA, A)
	b.Embed(EB, B)
	b.run(nA, func(_ *Sliced, r0, r1 int) {
		for i := r0; i < r1; i++ {
			ea := EA[i*E : (i+1)*E]
			row := dst[i*nB : (i+1)*nB]
			for j := range row {
				row[j] = l1(ea, EB[j*E:(j+1)*E])
			}
		}
	})
}

// Pairwise is NewBatch(s, 0).Pairwise(dst, A, B): the nA×nB matrix of
// TSW between the rows of A and of B, on runtime.GOMAXPROCS(0) goroutines.
// It uses clones of s, not s's own scratch memory. Keep a Batch to reuse
// the clones across calls.
func (s *Sliced) Pairwise(dst, A, B []float64) {
	NewBatch(s, 0).Pairwise(dst, A, B)
}

// l1 returns ‖x − y‖₁, in two lanes.
func l1(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1 float64
	i := 0
	for ; i+1 < len(x); i += 2 {
		s0 += math.Abs(x[i] - y[i])
		s1 += math.Abs(x[i+1] - y[i+1])
	}
	if i < len(x) {
		s0 += math.Abs(x[i] - y[i])
	}
	return s0 + s1
}
