package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/bench"
	"github.com/twl-ldl/twl/internal/atomicfile"
)

func TestBenchJSON(t *testing.T) {
	code, out, errOut := twl(t, "", "bench", "tw", "--labels", "100,1.5e2", "--batch", "3", "--time", "1ms", "--format", "json", "--seed", "7", "--order", "bfs")
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 8 {
		t.Fatalf("%d lines, want 2 sizes × 4 cases:\n%s", len(lines), out)
	}
	methods := []string{"distance", "distance+grad", "batch-loss+grad", "batch-logit-loss+grad"}
	for i, line := range lines {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("line %d: %v: %s", i+1, err, line)
		}
		for _, key := range []string{"method", "labels", "batch", "seconds_per_op", "bytes_per_op", "entries_per_second", "memory_bytes"} {
			if _, ok := rec[key]; !ok {
				t.Errorf("line %d lacks %q: %s", i+1, key, line)
			}
		}
		wantBatch := 1.0
		if i%4 >= 2 {
			wantBatch = 3
		}
		wantL := []float64{100, 150}[i/4]
		if rec["method"] != methods[i%4] || rec["labels"] != wantL || rec["batch"] != wantBatch {
			t.Errorf("line %d: %s", i+1, line)
		}
		if rec["order"] != "bfs" {
			t.Errorf("line %d: order %v, want bfs", i+1, rec["order"])
		}
		if s, _ := rec["seconds_per_op"].(float64); !(s > 0) {
			t.Errorf("line %d: seconds_per_op %v", i+1, rec["seconds_per_op"])
		}
		if b, _ := rec["bytes_per_op"].(float64); b < 0 {
			t.Errorf("line %d: bytes_per_op %v", i+1, b)
		}
		// The inputs alone: 2 (distance) or 3 (+grad) vectors of L floats;
		// 4·batch rows for the batch cases (inputs, gradient, losses).
		minMem := []float64{2, 3, 3 * wantBatch, 3 * wantBatch}[i%4] * 8 * wantL
		if m, _ := rec["memory_bytes"].(float64); m < minMem {
			t.Errorf("line %d: memory_bytes %v < %v", i+1, m, minMem)
		}
	}
	if !strings.Contains(errOut, "bench: distance bfs L=100 batch=1 ...") {
		t.Errorf("no progress on stderr: %q", errOut)
	}
}

func TestBenchText(t *testing.T) {
	// The default --order times both label orders: 4 kernels each.
	code, out, errOut := twl(t, "", "bench", "--labels", "50", "--batch", "2", "--time", "1ms")
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 9 || !strings.HasPrefix(lines[0], "method ") {
		t.Fatalf("got:\n%s", out)
	}
	for i, line := range lines[1:] {
		wantOrder := []string{"bfs", "random"}[i/4]
		if f := strings.Fields(line); len(f) < 8 || f[1] != wantOrder || f[2] != "50" {
			t.Errorf("row %q", line)
		}
	}
}

func TestBenchSkip(t *testing.T) {
	code, out, errOut := twl(t, "", "bench", "--labels", "1000", "--time", "1ms", "--format", "json", "--max-memory", "300KiB", "--order", "bfs")
	if code != 0 || strings.Count(out, "\n") != 2 || strings.Count(errOut, "bench: skip batch") != 2 {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

func TestBenchUsage(t *testing.T) {
	for _, args := range [][]string{
		{"mst"}, {"tw", "sinkhorn", "pot"}, {"--format", "csv"}, {"--batch", "0"}, {"--time", "0s"}, {"--labels", "0"},
		{"--labels", "10,x"}, {"--labels", "1.5"}, {"--max-memory", "lots"}, {"--seed", "-1"},
		{"--order", "dfs"}, {"--order", "bfs,"},
	} {
		code, out, errOut := twl(t, "", append([]string{"bench"}, args...)...)
		if code != 2 || out != "" || !strings.Contains(errOut, "--help'\n") {
			t.Errorf("twl bench %q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

// TestBenchOT checks the emd and sinkhorn rows: the JSON keys, positive
// timings, and that a size whose dense cost matrix exceeds --max-memory is
// reported with the memory it would need (8·L² bytes for the cost matrix
// alone) instead of being run.
func TestBenchOT(t *testing.T) {
	code, out, errOut := twl(t, "", "bench", "emd", "sinkhorn", "tw", "emd", "--labels", "20", "--time", "1ms", "--format", "json", "--order", "bfs")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var methods []string
	for _, line := range lines {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		methods = append(methods, rec["method"].(string))
		if s, _ := rec["seconds_per_op"].(float64); !(s > 0) {
			t.Errorf("%s: seconds_per_op %v", rec["method"], rec["seconds_per_op"])
		}
		if m, _ := rec["memory_bytes"].(float64); m < 8*20*20 && rec["method"] != "distance" && rec["method"] != "distance+grad" && !strings.HasPrefix(rec["method"].(string), "batch") {
			t.Errorf("%s: memory_bytes %v below the cost matrix's 3200", rec["method"], m)
		}
	}
	want := "emd sinkhorn-cold sinkhorn distance distance+grad batch-loss+grad batch-logit-loss+grad"
	if got := strings.Join(methods, " "); got != want {
		t.Errorf("methods %q, want %q (each kernel once, in the order given)", got, want)
	}

	// Skipped cases before timed ones: their records (memory_bytes what
	// they would need, and why they were skipped) come first, in order.
	code, out, errOut = twl(t, "", "bench", "sinkhorn", "--labels", "2000,20", "--time", "1ms", "--format", "json", "--max-memory", "1MiB")
	if code != 0 || strings.Count(errOut, "bench: skip sinkhorn") != 2 {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	lines = strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d records, want 2 skipped and 2 timed:\n%s", len(lines), out)
	}
	for i, line := range lines {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		m, _ := rec["memory_bytes"].(float64)
		if skipped := i < 2; skipped != (rec["skipped"] != nil) || skipped && (m < 8*2000*2000 || rec["labels"] != 2000.0) ||
			!skipped && rec["labels"] != 20.0 {
			t.Errorf("record %d: %s", i+1, line)
		}
	}

	// Every case skipped: stderr says why, the exit status is 1, and
	// nothing goes to standard output, neither records nor a table header.
	for _, args := range [][]string{
		{"sinkhorn", "--labels", "2000", "--format", "json"},
		{"sinkhorn", "--labels", "2000"},
		{"tw", "--labels", "2000"},
		{"tw", "emd", "--labels", "2000", "--order", "bfs"},
	} {
		code, out, errOut = twl(t, "", append(append([]string{"bench"}, args...), "--max-memory", "1KiB")...)
		if code != 1 || out != "" || !strings.Contains(errOut, "bench: skip ") ||
			!strings.Contains(errOut, "none timed: raise --max-memory (now 1KiB)") {
			t.Errorf("bench %q, every case skipped: exit %d, stdout %q, stderr %s", args, code, out, errOut)
		}
	}
	code, _, errOut = twl(t, "", "bench", "sinkhorn", "--labels", "2000", "--max-memory", "1MiB")
	if !strings.Contains(errOut, "bench: skip sinkhorn L=2000: it needs about ") || !strings.Contains(errOut, "every case was skipped (2)") {
		t.Errorf("exit %d, stderr %s", code, errOut)
	}
}

// TestBenchTextHeld: in a table, skipped rows held back before the first
// timed case follow the header, in order.
func TestBenchTextHeld(t *testing.T) {
	code, out, errOut := twl(t, "", "bench", "sinkhorn", "--labels", "2000,20", "--time", "1ms", "--max-memory", "1MiB")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "method ") {
		t.Fatalf("got:\n%s", out)
	}
	for i, line := range lines[1:] {
		f := strings.Fields(line)
		if skipped := i < 2; len(f) < 3 || skipped != strings.Contains(line, "(needs ") || f[1] != []string{"2000", "20"}[i/2] {
			t.Errorf("row %d: %q", i+1, line)
		}
	}
}

// TestBenchLSTM times tiny LSTM steps and checks the JSON rows.
func TestBenchLSTM(t *testing.T) {
	code, out, errOut := twl(t, "", "bench", "lstm", "--batch", "4", "--len", "5", "--dim", "3", "--hidden", "8", "--vocab", "10",
		"--labels", "6", "--time", "1ms", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d rows: %q", len(lines), out)
	}
	for i, line := range lines {
		var rec struct {
			Method          string  `json:"method"`
			TokensPerSecond float64 `json:"tokens_per_second"`
			Labels, Hidden  int
			TrainEmb        bool `json:"train_emb"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Method != "lstm-train" || !(rec.TokensPerSecond > 0) || rec.Labels != 6 || rec.Hidden != 8 || rec.TrainEmb != (i == 1) {
			t.Errorf("row %d: %+v", i, rec)
		}
	}
	code, _, errOut = twl(t, "", "bench", "lstm", "--freeze", "--train-emb")
	if code != 2 || !strings.Contains(errOut, "exclude each other") {
		t.Errorf("exit %d, %q", code, errOut)
	}
}

// TestBenchCLI runs 'twl bench cli' at a small size, with the test binary
// as the child: both commands run 3 times and report their time and, on
// Linux, a peak resident memory of at least a megabyte (a Go process's
// runtime alone takes more).
func TestBenchCLI(t *testing.T) {
	code, out, errOut := twl(t, "", "bench", "cli", "--labels", "2000", "--rows", "50", "--nnz", "5", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var methods []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var rec bench.CLIRecord
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		methods = append(methods, rec.Method)
		if rec.Labels != 2000 || rec.Rows != 50 || rec.NonZero != 5 || rec.Runs != 3 || rec.InputBytes <= 0 {
			t.Errorf("record %+v", rec)
		}
		if !(rec.SecondsMin > 0 && rec.SecondsMin <= rec.SecondsMax) {
			t.Errorf("%s: seconds %v – %v", rec.Method, rec.SecondsMin, rec.SecondsMax)
		}
		if runtime.GOOS == "linux" && rec.PeakRSSBytes < 1<<20 {
			t.Errorf("%s: peak RSS %d bytes", rec.Method, rec.PeakRSSBytes)
		}
	}
	if strings.Join(methods, ",") != "cli-distance,cli-eval" {
		t.Errorf("methods %v", methods)
	}
}

// onLine is a writer that calls f with each complete line written to it.
type onLine struct {
	buf bytes.Buffer
	f   func(line string)
}

func (w *onLine) Write(p []byte) (int, error) {
	w.buf.Write(p)
	for {
		line, err := w.buf.ReadString('\n')
		if err != nil {
			w.buf.WriteString(line) // incomplete: keep it for later
			return len(p), nil
		}
		w.f(strings.TrimSuffix(line, "\n"))
	}
}

// TestBenchCLITempDir: the temporary folder of 'bench cli' is registered
// with atomicfile while the benchmark runs, so that a second signal
// (atomicfile.RemoveTemps, before the process exits at once) removes it,
// and forgotten once bench has removed it.
func TestBenchCLITempDir(t *testing.T) {
	const into = " into "
	args := []string{"bench", "cli", "--labels", "200", "--rows", "5", "--nnz", "2", "--format", "json"}
	var dir string
	stderr := &onLine{f: func(line string) {
		if i := strings.LastIndex(line, into); i >= 0 && strings.HasPrefix(line, "bench: cli ") {
			dir = line[i+len(into):]
			atomicfile.RemoveTemps() // as a second signal does
			if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("RemoveTemps left %s: %v", dir, err)
			}
		}
	}}
	var stdout bytes.Buffer
	if code := run(args, strings.NewReader(""), &stdout, stderr); code != 1 || dir == "" || stdout.Len() != 0 {
		t.Fatalf("exit %d with the folder %q removed under it, want 1; stdout %q, stderr %q", code, dir, stdout.String(), stderr.buf.String())
	}

	stderr.f = func(line string) {
		if i := strings.LastIndex(line, into); i >= 0 && strings.HasPrefix(line, "bench: cli ") {
			dir = line[i+len(into):]
		}
	}
	if code := run(args, strings.NewReader(""), &stdout, stderr); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("bench cli left %s: %v", dir, err)
	}
	// Forgotten: a folder of that name made since is not RemoveTemps's.
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(dir)
	atomicfile.RemoveTemps()
	if _, err := os.Stat(dir); err != nil {
		t.Errorf("RemoveTemps removed %s after bench cli had: %v", dir, err)
	}
}
