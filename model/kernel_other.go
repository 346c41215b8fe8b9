//go:build !amd64 || purego

package model

const haveKernels = false

func dot4x2(w *float64, wStride int, x *float64, xStride int, pairs int, acc *[8]float64) {
	panic("model: no assembly kernels")
}

func axpy2(g0, g1, x *float64, xStride int, c0, c1 *float64, rows, pairs int) {
	panic("model: no assembly kernels")
}

// useFMA is false: the unfused forms of kernel.go run.
var useFMA = false

func dot4x2FMA(w *float64, wStride int, x *float64, xStride int, quads int, acc *[8]float64) {
	panic("model: no assembly kernels")
}

func axpy2FMA(g0, g1, x *float64, xStride int, c *float64, cStride int, rows, quads int) {
	panic("model: no assembly kernels")
}

func logits4FMA(w *float64, in int, x *float64, pairs, quads int, b, dst *float64, out int) {
	panic("model: no assembly kernels")
}
