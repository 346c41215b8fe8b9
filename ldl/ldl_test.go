package ldl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/metric"
	"github.com/twl-ldl/twl/train"
	"github.com/twl-ldl/twl/tree"
)

// writeData writes n rows of JSON Lines over the labels a, b, c (a tree
// file t.tree, a the root) with d features, y = softmax(A·x + c), and
// returns the directory.
func writeData(t testing.TB, n, d int, seed uint64) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	for range n {
		x := make([]string, d)
		z := []float64{0.2, -0.1, 0}
		for k := range x {
			v := 10*float64(k+1) + float64(k+1)*rng.NormFloat64()
			x[k] = fmt.Sprint(v)
			u := (v - 10*float64(k+1)) / float64(k+1)
			z[0] += 0.8 * u
			z[1] -= 0.5 * u * float64(k%2*2-1)
		}
		var s float64
		for _, v := range z {
			s += math.Exp(v)
		}
		fmt.Fprintf(&b, `{"x": [%s], "y": {"a": %v, "b": %v, "c": %v}}`+"\n", strings.Join(x, ","),
			math.Exp(z[0])/s, math.Exp(z[1])/s, math.Exp(z[2])/s)
	}
	dir := t.TempDir()
	for name, data := range map[string]string{"t.tree": "a\tb\na\tc\n", "d.jsonl": b.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func load(t testing.TB, n, d int) *Data {
	t.Helper()
	dir := writeData(t, n, d, 1)
	data, err := Load(context.Background(), filepath.Join(dir, "d.jsonl"), filepath.Join(dir, "t.tree"), nil)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestOpenTree(t *testing.T) {
	for _, tc := range []struct {
		spec   string
		labels int
		want   string // the source, or the error's kind
	}{
		{"chain", 4, "chain:4"},
		{"star:5", 5, "star:5"},
		{"star:5", 0, "star:5"},
		{"chain", 0, "ErrLabelCount"},
		{"star", 0, "ErrLabelCount"},
		{"chain:x", 0, "ErrSpec"},
		{"chain:5", 4, "TreeSizeError"},
	} {
		_, src, err := OpenTree(tc.spec, tc.labels, nil)
		var se *TreeSizeError
		var got string
		switch {
		case errors.Is(err, ErrLabelCount):
			got = "ErrLabelCount"
		case errors.Is(err, tree.ErrSpec):
			got = "ErrSpec"
		case errors.As(err, &se):
			got = "TreeSizeError"
		case err != nil:
			got = err.Error()
		default:
			got = src
		}
		if got != tc.want {
			t.Errorf("OpenTree(%q, %d): %s, want %s", tc.spec, tc.labels, got, tc.want)
		}
	}
}

func TestOptions(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   Options
		lambda float64 // the λ resolved; NaN: an error
	}{
		{"default", Options{}, 1},
		{"name", Options{Loss: "kl+0.5tw"}, 0.5},
		{"field", Options{Loss: "kl+tw", Lambda: 2}, 2},
		{"zero", Options{Loss: "kl+tw", Lambda: -1}, 0},
		{"both", Options{Loss: "kl+0.5tw", Lambda: 2}, math.NaN()},
		{"unknown loss", Options{Loss: "kl+x"}, math.NaN()},
		{"patience without val", Options{Patience: 3}, math.NaN()},
		{"val 1", Options{Val: 1}, math.NaN()},
		{"negative epochs", Options{Epochs: -1}, math.NaN()},
	} {
		s, err := tc.opts.resolve()
		switch {
		case math.IsNaN(tc.lambda) && err == nil:
			t.Errorf("%s: no error", tc.name)
		case !math.IsNaN(tc.lambda) && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case err == nil && s.lambda != tc.lambda:
			t.Errorf("%s: λ %v, want %v", tc.name, s.lambda, tc.lambda)
		}
	}
	s, _ := (&Options{}).resolve()
	if s.Epochs != DefaultEpochs || s.Batch != DefaultBatch || s.LR != DefaultLR || s.decay != DefaultWeightDecay ||
		s.SinkhornReg != DefaultSinkhornReg || s.SinkhornIters != DefaultIters || s.Raw {
		t.Errorf("the zero Options resolve to %+v", s)
	}
	if s, _ := (&Options{WeightDecay: -1}).resolve(); s.decay != 0 {
		t.Errorf("WeightDecay −1: decay %v, want 0", s.decay)
	}
	d := load(t, 10, 2)
	if _, _, err := Fit(context.Background(), d, &Options{Loss: "kl+tsw"}); err == nil {
		t.Error("kl+tsw without Trees: no error")
	}
}

// TestFitErrors: a validation split with an empty part, and runs that
// diverge, are errors of their own kinds, with no model.
func TestFitErrors(t *testing.T) {
	d := load(t, 3, 2)
	var se *SplitError
	if f, _, err := Fit(context.Background(), d, &Options{Val: 0.1}); !errors.As(err, &se) || f != nil || se.Rows != 3 || se.ValRows != 0 {
		t.Errorf("Val 0.1 of 3 rows: %v, %v; want a SplitError", f, err)
	}
	d = load(t, 40, 2)
	f, _, err := Fit(context.Background(), d, &Options{LR: 1e10, Epochs: 3})
	if f != nil || !(errors.Is(err, ErrDiverged) || errors.Is(err, train.ErrDiverged)) {
		t.Errorf("LR 1e10: %v, %v; want a divergence", f, err)
	}
}

// TestFitDoesNotModify: Fit standardizes a copy of the features.
func TestFitDoesNotModify(t *testing.T) {
	d := load(t, 30, 2)
	x := slices.Clone(d.X.RawMatrix().Data)
	y := slices.Clone(d.Y.Mass)
	f, h, err := Fit(context.Background(), d, &Options{Epochs: 2, Val: 0.2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(x, d.X.RawMatrix().Data) || !slices.Equal(y, d.Y.Mass) {
		t.Error("Fit modified the data")
	}
	if f.Train.Rows+f.Train.ValRows != 30 || f.Train.ValRows == 0 || len(h.Epochs) != 2 || f.Standardize == nil {
		t.Errorf("train info %+v, %d epochs", f.Train, len(h.Epochs))
	}
}

// TestCrossValidateJobs: the result does not depend on the number of jobs.
func TestCrossValidateJobs(t *testing.T) {
	d := load(t, 40, 2)
	var want *CVResult
	for _, jobs := range []int{1, 2, 3} {
		calls := 0
		res, err := CrossValidate(context.Background(), d, &Options{Loss: "kl+tw", Epochs: 2, Seed: 5},
			&CVOptions{Folds: 4, Repeats: 2, Jobs: jobs, Progress: func(FoldScore) { calls++ }})
		if err != nil {
			t.Fatal(err)
		}
		if calls != 8 || len(res.Means["chebyshev"]) != 8 {
			t.Errorf("jobs %d: %d progress calls, %d folds; want 8", jobs, calls, len(res.Means["chebyshev"]))
		}
		if want == nil {
			want = res
			continue
		}
		for _, name := range metric.Names {
			if !slices.Equal(res.Means[name], want.Means[name]) || res.Summary[name] != want.Summary[name] {
				t.Errorf("jobs %d: %s %v, with 1 job %v", jobs, name, res.Means[name], want.Means[name])
			}
		}
	}
	if _, err := CrossValidate(context.Background(), d, &Options{LR: 1e10, Epochs: 2}, &CVOptions{Folds: 2, Repeats: 1}); err == nil {
		t.Error("a diverging fold: no error")
	} else if fe := (*FoldError)(nil); !errors.As(err, &fe) || fe.Repeat != 1 {
		t.Errorf("a diverging fold: %v, want a FoldError", err)
	}
}

// countingCtx is a context that counts the calls of its Err and reports
// itself cancelled from call number at on (never if at is 0).
type countingCtx struct {
	context.Context
	calls, at atomic.Int64
}

func (c *countingCtx) Err() error {
	if n := c.calls.Add(1); c.at.Load() > 0 && n >= c.at.Load() {
		return context.Canceled
	}
	return nil
}

// TestFoldStopsWhileScoring: a fold checks the context once per
// mini-batch of training and once per batch of 256 test rows it predicts
// and scores, so a cancellation that comes once the model is trained stops
// the scoring at the next batch.
func TestFoldStopsWhileScoring(t *testing.T) {
	d := load(t, 340, 2)
	test := make([]int, 300) // 2 scoring batches; 40 rows to train on
	for i := range test {
		test[i] = i
	}
	s, err := (&Options{Epochs: 2, Batch: 20, Seed: 1}).resolve()
	if err != nil {
		t.Fatal(err)
	}
	ev := metric.NewEvaluator(d.Tree, nil)
	ctx := &countingCtx{Context: context.Background()}
	cv := &crossValidation{d: d, s: &s, folds: 2, repeats: 1, ctx: ctx}
	if _, err := cv.fold(ev, test, 1); err != nil {
		t.Fatal(err)
	}
	// 2 epochs × 2 mini-batches of training, then 2 batches of scoring.
	if got := ctx.calls.Load(); got != 2*2+2 {
		t.Fatalf("a fold checked the context %d times, want 6", got)
	}
	// Cancelled after the first scoring batch.
	ctx = &countingCtx{Context: context.Background()}
	ctx.at.Store(6)
	cv.ctx = ctx
	res, err := cv.fold(ev, test, 1)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "stopped while scoring") || res != nil {
		t.Errorf("cancelled while scoring: %v, %v; want context.Canceled", res, err)
	}
}

func TestSelectLabels(t *testing.T) {
	row := []float64{0.1, 0.3, 0, 0.3, 0.05, 0.25}
	for _, tc := range []struct {
		top     int
		minMass float64
		want    []int
	}{
		{0, 0, []int{0, 1, 3, 4, 5}}, // label order, zero masses left out
		{0, 0.1, []int{0, 1, 3, 5}},
		{2, 0, []int{1, 3}}, // equal masses in label order
		{3, 0, []int{1, 3, 5}},
		{10, 0, []int{1, 3, 5, 0, 4}},
		{10, 0.2, []int{1, 3, 5}},
		{1, 0.5, nil},
	} {
		got := SelectLabels([]int{-1}, row, tc.top, tc.minMass)
		if !slices.Equal(got, append([]int{-1}, tc.want...)) {
			t.Errorf("top %d, min mass %v: %v, want [-1] + %v", tc.top, tc.minMass, got, tc.want)
		}
	}
}

// TestPredictor: a Predictor writes what model.File.Predict computes, bit
// for bit, whatever its batch size; with Top and MinMass the labels that
// SelectLabels keeps.
func TestPredictor(t *testing.T) {
	d := load(t, 25, 2)
	f, _, err := Fit(context.Background(), d, &Options{Epochs: 2, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	n, in := d.X.Dims()
	L := len(f.Labels)
	P := make([]float64, n*L)
	f.Predict(P, d.X.RawMatrix().Data)
	var want []byte
	for r := range n {
		want, _ = labeldist.AppendFormat(want, f.LabelTree(), P[r*L:(r+1)*L])
		want = append(want, '\n')
	}
	for _, batchBytes := range []int{8 * L * 2, 8 * L * 7, 0} {
		var buf bytes.Buffer
		batches := 0
		p := NewPredictor(&buf, f, &PredictOptions{BatchBytes: batchBytes, AfterBatch: func(int) error { batches++; return nil }})
		for r := range n {
			if err := p.Add(d.X.RawRowView(r)[:in], fmt.Sprint(r)); err != nil {
				t.Fatal(err)
			}
		}
		if err := p.Flush(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), want) || p.Rows() != n {
			t.Errorf("batch bytes %d: the predictions differ from File.Predict's", batchBytes)
		}
		if batches < 1 {
			t.Errorf("batch bytes %d: AfterBatch not called", batchBytes)
		}
	}
	var buf bytes.Buffer
	p := NewPredictor(&buf, f, &PredictOptions{Top: 1, MinMass: 0.99})
	for r := range n {
		p.Add(d.X.RawRowView(r), fmt.Sprintf("row %d", r+1))
	}
	p.Flush()
	if empty, first := p.Empty(); empty != n || first != "row 1" || strings.Count(buf.String(), "{}\n") != n {
		t.Errorf("MinMass 0.99: %d empty rows, first %q; output %q", empty, first, buf.String())
	}
}

// TestLoadRowSizes checks Load, which reserves memory for the rows it
// expects from the file's size and its first lines, on files whose lines
// differ wildly in size (short lines first, then long ones, so the first
// estimate is far too low; long first, then short; blank lines; no final
// line end): the rows must be those of dataset.ReadJSONLFile, which reads
// the whole file into dense matrices without Load's reservations, and the
// features as written.
func TestLoadRowSizes(t *testing.T) {
	dir := t.TempDir()
	const L = 300
	var tb strings.Builder
	for j := 1; j < L; j++ {
		fmt.Fprintf(&tb, "%d\t%d\n", (j-1)/3, j)
	}
	treePath := filepath.Join(dir, "t.tree")
	if err := os.WriteFile(treePath, []byte(tb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := tree.ReadFile(treePath, nil)
	if err != nil {
		t.Fatal(err)
	}
	line := func(b *strings.Builder, r, labels int) {
		fmt.Fprintf(b, `{"x": [%d, %d], "y": {`, r, -r)
		for j := range labels {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(b, `"%d": %d`, (r+j)%L, j+1)
		}
		b.WriteString("}}")
	}
	for name, sizes := range map[string][]int{
		"short then long": append(slices.Repeat([]int{1}, 50), slices.Repeat([]int{L}, 400)...),
		"long then short": append(slices.Repeat([]int{L}, 30), slices.Repeat([]int{1}, 3000)...),
		"one":             {5},
	} {
		var b strings.Builder
		for r, k := range sizes {
			if r > 0 {
				b.WriteString("\n")
				if r%7 == 0 {
					b.WriteString("\n  \n")
				}
			}
			line(&b, r, k)
		}
		path := filepath.Join(dir, "data.jsonl")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := Load(context.Background(), path, treePath, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ds, _, err := dataset.ReadJSONLFile(path, tr, nil)
		if err != nil {
			t.Fatalf("%s: dataset: %v", name, err)
		}
		if d.Len() != len(sizes) || ds.Len() != len(sizes) {
			t.Fatalf("%s: %d rows, dataset.ReadJSONLFile %d, want %d", name, d.Len(), ds.Len(), len(sizes))
		}
		row := make([]float64, L)
		for r := range sizes {
			d.Y.Dense(row, r)
			if !slices.Equal(row, ds.Y.RawRowView(r)) {
				t.Fatalf("%s: row %d differs from dataset.ReadJSONLFile's", name, r)
			}
		}
		for r := range sizes {
			if d.X.At(r, 0) != float64(r) || d.X.At(r, 1) != -float64(r) {
				t.Fatalf("%s: row %d features %v", name, r, d.X.RawRowView(r))
			}
		}
	}
}
