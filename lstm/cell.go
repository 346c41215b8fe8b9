package lstm

// The LSTM cell, one time step for a block of rows. Gate pre-activations
// arrive in g, a rows×4H block laid out [i f g o] per row, holding
// x·Wxᵀ + h·Whᵀ; the bias is added here. These are the Go reference forms;
// cell_amd64.s performs the same operations in the same order.

// cellForwardGo computes, for each row and unit j,
//
//	i = σ(g_i + b_i)   f = σ(g_f + b_f)   ĝ = tanh(g_g + b_g)   o = σ(g_o + b_o)
//	c = f·c₋ + i·ĝ     h = o·tanh(c)
//
// storing i, f, ĝ, o over g, c in c, tanh(c) in tc and h in h (c and h
// flushed below tiny). cp holds c₋ (nil at the first step: zero).
func cellForwardGo(rows, H int, g, bias, cp, c, tc, h []float32) {
	cellForwardCols(rows, H, 0, g, bias, cp, c, tc, h)
}

// cellForwardCols is cellForwardGo on the units j0 … H−1 of each row.
func cellForwardCols(rows, H, j0 int, g, bias, cp, c, tc, h []float32) {
	for r := range rows {
		gr := g[r*4*H : (r+1)*4*H]
		var cpr []float32
		if cp != nil {
			cpr = cp[r*H : (r+1)*H]
		}
		cr, tcr, hr := c[r*H:(r+1)*H], tc[r*H:(r+1)*H], h[r*H:(r+1)*H]
		for j := j0; j < H; j++ {
			i := sigmoid(gr[j] + bias[j])
			f := sigmoid(gr[H+j] + bias[H+j])
			gg := tanhf(gr[2*H+j] + bias[2*H+j])
			o := sigmoid(gr[3*H+j] + bias[3*H+j])
			var fc float32
			if cpr != nil {
				fc = float32(f * cpr[j])
			}
			cn := flush(fc + float32(i*gg))
			t := tanhf(cn)
			gr[j], gr[H+j], gr[2*H+j], gr[3*H+j] = i, f, gg, o
			cr[j], tcr[j], hr[j] = cn, t, flush(float32(o*t))
		}
	}
}

// cellBackwardGo is the cell's backward pass for each row and unit: given
// the gates i, f, ĝ, o in g, c₋ in cp (nil: zero), tanh(c) in tc, and ∂/∂h
// in dh and ∂/∂c in dc from the later steps,
//
//	∂c  = dc + dh·o·(1 − tanh²c)
//	∂o  = dh·tanh c
//	∂i  = ∂c·ĝ     ∂ĝ = ∂c·i     ∂f = ∂c·c₋     ∂c₋ = ∂c·f
//
// and, through the activations, the gradients of the pre-activations
//
//	∂i·i(1−i)   ∂f·f(1−f)   ∂ĝ·(1−ĝ²)   ∂o·o(1−o)
//
// which it stores over g, flushed below tiny; ∂c₋, flushed, goes over dc.
// dh is not changed.
func cellBackwardGo(rows, H int, g, cp, tc, dh, dc []float32) {
	cellBackwardCols(rows, H, 0, g, cp, tc, dh, dc)
}

// cellBackwardCols is cellBackwardGo on the units j0 … H−1 of each row.
func cellBackwardCols(rows, H, j0 int, g, cp, tc, dh, dc []float32) {
	for r := range rows {
		gr := g[r*4*H : (r+1)*4*H]
		var cpr []float32
		if cp != nil {
			cpr = cp[r*H : (r+1)*H]
		}
		tcr, dhr, dcr := tc[r*H:(r+1)*H], dh[r*H:(r+1)*H], dc[r*H:(r+1)*H]
		for j := j0; j < H; j++ {
			i, f, gg, o := gr[j], gr[H+j], gr[2*H+j], gr[3*H+j]
			t, d := tcr[j], dhr[j]
			dcn := dcr[j] + float32(float32(d*o)*(1-float32(t*t)))
			do := float32(d * t)
			var cpj float32
			if cpr != nil {
				cpj = cpr[j]
			}
			di := float32(dcn * gg)
			dgg := float32(dcn * i)
			df := float32(dcn * cpj)
			gr[j] = flush(float32(float32(di*i) * (1 - i)))
			gr[H+j] = flush(float32(float32(df*f) * (1 - f)))
			gr[2*H+j] = flush(float32(dgg * (1 - float32(gg*gg))))
			gr[3*H+j] = flush(float32(float32(do*o) * (1 - o)))
			dcr[j] = flush(float32(dcn * f))
		}
	}
}
