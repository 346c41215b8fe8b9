//go:build amd64 && !purego

package model

import "golang.org/x/sys/cpu"

const haveKernels = true

// useFMA selects the fused forms (kernel.go) and their AVX2/FMA kernels.
var useFMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// dot4x2FMA is dot4x2 in the fused four-lane form, over 4·quads elements.
//
//go:noescape
func dot4x2FMA(w *float64, wStride int, x *float64, xStride int, quads int, acc *[8]float64)

// logits4FMA stores b[i] + dot(x_r, w_i), in the fused form, in
// dst[r·out+i] for the four labels i whose weight rows start at w (stride
// in) and the 2·pairs rows x_r starting at x (stride in); in must be
// 4·quads. The bits are those of dot4x2FMA followed by the bias, as
// logitsBlockFMA adds it.
//
//go:noescape
func logits4FMA(w *float64, in int, x *float64, pairs, quads int, b, dst *float64, out int)

// axpy2FMA stores in g0[k] and g1[k], for k < 4·quads, Σ_r c[r·cStride]·x_r[k]
// and Σ_r c[r·cStride+1]·x_r[k], fused in row order.
//
//go:noescape
func axpy2FMA(g0, g1, x *float64, xStride int, c *float64, cStride int, rows, quads int)

// dot4x2 stores in acc[4q+i] the even-plus-odd lane sum of
// Σ_{k<2·pairs} x_q[k]·w_i[k] for the rows w_0..w_3 (stride wStride
// elements, starting at w) and x_0, x_1 (stride xStride, starting at x).
//
//go:noescape
func dot4x2(w *float64, wStride int, x *float64, xStride int, pairs int, acc *[8]float64)

// axpy2 stores in g0[k] and g1[k], for k < 2·pairs, Σ_r c0[2r]·x_r[k] and
// Σ_r c1[2r]·x_r[k], summed over r in order (x_r at x + r·xStride; c0 and
// c1 hold each coefficient twice).
//
//go:noescape
func axpy2(g0, g1, x *float64, xStride int, c0, c1 *float64, rows, pairs int)
