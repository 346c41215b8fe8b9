package model

import "math"

// The two products of the softmax-linear model, as kernels over blocks of
// labels. Every output is computed by the same arithmetic whichever block or
// goroutine computes it, so the results do not depend on how the labels are
// split across cores:
//
//	dot(x, w)   = (Σ_{k even} x_k·w_k + Σ_{k odd} x_k·w_k) [+ x_{n−1}·w_{n−1} if n is odd]
//	rowsum_k    = Σ_r c_r·x_{r,k}, summed over r in order from 0
//
// each product rounded before it is added (explicit float64 conversions
// forbid the compiler to fuse them into FMA instructions). On amd64 the bulk
// runs in SSE2 assembly (kernel_amd64.s) with two lanes, the even and odd
// k; the Go forms below are the reference the assembly reproduces bit for
// bit, and compute the edges.
//
// On processors with AVX2 and FMA (useFMA) a second, fused form runs
// instead: four lanes, k ≡ 0, 1, 2, 3 mod 4, each product fused into its
// lane's sum, the lanes added as (l0 + l2) + (l1 + l3), then the last
// len mod 4 products fused in order; and the row sums fused in row order.
// dotFMARef and rowSumFMARef are its references. The two forms round
// differently (by an ulp or so), so results depend on the processor's
// features — but never on the number of cores or on the split.

// dotRef returns dot(x, w) for len(w) ≤ len(x).
func dotRef(x, w []float64) float64 {
	n := len(w)
	x = x[:n]
	var s0, s1 float64
	k := 0
	for ; k+1 < n; k += 2 {
		s0 += float64(x[k] * w[k])
		s1 += float64(x[k+1] * w[k+1])
	}
	s := s0 + s1
	if k < n {
		s += float64(x[k] * w[k])
	}
	return s
}

// dotFMARef returns dot(x, w) in the fused form, for len(w) ≤ len(x).
func dotFMARef(x, w []float64) float64 {
	n := len(w)
	x = x[:n]
	var l0, l1, l2, l3 float64
	k := 0
	for ; k+4 <= n; k += 4 {
		l0 = math.FMA(x[k], w[k], l0)
		l1 = math.FMA(x[k+1], w[k+1], l1)
		l2 = math.FMA(x[k+2], w[k+2], l2)
		l3 = math.FMA(x[k+3], w[k+3], l3)
	}
	return dotFMATail(x, w, k, (l0+l2)+(l1+l3))
}

// dotFMATail adds the products from k on, fused in order, to s.
func dotFMATail(x, w []float64, k int, s float64) float64 {
	for ; k < len(w); k++ {
		s = math.FMA(x[k], w[k], s)
	}
	return s
}

// rowSumFMARef returns Σ_r G[r, j]·X[r, k], fused in row order.
func rowSumFMARef(G, X []float64, rows, in, out, j, k int) float64 {
	var s float64
	for r := 0; r < rows; r++ {
		s = math.FMA(G[r*out+j], X[r*in+k], s)
	}
	return s
}

// dot and rowSum are the reference forms in use.
func dot(x, w []float64) float64 {
	if useFMA {
		return dotFMARef(x, w)
	}
	return dotRef(x, w)
}

func rowSum(G, X []float64, rows, in, out, j, k int) float64 {
	if useFMA {
		return rowSumFMARef(G, X, rows, in, out, j, k)
	}
	return rowSumRef(G, X, rows, in, out, j, k)
}

// logitsBlockFMA is logitsBlock in the fused form.
func logitsBlockFMA(dst, X, W, b []float64, rows, in, out, lo, hi int) {
	j := lo
	if quads := in / 4; quads > 0 {
		var acc [8]float64
		for ; j+4 <= hi; j += 4 {
			w := W[j*in : (j+4)*in]
			r := 0
			if pairs := rows / 2; in%4 == 0 && pairs > 0 {
				// Whole row pairs, the bias added, four logits at a time.
				logits4FMA(&w[0], in, &X[0], pairs, quads, &b[j], &dst[j], out)
				r = 2 * pairs
			}
			for ; r+2 <= rows; r += 2 {
				dot4x2FMA(&w[0], in, &X[r*in], in, quads, &acc)
				for q := 0; q < 2; q++ {
					x := X[(r+q)*in : (r+q+1)*in]
					for jj := 0; jj < 4; jj++ {
						s := dotFMATail(x, w[jj*in:(jj+1)*in], 4*quads, acc[4*q+jj])
						dst[(r+q)*out+j+jj] = b[j+jj] + s
					}
				}
			}
			for ; r < rows; r++ {
				for jj := 0; jj < 4; jj++ {
					dst[r*out+j+jj] = b[j+jj] + dotFMARef(X[r*in:(r+1)*in], w[jj*in:(jj+1)*in])
				}
			}
		}
	}
	for ; j < hi; j++ {
		wj := W[j*in : (j+1)*in]
		for r := 0; r < rows; r++ {
			dst[r*out+j] = b[j] + dotFMARef(X[r*in:(r+1)*in], wj)
		}
	}
}

// backwardBlockFMA is the weight part of backwardBlock in the fused form.
func backwardBlockFMA(gw, G, X []float64, rows, in, out, lo, hi int) {
	j := lo
	quads := in / 4
	if quads > 0 && rows > 0 {
		for ; j+2 <= hi; j += 2 {
			g := gw[j*in : (j+2)*in]
			axpy2FMA(&g[0], &g[in], &X[0], in, &G[j], out, rows, quads)
			for k := 4 * quads; k < in; k++ {
				g[k] = rowSumFMARef(G, X, rows, in, out, j, k)
				g[in+k] = rowSumFMARef(G, X, rows, in, out, j+1, k)
			}
		}
	}
	for ; j < hi; j++ {
		g := gw[j*in : (j+1)*in]
		for k := range g {
			g[k] = rowSumFMARef(G, X, rows, in, out, j, k)
		}
	}
}

// logitsBlock stores b_j + dot(X_r, W_j) in dst[r*out+j] for labels j in
// [lo, hi) and all rows r.
func logitsBlock(dst, X, W, b []float64, rows, in, out, lo, hi int) {
	if useFMA {
		logitsBlockFMA(dst, X, W, b, rows, in, out, lo, hi)
		return
	}
	j := lo
	if haveKernels && in >= 2 {
		pairs := in / 2
		var acc [8]float64
		for ; j+4 <= hi; j += 4 {
			w := W[j*in : (j+4)*in]
			r := 0
			for ; r+2 <= rows; r += 2 {
				dot4x2(&w[0], in, &X[r*in], in, pairs, &acc)
				for q := 0; q < 2; q++ {
					for jj := 0; jj < 4; jj++ {
						s := acc[4*q+jj]
						if in%2 == 1 {
							s += float64(X[(r+q)*in+in-1] * w[jj*in+in-1])
						}
						dst[(r+q)*out+j+jj] = b[j+jj] + s
					}
				}
			}
			for ; r < rows; r++ {
				for jj := 0; jj < 4; jj++ {
					dst[r*out+j+jj] = b[j+jj] + dotRef(X[r*in:(r+1)*in], w[jj*in:(jj+1)*in])
				}
			}
		}
	}
	for ; j < hi; j++ {
		wj := W[j*in : (j+1)*in]
		for r := 0; r < rows; r++ {
			dst[r*out+j] = b[j] + dotRef(X[r*in:(r+1)*in], wj)
		}
	}
}

// backwardBlock stores Σ_r G[r, j]·X[r, :] in row j of gw, and Σ_r G[r, j]
// in gb[j], for labels j in [lo, hi).
func backwardBlock(gw, gb, G, X []float64, rows, in, out, lo, hi int, cb []float64) {
	// gb_j = Σ_r G[r, j], summed from 0 in row order: row after row, so
	// that the sums of the block's labels advance together through
	// contiguous memory rather than one label at a time down a column.
	gbs := gb[lo:hi]
	clear(gbs)
	for r := 0; r < rows; r++ {
		g := G[r*out+lo : r*out+hi]
		g = g[:len(gbs)]
		for i, v := range g {
			gbs[i] += v
		}
	}
	if useFMA {
		backwardBlockFMA(gw, G, X, rows, in, out, lo, hi)
		return
	}
	j := lo
	if haveKernels && in >= 2 && rows > 0 {
		pairs := in / 2
		// cb holds each coefficient twice, for the two lanes.
		cb = cb[:4*rows]
		for ; j+2 <= hi; j += 2 {
			for r := 0; r < rows; r++ {
				c0, c1 := G[r*out+j], G[r*out+j+1]
				cb[2*r], cb[2*r+1] = c0, c0
				cb[2*rows+2*r], cb[2*rows+2*r+1] = c1, c1
			}
			g := gw[j*in : (j+2)*in]
			axpy2(&g[0], &g[in], &X[0], in, &cb[0], &cb[2*rows], rows, pairs)
			if in%2 == 1 {
				k := in - 1
				g[k] = rowSumRef(G, X, rows, in, out, j, k)
				g[in+k] = rowSumRef(G, X, rows, in, out, j+1, k)
			}
		}
	}
	for ; j < hi; j++ {
		g := gw[j*in : (j+1)*in]
		for k := range g {
			g[k] = rowSumRef(G, X, rows, in, out, j, k)
		}
	}
}

// rowSumRef returns Σ_r G[r, j]·X[r, k], summed over r in order.
func rowSumRef(G, X []float64, rows, in, out, j, k int) float64 {
	var s float64
	for r := 0; r < rows; r++ {
		s += float64(G[r*out+j] * X[r*in+k])
	}
	return s
}
