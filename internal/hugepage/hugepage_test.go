package hugepage

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestAdvise checks that advised memory holds what is written to it, and,
// where the system offers transparent huge pages to advised memory, that
// the process's anonymous huge pages grow by at least one after writing 8
// MiB of advised memory (read from /proc/self/smaps_rollup).
func TestAdvise(t *testing.T) {
	before := anonHuge(t)
	b := make([]byte, 8<<20)
	Advise(b)
	for i := range b {
		b[i] = byte(i * 7)
	}
	for i := range b {
		if b[i] != byte(i*7) {
			t.Fatalf("byte %d is %d, want %d", i, b[i], byte(i*7))
		}
	}
	if runtime.GOOS != "linux" || !thpAdvised() {
		return
	}
	if after := anonHuge(t); after < before+2048 {
		t.Errorf("AnonHugePages %d kB after writing 8 MiB of advised memory, %d kB before", after, before)
	}
	runtime.KeepAlive(b)
}

// TestReserve checks that Reserve and Advise accept sizes below a huge
// page, and that the heap still serves allocations after a reservation.
func TestReserve(t *testing.T) {
	Reserve(0)
	Reserve(1 << 20)
	Advise(nil)
	Advise(make([]byte, 100))
	Reserve(8 << 20)
	x := make([]float64, 1<<20)
	for i := range x {
		x[i] = float64(i)
	}
	if x[12345] != 12345 {
		t.Fatal("allocation after Reserve does not hold its values")
	}
}

// thpAdvised reports whether transparent huge pages serve advised memory.
func thpAdvised() bool {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && (strings.Contains(string(b), "[always]") || strings.Contains(string(b), "[madvise]"))
}

// anonHuge returns the process's AnonHugePages in kB, or 0 where the
// system does not report it.
func anonHuge(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "AnonHugePages:" {
			v, err := strconv.Atoi(f[1])
			if err != nil {
				t.Fatalf("AnonHugePages %q: %v", f[1], err)
			}
			return v
		}
	}
	return 0
}
