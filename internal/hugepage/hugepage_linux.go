package hugepage

import (
	"runtime"
	"syscall"
	"unsafe"
)

// size is the huge page size of x86-64, and of arm64 with 4 KiB pages.
const size = 2 << 20

// Advise asks that the huge pages lying wholly inside b be backed by huge
// pages. It is meant for memory not yet written: what was touched already
// keeps its small pages. b's bytes are unchanged.
func Advise(b []byte) {
	if len(b) < size {
		return
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := (p + size - 1) &^ (size - 1)
	hi := (p + uintptr(len(b))) &^ (size - 1)
	if lo >= hi {
		return
	}
	_ = syscall.Madvise(b[lo-p:hi-p], syscall.MADV_HUGEPAGE) // a hint: its failure changes nothing
}

// Reserve grows the Go heap by about n bytes that the kernel is asked to
// back with huge pages, and frees them at once: the runtime places its
// next allocations in them (it reuses its lowest free addresses first), so
// that a process's first n bytes of heap cost a page fault every 2 MiB
// instead of every 4 KiB. It runs a garbage collection; call it at the
// start of a process, while the heap is small.
func Reserve(n int) {
	if n < size {
		return
	}
	grow(n)
	runtime.GC()
}

//go:noinline
func grow(n int) {
	Advise(make([]byte, n))
}
