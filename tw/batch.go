package tw

import (
	"math"
	"runtime"

	"github.com/twl-ldl/twl/internal/parallel"
	"github.com/twl-ldl/twl/tree"
)

// Batch computes tree-Wasserstein values and gradients for many rows at
// once. Matrices are row-major []float64 with t.Len() columns: row r of A is
// A[r*L : (r+1)*L]. Rows are split into contiguous blocks that run in
// parallel (on the worker team of internal/parallel), each with its own
// Workspace, so the results are identical bit for bit to computing the rows
// one by one with a Workspace, NaN for a row holding a NaN or an infinity
// included.
//
// The workspaces are kept between calls. A Batch is not safe for concurrent
// use: give each goroutine its own.
type Batch struct {
	tree    *tree.Tree
	workers int
	ws      []*Workspace

	// g holds the operands of the current gradRows for its parallel loop,
	// gradFn, made once (for self) so that DistanceGrad and LogitGrad
	// allocate nothing.
	g      gradCall
	gradFn func(p, r0, r1 int)
	self   *Batch
}

// gradCall is what the parallel loop of one gradRows reads.
type gradCall struct {
	dst, grad, A, B []float64
	f               func(ws *Workspace, grad, a, b []float64) float64
}

// NewBatch returns a Batch for t running on at most workers goroutines;
// workers ≤ 0 means runtime.GOMAXPROCS(0). It panics if t is nil.
func NewBatch(t *tree.Tree, workers int) *Batch {
	if t == nil {
		panic("tw: NewBatch with a nil tree")
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return &Batch{tree: t, workers: workers}
}

// Tree returns the tree the batch was built for.
func (b *Batch) Tree() *tree.Tree { return b.tree }

// rows checks that the matrices have whole rows of equal count and returns it.
func (b *Batch) rows(mats ...[]float64) int {
	L := b.tree.Len()
	n := len(mats[0])
	if n%L != 0 {
		panic("tw: matrix length is not a multiple of tree.Len()")
	}
	for _, m := range mats[1:] {
		if len(m) != n {
			panic("tw: matrices have different shapes")
		}
	}
	return n / L
}

// run calls f(ws, r0, r1) on disjoint row blocks [r0, r1) covering [0, rows),
// each block at least about 1024/L rows long (a row costs a few
// nanoseconds per node; handing a block to another core, about a
// microsecond).
func (b *Batch) run(rows int, f func(ws *Workspace, r0, r1 int)) {
	minRows := b.minRows()
	b.grow(rows, minRows)
	parallel.ForParts(rows, b.workers, minRows, func(p, r0, r1 int) {
		f(b.ws[p], r0, r1)
	})
}

// minRows is the fewest rows of a block of run.
func (b *Batch) minRows() int { return 1 + 1024/b.tree.Len() }

// grow makes a workspace for every part of a loop over rows rows.
func (b *Batch) grow(rows, minRows int) {
	for len(b.ws) < parallel.Parts(rows, b.workers, minRows) {
		b.ws = append(b.ws, NewWorkspace(b.tree))
	}
}

// Distance stores TW(A_r, B_r) in dst[r] for every row r.
func (b *Batch) Distance(dst, A, B []float64) {
	n := b.rows(A, B)
	if len(dst) != n {
		panic("tw: len(dst) != number of rows")
	}
	L := b.tree.Len()
	b.run(n, func(ws *Workspace, r0, r1 int) {
		for r := r0; r < r1; r++ {
			dst[r] = ws.Distance(A[r*L:(r+1)*L], B[r*L:(r+1)*L])
		}
	})
}

// DistanceGrad stores TW(A_r, B_r) in dst[r] and its gradient with respect to
// A_r in row r of grad, for every row r. grad may be the same slice as A or B.
func (b *Batch) DistanceGrad(dst, grad, A, B []float64) {
	b.gradRows(dst, grad, A, B, (*Workspace).DistanceGrad)
}

// LogitGrad stores TW(softmax(Z_r), B_r) in dst[r] and its gradient with
// respect to the logits Z_r in row r of grad, for every row r. grad may be
// the same slice as Z or B.
func (b *Batch) LogitGrad(dst, grad, Z, B []float64) {
	b.gradRows(dst, grad, Z, B, (*Workspace).LogitGrad)
}

// gradRows stores f(ws, grad_r, A_r, B_r) in dst[r] for every row r.
func (b *Batch) gradRows(dst, grad, A, B []float64, f func(ws *Workspace, grad, a, b []float64) float64) {
	n := b.rows(grad, A, B)
	if len(dst) != n {
		panic("tw: len(dst) != number of rows")
	}
	if b.self != b {
		b.self = b
		b.gradFn = b.gradPart
	}
	b.g = gradCall{dst: dst, grad: grad, A: A, B: B, f: f}
	defer func() { b.g = gradCall{} }()
	minRows := b.minRows()
	b.grow(n, minRows)
	parallel.ForParts(n, b.workers, minRows, b.gradFn)
}

// gradPart is part p, rows [r0, r1), of the loop of gradRows.
func (b *Batch) gradPart(p, r0, r1 int) {
	g, ws, L := &b.g, b.ws[p], b.tree.Len()
	for r := r0; r < r1; r++ {
		s := r * L
		g.dst[r] = g.f(ws, g.grad[s:s+L], g.A[s:s+L], g.B[s:s+L])
	}
}

// Embed stores Φ(A_r) in row r of dst for every row r (see Workspace.Embed).
func (b *Batch) Embed(dst, A []float64) {
	n := b.rows(dst, A)
	L := b.tree.Len()
	b.run(n, func(ws *Workspace, r0, r1 int) {
		for r := r0; r < r1; r++ {
			ws.Embed(dst[r*L:(r+1)*L], A[r*L:(r+1)*L])
		}
	})
}

// Pairwise stores TW(A_i, B_j) in dst[i*nB+j] for every row i of A (nA rows)
// and row j of B (nB rows), so dst is the nA×nB distance matrix, row-major.
// It embeds both sets once (O((nA+nB)·L) time, (nA+nB)·L extra floats) and
// takes ℓ₁ distances between embeddings (O(nA·nB·L) time), parallel over the
// rows of dst. Values agree with Distance up to rounding: the sums are
// ordered differently. A row of A (of B) holding a NaN or an infinity gives
// NaN in its whole row (column) of dst, as its embedding is all NaN.
func (b *Batch) Pairwise(dst, A, B []float64) {
	L := b.tree.Len()
	if len(A)%L != 0 || len(B)%L != 0 {
		panic("tw: matrix length is not a multiple of tree.Len()")
	}
	nA, nB := len(A)/L, len(B)/L
	if len(dst) != nA*nB {
		panic("tw: len(dst) != rows(A)·rows(B)")
	}
	EA := make([]float64, len(A))
	EB := make([]float64, len(B))
	b.Embed(EA, A)
	b.Embed(EB, B)
	b.run(nA, func(_ *Workspace, r0, r1 int) {
		for i := r0; i < r1; i++ {
			ea := EA[i*L : (i+1)*L]
			row := dst[i*nB : (i+1)*nB]
			for j := range row {
				row[j] = l1(ea, EB[j*L:(j+1)*L])
			}
		}
	})
}

func l1(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1 float64
	i := 0
	for ; i+1 < len(x); i += 2 {
		d0 := x[i] - y[i]
		d1 := x[i+1] - y[i+1]
		s0 += math.Abs(d0)
		s1 += math.Abs(d1)
	}
	if i < len(x) {
		d := x[i] - y[i]
		s0 += math.Abs(d)
	}
	return s0 + s1
}
