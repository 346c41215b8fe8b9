//go:build linux && amd64 && !purego

package gemm

import (
	"syscall"
	"testing"
	"unsafe"
)

// guarded returns a slice of n float32 whose last element ends a page
// followed by a page that cannot be read or written, so that any access
// past the slice faults.
func guarded(t *testing.T, n int) []float32 {
	t.Helper()
	page := syscall.Getpagesize()
	size := (n*4 + page - 1) / page * page
	mem, err := syscall.Mmap(-1, 0, size+page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("mmap:", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[size:], syscall.PROT_NONE); err != nil {
		t.Skip("mprotect:", err)
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&mem[size-n*4])), n)
}

// TestKernelStaysInBounds runs the assembly microkernel with A, B and C
// each ending right before an unreadable page: edge tiles of every size,
// with A packed and in place, must touch nothing past the elements they
// use (masked-off lanes of C are neither loaded nor stored).
func TestKernelStaysInBounds(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 + FMA")
	}
	const kb, ldc = 5, 40
	for rows := 1; rows <= mr; rows++ {
		for cols := 1; cols <= nr; cols++ {
			for _, add := range []bool{false, true} {
				c := guarded(t, (rows-1)*ldc+cols)
				b := guarded(t, kb*nr)
				for _, l := range [][3]int{{1, mr, mr * kb}, {kb, 1, mr * kb}, {1, 7, (kb-1)*7 + mr}} {
					a := guarded(t, l[2])
					for i := range a {
						a[i] = float32(i)
					}
					kernel(kb, a, l[0], l[1], b, nr, c, ldc, rows, cols, add)
				}
			}
		}
	}
}

// TestKernel2StaysInBounds is TestKernelStaysInBounds for the AVX-512
// kernel of two row panels: every number of columns, A in place with both
// strides, C's masked-off columns neither loaded nor stored.
func TestKernel2StaysInBounds(t *testing.T) {
	if !use512 {
		t.Skip("no AVX-512")
	}
	const kb, ldc = 5, 40
	for cols := 1; cols <= nr; cols++ {
		for _, add := range []bool{false, true} {
			c := guarded(t, (2*mr-1)*ldc+cols)
			b := guarded(t, kb*nr)
			for _, l := range [][3]int{{kb, 1, 2 * mr * kb}, {1, 2*mr + 1, (kb-1)*(2*mr+1) + 2*mr}} {
				a := guarded(t, l[2])
				for i := range a {
					a[i] = float32(i)
				}
				kernel2(kb, a, l[0], l[1], b, nr, c, ldc, cols, add)
			}
		}
	}
}
