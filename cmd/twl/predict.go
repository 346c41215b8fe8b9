package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/model"
	"github.com/twl-ldl/twl/tree"
)

const predictAbout = `
Predict writes the label distribution a model predicts for every sample of
DATA: JSON Lines, one object {"label": mass, ...} per sample in the order of
DATA, labels in the model's order, zero masses omitted, numbers in the
shortest form that reads back to the same float64. The output pairs line by
line with the targets for 'twl eval'.

MODEL is a file written by 'twl train'. DATA is JSON Lines, one sample
{"x": [...]} per line, or a .mat file. The lines may be training data: a
"y" is optional and ignored, and other keys, such as "id", are skipped. The
features must have the model's dimension; the model's standardization is
applied to them. A .mat file holds "features" and "labels", whose labels
0 … c−1 must be labels of the model.

--targets FILE also writes the targets of DATA to FILE, in the format of
the predictions, for 'twl eval': then every line must have a "y" whose
labels are labels of the model (a .mat file always has them).

--top K writes only the K most probable labels of each sample, in
decreasing mass (equal masses in the model's label order); --min-mass P
leaves out the labels whose mass is below P; together, at most K labels of
mass P or more. Such rows no longer sum to 1: 'twl eval' and 'twl
distance' then need --normalize, which rescales every row to sum 1. A row
whose every mass is below P is written as {}, which they refuse: predict
warns with the number of such rows and the first.

Samples are read, predicted and written in batches, so memory holds the
model and one batch of rows, however many samples DATA has. A run longer
than a few seconds shows its progress on standard error.

--tree checks that TREE (a file, or chain, star, chain:N, star:N as for
train; chain and star have the model's number of labels) is the tree the
model was trained on, by the SHA-256 of its edge list: a different tree is
an error.

An error in the input is reported as FILE:LINE: what is wrong, with exit
status 1, and nothing is written: --out and --targets are written all or
nothing, and standard output is held back for its first 64 MiB, so that an
error before then leaves it empty. SIGINT or SIGTERM stops the run (exit
status 130 or 143) and leaves no output file.`

const predictExamples = `  # Predict, then score the predictions against the targets.
  twl train --data train.jsonl --tree genres.tree --loss kl+tw --out books.model
  twl predict --model books.model --data test.jsonl --out pred.jsonl --targets targets.jsonl
  twl eval --tree genres.tree pred.jsonl targets.jsonl

  # New samples, {"id": ..., "x": [...]} on each line: the 5 most probable
  # labels of each, and the labels of mass 0.01 or more.
  twl predict --model books.model --data new.jsonl --top 5 > top5.jsonl
  twl predict --model books.model --data new.jsonl --min-mass 0.01 --out likely.jsonl

  # Scoring truncated predictions: rescale the rows to sum 1.
  twl predict --model books.model --data test.jsonl --top 20 --out top20.jsonl --targets targets.jsonl
  twl eval --tree genres.tree --normalize top20.jsonl targets.jsonl

  # A .mat data set, checking the tree.
  twl predict --model sjaffe.model --data SJAFFE.mat --tree star > pred.jsonl`

func runPredict(e *env, args []string) error {
	fs := newFlags("predict", "twl predict --model MODEL --data DATA [flags]", predictAbout, predictExamples)
	modelPath := fs.String("model", "", "the model `FILE` written by twl train (required)")
	dataPath := fs.String("data", "", "the samples, a JSON Lines or .mat `FILE` ('-': JSON Lines on standard input) (required)")
	treeSpec := fs.String("tree", "", "check that the model was trained on this `TREE`")
	out := fs.String("out", "", "write the predictions to `FILE`, all or nothing, instead of standard output")
	targets := fs.String("targets", "", "also write the targets (\"y\", required on every line) of DATA to `FILE`, as distributions for twl eval")
	top := fs.Int("top", 0, "write only the `K` most probable labels of each sample, in decreasing mass; 0: all (rows then need --normalize in eval and distance)")
	minMass := fs.Float64("min-mass", 0, "leave out labels of mass below `P` (rows then need --normalize in eval and distance)")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 0:
		return fs.fail("predict takes no arguments; give the data with --data")
	case *modelPath == "":
		return fs.fail("--model is required")
	case *dataPath == "":
		return fs.fail("--data is required")
	case *targets != "" && (*targets == "-" || sameFile(*targets, *out)):
		return fs.fail("--targets needs a file of its own, not --out's")
	case *modelPath == "-" && *dataPath == "-":
		return fs.fail("only one of --model and --data can be standard input ('-')")
	case *top < 0:
		return fs.fail("--top %d: want a positive number of labels (0: all)", *top)
	case !(*minMass >= 0 && *minMass <= 1):
		return fs.fail("--min-mass %v: want a mass between 0 and 1", *minMass)
	}

	if err := checkNotInput(fs, map[string]string{"out": *out, "targets": *targets},
		map[string]string{"--model": *modelPath, "--data": *dataPath, "--tree": *treeSpec}); err != nil {
		return err
	}
	// The outputs are created first, so that an unwritable one is found
	// before any work; they are published only when every row is written.
	predOut, err := e.create(*out)
	if err != nil {
		return err
	}
	defer predOut.Abort()
	var targetOut *stream
	if *targets != "" {
		if targetOut, err = e.create(*targets); err != nil {
			return err
		}
		defer targetOut.Abort()
	}

	f, err := loadModel(e, *modelPath)
	if err != nil {
		return err
	}
	if *treeSpec != "" {
		t, _, err := resolveTree(fs, *treeSpec, len(f.Labels))
		if err != nil {
			return err
		}
		if h := t.Hash(); h != f.Tree.SHA256 {
			return fmt.Errorf("%s is not the tree %s was trained on (%s): SHA-256 %.12s…, the model's %.12s…",
				*treeSpec, *modelPath, f.Tree.Source, h, f.Tree.SHA256)
		}
	}

	p := newPredictor(f, *top, *minMass)
	p.out, p.targets = predOut, targetOut
	p.progress = newProgress(e.stderr, "twl predict", "rows")
	p.stopped = e.stopped
	if *dataPath != "-" && isMAT(*dataPath) {
		err = p.predictMAT(e, fs, *dataPath, *modelPath)
	} else {
		err = p.predictJSONL(e, fs, *dataPath, *modelPath)
	}
	if err != nil {
		return err
	}
	p.progress.done(p.done)
	if p.empty > 0 {
		fmt.Fprintf(e.stderr, "twl predict: warning: --min-mass %g leaves %s without a label (written as {}), first %s; eval and distance refuse such rows, even with --normalize\n",
			p.minMass, plural(p.empty, "row"), p.first)
	}
	if targetOut != nil {
		if err := targetOut.Commit(); err != nil {
			return err
		}
	}
	return predOut.Commit()
}

// loadModel reads and validates the model file at path ('-': standard
// input).
func loadModel(e *env, path string) (*model.File, error) {
	r, name, err := e.open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return model.Load(r, name)
}

// predictBatchBytes bounds the memory of one batch of predictions
// (rows × labels × 8 bytes): batches have 256 rows, fewer when the model
// has many labels (40 rows at 10^5 labels, 2 at 10^7). Tests lower it.
var predictBatchBytes = 32 << 20

// predictor predicts and writes the samples of a data set one batch at a
// time, in buffers it reuses: its memory is that of the model and of one
// batch, whatever the number of samples.
type predictor struct {
	m       *model.Linear          // the model's parameters, W·z + b
	std     *model.Standardization // nil: features used as they are
	labels  *tree.Tree             // the model's labels, for labeldist
	names   []string               // the model's labels
	keys    [][]byte               // keys[j]: `"name":` of label j, made when first used
	in, L   int                    // features, labels
	batch   int                    // rows a batch holds
	top     int                    // labels written per row, 0 for all
	minMass float64                // labels of smaller mass are left out

	x     []float64 // the batch's features, batch×in, standardized in place
	pr    []float64 // its predictions, batch×L
	where []string  // where each row of the batch is, for messages: "FILE:LINE"
	rows  int       // rows in the batch
	done  int       // rows written
	line  []byte    // the output line being formatted
	heap  []int     // labels chosen for --top
	empty int       // rows that --min-mass left without a label
	first string    // the first of them, "FILE:LINE"

	out, targets *stream // targets nil without --targets
	progress     *progress
	stopped      func() error
}

func newPredictor(f *model.File, top int, minMass float64) *predictor {
	L := len(f.Labels)
	batch := min(256, max(2, predictBatchBytes/(8*L)))
	batch &^= 1 // even, so that the kernels pair rows as in one batch of all rows
	p := &predictor{
		m: f.Linear(), std: f.Standardize, labels: f.LabelTree(), names: f.Labels,
		in: f.In, L: L, batch: batch, top: top, minMass: minMass,
	}
	p.keys = make([][]byte, L)
	p.x = make([]float64, batch*f.In)
	p.pr = make([]float64, batch*L)
	p.where = make([]string, batch)
	return p
}

// add appends a sample's features to the batch, predicting and writing the
// batch when it is full. where locates the sample for messages.
func (p *predictor) add(x []float64, where string) error {
	copy(p.x[p.rows*p.in:], x)
	p.where[p.rows] = where
	p.rows++
	if p.rows < p.batch {
		return nil
	}
	return p.flush()
}

// flush predicts and writes the rows of the batch. It computes what
// model.File.Predict computes, row for row, bit for bit: the standardized
// features (x − mean) / scale, then softmax(W·z + b).
func (p *predictor) flush() error {
	if p.rows == 0 {
		return nil
	}
	x, pr := p.x[:p.rows*p.in], p.pr[:p.rows*p.L]
	if s := p.std; s != nil {
		for i, v := range x {
			k := i % p.in
			x[i] = (v - s.Mean[k]) / s.Scale[k]
		}
	}
	p.m.Predict(pr, x)
	for r := range p.rows {
		row := pr[r*p.L : (r+1)*p.L]
		var err error
		if p.top == 0 && p.minMass == 0 {
			p.line, err = labeldist.AppendFormat(p.line[:0], p.labels, row)
		} else {
			p.line, err = p.appendSelected(p.line[:0], row)
			if err == nil && len(p.line) == 2 { // {}
				if p.empty == 0 {
					p.first = p.where[r]
				}
				p.empty++
			}
		}
		if err != nil {
			var le *labeldist.Error
			if errors.As(err, &le) {
				err = le.Err
			}
			return fmt.Errorf("%s: the prediction is not finite (%v); are the features far out of the training range?", p.where[r], err)
		}
		p.line = append(p.line, '\n')
		if _, err := p.out.Write(p.line); err != nil {
			return err
		}
	}
	p.done += p.rows
	p.rows = 0
	p.progress.tick(p.done)
	return p.stopped()
}

// appendSelected appends row as a JSON object of the labels that --top and
// --min-mass keep: labels of mass at least minMass (and not zero), the top
// most probable of them in decreasing mass, equal masses in label order, or
// all of them in label order without --top. A NaN or infinite mass is an
// error wrapping labeldist.ErrNonFinite.
func (p *predictor) appendSelected(dst []byte, row []float64) ([]byte, error) {
	for j, v := range row {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return dst, fmt.Errorf("%w: %q: %v", labeldist.ErrNonFinite, p.names[j], v)
		}
	}
	keep := func(v float64) bool { return v != 0 && v >= p.minMass }
	dst = append(dst, '{')
	if p.top == 0 {
		first := true
		for j, v := range row {
			if keep(v) {
				dst = p.appendMass(dst, j, v, first)
				first = false
			}
		}
		return append(dst, '}'), nil
	}
	// A heap of the best labels so far, the worst at its root.
	better := func(a, b int) bool { return row[a] > row[b] || row[a] == row[b] && a < b }
	h := p.heap[:0]
	for j, v := range row {
		switch {
		case !keep(v):
		case len(h) < p.top:
			h = append(h, j)
			for c := len(h) - 1; c > 0; { // sift up
				up := (c - 1) / 2
				if !better(h[up], h[c]) {
					break
				}
				h[up], h[c] = h[c], h[up]
				c = up
			}
		case better(j, h[0]):
			h[0] = j
			for c := 0; ; { // sift down
				w := c
				if l := 2*c + 1; l < len(h) && better(h[w], h[l]) {
					w = l
				}
				if r := 2*c + 2; r < len(h) && better(h[w], h[r]) {
					w = r
				}
				if w == c {
					break
				}
				h[c], h[w] = h[w], h[c]
				c = w
			}
		}
	}
	// Pop the worst to the end, leaving the best first.
	for n := len(h) - 1; n > 0; n-- {
		h[0], h[n] = h[n], h[0]
		for c := 0; ; {
			w := c
			if l := 2*c + 1; l < n && better(h[w], h[l]) {
				w = l
			}
			if r := 2*c + 2; r < n && better(h[w], h[r]) {
				w = r
			}
			if w == c {
				break
			}
			h[c], h[w] = h[w], h[c]
			c = w
		}
	}
	for k, j := range h {
		dst = p.appendMass(dst, j, row[j], k == 0)
	}
	p.heap = h
	return append(dst, '}'), nil
}

// appendMass appends `"label":mass` for label j, after a comma unless
// first, with the mass written as labeldist writes it.
func (p *predictor) appendMass(dst []byte, j int, v float64, first bool) []byte {
	if !first {
		dst = append(dst, ',')
	}
	if p.keys[j] == nil {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.Encode(p.names[j]) // a string always encodes
		p.keys[j] = append(bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), ':')
	}
	dst = append(dst, p.keys[j]...)
	return strconv.AppendFloat(dst, v, 'g', -1, 64)
}

// writeTarget writes a sample's target distribution to --targets, if
// given: y sparse (labels increasing), or dense when y is nil.
func (p *predictor) writeTarget(y dataset.Sparse, dense []float64) error {
	if p.targets == nil {
		return nil
	}
	line := p.line[:0]
	if dense != nil {
		line, _ = labeldist.AppendFormat(line, p.labels, dense) // the reader checked the masses
	} else {
		line = append(line, '{')
		for k, j := range y.Index {
			line = p.appendMass(line, j, y.Mass[k], k == 0)
		}
		line = append(line, '}')
	}
	p.line = append(line, '\n')
	_, err := p.targets.Write(p.line)
	return err
}

// predictJSONL predicts the samples of the JSON Lines file at path ('-':
// standard input) as they are read. With --targets every line must have a
// "y" of the model's labels; otherwise "y" is not read.
func (p *predictor) predictJSONL(e *env, fs *flags, path, modelPath string) error {
	r, file, err := e.open(path)
	if err != nil {
		return err
	}
	defer r.Close()
	opts := &dataset.ReaderOptions{Targets: dataset.TargetsIgnored}
	var labels *tree.Tree
	if p.targets != nil {
		opts.Targets, labels = dataset.TargetsOptional, p.labels
	}
	rd := dataset.NewReader(r, file, labels, opts)
	for first := true; rd.Next(); first = false {
		s := rd.Sample()
		if first && len(s.X) != p.in { // the Reader checks that the others have as many
			return fmt.Errorf("%s:%d: %s, the model expects %d", file, s.Line, plural(len(s.X), "feature"), p.in)
		}
		if p.targets != nil {
			if !s.HasY {
				return &dataset.Error{File: file, Line: s.Line, Err: dataset.ErrSyntax,
					Msg: `no "y" (label distribution); --targets needs a "y" on every line`}
			}
			if err := p.writeTarget(s.Y, nil); err != nil {
				return err
			}
		}
		if err := p.add(s.X, file+":"+strconv.Itoa(s.Line)); err != nil {
			return err
		}
	}
	if err := rd.Err(); err != nil {
		var de *dataset.Error
		if errors.As(err, &de) && errors.Is(err, dataset.ErrUnknownLabel) {
			de.Msg = strings.Replace(de.Msg, "is not a node of the tree",
				fmt.Sprintf("is not a label of the model %s (%s)", modelPath, plural(p.L, "label")), 1)
		}
		return err
	}
	warnReport(e, fs, rd.Report())
	return p.flush()
}

// predictMAT predicts the samples of the MAT-file at path, which is read
// whole (MAT data sets are small and dense), a batch at a time.
func (p *predictor) predictMAT(e *env, fs *flags, path, modelPath string) error {
	ds, rep, err := dataset.ReadMAT(path, nil)
	if err != nil {
		return err
	}
	cols, err := matModelColumns(ds, p.names, path, modelPath) // the model's index of each label of ds
	if err != nil {
		return err
	}
	n, d := ds.X.Dims()
	if d != p.in {
		return fmt.Errorf("%s: %s, the model expects %d", path, plural(d, "feature"), p.in)
	}
	warnReport(e, fs, rep)
	y := make([]float64, p.L)
	for i := range n {
		if p.targets != nil {
			clear(y)
			for c, v := range ds.Y.RawRowView(i) {
				y[cols[c]] = v
			}
			if err := p.writeTarget(dataset.Sparse{}, y); err != nil {
				return err
			}
		}
		if err := p.add(ds.X.RawRowView(i), fmt.Sprintf("%s: row %d", path, i+1)); err != nil {
			return err
		}
	}
	return p.flush()
}

// matModelColumns returns, for each column of the labels of a MAT data set
// ("0" … "c−1"), the index of that label in the model's labels, checking
// that each is one.
func matModelColumns(ds *dataset.Dataset, labels []string, file, modelPath string) ([]int, error) {
	_, c := ds.Y.Dims()
	index := make(map[string]int, len(labels))
	for i, name := range labels {
		index[name] = i
	}
	cols := make([]int, c)
	for j := range c {
		i, ok := index[strconv.Itoa(j)]
		if !ok {
			return nil, fmt.Errorf("%s: %d labels (0 … %d), but %d is not a label of the model %s (%s)",
				file, c, c-1, j, modelPath, plural(len(labels), "label"))
		}
		cols[j] = i
	}
	return cols, nil
}
