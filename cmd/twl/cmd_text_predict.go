package main

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/textmodel"
)

func runTextPredict(e *env, args []string) error {
	fs := newFlags("text predict", "twl text predict --model MODEL --data FILE [flags]")
	modelPath := fs.String("model", "", "the text model `FILE` (required)")
	data := fs.String("data", "", "the documents `FILE` (required)")
	top := fs.Int("top", 0, "write the `K` most probable labels only (0: all)")
	minMass := fs.Float64("min-mass", 0, "drop labels of mass below `P`")
	treeSpec := fs.String("tree", "", "check that the model was trained on this `TREE`")
	title := fs.Bool("title", false, "BlurbGenreCollection: the text is the title and the body")
	allowEmpty := fs.Bool("allow-empty", false, "predict documents whose text is empty too (default: an error)")
	out := fs.OutFile("out", "write the predictions to `FILE`, all or nothing, instead of standard output")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) > 0:
		return fs.fail("takes no arguments; the documents are --data FILE")
	case *modelPath == "":
		return fs.fail("--model is required")
	case *data == "":
		return fs.fail("--data is required")
	case *top < 0:
		return fs.fail("--top %d: must be positive (0: all labels)", *top)
	case !(*minMass >= 0 && *minMass < 1):
		return fs.fail("--min-mass %g: must be in [0, 1)", *minMass)
	}
	files := fs.files()
	files.Input("--model", *modelPath)
	files.Input("--data", *data)
	inputTree(files, "--tree", *treeSpec)
	if err := fs.checkFiles(files); err != nil {
		return err
	}
	m, err := textmodel.ReadFile(*modelPath)
	if errors.Is(err, textmodel.ErrNotModel) && textmodel.KindOfFile(*modelPath) == textmodel.LinearModel {
		return fmt.Errorf("%s is a model of 'twl train', not a text model; use 'twl predict'", *modelPath)
	}
	if err != nil {
		return err
	}
	if *treeSpec != "" {
		t, _, err := resolveTree(fs, *treeSpec, 0)
		if err != nil {
			return err
		}
		if err := m.CheckTree(t, *treeSpec); err != nil {
			return fmt.Errorf("%s %w", *modelPath, err)
		}
	}
	c, err := textmodel.ReadCorpus(*data, nil, &corpus.Options{Unlabeled: true, Title: *title, AllowEmpty: *allowEmpty})
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := m.WritePredictions(&buf, c, textmodel.PredictOptions{Top: *top, MinMass: *minMass}); err != nil {
		return fmt.Errorf("%s: %w", *modelPath, err)
	}
	return e.output(*out, buf.Bytes())
}
