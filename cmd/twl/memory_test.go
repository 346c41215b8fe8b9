package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestMemoryLimit checks that --max-memory becomes the runtime's memory
// limit: setMemoryLimit sets it (minMemory at least) and restores it, and
// lazyGC puts it in force once its 30% rule is on.
func TestMemoryLimit(t *testing.T) {
	if debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Skip("GOMEMLIMIT is set")
	}
	restore := setMemoryLimit(3 << 30)
	if got := debug.SetMemoryLimit(-1); got != 3<<30 {
		t.Errorf("limit %d, want 3 GiB", got)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit %d after restore", got)
	}
	restore = setMemoryLimit(1000)
	if got := debug.SetMemoryLimit(-1); got != minMemory {
		t.Errorf("limit %d for 1000 bytes, want minMemory", got)
	}
	restore()

	g := startLazyGC()
	g.maxMemory(2 << 30)
	if got := debug.SetMemoryLimit(-1); g.big() && got != 2<<30 || !g.big() && got != lazyHeap {
		t.Errorf("lazy collector: limit %d (30%% rule on: %v)", got, g.big())
	}
	g.turnOn()
	if got := debug.SetMemoryLimit(-1); got != 2<<30 {
		t.Errorf("30%% rule on: limit %d, want 2 GiB", got)
	}
	g.stop()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit %d after stop", got)
	}
}

// TestLineLimit checks the longest line under --max-memory.
func TestLineLimit(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want int
	}{{100e6, 6_250_000}, {4 << 30, 64 << 20}, {1, minMemory / 16}} {
		if got := lineLimit(c.n); got != c.want {
			t.Errorf("lineLimit(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}
