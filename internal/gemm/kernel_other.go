//go:build !amd64 || purego

package gemm

// useAVX2 is false: the Go microkernel runs.
const useAVX2 = false

func kernel(kc int, a []float32, rsa, csa int, b []float32, csb int, c []float32, ldc, rows, cols int, add bool) {
	kernelGo(kc, a, rsa, csa, b, csb, c, ldc, rows, cols, add)
}
