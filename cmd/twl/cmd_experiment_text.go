package main

import (
	"context"
	"io"
	"strings"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/experiment/text"
	"github.com/twl-ldl/twl/loss"
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
	f.set("losses", "Losses", &cfg.Losses, nil, "comma-separated `LOSSES` to run (default "+strings.Join(loss.PaperIDs, ",")+")")
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
