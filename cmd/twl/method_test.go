package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// writeRandomCase writes a random weighted tree of n nodes and rows pairs
// of random distributions (some sparse) to dir.
func writeRandomCase(t *testing.T, dir string, n, rows int, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var tb strings.Builder
	for i := 1; i < n; i++ {
		fmt.Fprintf(&tb, "n%d\tn%d\t%g\n", rng.IntN(i), i, float64(1+rng.IntN(4))/2)
	}
	row := func() string {
		var parts []string
		for i := 0; i < n; i++ {
			if rng.IntN(3) == 0 {
				continue
			}
			parts = append(parts, fmt.Sprintf("%q: %d", "n"+strconv.Itoa(i), 1+rng.IntN(9)))
		}
		if len(parts) == 0 {
			parts = append(parts, `"n0": 1`)
		}
		return "{" + strings.Join(parts, ", ") + "}\n"
	}
	var a, b strings.Builder
	for range rows {
		a.WriteString(row())
		b.WriteString(row())
	}
	for name, text := range map[string]string{"t.tree": tb.String(), "a.jsonl": a.String(), "b.jsonl": b.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func parseNumbers(t *testing.T, out string) []float64 {
	t.Helper()
	var v []float64
	for _, f := range strings.Fields(out) {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil {
			t.Fatalf("output %q: %v", out, err)
		}
		v = append(v, x)
	}
	return v
}

// TestDistanceMethods checks that --method emd (network simplex on the
// tree's cost matrix) reproduces the closed form of --method tw, which is
// an independent computation of the same exact distance, row by row and
// pairwise; and that --method sinkhorn lies above it and approaches it as
// --reg grows (the entropic plan's cost converges to the optimum).
func TestDistanceMethods(t *testing.T) {
	dir := t.TempDir()
	writeRandomCase(t, dir, 30, 6, 3)
	run := func(args ...string) []float64 {
		t.Helper()
		full := append([]string{"distance", "--normalize", "--tree", filepath.Join(dir, "t.tree")}, args...)
		full = append(full, filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"))
		code, out, errOut := twl(t, "", full...)
		if code != 0 {
			t.Fatalf("twl %q: exit %d: %s", full, code, errOut)
		}
		return parseNumbers(t, out)
	}
	for _, pw := range [][]string{nil, {"--pairwise"}} {
		exact := run(append([]string{"--method", "tw"}, pw...)...)
		viaEMD := run(append([]string{"--method", "emd"}, pw...)...)
		if len(exact) != len(viaEMD) || len(exact) == 0 {
			t.Fatalf("%v: %d tw values, %d emd values", pw, len(exact), len(viaEMD))
		}
		for i := range exact {
			if math.Abs(exact[i]-viaEMD[i]) > 1e-9*math.Max(1, exact[i]) {
				t.Errorf("%v: value %d: tw %v, emd %v", pw, i, exact[i], viaEMD[i])
			}
		}
		prevGap := math.Inf(1)
		for _, reg := range []string{"2", "10", "40"} {
			sk := run(append([]string{"--method", "sinkhorn", "--reg", reg, "--iters", "100000"}, pw...)...)
			var gap float64
			for i := range exact {
				// A converged plan meets the marginals to --tol (1e-9
				// relative), so its cost may fall below the optimum by
				// about that much times the largest cost.
				if sk[i] < exact[i]-1e-7 {
					t.Errorf("%v reg %s: sinkhorn %v below the exact %v", pw, reg, sk[i], exact[i])
				}
				gap = math.Max(gap, sk[i]-exact[i])
			}
			if gap > prevGap+1e-12 {
				t.Errorf("%v: gap grew from %v to %v at reg %s", pw, prevGap, gap, reg)
			}
			prevGap = gap
		}
		if prevGap > 0.2 {
			t.Errorf("%v: sinkhorn at reg 40 still %v above the exact distance", pw, prevGap)
		}
	}
}

// TestSinkhornNotConverged checks that an iterate that is not a transport
// plan within --tol is an error naming the row, not a printed number, and
// that a negative --tol accepts the fixed number of iterations.
func TestSinkhornNotConverged(t *testing.T) {
	dir := t.TempDir()
	writeRandomCase(t, dir, 30, 3, 5)
	args := []string{"distance", "--normalize", "--method", "sinkhorn", "--reg", "500", "--iters", "3",
		"--tree", filepath.Join(dir, "t.tree"), filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")}
	code, out, errOut := twl(t, "", args...)
	if code != 1 || out != "" || !strings.Contains(errOut, "a.jsonl:1 and ") || !strings.Contains(errOut, "b.jsonl:1: sinkhorn did not converge in 3 iterations") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = twl(t, "", append(args[:1], append([]string{"--tol", "-1"}, args[1:]...)...)...)
	if code != 0 || len(parseNumbers(t, out)) != 3 {
		t.Errorf("--tol -1: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestDistanceMethodMemory checks that a tree whose cost matrix exceeds
// --max-memory is refused with the memory it needs, before any allocation,
// and that tw needs no cost matrix.
func TestDistanceMethodMemory(t *testing.T) {
	dir := t.TempDir()
	writeRandomCase(t, dir, 200, 2, 4)
	// The cost matrix of 200 labels needs 8·200² = 320000 bytes.
	for _, m := range []string{"emd", "sinkhorn"} {
		code, out, errOut := twl(t, "", "distance", "--normalize", "--method", m, "--max-memory", "100KiB",
			"--tree", filepath.Join(dir, "t.tree"), filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"))
		if code != 1 || out != "" || !strings.Contains(errOut, "more than --max-memory 100KiB") || !strings.Contains(errOut, "KiB") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", m, code, out, errOut)
		}
	}
	code, _, errOut := twl(t, "", "distance", "--normalize", "--method", "tw", "--max-memory", "1KiB",
		"--tree", filepath.Join(dir, "t.tree"), filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"))
	if code != 0 {
		t.Errorf("tw with a tiny --max-memory: exit %d: %s", code, errOut)
	}
}

// TestTreeSpecs checks --tree chain:N and star:N in distance and eval:
// on the chain 0 — 1 — 2, TW((½, ½, 0), δ0) = ½ (half the mass moves one
// edge) and TW(δ2, δ0) = 2; on the star every two labels are 2 apart, so
// the same pairs give 1 and 2 (hand computations).
func TestTreeSpecs(t *testing.T) {
	dir := t.TempDir()
	p, q := filepath.Join(dir, "p.jsonl"), filepath.Join(dir, "q.jsonl")
	if err := os.WriteFile(p, []byte(`{"0":0.5,"1":0.5}`+"\n"+`{"2":1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(q, []byte(`{"0":1}`+"\n"+`{"0":1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for spec, want := range map[string]string{"chain:3": "0.5\n2\n", "star:3": "1\n2\n"} {
		code, out, errOut := twl(t, "", "distance", "--tree", spec, p, q)
		if code != 0 || out != want {
			t.Errorf("distance --tree %s: exit %d, stdout %q, want %q (%s)", spec, code, out, want, errOut)
		}
	}
	code, out, errOut := twl(t, "", "eval", "--tree", "star:3", "--format", "json", p, q)
	if code != 0 || !strings.Contains(out, `"wasserstein":1.5,`) {
		t.Errorf("eval --tree star:3: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, _, errOut = twl(t, "", "distance", "--tree", "chain:x", p, q)
	if code != 2 || !strings.Contains(errOut, "want chain:N") {
		t.Errorf("--tree chain:x: exit %d, stderr %q", code, errOut)
	}
}
