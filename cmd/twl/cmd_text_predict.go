package main

import (
	"errors"
	"fmt"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/textmodel"
)

func runTextPredict(e *env, args []string) error {
	fs := newFlags("text predict", "twl text predict --model MODEL --data FILE [flags]")
	modelPath := fs.String("model", "", "the text model `FILE` (required)")
	data := fs.String("data", "", "the documents `FILE`, - for standard input (required)")
	top := fs.Int("top", 0, "write the `K` most probable labels only (0: all)")
	minMass := fs.Float64("min-mass", 0, "drop labels of mass below `P`")
	consistent := fs.Bool("consistent", false, "write label sets consistent with the hierarchy of --tree: closed under ancestors, of the highest total mass (see above)")
	format := fs.String("format", "jsonl", "output `FORMAT`: jsonl, or fasttext (the layout of 'fasttext predict-prob')")
	treeSpec := fs.String("tree", "", "check that the model was trained on this `TREE` (required with --consistent)")
	title := fs.Bool("title", false, "BlurbGenreCollection: the text is the title and the body")
	allowEmpty := fs.Bool("allow-empty", false, "predict documents whose text is empty too (default: an error)")
	out := fs.OutFile("out", "write the predictions to `FILE`, all or nothing, instead of standard output")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	var layout textmodel.Layout
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
	case *consistent && *treeSpec == "":
		return fs.fail("--consistent needs --tree, the model's label tree")
	case *format == "jsonl":
	case *format == "fasttext":
		layout = textmodel.FastTextLayout
	default:
		return fs.fail("--format %q: must be jsonl or fasttext", *format)
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
	if err := m.CheckLayout(layout); err != nil {
		return fmt.Errorf("--format fasttext: %s %w", *modelPath, err)
	}
	opts := textmodel.PredictOptions{Top: *top, MinMass: *minMass, Consistent: *consistent, Layout: layout}
	if *treeSpec != "" {
		t, _, err := resolveTree(fs, *treeSpec, 0)
		if err != nil {
			return err
		}
		if err := m.CheckTree(t, *treeSpec); err != nil {
			return fmt.Errorf("%s %w", *modelPath, err)
		}
		opts.Tree = t
	}
	in, name, err := e.open(*data)
	if err != nil {
		return corpus.MissingFile(err, *data)
	}
	defer in.Close()
	s, err := corpus.NewScanner(in, name, nil, &corpus.Options{Unlabeled: true, Title: *title, AllowEmpty: *allowEmpty})
	if err != nil {
		return corpusError(err)
	}
	if s.Format() == corpus.LabelSets {
		return fmt.Errorf("%s holds label sets ([\"label\", …] per line) but no text: want documents", name)
	}
	w, err := e.create(*out)
	if err != nil {
		return err
	}
	defer w.Abort()
	if _, err := m.PredictStream(envContext(e), w, s, opts); err != nil {
		var nf *textmodel.NotFiniteError
		if errors.As(err, &nf) {
			return fmt.Errorf("%s: %w", *modelPath, err)
		}
		return corpusError(err)
	}
	return w.Commit()
}
