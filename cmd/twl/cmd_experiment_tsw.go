package main

import (
	"context"
	"io"
	"strings"

	"github.com/twl-ldl/twl/experiment/treesliced"
)

func runTSWExperiment(e *env, args []string) error {
	var cfg treesliced.Config
	f := newExpFlags("tsw", "twl experiment tsw [flags]",
		"report", "write the report files to `DIR` (created if needed; \"\" writes none)", true, true, false)
	f.set("protocol", "Protocol", &cfg.Protocol, treesliced.ProtocolReduced, "the `PROTOCOL`: reduced or large")
	f.set("seed", "Seed", &cfg.Seed, uint64(1), "`S` seeds the clouds and the trees")
	f.set("dims", "Dims", &cfg.Dims, nil, "comma-separated dimensions `D` (default: the protocol's)")
	f.set("sizes", "Sizes", &cfg.Sizes, nil, "comma-separated points per cloud `N`, at least 2 (default: the protocol's)")
	f.set("trees", "Trees", &cfg.Trees, nil, "comma-separated numbers of trees `T` (default: the protocol's)")
	f.set("pairs", "Pairs", &cfg.Pairs, nil, "`P` pairs of clouds per (d, n) (default: the protocol's, 20 or 50)")
	f.set("builders", "Builders", &cfg.Builders, nil, "comma-separated tree `BUILDERS` (default "+strings.Join(treesliced.Builders, ",")+")")
	f.set("masses", "Masses", &cfg.Masses, treesliced.MassesUniform, "the points' `MASSES`: uniform or random (Dirichlet)")
	f.set("workers", "Workers", &cfg.Workers, nil, "process `N` pairs at once (default 1)")
	if err := f.parseArgs(e, args); err != nil {
		return err
	}
	return runReport(e, f, func(ctx context.Context, progress io.Writer) (*treesliced.Result, error) {
		cfg.Context, cfg.Progress = ctx, progress
		return treesliced.Run(cfg)
	})
}
