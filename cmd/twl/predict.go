package main

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/internal/atomicfile"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/model"
)

const predictAbout = `
Predict writes the label distribution a model predicts for every sample of
DATA: JSON Lines, one object {"label": mass, ...} per sample in the order of
DATA, labels in the model's order, zero masses omitted, numbers in the
shortest form that reads back to the same float64. The output pairs line by
line with the targets for 'twl eval'.

MODEL is a file written by 'twl train'. DATA has the format of the training
data: JSON Lines {"x": [...], "y": {...}} whose labels must be labels of the
model, or a .mat file whose labels 0 … c−1 must be labels of the model. The
targets "y" are checked but not used for the prediction; --targets writes
them, in the same format as the predictions, for 'twl eval'. The features
must have the model's dimension; the model's standardization is applied to
them.

--tree checks that TREE (a file, or chain, star, chain:N, star:N as for
train; chain and star have the model's number of labels) is the tree the
model was trained on, by the SHA-256 of its edge list: a different tree is
an error.

An error in the input is reported as FILE:LINE: what is wrong, with exit
status 1, and nothing is written; --out and --targets are written all or
nothing.`

const predictExamples = `  # Predict, then score the predictions against the targets.
  twl train --data train.jsonl --tree genres.tree --loss kl+tw --out books.model
  twl predict --model books.model --data test.jsonl --out pred.jsonl --targets targets.jsonl
  twl eval --tree genres.tree pred.jsonl targets.jsonl

  # A .mat data set, checking the tree.
  twl predict --model sjaffe.model --data SJAFFE.mat --tree star > pred.jsonl`

func runPredict(e *env, args []string) error {
	fs := newFlags("predict", "twl predict --model MODEL --data DATA [flags]", predictAbout, predictExamples)
	modelPath := fs.String("model", "", "the model `FILE` written by twl train (required)")
	dataPath := fs.String("data", "", "the samples, a JSON Lines or .mat `FILE` ('-': JSON Lines on standard input) (required)")
	treeSpec := fs.String("tree", "", "check that the model was trained on this `TREE`")
	out := fs.String("out", "", "write the predictions to `FILE`, all or nothing, instead of standard output")
	targets := fs.String("targets", "", "also write the targets (\"y\") of DATA to `FILE`, as distributions for twl eval")
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
	case *targets != "" && (*targets == *out || *targets == "-"):
		return fs.fail("--targets needs a file of its own")
	case *modelPath == "-" && *dataPath == "-":
		return fs.fail("only one of --model and --data can be standard input ('-')")
	}

	if err := checkNotInput(fs, map[string]string{"out": *out, "targets": *targets},
		map[string]string{"--model": *modelPath, "--data": *dataPath, "--tree": *treeSpec}); err != nil {
		return err
	}
	f, err := loadModel(e, *modelPath)
	if err != nil {
		return err
	}
	labels := f.LabelTree()
	ds, file, err := readPredictData(e, fs, *dataPath, f, *modelPath)
	if err != nil {
		return err
	}
	if *treeSpec != "" {
		t, _, err := resolveTree(fs, *treeSpec, len(f.Labels))
		if err != nil {
			return err
		}
		if h := treeHash(t); h != f.Tree.SHA256 {
			return fmt.Errorf("%s is not the tree %s was trained on (%s): SHA-256 %.12s…, the model's %.12s…",
				*treeSpec, *modelPath, f.Tree.Source, h, f.Tree.SHA256)
		}
	}

	n, _ := ds.X.Dims()
	L := len(f.Labels)
	P := make([]float64, n*L)
	f.Predict(P, ds.X.RawMatrix().Data)
	var buf bytes.Buffer
	if err := labeldist.Write(&buf, labels, P); err != nil {
		var le *labeldist.Error
		if errors.As(err, &le) && le.Line > 0 {
			return fmt.Errorf("%s: the prediction is not finite (%v); are the features far out of the training range?",
				sampleAt(file, ds, le.Line-1), le.Err)
		}
		return err
	}
	if *targets != "" {
		var tb bytes.Buffer
		if err := labeldist.Write(&tb, labels, ds.Y.RawMatrix().Data); err != nil {
			return err // not reached: the reader checked the targets
		}
		if err := atomicfile.WriteFile(*targets, tb.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return e.output(*out, buf.Bytes())
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

// sampleAt locates sample r of ds for a message: "FILE:LINE" for JSON Lines,
// "FILE: row R" otherwise.
func sampleAt(file string, ds *dataset.Dataset, r int) string {
	if ds.Lines != nil {
		return fmt.Sprintf("%s:%d", file, ds.Lines[r])
	}
	return fmt.Sprintf("%s: row %d", file, r+1)
}

// readPredictData reads the samples to predict and checks them against the
// model f (read from modelPath): the feature dimension and the labels.
func readPredictData(e *env, fs *flags, path string, f *model.File, modelPath string) (*dataset.Dataset, string, error) {
	var (
		ds   *dataset.Dataset
		rep  dataset.Report
		file string
	)
	if path != "-" && isMAT(path) {
		var err error
		ds, rep, err = dataset.ReadMAT(path, nil)
		if err != nil {
			return nil, "", err
		}
		file = path
		if err := matModelColumns(ds, f, file, modelPath); err != nil {
			return nil, "", err
		}
	} else {
		r, name, err := e.open(path)
		if err != nil {
			return nil, "", err
		}
		defer r.Close()
		file = name
		ds, rep, err = dataset.ReadJSONL(r, name, f.LabelTree(), nil)
		var de *dataset.Error
		switch {
		case errors.As(err, &de) && errors.Is(err, dataset.ErrUnknownLabel):
			de.Msg = strings.Replace(de.Msg, "is not a node of the tree",
				fmt.Sprintf("is not a label of the model %s (%s)", modelPath, plural(len(f.Labels), "label")), 1)
			return nil, "", de
		case errors.As(err, &de) && errors.Is(err, dataset.ErrSyntax) && strings.Contains(de.Msg, `no "y"`):
			de.Msg += `; predict reads the training format, {"x": [...], "y": {...}}`
			return nil, "", de
		case err != nil:
			return nil, "", err
		}
	}
	warnReport(e, fs, rep)
	if _, d := ds.X.Dims(); d != f.In {
		where := file
		if ds.Lines != nil {
			where = fmt.Sprintf("%s:%d", file, ds.Lines[0])
		}
		return nil, "", fmt.Errorf("%s: %s, the model expects %d", where, plural(d, "feature"), f.In)
	}
	return ds, file, nil
}

// matModelColumns puts the columns of a MAT data set, labels "0" … "c−1",
// in the model's label order, checking that each is a label of the model.
func matModelColumns(ds *dataset.Dataset, f *model.File, file, modelPath string) error {
	n, c := ds.Y.Dims()
	L := len(f.Labels)
	index := make(map[string]int, L)
	for i, name := range f.Labels {
		index[name] = i
	}
	y := make([]float64, n*L)
	for j := range c {
		i, ok := index[strconv.Itoa(j)]
		if !ok {
			return fmt.Errorf("%s: %d labels (0 … %d), but %d is not a label of the model %s (%s)",
				file, c, c-1, j, modelPath, plural(L, "label"))
		}
		for r := range n {
			y[r*L+i] = ds.Y.At(r, j)
		}
	}
	ds.Y = mat.NewDense(n, L, y)
	ds.Labels = append([]string(nil), f.Labels...)
	return nil
}
