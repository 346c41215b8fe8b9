package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/ldl"
	"github.com/twl-ldl/twl/metric"
)

// cvCounts are the keys of twl cv --format json that are not measures.
var cvCounts = []string{"folds", "repeats", "rows"}

// cvJSON runs twl cv with --format json and returns its measures, keyed by
// name, and its counts (folds, repeats, rows).
func cvJSON(t *testing.T, args ...string) (measures map[string]map[string]any, counts map[string]int) {
	t.Helper()
	code, out, stderr := twl(t, "", append([]string{"cv", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if strings.Count(out, "\n") != 1 {
		t.Fatalf("not one line: %q", out)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatalf("%q: %v", out, err)
	}
	counts = map[string]int{}
	for _, k := range cvCounts {
		var n int
		if err := json.Unmarshal(obj[k], &n); err != nil {
			t.Fatalf("%q: %s: %v", out, k, err)
		}
		counts[k] = n
		delete(obj, k)
	}
	measures = map[string]map[string]any{}
	for k, raw := range obj {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("%q: %s: %v", out, k, err)
		}
		measures[k] = m
	}
	return measures, counts
}

func TestCVJSONKeys(t *testing.T) {
	dir := ldlDir(t)
	obj, counts := cvJSON(t, append([]string{"--data", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, "t.tree"),
		"--folds", "3", "--repeats", "2"}, quick...)...)
	if want := map[string]int{"folds": 3, "repeats": 2, "rows": 30}; !reflect.DeepEqual(counts, want) {
		t.Errorf("counts %v, want %v", counts, want)
	}
	keys := make([]string, 0, len(obj))
	for k, v := range obj {
		keys = append(keys, k)
		if len(v) != 2 {
			t.Errorf("%s: %v, want mean and std", k, v)
		}
		for _, f := range []string{"mean", "std"} {
			if x, ok := v[f].(float64); !ok || math.IsNaN(x) {
				t.Errorf("%s.%s = %#v", k, f, v[f])
			}
		}
	}
	slices.Sort(keys)
	want := slices.Clone(metric.Names)
	slices.Sort(want)
	if !reflect.DeepEqual(keys, want) {
		t.Errorf("keys %v, want the metric names %v", keys, want)
	}
}

// TestCVEqualsTrainPredictEval reproduces twl cv with the other commands:
// the folds of repeat 1 (dataset.KFold from the seed's fold stream), for
// each a training file and a test file holding those lines of the data,
// twl train with the seed of that run, twl predict and twl eval. The mean
// and the sample standard deviation of eval's means are cv's numbers.
func TestCVEqualsTrainPredictEval(t *testing.T) {
	dir := ldlDir(t)
	data, _ := os.ReadFile(filepath.Join(dir, "d.jsonl"))
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	const seed, folds = 7, 3
	common := []string{"--tree", filepath.Join(dir, "t.tree"), "--loss", "kl+tw", "--lambda", "0.5", "--epochs", "5", "--batch", "4", "--quiet"}
	obj, _ := cvJSON(t, append([]string{"--data", filepath.Join(dir, "d.jsonl"), "--folds", strconv.Itoa(folds),
		"--repeats", "1", "--seed", strconv.Itoa(seed)}, common...)...)

	parts := ldl.Folds(len(lines), folds, seed, 0)
	perFold := map[string][]float64{}
	for i, test := range parts {
		var tr, te strings.Builder
		for r, line := range lines {
			if slices.Contains(test, r) {
				te.WriteString(line)
			} else {
				tr.WriteString(line)
			}
		}
		p := func(name string) string { return filepath.Join(dir, fmt.Sprintf("%s%d", name, i)) }
		os.WriteFile(p("train"), []byte(tr.String()), 0o644)
		os.WriteFile(p("test"), []byte(te.String()), 0o644)
		args := append([]string{"train", "--data", p("train"), "--out", p("model"),
			"--seed", strconv.FormatUint(ldl.FoldSeed(seed, i), 10)}, common...)
		if code, _, stderr := twl(t, "", args...); code != 0 {
			t.Fatal(stderr)
		}
		if code, _, stderr := twl(t, "", "predict", "--model", p("model"), "--data", p("test"),
			"--out", p("pred"), "--targets", p("targets")); code != 0 {
			t.Fatal(stderr)
		}
		res := evalJSON(t, "", "--tree", filepath.Join(dir, "t.tree"), p("pred"), p("targets"))
		for _, name := range metric.Names {
			perFold[name] = append(perFold[name], jsonNumber(t, res[name]))
		}
	}
	for _, name := range metric.Names {
		mean, std := meanStd(perFold[name])
		got := obj[name]
		if gm := got["mean"].(float64); math.Abs(gm-mean) > 1e-13*math.Max(1, math.Abs(mean)) {
			t.Errorf("%s: mean %v, want %v", name, gm, mean)
		}
		if gs := got["std"].(float64); math.Abs(gs-std) > 1e-12*math.Max(1, std) {
			t.Errorf("%s: std %v, want %v", name, gs, std)
		}
	}
}

// TestCVText checks the table and the progress lines, and that the result
// does not depend on the number of jobs.
func TestCVText(t *testing.T) {
	dir := ldlDir(t)
	args := []string{"cv", "--data", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, "t.tree"),
		"--folds", "5", "--repeats", "2", "--epochs", "3", "--val", "0.2", "--patience", "1"}
	code, out, stderr := twl(t, "", append(args, "--jobs", "1")...)
	if code != 0 {
		t.Fatalf("exit %d, %s", code, stderr)
	}
	for _, want := range []string{
		"5-fold cross-validation × 2 repeats: 10 models\n",
		"data " + filepath.Join(dir, "d.jsonl") + ": 30 samples, 2 features, 3 labels; tree " + filepath.Join(dir, "t.tree") + "\n",
		"loss kl; 3 epochs, batch 32, lr 0.001, weight decay 0.03, standardized, validation 0.2 (patience 1); seed 1\n",
		"\nwasserstein ↓ ", "\nintersection ↑ ", "of the 10 per-fold means; exact measures.\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	checkCVProgress(t, stderr, 2, 5)
	code, out2, stderr := twl(t, "", append(args, "--jobs", "3")...)
	if code != 0 || out2 != out {
		t.Errorf("--jobs 3 gives another result (exit %d):\n%s\n%s", code, out, out2)
	}
	// Folds finish in any order; the count still goes 1, 2, … 10.
	checkCVProgress(t, stderr, 2, 5)
}

// checkCVProgress checks the progress lines of cv: one per fold, "k/N folds
// done (repeat r, fold f): ..." with k = 1, 2, … N in that order, and each
// fold of each repeat once.
func checkCVProgress(t *testing.T, stderr string, repeats, folds int) {
	t.Helper()
	n := repeats * folds
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if len(lines) != n {
		t.Fatalf("%d progress lines, want %d:\n%s", len(lines), n, stderr)
	}
	seen := map[[2]int]bool{}
	for k, line := range lines {
		var done, total, r, f int
		if _, err := fmt.Sscanf(line, "%d/%d folds done (repeat %d, fold %d):", &done, &total, &r, &f); err != nil ||
			done != k+1 || total != n || r < 1 || r > repeats || f < 1 || f > folds || seen[[2]int{r, f}] {
			t.Errorf("progress line %d: %q", k+1, line)
		}
		seen[[2]int{r, f}] = true
		if !strings.Contains(line, " chebyshev ") || !strings.Contains(line, " wasserstein ") {
			t.Errorf("progress line %d lacks the measures: %q", k+1, line)
		}
	}
}

func TestCVErrors(t *testing.T) {
	dir := ldlDir(t)
	d, tr := filepath.Join(dir, "d.jsonl"), filepath.Join(dir, "t.tree")
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--data", d, "--tree", tr, "--folds", "1"}, 2, "--folds must be at least 2"},
		{[]string{"--data", d, "--tree", tr, "--repeats", "0"}, 2, "--repeats must be at least 1"},
		{[]string{"--data", d, "--tree", tr, "--format", "csv"}, 2, "--format must be text or json"},
		{[]string{"--data", d, "--tree", tr, "--jobs", "-1"}, 2, "--jobs must be"},
		{[]string{"--tree", tr}, 2, "--data is required"},
		{[]string{"--data", d, "--tree", tr, "--folds", "31"}, 1, "d.jsonl: 30 samples, too few for 31 folds"},
		{[]string{"--data", d, "--tree", tr, "--folds", "10", "--val", "0.01"}, 1, "leaves 0 for validation"},
	} {
		out := filepath.Join(dir, "out")
		code, stdout, stderr := twl(t, "", append(append([]string{"cv", "--out", out}, tc.args...), quick...)...)
		if code != tc.code || stdout != "" || !strings.Contains(stderr, tc.msg) || exists(out) {
			t.Errorf("twl cv %q: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr, tc.code, tc.msg)
		}
	}
	// Bad data: FILE:LINE.
	os.WriteFile(d, []byte(ldlRows(3, 2, 1)+`{"x": [1], "y": {"a": 1}}`+"\n"), 0o644)
	code, _, stderr := twl(t, "", "cv", "--data", d, "--tree", tr)
	if code != 1 || !strings.Contains(stderr, "d.jsonl:4: wrong dimension") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestCVSJAFFE checks the evidence of the defaults: on SJAFFE with a star
// tree, one repeat of 10-fold cross-validation reaches the published
// SA-BFGS range of Chebyshev distances, .092 (PyLDL) to .107 (Geng's
// MATLAB), within one standard deviation (.010), REFERENCE.md.
func TestCVSJAFFE(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	sj := sharedData(t, "SJAFFE.mat")
	obj, _ := cvJSON(t, "--data", sj, "--tree", "star", "--repeats", "1", "--pyldl", "--quiet")
	if c := obj["chebyshev"]["mean"].(float64); c < 0.082 || c > 0.107 {
		t.Errorf("chebyshev %v, want .092 − .010 … .107", c)
	}
	if c := obj["cosine"]["mean"].(float64); c < 0.94 {
		t.Errorf("cosine %v, want ≥ .94 (published .940 … .954)", c)
	}
}
