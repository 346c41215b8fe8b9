package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/model"
	"github.com/twl-ldl/twl/tree"
)

// readDists reads a JSON Lines file of {"label": mass} objects.
func readDists(t *testing.T, path string) []map[string]float64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]float64
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var m map[string]float64
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%s: %q: %v", path, line, err)
		}
		out = append(out, m)
	}
	return out
}

// readTargets reads the "y" of every line of a JSON Lines data file.
func readTargets(t *testing.T, path string) []map[string]float64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]float64
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var row struct{ Y map[string]float64 }
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			t.Fatal(err)
		}
		out = append(out, row.Y)
	}
	return out
}

// trainQuick trains the synthetic data of dir into dir/m.model.
func trainQuick(t *testing.T, dir string, extra ...string) string {
	t.Helper()
	out := filepath.Join(dir, "m.model")
	code, _, stderr := twl(t, "", append(append([]string{"train", "--data", filepath.Join(dir, "d.jsonl"),
		"--tree", filepath.Join(dir, "t.tree"), "--out", out}, quick...), extra...)...)
	if code != 0 {
		t.Fatalf("train: exit %d, %s", code, stderr)
	}
	return out
}

// TestTrainPredictEval trains, predicts new samples and scores the
// predictions. The predictions are checked against softmax(W·z + b)
// computed here by loops from the model file's numbers, z the features
// standardized with the file's mean and scale; the scores against the
// Chebyshev distance computed here.
func TestTrainPredictEval(t *testing.T) {
	dir := ldlDir(t)
	os.WriteFile(filepath.Join(dir, "test.jsonl"), []byte(ldlRows(10, 2, 99)), 0o644)
	m := trainQuick(t, dir, "--loss", "kl+tw")
	pred, targets := filepath.Join(dir, "pred.jsonl"), filepath.Join(dir, "targets.jsonl")
	code, stdout, stderr := twl(t, "", "predict", "--model", m, "--data", filepath.Join(dir, "test.jsonl"),
		"--tree", filepath.Join(dir, "t.tree"), "--out", pred, "--targets", targets)
	if code != 0 || stdout != "" || stderr != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	f := loadModelFile(t, m)
	X := readFeatures(t, filepath.Join(dir, "test.jsonl"))
	P := readDists(t, pred)
	if len(P) != 10 {
		t.Fatalf("%d predictions, want 10", len(P))
	}
	for r, x := range X {
		z := make([]float64, len(f.Labels))
		var s float64
		for j := range z {
			z[j] = f.B[j]
			for k, v := range x {
				z[j] += f.W[j][k] * (v - f.Standardize.Mean[k]) / f.Standardize.Scale[k]
			}
			s += math.Exp(z[j])
		}
		for j, name := range f.Labels {
			if want := math.Exp(z[j]) / s; math.Abs(P[r][name]-want) > 1e-14 {
				t.Errorf("row %d, %s: %v, want %v", r+1, name, P[r][name], want)
			}
		}
	}
	// The targets are the "y" of the data, exactly.
	Y := readTargets(t, filepath.Join(dir, "test.jsonl"))
	if got := readDists(t, targets); len(got) != len(Y) {
		t.Fatalf("%d targets, want %d", len(got), len(Y))
	} else {
		for r := range Y {
			for _, name := range []string{"a", "b", "c"} {
				if got[r][name] != Y[r][name] {
					t.Errorf("target %d, %s: %v, want %v", r+1, name, got[r][name], Y[r][name])
				}
			}
		}
	}
	// Standard output holds the same as --out.
	_, stdout, _ = twl(t, "", "predict", "--model", m, "--data", filepath.Join(dir, "test.jsonl"))
	if data, _ := os.ReadFile(pred); stdout != string(data) {
		t.Errorf("stdout differs from --out")
	}
	// twl eval scores them: chebyshev is the mean of max_i |p_i − t_i|.
	res := evalJSON(t, "", "--tree", filepath.Join(dir, "t.tree"), pred, targets)
	var cheb float64
	for r := range Y {
		var d float64
		for _, name := range []string{"a", "b", "c"} {
			d = math.Max(d, math.Abs(P[r][name]-Y[r][name]))
		}
		cheb += d / float64(len(Y))
	}
	if got := jsonNumber(t, res["chebyshev"]); math.Abs(got-cheb) > 1e-15 {
		t.Errorf("chebyshev %v, want %v", got, cheb)
	}
}

// TestPredictBadInput checks every kind of bad input: exit status 1, a
// message naming the file (and line), nothing written.
func TestPredictBadInput(t *testing.T) {
	dir := ldlDir(t)
	m := trainQuick(t, dir)
	good, _ := os.ReadFile(m)
	files := map[string]string{
		"dim.jsonl":     "\n" + `{"x": [1, 2, 3], "y": {"a": 1}}` + "\n",
		"label.jsonl":   `{"x": [1, 2], "y": {"a": 0.5, "zebra": 0.5}}` + "\n",
		"nan.jsonl":     `{"x": [1, NaN], "y": {"a": 1}}` + "\n",
		"empty.jsonl":   "",
		"noy.jsonl":     `{"x": [1, 2]}` + "\n",
		"mixed.jsonl":   ldlRows(2, 2, 5) + `{"x": [1], "y": {"a": 1}}` + "\n",
		"trunc.model":   string(good[:len(good)*2/3]),
		"data.model":    ldlRows(1, 2, 5),
		"v3.model":      strings.Replace(string(good), `"version": 2`, `"version": 3`, 1),
		"damaged.model": strings.Replace(string(good), `"b": [`, `"b": [1`, 1),
		"shortW.model":  strings.Replace(string(good), `"in": 2`, `"in": 3`, 1),
		"other.tree":    "a\tb\nb\tc\n",
		"test.jsonl":    ldlRows(3, 2, 5),
		"renamed.jsonl": strings.ReplaceAll(ldlRows(3, 2, 5), `"c"`, `"d"`),
		"noy3.jsonl":    ldlRows(2, 2, 5) + `{"x": [1, 2], "id": 3}` + "\n",
		"badid.jsonl":   ldlRows(1, 2, 5) + `{"id": x1, "x": [1, 2]}` + "\n",
		"late.jsonl":    ldlRows(1000, 2, 5) + `{"x": [1, 2], "y": {"a": 1}` + "\n",
	}
	for name, text := range files {
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
	}
	p := func(name string) string { return filepath.Join(dir, name) }
	for _, tc := range []struct {
		name  string
		args  []string
		msg   string
		lined bool // the message has FILE:LINE
	}{
		{"feature dimension", []string{"--model", m, "--data", p("dim.jsonl")}, "dim.jsonl:2: 3 features, the model expects 2", true},
		{"dimension within the file", []string{"--model", m, "--data", p("mixed.jsonl")}, "mixed.jsonl:3: wrong dimension", true},
		{"unknown label", []string{"--model", m, "--data", p("label.jsonl")}, `label.jsonl:1: unknown label: "zebra" is not a label of the model ` + m + " (3 labels)", true},
		{"renamed label", []string{"--model", m, "--data", p("renamed.jsonl")}, `renamed.jsonl:1: unknown label: "d"`, true},
		{"NaN feature", []string{"--model", m, "--data", p("nan.jsonl")}, "nan.jsonl:1: syntax error", true},
		{"no targets", []string{"--model", m, "--data", p("noy.jsonl")}, `noy.jsonl:1: syntax error: no "y" (label distribution); --targets needs a "y" on every line`, true},
		{"no targets on line 3", []string{"--model", m, "--data", p("noy3.jsonl")}, `noy3.jsonl:3: syntax error: no "y" (label distribution); --targets needs a "y" on every line`, true},
		{"bad extra key", []string{"--model", m, "--data", p("badid.jsonl")}, `badid.jsonl:2: syntax error: column 8: want a JSON value`, true},
		{"late error", []string{"--model", m, "--data", p("late.jsonl")}, `late.jsonl:1001: syntax error`, true},
		{"empty data", []string{"--model", m, "--data", p("empty.jsonl")}, "empty.jsonl: no samples", false},
		{"missing data", []string{"--model", m, "--data", p("nope.jsonl")}, "nope.jsonl: no such file", false},
		{"truncated model", []string{"--model", p("trunc.model"), "--data", p("test.jsonl")}, "trunc.model:", true},
		{"data as model", []string{"--model", p("data.model"), "--data", p("test.jsonl")}, `data.model: not a twl model file: no "format"`, false},
		{"model version 3", []string{"--model", p("v3.model"), "--data", p("test.jsonl")}, "v3.model: unsupported model file: version 3; this twl reads versions 1 to 2", false},
		{"damaged model", []string{"--model", p("damaged.model"), "--data", p("test.jsonl")}, `damaged.model: invalid model file: the checksum "sha256" does not match the parameters (a damaged file)`, false},
		{"inconsistent model", []string{"--model", p("shortW.model"), "--data", p("test.jsonl")}, `shortW.model: invalid model file: row 1 of "W" has 2 numbers, want "in" = 3`, false},
		{"missing model", []string{"--model", p("nope.model"), "--data", p("test.jsonl")}, "nope.model: no such file", false},
		{"model is a directory", []string{"--model", dir, "--data", p("test.jsonl")}, dir + ": is a directory, not a file", false},
		{"other tree", []string{"--model", m, "--data", p("test.jsonl"), "--tree", p("other.tree")}, "other.tree is not the tree " + m + " was trained on", false},
		{"star tree", []string{"--model", m, "--data", p("test.jsonl"), "--tree", "star"}, "star is not the tree", false},
		{"chain of 4", []string{"--model", m, "--data", p("test.jsonl"), "--tree", "chain:4"}, "--tree chain:4 has 4 labels, want 3", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, targets := p("out.jsonl"), p("targets.jsonl")
			code, stdout, stderr := twl(t, "", append([]string{"predict", "--out", out, "--targets", targets}, tc.args...)...)
			if code != 1 || stdout != "" || !strings.Contains(stderr, tc.msg) || exists(out) || exists(targets) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and %q, nothing written", code, stdout, stderr, tc.msg)
			}
			if tc.lined && !fileLine.MatchString(stderr) {
				t.Errorf("no FILE:LINE in %q", stderr)
			}
		})
	}
}

func TestPredictUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--data", "d.jsonl"}, "--model is required"},
		{[]string{"--model", "m"}, "--data is required"},
		{[]string{"--model", "-", "--data", "-"}, "only one of --model and --data"},
		{[]string{"--model", "m", "--data", "d", "--targets", "x", "--out", "x"}, "--targets x would overwrite --out x"},
		{[]string{"--model", "m", "--data", "d", "--targets", "./x", "--out", "x"}, "--targets ./x would overwrite --out x"},
		{[]string{"--model", "m", "--data", "d", "--targets", "-"}, "--targets needs a file of its own"},
		{[]string{"--model", "m", "--data", "d", "extra"}, "predict takes no arguments"},
		{[]string{"--model", "m", "--data", "d", "--top", "-1"}, "--top -1: want a positive number"},
		{[]string{"--model", "m", "--data", "d", "--top", "1.5"}, "--top"},
		{[]string{"--model", "m", "--data", "d", "--min-mass", "1.5"}, "--min-mass 1.5: want a mass between 0 and 1"},
		{[]string{"--model", "m", "--data", "d", "--min-mass", "NaN"}, "--min-mass NaN"},
	} {
		code, stdout, stderr := twl(t, "", append([]string{"predict"}, tc.args...)...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, tc.msg) {
			t.Errorf("twl predict %q: exit %d, stderr %q; want exit 2 and %q", tc.args, code, stderr, tc.msg)
		}
	}
}

// TestPredictStdin reads the model from standard input.
func TestPredictStdin(t *testing.T) {
	dir := ldlDir(t)
	m := trainQuick(t, dir)
	model, _ := os.ReadFile(m)
	_, want, _ := twl(t, "", "predict", "--model", m, "--data", filepath.Join(dir, "d.jsonl"))
	code, got, stderr := twl(t, string(model), "predict", "--model", "-", "--data", filepath.Join(dir, "d.jsonl"))
	if code != 0 || got != want || strings.Count(got, "\n") != 30 {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// sharedData returns the path of a data set of ../shared/data/ldl, or skips
// the test when it is absent.
func sharedData(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join("..", "..", "..", "shared", "data", "ldl", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s is absent", p)
	}
	return p
}

// TestMATTrainPredict trains on SJAFFE with a star, and with a tree file
// whose nodes are its labels 0 … 5 in another order under an extra node,
// and predicts with each.
func TestMATTrainPredict(t *testing.T) {
	sj := sharedData(t, "SJAFFE.mat")
	dir := write(t, map[string]string{"face.tree": "face\t5\nface\t3\nface\t4\nface\t0\nface\t1\nface\t2\n"})
	p := func(name string) string { return filepath.Join(dir, name) }
	code, _, stderr := twl(t, "", "train", "--data", sj, "--tree", "star", "--epochs", "2", "--quiet", "--out", p("star.model"))
	if code != 0 {
		t.Fatal(stderr)
	}
	if f := loadModelFile(t, p("star.model")); f.In != 243 || len(f.Labels) != 6 || f.Tree.Source != "star:6" {
		t.Errorf("model: in %d, labels %v, tree %v", f.In, f.Labels, f.Tree)
	}
	code, out, stderr := twl(t, "", "predict", "--model", p("star.model"), "--data", sj, "--tree", "star", "--targets", p("t.jsonl"))
	if code != 0 || strings.Count(out, "\n") != 213 || !strings.HasPrefix(out, `{"0":`) {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := twl(t, "", "predict", "--model", p("star.model"), "--data", sj, "--tree", "chain"); code != 1 || !strings.Contains(stderr, "chain is not the tree") {
		t.Errorf("wrong tree: exit %d, %q", code, stderr)
	}

	code, _, stderr = twl(t, "", "train", "--data", sj, "--tree", p("face.tree"), "--epochs", "2", "--quiet", "--out", p("face.model"))
	if code != 0 {
		t.Fatal(stderr)
	}
	f := loadModelFile(t, p("face.model"))
	if strings.Join(f.Labels, ",") != "face,5,3,4,0,1,2" {
		t.Errorf("labels %v, want the tree's order", f.Labels)
	}
	code, out, stderr = twl(t, "", "predict", "--model", p("face.model"), "--data", sj, "--targets", p("t2.jsonl"))
	if code != 0 || !strings.HasPrefix(out, `{"face":`) {
		t.Fatalf("exit %d, stderr %q, out %.100q", code, stderr, out)
	}
	// The targets are the same distributions, whatever the label order.
	a, b := readDists(t, p("t.jsonl")), readDists(t, p("t2.jsonl"))
	for r := range a {
		for name, v := range a[r] {
			if b[r][name] != v || b[r]["face"] != 0 {
				t.Fatalf("row %d: targets %v and %v", r+1, a[r], b[r])
			}
		}
	}
	// A tree file that lacks a label of the data.
	os.WriteFile(p("bad.tree"), []byte("face\t0\nface\t1\n"), 0o644)
	if code, _, stderr := twl(t, "", "train", "--data", sj, "--tree", p("bad.tree"), "--out", p("x")); code != 1 || !strings.Contains(stderr, `bad.tree: no node "2" for label column 2`) {
		t.Errorf("exit %d, %q", code, stderr)
	}
	// Another data set: wrong feature dimension, and labels the model lacks.
	if ya := sharedData(t, "Yeast_alpha.mat"); ya != "" {
		code, _, stderr := twl(t, "", "predict", "--model", p("star.model"), "--data", ya)
		if code != 1 || !strings.Contains(stderr, "is not a label of the model") {
			t.Errorf("exit %d, %q", code, stderr)
		}
	}
}

// predictModel writes a model of L labels ("0" … "L−1", a star) and d
// features with random weights to dir/r.model, with a standardization if
// std, and returns its path and the model. Labels 1, 2, 3 and 7 have the
// weights and bias of label 0, so that every prediction has equal masses,
// often the largest.
func predictModel(t *testing.T, dir string, L, d int, std bool, seed uint64) (string, *model.File) {
	t.Helper()
	m := model.NewLinear(d, L, rand.NewPCG(seed, 1))
	w := m.W()
	for i := range w {
		w[i] *= 6 // predictions far from uniform
	}
	m.B()[0] += 2 // often the most probable
	for _, j := range []int{1, 2, 3, 7} {
		copy(w[j*d:(j+1)*d], w[:d])
		m.B()[j] = m.B()[0]
	}
	tr := tree.Star(L)
	f := model.NewFile(m, tr.Names())
	f.Tree = tree.RefOf(tr, fmt.Sprintf("star:%d", L))
	f.Loss = "kl"
	if std {
		rng := rand.New(rand.NewPCG(seed, 2))
		f.Standardize = &model.Standardization{Mean: make([]float64, d), Scale: make([]float64, d)}
		for k := range d {
			f.Standardize.Mean[k], f.Standardize.Scale[k] = rng.NormFloat64(), 0.5+rng.Float64()
		}
	}
	var b bytes.Buffer
	if err := model.Save(&b, f); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "r.model")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, loadModelFile(t, path) // as predict reads it
}

// predictRows returns n rows of d random features as JSON Lines, and the
// features. Rows alternate between an "id" and no "y", a "y" of labels of
// a star of L labels, and both.
func predictRows(n, d, L int, seed uint64) (string, []float64) {
	rng := rand.New(rand.NewPCG(seed, 3))
	var b strings.Builder
	X := make([]float64, n*d)
	for i := range n {
		x := X[i*d : (i+1)*d]
		for k := range x {
			x[k] = rng.NormFloat64()
		}
		xs, _ := json.Marshal(x)
		y := fmt.Sprintf(`{"%d": 0.25, "%d": 0.75}`, rng.IntN(L), rng.IntN(L))
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, `{"id": "s%d", "x": %s}`+"\n", i, xs)
		case 1:
			fmt.Fprintf(&b, `{"x": %s, "y": %s}`+"\n", xs, y)
		default:
			fmt.Fprintf(&b, `{"y": %s, "x": %s, "id": [%d, {"n": null}]}`+"\n", y, xs, i)
		}
	}
	return b.String(), X
}

// TestPredictStreamsAsWhole checks that predicting batch by batch writes
// exactly what the whole-batch computation wrote before streaming:
// model.File.Predict on all rows at once, formatted by labeldist.Write.
// Batches of 6 rows and of all rows; data with and without "y" and with
// other keys; models with and without standardization.
func TestPredictStreamsAsWhole(t *testing.T) {
	const n, d, L = 101, 7, 300
	dir := t.TempDir()
	rows, X := predictRows(n, d, L, 1)
	data := filepath.Join(dir, "d.jsonl")
	os.WriteFile(data, []byte(rows), 0o644)
	for _, std := range []bool{false, true} {
		m, f := predictModel(t, dir, L, d, std, 2)
		P := make([]float64, n*L)
		f.Predict(P, X)
		var want bytes.Buffer
		if err := labeldist.Write(&want, f.LabelTree(), P); err != nil {
			t.Fatal(err)
		}
		for _, batchBytes := range []int{8 * L * 6, 8 * L * 7, predictBatchBytes} {
			saved := predictBatchBytes
			predictBatchBytes = batchBytes
			out := filepath.Join(dir, "p.jsonl")
			code, stdout, stderr := twl(t, "", "predict", "--model", m, "--data", data)
			code2, _, stderr2 := twl(t, "", "predict", "--model", m, "--data", data, "--out", out)
			predictBatchBytes = saved
			got, _ := os.ReadFile(out)
			if code != 0 || code2 != 0 || stderr != "" || stderr2 != "" {
				t.Fatalf("exit %d, %d: %s%s", code, code2, stderr, stderr2)
			}
			if stdout != want.String() || string(got) != want.String() {
				t.Errorf("standardize %v, batch %d bytes: the output differs from the whole-batch prediction", std, batchBytes)
			}
		}
	}
}

// TestPredictTopMinMass checks --top and --min-mass against the full
// predictions: the labels kept and their order, by a sort written here.
func TestPredictTopMinMass(t *testing.T) {
	const n, d, L = 40, 5, 50
	dir := t.TempDir()
	rows, _ := predictRows(n, d, L, 3)
	data := filepath.Join(dir, "d.jsonl")
	os.WriteFile(data, []byte(rows), 0o644)
	m, _ := predictModel(t, dir, L, d, true, 4)
	code, full, stderr := twl(t, "", "predict", "--model", m, "--data", data)
	if code != 0 {
		t.Fatal(stderr)
	}
	P := readDistsString(t, full)
	ties := 0
	for _, tc := range []struct {
		top     int
		minMass float64
	}{{1, 0}, {5, 0}, {L, 0}, {2 * L, 0}, {0, 0.01}, {3, 0.02}, {0, 1}} {
		args := []string{"predict", "--model", m, "--data", data}
		if tc.top > 0 {
			args = append(args, "--top", strconv.Itoa(tc.top))
		}
		if tc.minMass > 0 {
			args = append(args, "--min-mass", strconv.FormatFloat(tc.minMass, 'g', -1, 64))
		}
		code, out, stderr := twl(t, "", args...)
		// --min-mass 1 leaves every row empty, with a warning.
		wantWarn := ""
		if tc.minMass == 1 {
			wantWarn = fmt.Sprintf("--min-mass 1 leaves %d rows without a label (written as {}), first %s:1;", n, data)
		}
		if code != 0 || wantWarn == "" && stderr != "" || !strings.Contains(stderr, wantWarn) {
			t.Fatalf("%q: exit %d, stderr %q, want %q", args, code, stderr, wantWarn)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != n {
			t.Fatalf("%q: %d lines", args, len(lines))
		}
		for r, line := range lines {
			// The expected labels: those of mass ≥ minMass, by decreasing
			// mass and then label, the first top; all in label order
			// without --top.
			var keep []int
			for j := range L {
				if v := P[r][strconv.Itoa(j)]; v > 0 && v >= tc.minMass {
					keep = append(keep, j)
				}
			}
			if tc.top > 0 {
				sort.SliceStable(keep, func(a, b int) bool {
					return P[r][strconv.Itoa(keep[a])] > P[r][strconv.Itoa(keep[b])]
				})
				keep = keep[:min(tc.top, len(keep))]
				for k := 1; k < len(keep); k++ {
					if P[r][strconv.Itoa(keep[k-1])] == P[r][strconv.Itoa(keep[k])] {
						ties++
					}
				}
			}
			want := "{"
			for k, j := range keep {
				if k > 0 {
					want += ","
				}
				want += fmt.Sprintf("%q:%s", strconv.Itoa(j), strconv.FormatFloat(P[r][strconv.Itoa(j)], 'g', -1, 64))
			}
			want += "}"
			if line != want {
				t.Errorf("%q, row %d:\n%s\nwant\n%s", args[5:], r+1, line, want)
			}
		}
	}
	if ties == 0 {
		t.Error("no row had equal masses at the top: the ties are not tested")
	}
	// The truncated rows are read by twl eval with --normalize.
	os.WriteFile(filepath.Join(dir, "top.jsonl"), []byte(mustPredict(t, "--model", m, "--data", data, "--top", "3")), 0o644)
	if code, _, stderr := twl(t, "", "eval", "--tree", "star:50", "--normalize", filepath.Join(dir, "top.jsonl"), filepath.Join(dir, "top.jsonl")); code != 0 {
		t.Errorf("eval --normalize: exit %d, %s", code, stderr)
	}
}

func mustPredict(t *testing.T, args ...string) string {
	t.Helper()
	code, out, stderr := twl(t, "", append([]string{"predict"}, args...)...)
	if code != 0 {
		t.Fatalf("predict %q: exit %d, %s", args, code, stderr)
	}
	return out
}

// readDistsString reads JSON Lines of {"label": mass} objects.
func readDistsString(t *testing.T, s string) []map[string]float64 {
	t.Helper()
	var out []map[string]float64
	for _, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		var m map[string]float64
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// TestPredictXOnly predicts rows that have only "x" (and an "id"): the
// predictions are those of the same features in training rows.
func TestPredictXOnly(t *testing.T) {
	dir := ldlDir(t)
	m := trainQuick(t, dir)
	train := ldlRows(10, 2, 5)
	var xonly strings.Builder
	for i, line := range strings.Split(strings.TrimSpace(train), "\n") {
		x, _, _ := strings.Cut(strings.TrimPrefix(line, "{"), `, "y"`)
		fmt.Fprintf(&xonly, `{"id": %d, %s}`+"\n", i, x)
	}
	os.WriteFile(filepath.Join(dir, "train.jsonl"), []byte(train), 0o644)
	os.WriteFile(filepath.Join(dir, "x.jsonl"), []byte(xonly.String()), 0o644)
	want := mustPredict(t, "--model", m, "--data", filepath.Join(dir, "train.jsonl"))
	if got := mustPredict(t, "--model", m, "--data", filepath.Join(dir, "x.jsonl")); got != want || strings.Count(got, "\n") != 10 {
		t.Errorf("x only:\n%s\nwant\n%s", got, want)
	}
	// Standard input, and a "y" of labels the model does not have, which is
	// not read without --targets.
	other := strings.ReplaceAll(train, `"a"`, `"zebra"`)
	code, got, stderr := twl(t, other, "predict", "--model", m, "--data", "-")
	if code != 0 || got != want {
		t.Errorf("ignored y: exit %d, %s", code, stderr)
	}
	// --targets needs every "y".
	code, got, stderr = twl(t, "", "predict", "--model", m, "--data", filepath.Join(dir, "x.jsonl"), "--targets", filepath.Join(dir, "t.jsonl"))
	if code != 1 || got != "" || !strings.Contains(stderr, "x.jsonl:1: syntax error: no \"y\"") || exists(filepath.Join(dir, "t.jsonl")) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, got, stderr)
	}
}

// TestPredictStopped cancels the run as SIGINT does: exit status 130, and
// no output file.
func TestPredictStopped(t *testing.T) {
	dir := ldlDir(t)
	m := trainQuick(t, dir)
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(&stopSignal{syscall.SIGINT})
	out, targets := filepath.Join(dir, "p.jsonl"), filepath.Join(dir, "t.jsonl")
	var stdout, stderr bytes.Buffer
	code := runContext(ctx, []string{"predict", "--model", m, "--data", filepath.Join(dir, "d.jsonl"), "--out", out, "--targets", targets},
		strings.NewReader(""), &stdout, &stderr)
	if code != 130 || exists(out) || exists(targets) || !strings.Contains(stderr.String(), "stopped by SIGINT") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 { // t.tree, d.jsonl, m.model
		t.Errorf("files left: %v", entries)
	}
}
