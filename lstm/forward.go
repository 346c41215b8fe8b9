package lstm

import (
	"fmt"

	"github.com/twl-ldl/twl/internal/gemm"
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
}

// NewWorkspace returns a Workspace for m.
func (m *Model) NewWorkspace() *Workspace { return &Workspace{m: m, gm: gemm.NewWorkspace(0)} }

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
			cellForward(next, H, g, m.B, cp, c, tc, w.hp[lay.off[t+1]*H:])
		}
		var cpRest []float32
		if cp != nil {
			cpRest = cp[next*H:]
		}
		cellForward(b-next, H, g[next*4*H:], m.B, cpRest, c[next*H:], tc[next*H:], w.hfin[next*H:])
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
