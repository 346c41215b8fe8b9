package main

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/experiment/text"
	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/textmodel"
)

func runTextExperiment(e *env, args []string) error {
	var cfg text.Config
	f, paths := newTextFlags(&cfg.ProtocolOptions, "text", "write the report and the runs to `DIR` (created if needed)",
		"validation documents `FILE` (needs --test)",
		"the label `TREE`: an edge-list file or a toolkit taxonomy (FILE.taxonomy or taxonomy:FILE) (required)",
		"pretrained word vectors `FILE`: .vec/.txt or fastText .bin (default: random)")
	f.set("train-emb", "TrainEmb", &cfg.TrainEmb, nil, "train the word vectors with the model")
	target := f.String("target", "uniform", "the target of a label set: `uniform` on its labels, or specific")
	f.set("as-given", "AsGiven", &cfg.AsGiven, nil, "keep label sets as the files give them, instead of adding every ancestor")
	f.set("losses", "Losses", &cfg.Losses, nil, "comma-separated `LOSSES` to run (default "+strings.Join(loss.PaperIDs, ",")+"; with --model bag "+strings.Join(text.BagLosses, ",")+")")
	f.set("model", "Model", &cfg.Model, textmodel.KindLSTM, "the `MODEL`: lstm (the paper's) or bag (the bag of n-grams of 'twl text train', with fastText beside it)")
	for name, usage := range map[string]string{
		"protocol": "the LSTM's `PROTOCOL`: reduced or paper",
		"seeds":    "run seeds 1 … `N` (default: the protocol's, 3 or 10; 5 with --model bag)",
		"epochs":   fmt.Sprintf("`N` training epochs (default: the protocol's, 18 or 100; %d with --model bag)", textmodel.DefaultBag.Epochs),
		"batch":    "`N` documents per mini-batch (default 100; 8 with --model bag)",
		"max-len":  "cut documents at `N` tokens (default: the protocol's, 100 or 200; no limit with --model bag)",
		"lr":       "the learning `RATE`: Adam's (default: the protocol's, 0.004 or 0.001), or with --model bag SGD's initial one (default 1)",
	} {
		f.Lookup(name).Usage = usage
	}
	fastText := f.String("fasttext", "", "bag: the fastText executable `FILE` of the outside row (default: fasttext on PATH, if any; none: no such row)")
	err := f.parseArgs(e, args, "train", "tree")
	if err == nil && f.isSet("dev") && !f.isSet("test") {
		err = f.fail("--dev needs --test: give both, or --test alone (validation then comes from --train)")
	}
	if err != nil {
		return err
	}
	if cfg.Target, err = corpus.ParseTarget(*target); err != nil {
		return f.fail("--target must be uniform or specific, not %q", *target)
	}
	switch {
	case cfg.Model != textmodel.KindBag && cfg.Model != textmodel.KindLSTM:
		return f.fail("--model %q: must be lstm or bag", cfg.Model)
	case cfg.Model == textmodel.KindLSTM && f.isSet("fasttext"):
		return f.fail("--fasttext: fastText is an outside row of --model bag")
	case cfg.Model == textmodel.KindBag:
		if !f.isSet("protocol") {
			cfg.Protocol = "" // the bag's
		}
		if cfg.FastText, cfg.FastTextSkipped, err = findFastText(*fastText); err != nil {
			return f.fail("--fasttext %s: %v", *fastText, err)
		}
		if cfg.FastText != nil { // the executable, found, is an input too
			files := f.files()
			files.Input("--fasttext", cfg.FastText.Path)
			if err := f.checkFiles(files); err != nil {
				return err
			}
		}
	}
	if err := paths.read(f, &corpus.Options{AsGiven: cfg.AsGiven, Title: paths.title}); err != nil {
		return err
	}
	cfg.Train, cfg.Test, cfg.Dev, cfg.TreeSource, cfg.Emb, cfg.EmbRef = paths.docs[0], paths.docs[1], paths.docs[2], paths.source, paths.vecs, paths.ref
	cfg.OutDir, cfg.EstimatePaper = f.out, true
	return runReport(e, f, func(ctx context.Context, progress io.Writer) (*text.Result, error) {
		cfg.Context, cfg.Progress = ctx, progress
		return text.Run(cfg)
	})
}

// findFastText returns the fastText of the bag's outside row: the
// executable name (a path, or a name looked up in PATH; "" means
// "fasttext"), or none with "none" or when "" finds none, and why.
func findFastText(name string) (*text.FastText, string, error) {
	switch name {
	case "none":
		return nil, "--fasttext none", nil
	case "":
		path, err := exec.LookPath("fasttext")
		if err != nil {
			return nil, "no fasttext executable on PATH", nil
		}
		return &text.FastText{Path: path}, "", nil
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, "", err
	}
	return &text.FastText{Path: path}, "", nil
}
