package fmath

// MixedGrad stores in g the gradient of KL(y‖p) + lam·D(p, y) with respect
// to the logits of a softmax p, scaled by inv, given gp, the gradient of D
// with respect to p, and dot = Σ_i p_i·gp_i:
//
//	g[i] = inv · ((p[i] − y[i]) + (lam·p[i])·(gp[i] − dot))
//
// every operation rounded in that order (no fused multiply-add), so the
// bits are the same on every processor. On amd64 with AVX2 it runs four
// entries at a time. p, y and gp must be at least as long as g; g may be
// none of them.
func MixedGrad(g, p, y, gp []float64, inv, lam, dot float64) {
	p, y, gp = p[:len(g)], y[:len(g)], gp[:len(g)]
	k := mixedGradVec(g, p, y, gp, inv, lam, dot)
	mixedGradGo(g[k:], p[k:], y[k:], gp[k:], inv, lam, dot)
}

// mixedGradGo is the reference form of MixedGrad; the conversions forbid
// fusing a product into an addition.
func mixedGradGo(g, p, y, gp []float64, inv, lam, dot float64) {
	p, y, gp = p[:len(g)], y[:len(g)], gp[:len(g)]
	for i, pi := range p {
		g[i] = inv * (float64(pi-y[i]) + float64(float64(lam*pi)*(gp[i]-dot)))
	}
}
