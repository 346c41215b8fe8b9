//go:build !amd64 || purego

package gemm

// useAVX2 is false: the Go microkernel runs.
const useAVX2 = false

func kernel(kc int, a []float32, rsa, csa int, b []float32, csb int, c []float32, ldc, rows, cols int, add bool) {
	kernelGo(kc, a, rsa, csa, b, csb, c, ldc, rows, cols, add)
}

// use512 is false: kernel2 is never called but by the tests.
const use512 = false

// kernel2 is kernel on two row panels.
func kernel2(kc int, a []float32, rsa, csa int, b []float32, csb int, c []float32, ldc, cols int, add bool) {
	kernelGo(kc, a, rsa, csa, b, csb, c, ldc, mr, cols, add)
	kernelGo(kc, a[mr*rsa:], rsa, csa, b, csb, c[mr*ldc:], ldc, mr, cols, add)
}
