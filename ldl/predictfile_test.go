package ldl

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/labeldist"
)

// TestPredictJSONL: the predictions of a JSON Lines file are what
// model.File.Predict computes for its features, and its targets are its
// "y" rows as labeldist.AppendFormat writes the dense rows Load read.
func TestPredictJSONL(t *testing.T) {
	dir := writeData(t, 12, 2, 1)
	path := filepath.Join(dir, "d.jsonl")
	d, err := Load(context.Background(), path, filepath.Join(dir, "t.tree"), nil)
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := Fit(context.Background(), d, &Options{Epochs: 1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	n, _ := d.X.Dims()
	L := len(f.Labels)
	P := make([]float64, n*L)
	f.Predict(P, d.X.RawMatrix().Data)
	var wantP, wantY []byte
	y := make([]float64, L)
	for r := range n {
		wantP, _ = labeldist.AppendFormat(wantP, f.LabelTree(), P[r*L:(r+1)*L])
		wantP = append(wantP, '\n')
		d.Y.Dense(y, r)
		wantY, _ = labeldist.AppendFormat(wantY, f.LabelTree(), y)
		wantY = append(wantY, '\n')
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var pred, targets bytes.Buffer
	reported := false
	err = NewPredictor(&pred, f, nil).PredictJSONL(bytes.NewReader(data), "d.jsonl",
		&FileOptions{Targets: &targets, Model: "m.json", Report: func(dataset.Report) { reported = true }})
	if err != nil {
		t.Fatal(err)
	}
	if pred.String() != string(wantP) || targets.String() != string(wantY) || !reported {
		t.Errorf("predictions or targets differ:\n%s\n%s", pred.String(), targets.String())
	}

	// A sample of another dimension, and a target without "y".
	for _, c := range []struct{ in, want string }{
		{`{"x": [1, 2, 3]}`, "in.jsonl:1: 3 features, the model expects 2"},
		{`{"x": [1, 2]}`, `in.jsonl:1: syntax error: no "y" (label distribution); --targets needs a "y" on every line`},
	} {
		err := NewPredictor(&pred, f, nil).PredictJSONL(strings.NewReader(c.in), "in.jsonl", &FileOptions{Targets: &targets})
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: err = %v, want %s", c.in, err, c.want)
		}
	}
}
