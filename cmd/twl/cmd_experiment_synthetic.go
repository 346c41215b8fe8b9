package main

import (
	"context"
	"io"
	"strings"

	"github.com/twl-ldl/twl/experiment/synthetic"
)

func runSynthetic(e *env, args []string) error {
	var cfg synthetic.Config
	f := newExpFlags("synthetic", "twl experiment synthetic [flags]",
		"report", "write the report and the runs to `DIR` (created if needed)", true, true, true)
	f.set("protocol", "Protocol", &cfg.Protocol, synthetic.ProtocolReduced, "the `PROTOCOL`: reduced or paper")
	f.seedsEpochsBatch(&cfg.Seeds, &cfg.Epochs, &cfg.Batch, "5 or 10", "50 or 500", "10", "samples")
	f.set("nodes", "Nodes", &cfg.Nodes, nil, "`N` tree nodes (default: the protocol's, 200 or 1000)")
	f.set("train", "Train", &cfg.Train, nil, "`N` training samples (default 1000)")
	f.set("test", "Test", &cfg.Test, nil, "`N` test samples (default 1000)")
	f.set("lr", "LR", &cfg.LR, nil, "Adam's learning `RATE` (default 0.001)")
	f.set("data-seed", "DataSeed", &cfg.DataSeed, uint64(0), "the `SEED` of the data (tree, W1, W2, samples)")
	f.set("vary-data", "VaryData", &cfg.VaryData, nil, "draw new data for seed k, from --data-seed + k")
	f.set("losses", "Losses", &cfg.Losses, nil, "comma-separated `LOSSES` to run (default "+strings.Join(synthetic.LossIDs, ",")+")")
	f.set("checkpoint-every", "CheckpointEvery", &cfg.CheckpointEvery, nil, "save a run in progress every `N` epochs (default 10)")
	addSynthFlags(f.flags, &cfg.Data)
	if err := f.parseArgs(e, args); err != nil {
		return err
	}
	cfg.OutDir = f.out
	return runReport(e, f, func(ctx context.Context, progress io.Writer) (*synthetic.Result, error) {
		cfg.Context, cfg.Progress = ctx, progress
		return synthetic.Run(cfg)
	})
}
