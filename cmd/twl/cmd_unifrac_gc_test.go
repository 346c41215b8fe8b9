package main

import (
	"path/filepath"
	"runtime/debug"
	"testing"
)

// TestUnifracCollectorRestored runs twl unifrac in the test's process
// under the three collector settings it distinguishes (none set, GOGC set,
// a memory limit set) and checks that each run leaves the GC percent and
// the memory limit as they were before it.
func TestUnifracCollectorRestored(t *testing.T) {
	dir := t.TempDir()
	tp, bp := randomCase(t, dir, 60, 300, 11)
	run := func() {
		t.Helper()
		out := filepath.Join(dir, "d.tsv")
		if code, _, errOut := twl(t, "", "unifrac", "--tree", tp, "--table", bp, "--method", "unweighted", "--out", out); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
	}
	settings := func() (int, int64) {
		pct := debug.SetGCPercent(-1)
		debug.SetGCPercent(pct)
		return pct, debug.SetMemoryLimit(-1)
	}
	check := func(what string) {
		t.Helper()
		pct0, lim0 := settings()
		run()
		if pct, lim := settings(); pct != pct0 || lim != lim0 {
			t.Errorf("%s: GC percent %d and memory limit %d after the run, %d and %d before", what, pct, lim, pct0, lim0)
		}
	}
	t.Setenv("GOGC", "")
	check("default")
	t.Setenv("GOGC", "50")
	check("GOGC set")
	t.Setenv("GOGC", "")
	old := debug.SetMemoryLimit(1 << 40)
	defer debug.SetMemoryLimit(old)
	check("memory limit set")
}
