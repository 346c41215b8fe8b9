package main

import (
	"fmt"

	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/ldl"
	"github.com/twl-ldl/twl/model"
	"github.com/twl-ldl/twl/textmodel"
)

func runPredict(e *env, args []string) error {
	fs := newFlags("predict", "twl predict --model MODEL --data DATA [flags]")
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
	case *targets == "-":
		return fs.fail("--targets needs a file of its own, not standard output")
	case *modelPath == "-" && *dataPath == "-":
		return fs.fail("only one of --model and --data can be standard input ('-')")
	case *top < 0:
		return fs.fail("--top %d: want a positive number of labels (0: all)", *top)
	case !(*minMass >= 0 && *minMass <= 1):
		return fs.fail("--min-mass %v: want a mass between 0 and 1", *minMass)
	}

	files := fs.files()
	files.Input("--model", *modelPath)
	files.Input("--data", *dataPath)
	inputTree(files, "--tree", *treeSpec)
	if err := fs.checkFiles(files); err != nil {
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
