package main

import (
	"context"
	"io"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/experiment/labeltrees"
)

func runLabelTrees(e *env, args []string) error {
	var cfg labeltrees.Config
	f, paths := newTextFlags(&cfg.ProtocolOptions, "labeltrees", "write the report, the runs and the trees to `DIR` (created if needed)", "",
		"the data's hierarchy `TREE`: an edge-list file or a toolkit taxonomy (required)",
		"word vectors `FILE` of the model and of the docs tree (default: random; no docs tree)")
	labelEmb := f.String("label-emb", "", "word vectors `FILE` of the label names (default: --emb)")
	f.inputFlag("label-emb", labelEmb, false)
	f.set("lambda", "Lambda", &cfg.Lambda, nil, "the weight `λ` of the TW term (default 1)")
	f.set("conditions", "Conditions", &cfg.Conditions, nil, "comma-separated `CONDITIONS` to run (default: every one the vectors allow)")
	err := f.parseArgs(e, args, "train", "tree")
	if err == nil {
		err = paths.read(f, &corpus.Options{AsGiven: true, Title: paths.title})
	}
	if err == nil && *labelEmb != "" {
		cfg.LabelEmb, cfg.LabelEmbRef, err = readEmbeddings(*labelEmb)
	}
	if err != nil {
		return err
	}
	cfg.Train, cfg.Test, cfg.TreeSource, cfg.Emb, cfg.EmbRef, cfg.OutDir = paths.docs[0], paths.docs[1], paths.source, paths.vecs, paths.ref, f.out
	return runReport(e, f, func(ctx context.Context, progress io.Writer) (*labeltrees.Result, error) {
		cfg.Context, cfg.Progress = ctx, progress
		return labeltrees.Run(cfg)
	})
}
