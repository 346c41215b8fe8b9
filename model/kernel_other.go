//go:build !amd64 || purego

package model

const haveKernels = false

func dot4x2(w *float64, wStride int, x *float64, xStride int, pairs int, acc *[8]float64) {
	panic("model: no assembly kernels")
}

func axpy2(g0, g1, x *float64, xStride int, c0, c1 *float64, rows, pairs int) {
	panic("model: no assembly kernels")
}
