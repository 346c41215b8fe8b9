package bag

import "fmt"

// The two layers of the model, each a forward function and the backward
// function that goes with it. The backward functions add into their
// gradient buffers (+=), so that a layer used twice is right. They are the
// reference the Learner's fused update is checked against
// (TestLearnerStep) and the gradient the finite differences check
// (TestGradFiniteDifferences).

// meanForward stores in h (D) the mean of the rows feats of emb (rows of
// D values), or zero when feats is empty.
func meanForward(h, emb []float32, feats []int32, D int) {
	h = h[:D]
	clear(h)
	if len(feats) == 0 {
		return
	}
	sumRows(h, emb, feats, D)
	inv := 1 / float32(len(feats))
	for d := range h {
		h[d] *= inv
	}
}

// meanBackward adds dh/len(feats) to the rows feats of demb, once for each
// time a row is listed.
func meanBackward(demb, dh []float32, feats []int32, D int) {
	if len(feats) == 0 {
		return
	}
	inv := 1 / float32(len(feats))
	for _, f := range feats {
		axpy(demb[int(f)*D:int(f)*D+D], dh[:D], inv)
	}
}

// linearForward stores in z (L) the logits W·h + b, for W (L×D) and b (L).
func linearForward(z []float64, h, w, b []float32, L, D int) {
	h = h[:D]
	for j := range L {
		z[j] = float64(dot(w[j*D:j*D+D], h) + b[j])
	}
}

// linearBackward adds Wᵀ·dz to dh (D), dz·hᵀ to dw (L×D) and dz to db (L),
// where dz (L) is the gradient of the loss with respect to the logits.
func linearBackward(dh, dw, db []float32, dz []float64, h, w []float32, L, D int) {
	for j := range L {
		g := float32(dz[j])
		axpy(dh[:D], w[j*D:j*D+D], g)
		axpy(dw[j*D:j*D+D], h[:D], g)
		db[j] += g
	}
}

// sumRows adds the rows feats of emb (rows of D values) to h (D), in the
// order of feats: with the AVX2 kernel (axpy_amd64.s) 96 values of each
// row at a time, the next rows prefetched, then the rest as sumRowsGo
// adds them. Each value's sum is made in the same order either way, so
// the bits are sumRowsGo's.
func sumRows(h, emb []float32, feats []int32, D int) {
	rows := uint(len(emb) / D)
	for _, f := range feats {
		if uint(f) >= rows {
			panic(fmt.Sprintf("bag: feature %d is not a row of the table (%d rows)", f, rows))
		}
	}
	j := 0
	if useAVX2 {
		for ; j+96 <= D; j += 96 {
			sumRowsAVX2(h[j:], emb[j:], feats, D)
		}
	}
	if j < D {
		for _, f := range feats {
			axpy(h[j:D], emb[int(f)*D+j:int(f)*D+D], 1)
		}
	}
}

// sumRowsGo is the Go form of sumRows.
func sumRowsGo(h, emb []float32, feats []int32, D int) {
	for _, f := range feats {
		axpyGo(h[:D], emb[int(f)*D:int(f)*D+D], 1)
	}
}

// axpy adds a·x to y, len(x) ≥ len(y): the AVX2 kernel where there is
// one (axpy_amd64.s), which gives axpyGo's bits.
func axpy(y, x []float32, a float32) {
	if useAVX2 && len(y) >= 8 {
		x = x[:len(y)]
		axpyAVX2(y, x, a)
		n := len(y) &^ 7
		axpyGo(y[n:], x[n:], a)
		return
	}
	axpyGo(y, x, a)
}

// axpyGo is the Go form of axpy: y[i] += a·x[i], the product rounded to
// float32 and then the sum.
func axpyGo(y, x []float32, a float32) {
	x = x[:len(y)]
	for i := range y {
		y[i] += a * x[i]
	}
}

// dot returns Σ x_i·y_i in order, len(y) = len(x).
func dot(x, y []float32) float32 {
	y = y[:len(x)]
	var s float32
	for i := range x {
		s += x[i] * y[i]
	}
	return s
}
