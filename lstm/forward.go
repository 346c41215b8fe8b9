package lstm

import (
	"fmt"

	"github.com/twl-ldl/twl/internal/gemm"
	"github.com/twl-ldl/twl/internal/parallel"
)

// Workspace holds a model's activations for one mini-batch, kept by
// Forward for Backward, and the scratch memory of both, grown to the
// largest batch seen and then reused. A Workspace is not safe for
// concurrent use; use one per goroutine.
type Workspace struct {
	m      *Model
	gm     *gemm.Workspace
	whT    gemm.Packed // Whᵀ, packed for the forward recurrence
	wh     gemm.Packed // Wh, packed for the backward one
	lay    layout
	tokens []int32   // N token IDs, time-major in the layout's order
	x      []float32 // N×D word vectors
	g      []float32 // N×4H gates (forward), their pre-activation gradients (backward)
	c      []float32 // N×H cell states
	tc     []float32 // N×H tanh of the cell states
	hp     []float32 // N×H: row (t, r) holds h₍t−1₎ of row r; zero at t = 0
	hfin   []float32 // B×H the final state of each document (sorted order)
	a1     []float32 // B×H ReLU(hfin·W1ᵀ + b1)
	z      []float32 // B×L logits (sorted order)

	// Backward scratch.
	dz, da1, dhfin, dh, dc, dx []float32

	// The cell step in progress, split over rows across cores by the loop
	// bodies below, made once so that the loops allocate nothing.
	cell                 cellJob
	cellFwdFn, cellBwdFn func(lo, hi int)
	biasGradFn           func(lo, hi int)
}

// cellJob is one time step of the cell for rows of a block: the arguments
// of cellForward or cellBackward, and, for the bias gradient, the rows of
// gate gradients to sum.
type cellJob struct {
	H                     int
	g, bias, cp, c, tc, h []float32
	dh, dc                []float32
	gb                    []float32 // the bias gradient (4H), for biasGradFn
	n                     int       // rows of g summed into gb
}

// cellRows is the least number of rows a part of a cell loop gets: a row
// of 200 units costs about a microsecond forward.
const cellRows = 16

func (w *Workspace) cellFwdPart(lo, hi int) {
	j := &w.cell
	H := j.H
	var cp []float32
	if j.cp != nil {
		cp = j.cp[lo*H:]
	}
	cellForward(hi-lo, H, j.g[lo*4*H:], j.bias, cp, j.c[lo*H:], j.tc[lo*H:], j.h[lo*H:])
}

func (w *Workspace) cellBwdPart(lo, hi int) {
	j := &w.cell
	H := j.H
	var cp []float32
	if j.cp != nil {
		cp = j.cp[lo*H:]
	}
	cellBackward(hi-lo, H, j.g[lo*4*H:], cp, j.tc[lo*H:], j.dh[lo*H:], j.dc[lo*H:])
}

// biasGradPart adds to gb[lo:hi] the sums over the rows of g of its
// columns lo … hi−1, row after row: the same order whatever the split.
func (w *Workspace) biasGradPart(lo, hi int) {
	j := &w.cell
	gb := j.gb[lo:hi]
	for n := range j.n {
		row := j.g[n*4*j.H+lo : n*4*j.H+hi]
		for k, v := range row {
			gb[k] += v
		}
	}
}

// forwardCells runs the cell forward on rows rows across cores.
func (w *Workspace) forwardCells(rows, H int, g, bias, cp, c, tc, h []float32) {
	w.cell = cellJob{H: H, g: g, bias: bias, cp: cp, c: c, tc: tc, h: h}
	parallel.For(rows, 0, cellRows, w.cellFwdFn)
	w.cell = cellJob{}
}

// backwardCells runs the cell backward on rows rows across cores.
func (w *Workspace) backwardCells(rows, H int, g, cp, tc, dh, dc []float32) {
	w.cell = cellJob{H: H, g: g, cp: cp, tc: tc, dh: dh, dc: dc}
	parallel.For(rows, 0, cellRows, w.cellBwdFn)
	w.cell = cellJob{}
}

// NewWorkspace returns a Workspace for m.
func (m *Model) NewWorkspace() *Workspace {
	w := &Workspace{m: m, gm: gemm.NewWorkspace(0)}
	w.cellFwdFn, w.cellBwdFn, w.biasGradFn = w.cellFwdPart, w.cellBwdPart, w.biasGradPart
	return w
}

// grow returns s resized to n, reusing its memory when it is large enough.
func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

// Forward computes the logits of the documents, a len(docs)×L row-major
// matrix in dst, in the order of docs, and keeps the activations that
// Backward needs. A document is a sequence of token IDs in [0, Vocab); an
// empty document has the initial state, zero, as its final state. It
// panics if len(dst) != len(docs)·L or a token ID is out of range.
func (w *Workspace) Forward(dst []float64, docs [][]int32) {
	m := w.m
	V, D, H, L := m.Vocab, m.Dim, m.Hidden, m.Labels
	B := len(docs)
	if len(dst) != B*L {
		panic(fmt.Sprintf("lstm: len(dst) = %d, want %d documents × %d labels", len(dst), B, L))
	}
	checkTokens(docs, V)
	lay := &w.lay
	lay.arrange(docs)
	T, N := lay.steps(), lay.tokens()

	// Word vectors, time-major.
	w.tokens = w.tokens[:0]
	for t := range T {
		for r := range lay.bt[t] {
			w.tokens = append(w.tokens, docs[lay.perm[r]][t])
		}
	}
	w.x = grow(w.x, N*D)
	for n, id := range w.tokens {
		copy(w.x[n*D:(n+1)*D], m.Emb[int(id)*D:(int(id)+1)*D])
	}

	// The input part of every gate at once: G = X·Wxᵀ.
	w.g = grow(w.g, N*4*H)
	w.c = grow(w.c, N*H)
	w.tc = grow(w.tc, N*H)
	w.hp = grow(w.hp, N*H)
	w.hfin = grow(w.hfin, B*H)
	clear(w.hfin) // empty documents keep the zero state
	w.gm.Mul(w.g, 4*H, w.x, D, false, m.Wx, D, true, N, 4*H, D, false)

	// The recurrence.
	if T > 0 {
		clear(w.hp[:lay.bt[0]*H])
	}
	if T > 1 {
		w.whT.Pack(m.Wh, H, true, H, 4*H)
	}
	for t := range T {
		b, o := lay.bt[t], lay.off[t]
		g := w.g[o*4*H : (o+b)*4*H]
		var cp []float32
		if t > 0 {
			w.gm.MulPacked(g, 4*H, w.hp[o*H:(o+b)*H], H, false, &w.whT, b, true)
			cp = w.c[lay.off[t-1]*H:]
		}
		// Rows that go on to step t+1 write h into its hp block; the rest
		// end here and write their final state.
		next := 0
		if t+1 < T {
			next = lay.bt[t+1]
		}
		c, tc := w.c[o*H:(o+b)*H], w.tc[o*H:(o+b)*H]
		if next > 0 {
			w.forwardCells(next, H, g, m.B, cp, c, tc, w.hp[lay.off[t+1]*H:])
		}
		if next < b {
			var cpRest []float32
			if cp != nil {
				cpRest = cp[next*H:]
			}
			w.forwardCells(b-next, H, g[next*4*H:], m.B, cpRest, c[next*H:], tc[next*H:], w.hfin[next*H:])
		}
	}

	// The classifier: a1 = ReLU(hfin·W1ᵀ + b1), z = a1·W2ᵀ + b2.
	w.a1 = grow(w.a1, B*H)
	w.z = grow(w.z, B*L)
	w.gm.Mul(w.a1, H, w.hfin, H, false, m.W1, H, true, B, H, H, false)
	for r := range B {
		row := w.a1[r*H : (r+1)*H]
		for j, v := range row {
			row[j] = max(v+m.B1[j], 0)
		}
	}
	w.gm.Mul(w.z, L, w.a1, H, false, m.W2, H, true, B, L, H, false)
	for r := range B {
		row := w.z[r*L : (r+1)*L]
		out := dst[lay.perm[r]*L : (lay.perm[r]+1)*L]
		for j, v := range row {
			row[j] = v + m.B2[j]
			out[j] = float64(row[j])
		}
	}
}
