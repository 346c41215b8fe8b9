package main

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
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
		if code != 2 || out != "" || !strings.Contains(errOut, "Usage:") {
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

	// Every case skipped: the records say why, and the exit status is 1.
	code, out, errOut = twl(t, "", "bench", "sinkhorn", "--labels", "2000", "--format", "json", "--max-memory", "1MiB")
	if code != 1 || !strings.Contains(errOut, "bench: skip sinkhorn") ||
		!strings.Contains(errOut, "twl: bench: every case was skipped (2), none timed: raise --max-memory (now 1MiB)") {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		if m, _ := rec["memory_bytes"].(float64); m < 8*2000*2000 || rec["skipped"] == nil {
			t.Errorf("skipped record %s: want memory_bytes ≥ 8·2000² and a reason", line)
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
		var rec cliRecord
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
