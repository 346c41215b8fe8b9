package main

import (
	"fmt"

	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/ldl"
	"github.com/twl-ldl/twl/model"
	"github.com/twl-ldl/twl/textmodel"
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
	out := fs.OutFile("out", "write the predictions to `FILE`, all or nothing, instead of standard output")
	targets := fs.OutFile("targets", "also write the targets (\"y\", required on every line) of DATA to `FILE`, as distributions for twl eval")
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

	prog := newProgress(e.stderr, "twl predict", "rows")
	p := ldl.NewPredictor(predOut, f, &ldl.PredictOptions{Top: *top, MinMass: *minMass, BatchBytes: predictBatchBytes,
		AfterBatch: func(rows int) error {
			prog.tick(rows)
			return e.stopped()
		}})
	fo := &ldl.FileOptions{Model: *modelPath, Report: func(rep dataset.Report) { warnReport(e, fs, rep) }}
	if targetOut != nil {
		fo.Targets = targetOut
	}
	if *dataPath != "-" && ldl.IsMAT(*dataPath) {
		err = p.PredictMAT(*dataPath, fo)
	} else {
		err = predictJSONL(e, p, *dataPath, fo)
	}
	if err != nil {
		return err
	}
	prog.done(p.Rows())
	if empty, first := p.Empty(); empty > 0 {
		fmt.Fprintf(e.stderr, "twl predict: warning: --min-mass %g leaves %s without a label (written as {}), first %s; eval and distance refuse such rows, even with --normalize\n",
			*minMass, plural(empty, "row"), first)
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
	f, err := model.Load(r, name)
	if err != nil && textmodel.KindOfFile(path) == textmodel.TextModel { // hook: the text commands' models
		return nil, fmt.Errorf("%s is a text model; use 'twl text predict'", path)
	}
	return f, err
}

// predictBatchBytes bounds the memory of one batch of predictions
// (ldl.PredictOptions.BatchBytes). Tests lower it.
var predictBatchBytes = ldl.DefaultBatchBytes

// predictJSONL predicts the samples of the JSON Lines file at path ('-':
// standard input) as they are read.
func predictJSONL(e *env, p *ldl.Predictor, path string, fo *ldl.FileOptions) error {
	r, file, err := e.open(path)
	if err != nil {
		return err
	}
	defer r.Close()
	return p.PredictJSONL(r, file, fo)
}
