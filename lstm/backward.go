package lstm

import (
	"fmt"

	"github.com/twl-ldl/twl/internal/parallel"
)

// Backward adds the gradient of the loss with respect to every parameter
// to grad (a slab laid out as Params), given dz, the gradient with respect
// to the logits of the last Forward (len(docs)×L, in the order of its
// docs). With emb false the embedding table's part of grad is left alone
// (frozen word vectors), which also saves the gradient of the inputs. It
// panics if the sizes differ. Backward accumulates: clear grad between
// steps.
func (w *Workspace) Backward(grad []float32, dz []float64, emb bool) {
	m := w.m
	D, H, L := m.Dim, m.Hidden, m.Labels
	lay := &w.lay
	B, T, N := len(lay.perm), lay.steps(), lay.tokens()
	if len(grad) != len(m.Params) || len(dz) != B*L {
		panic(fmt.Sprintf("lstm: Backward: len(grad) %d, len(dz) %d; want %d and %d", len(grad), len(dz), len(m.Params), B*L))
	}
	gv := func(k int) []float32 {
		off := m.Offset(k)
		return grad[off : off+m.sizes()[k]]
	}
	gEmb, gWx, gWh, gB, gW1, gB1, gW2, gB2 := gv(tEmb), gv(tWx), gv(tWh), gv(tB), gv(tW1), gv(tB1), gv(tW2), gv(tB2)

	// The output layer: ∂W2 += dzᵀ·a1, ∂b2 += Σ dz, ∂a1 = dz·W2, through
	// the ReLU.
	w.dz = grow(w.dz, B*L)
	for r := range B {
		src := dz[lay.perm[r]*L : (lay.perm[r]+1)*L]
		row := w.dz[r*L : (r+1)*L]
		for j, v := range src {
			row[j] = flush(float32(v)) // a logit gradient below 2⁻⁶⁰ is no gradient at all
			gB2[j] += row[j]
		}
	}
	w.gm.Mul(gW2, H, w.dz, L, true, w.a1, H, false, L, H, B, true)
	w.da1 = grow(w.da1, B*H)
	w.gm.Mul(w.da1, H, w.dz, L, false, m.W2, H, false, B, H, L, false)
	for r := range B {
		da, a := w.da1[r*H:(r+1)*H], w.a1[r*H:(r+1)*H]
		for j := range da {
			if a[j] <= 0 {
				da[j] = 0
			}
			gB1[j] += da[j]
		}
	}
	w.gm.Mul(gW1, H, w.da1, H, true, w.hfin, H, false, H, H, B, true)
	w.dhfin = grow(w.dhfin, B*H)
	w.gm.Mul(w.dhfin, H, w.da1, H, false, m.W1, H, false, B, H, H, false)

	// Back through time. dh and dc hold, for the rows running at step t,
	// the gradients with respect to h_t and c_t from the later steps; a
	// document whose last token is t receives its final state's gradient.
	w.dh = grow(w.dh, B*H)
	w.dc = grow(w.dc, B*H)
	if T > 1 {
		w.wh.Pack(m.Wh, H, false, 4*H, H)
	}
	for t := T - 1; t >= 0; t-- {
		b, o := lay.bt[t], lay.off[t]
		next := 0
		if t+1 < T {
			next = lay.bt[t+1]
		}
		copy(w.dh[next*H:b*H], w.dhfin[next*H:b*H])
		clear(w.dc[next*H : b*H])
		var cp []float32
		if t > 0 {
			cp = w.c[lay.off[t-1]*H:]
		}
		g := w.g[o*4*H : (o+b)*4*H]
		w.backwardCells(b, H, g, cp, w.tc[o*H:(o+b)*H], w.dh, w.dc)
		if t > 0 {
			w.gm.MulPacked(w.dh, H, g, 4*H, false, &w.wh, b, false)
		}
	}
	// Empty documents (rows past bt[0]) have no steps: nothing flows
	// further back from them.

	// The weights of the gates, over every step at once.
	w.cell = cellJob{H: H, g: w.g, gb: gB, n: N}
	parallel.For(4*H, 0, 64, w.biasGradFn)
	w.cell = cellJob{}
	if T > 1 {
		o1 := lay.off[1]
		w.gm.Mul(gWh, H, w.g[o1*4*H:], 4*H, true, w.hp[o1*H:], H, false, 4*H, H, N-o1, true)
	}
	w.gm.Mul(gWx, D, w.g, 4*H, true, w.x, D, false, 4*H, D, N, true)
	if emb {
		w.dx = grow(w.dx, N*D)
		w.gm.Mul(w.dx, D, w.g, 4*H, false, m.Wx, D, false, N, D, 4*H, false)
		for n, id := range w.tokens {
			dst := gEmb[int(id)*D : (int(id)+1)*D]
			for j, v := range w.dx[n*D : (n+1)*D] {
				dst[j] += v
			}
		}
	}
}
