//go:build amd64 && !purego

package gemm

import "golang.org/x/sys/cpu"

// useAVX2 selects the AVX2 + FMA microkernel (kernel_amd64.s).
var useAVX2 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// use512 selects the AVX-512 kernel of two row panels (kernel2).
var use512 = useAVX2 && cpu.X86.HasAVX512F

// kernel512 is two kernelGo calls, on the row panels at a and at a + mr·rsa,
// in AVX-512 assembly; strides are in elements.
//
//go:noescape
func kernel512(kc int, a *float32, rsa, csa int, b *float32, csb int, c *float32, ldc int, cols int, add bool)

// kernel2 computes the 2mr×nr tile of two full row panels, rows 0 to
// 2mr−1 of A read in place (strides as kernel's), as kernelGo does each
// panel, with the AVX-512 kernel. It is called only where use512 holds.
func kernel2(kc int, a []float32, rsa, csa int, b []float32, csb int, c []float32, ldc, cols int, add bool) {
	if cols < 1 || cols > nr {
		panic("gemm: bad tile")
	}
	_ = c[(2*mr-1)*ldc+cols-1]
	if kc > 0 {
		_ = a[(2*mr-1)*rsa+(kc-1)*csa]
		_ = b[(kc-1)*csb+nr-1]
	}
	kernel512(kc, &a[0], rsa, csa, &b[0], csb, &c[0], ldc, cols, add)
}

// kernelAVX2 is kernelGo in AVX2 + FMA assembly; strides are in elements.
//
//go:noescape
func kernelAVX2(kc int, a *float32, rsa, csa int, b *float32, csb int, c *float32, ldc, rows, cols int, add bool)

// kernel runs the microkernel (see kernel.go) in assembly where the
// processor allows, checking the last element each operand reaches.
func kernel(kc int, a []float32, rsa, csa int, b []float32, csb int, c []float32, ldc, rows, cols int, add bool) {
	if !useAVX2 {
		kernelGo(kc, a, rsa, csa, b, csb, c, ldc, rows, cols, add)
		return
	}
	if rows < 1 || rows > mr || cols < 1 || cols > nr {
		panic("gemm: bad tile")
	}
	_ = c[(rows-1)*ldc+cols-1]
	if kc > 0 {
		_ = a[(mr-1)*rsa+(kc-1)*csa]
		_ = b[(kc-1)*csb+nr-1]
	}
	kernelAVX2(kc, &a[0], rsa, csa, &b[0], csb, &c[0], ldc, rows, cols, add)
}

// fmaAsm returns a·b + c by one VFMADD231SS (for the tests of fma32).
//
//go:noescape
func fmaAsm(a, b, c float32) float32
