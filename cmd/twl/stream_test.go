package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/twl-ldl/twl/metric"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tw"
)

// streamCase writes a random tree of n nodes and two files of rows sparse
// distributions (k labels each, as objects in random label order) into dir,
// and returns the tree and the dense rows.
func streamCase(t *testing.T, dir string, n, rows, k int, seed uint64) (*tree.Tree, [][]float64, [][]float64) {
	t.Helper()
	tr := tree.Random(n, rand.NewPCG(seed, 1))
	f, err := os.Create(filepath.Join(dir, "t.tree"))
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Write(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	rng := rand.New(rand.NewPCG(seed, 2))
	var sets [2][][]float64
	for s, name := range []string{"a.jsonl", "b.jsonl"} {
		var sb strings.Builder
		for range rows {
			row := make([]float64, n)
			var sum float64
			labels := rng.Perm(n)[:k]
			for _, i := range labels {
				row[i] = float64(1 + rng.IntN(1000))
				sum += row[i]
			}
			sb.WriteString("{")
			for j, i := range labels {
				row[i] /= sum
				if j > 0 {
					sb.WriteString(",")
				}
				fmt.Fprintf(&sb, "%q:%s", tr.Name(i), strconv.FormatFloat(row[i], 'g', -1, 64))
			}
			sb.WriteString("}\n")
			sets[s] = append(sets[s], row)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return tr, sets[0], sets[1]
}

// TestDistanceStream runs 'twl distance' on more rows than one chunk and
// checks every distance against the dense O(L) sweep of tw.Workspace on
// the rows as parsed (an independent algorithm), within 1e-12, as text and
// as JSON; --pairwise on a smaller case against the same.
func TestDistanceStream(t *testing.T) {
	dir := t.TempDir()
	rows := chunkRows + 37
	tr, A, B := streamCase(t, dir, 3000, rows, 7, 11)
	ws := tw.NewWorkspace(tr)
	want := make([]float64, rows)
	for r := range rows {
		want[r] = ws.Distance(A[r], B[r])
	}
	args := []string{"distance", "--tree", filepath.Join(dir, "t.tree"), filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")}
	code, out, errOut := twl(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	got := parseNumbers(t, out)
	if len(got) != rows {
		t.Fatalf("%d distances, want %d", len(got), rows)
	}
	for r := range rows {
		if math.Abs(got[r]-want[r]) > 1e-12*max(1, want[r]) {
			t.Fatalf("row %d: %v, dense sweep %v", r+1, got[r], want[r])
		}
	}
	code, out, errOut = twl(t, "", append(args, "--format", "json")...)
	if code != 0 {
		t.Fatalf("json: exit %d: %s", code, errOut)
	}
	var js struct {
		Method    string    `json:"method"`
		Pairwise  bool      `json:"pairwise"`
		Distances []float64 `json:"distances"`
		Rows      int       `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &js); err != nil {
		t.Fatalf("%v: %.200s", err, out)
	}
	if js.Method != "tw" || js.Pairwise || js.Rows != rows || len(js.Distances) != rows {
		t.Fatalf("json: method %q pairwise %v rows %d, %d distances", js.Method, js.Pairwise, js.Rows, len(js.Distances))
	}
	for r := range rows {
		if js.Distances[r] != got[r] {
			t.Fatalf("json row %d: %v, text %v", r+1, js.Distances[r], got[r])
		}
	}

	// --pairwise: 40 × 30 rows.
	pdir := t.TempDir()
	tr, A, B = streamCase(t, pdir, 500, 40, 5, 12)
	lines := strings.Split(strings.TrimSpace(mustRead(t, filepath.Join(pdir, "b.jsonl"))), "\n")
	os.WriteFile(filepath.Join(pdir, "b.jsonl"), []byte(strings.Join(lines[:30], "\n")+"\n"), 0o644)
	ws = tw.NewWorkspace(tr)
	for _, format := range []string{"text", "json"} {
		code, out, errOut = twl(t, "", "distance", "--pairwise", "--format", format, "--tree", filepath.Join(pdir, "t.tree"),
			filepath.Join(pdir, "a.jsonl"), filepath.Join(pdir, "b.jsonl"))
		if code != 0 {
			t.Fatalf("pairwise %s: exit %d: %s", format, code, errOut)
		}
		var m [][]float64
		if format == "json" {
			var pj struct {
				Distances  [][]float64 `json:"distances"`
				Rows, Cols int
			}
			if err := json.Unmarshal([]byte(out), &pj); err != nil {
				t.Fatal(err)
			}
			if pj.Rows != 40 || pj.Cols != 30 {
				t.Fatalf("pairwise json: rows %d cols %d", pj.Rows, pj.Cols)
			}
			m = pj.Distances
		} else {
			for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				m = append(m, parseNumbers(t, strings.ReplaceAll(line, "\t", "\n")))
			}
		}
		if len(m) != 40 {
			t.Fatalf("pairwise %s: %d rows", format, len(m))
		}
		for i := range 40 {
			if len(m[i]) != 30 {
				t.Fatalf("pairwise %s row %d: %d columns", format, i+1, len(m[i]))
			}
			for j := range 30 {
				w := ws.Distance(A[i], B[j])
				if math.Abs(m[i][j]-w) > 1e-12*max(1, w) {
					t.Fatalf("pairwise %s (%d,%d): %v, dense %v", format, i+1, j+1, m[i][j], w)
				}
			}
		}
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestStreamPartner: files whose row counts differ by one, at a chunk
// boundary, give the error that names the first row without a partner and
// both counts, and write nothing.
func TestStreamPartner(t *testing.T) {
	dir := t.TempDir()
	streamCase(t, dir, 200, chunkRows+1, 3, 13)
	a := filepath.Join(dir, "a.jsonl")
	lines := strings.SplitAfter(mustRead(t, a), "\n")
	os.WriteFile(filepath.Join(dir, "short.jsonl"), []byte(strings.Join(lines[:chunkRows], "")), 0o644)
	short := filepath.Join(dir, "short.jsonl")
	tree := filepath.Join(dir, "t.tree")
	out := filepath.Join(dir, "out.tsv")
	for _, c := range []struct {
		cmd  string
		A, B string
		want string
	}{
		{"distance", a, short, fmt.Sprintf("%s:%d: distribution %d has no partner: %s has %d distributions, %s has %d", a, chunkRows+1, chunkRows+1, a, chunkRows+1, short, chunkRows)},
		{"distance", short, a, fmt.Sprintf("%s:%d: distribution %d has no partner: %s has %d distributions, %s has %d", a, chunkRows+1, chunkRows+1, short, chunkRows, a, chunkRows+1)},
		{"eval", a, short, fmt.Sprintf("%s:%d: distribution %d has no partner", a, chunkRows+1, chunkRows+1)},
		{"eval", short, a, fmt.Sprintf("%s:%d: distribution %d has no partner", a, chunkRows+1, chunkRows+1)},
	} {
		code, _, errOut := twl(t, "", c.cmd, "--tree", tree, "--out", out, c.A, c.B)
		if code != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("%s %s %s: exit %d, stderr %q, want %q", c.cmd, filepath.Base(c.A), filepath.Base(c.B), code, errOut, c.want)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 4 {
			t.Errorf("%s: %d files in the directory, want the 4 inputs", c.cmd, len(ents))
		}
	}
}

// TestEvalStream checks 'twl eval' on more rows than one chunk against
// metric.Evaluate on the dense rows (two-pass means and standard
// deviations), within 1e-12 relative, with and without --pyldl.
func TestEvalStream(t *testing.T) {
	dir := t.TempDir()
	rows := chunkRows + 100
	tr, A, B := streamCase(t, dir, 400, rows, 6, 14)
	var P, Q []float64
	for r := range rows {
		P, Q = append(P, A[r]...), append(Q, B[r]...)
	}
	for _, pyldl := range []bool{false, true} {
		want := metric.NewEvaluator(tr, &metric.Options{Clip: pyldl}).Evaluate(P, Q)
		args := []string{"--format", "json", "--tree", filepath.Join(dir, "t.tree"), filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")}
		if pyldl {
			args = append(args, "--pyldl")
		}
		got := evalJSON(t, "", args...)
		if int(jsonNumber(t, got["rows"])) != rows {
			t.Fatalf("rows %v, want %d", got["rows"], rows)
		}
		for _, name := range metric.Names {
			for _, c := range []struct {
				key string
				w   float64
			}{{name, want.Mean[name]}, {name + "_std", want.Std[name]}} {
				g := jsonNumber(t, got[c.key])
				same := g == c.w || math.IsNaN(g) && math.IsNaN(c.w) || math.Abs(g-c.w) <= 1e-12*math.Abs(c.w)
				if !same {
					t.Errorf("pyldl %v: %s = %v, Evaluate %v", pyldl, c.key, g, c.w)
				}
			}
		}
	}
}

// TestStreamStopped: a command whose context is cancelled by a signal stops
// with status 130 (SIGINT) or 143 (SIGTERM), and leaves neither the output
// nor a temporary file.
func TestStreamStopped(t *testing.T) {
	dir := t.TempDir()
	streamCase(t, dir, 100, 50, 3, 15)
	for _, c := range []struct {
		sig  os.Signal
		want int
	}{{os.Interrupt, 130}, {syscall.SIGTERM, 143}} {
		for _, cmd := range []string{"distance", "eval"} {
			ctx, cancel := context.WithCancelCause(context.Background())
			cancel(&stopSignal{c.sig})
			var out, errb strings.Builder
			out2 := filepath.Join(dir, "out")
			code := runContext(ctx, []string{cmd, "--tree", filepath.Join(dir, "t.tree"), "--out", out2,
				filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")}, strings.NewReader(""), &out, &errb)
			if code != c.want || !strings.Contains(errb.String(), "stopped by") {
				t.Errorf("%s after %v: exit %d, stderr %q; want %d", cmd, c.sig, code, errb.String(), c.want)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 3 {
				t.Errorf("%s: %d files in the directory, want the 3 inputs", cmd, len(ents))
			}
		}
	}
}

// TestStreamSpill writes more than spillBytes to standard output and then
// aborts: the output ends at the end of a row, and a warning says it is
// incomplete; a committed stream past spillBytes gets every byte and no
// warning.
func TestStreamSpill(t *testing.T) {
	row := []byte(strings.Repeat("x", 999) + "\n")
	for _, commit := range []bool{false, true} {
		var out, errb strings.Builder
		e := &env{stdout: &out, stderr: &errb}
		s, err := e.create("")
		if err != nil {
			t.Fatal(err)
		}
		n := spillBytes/len(row) + 100
		for range n {
			s.Write(row)
		}
		if commit {
			if err := s.Commit(); err != nil {
				t.Fatal(err)
			}
		}
		s.Abort()
		switch {
		case commit && (out.Len() != n*len(row) || errb.Len() != 0):
			t.Errorf("committed: %d bytes of %d, stderr %q", out.Len(), n*len(row), errb.String())
		case !commit && (out.Len() < spillBytes || out.Len()%len(row) != 0):
			t.Errorf("aborted after the spill: %d bytes, not whole rows past %d", out.Len(), spillBytes)
		case !commit && !strings.Contains(errb.String(), "standard output is incomplete"):
			t.Errorf("aborted after the spill: stderr %q", errb.String())
		}
	}
}
