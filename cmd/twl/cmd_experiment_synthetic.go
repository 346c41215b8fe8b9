package main

import (
	"context"
	"io"
	"strings"

	"github.com/twl-ldl/twl/experiment/synthetic"
	"github.com/twl-ldl/twl/synth"
)

const syntheticAbout = `
Synthetic reproduces Table 1 of the paper: a softmax-linear model trained on
the synthetic data of Algorithm 1 ('twl synth') with five losses,

  kl         KL
  kl+0.5w1   KL + ½W¹   W¹ by Sinkhorn as in the paper: log domain,
  kl+w1      KL + W¹    λ = 50 (POT reg 0.02), 10 iterations, tree cost
  kl+0.5tw   KL + ½TW   TW the exact tree-Wasserstein distance
  kl+tw      KL + TW

each over several seeds, scored on the test set with the seven metrics of
Table 1 (Wasserstein is the exact one).

The data are drawn once, from --data-seed: they are the files that 'twl
synth --nodes N --seed DATA-SEED' writes, with the same --features …
--scale. Seed k = 1 … --seeds sets the initial weights and the mini-batch
order, the same for every loss, so that losses compare in pairs
(--vary-data draws new data per seed instead).

--protocol paper is the paper's: 1000 nodes, 1000 training and 1000 test
samples, 500 epochs, batch 10, Adam lr 0.001, 10 seeds; it takes days,
nearly all of it in Sinkhorn, whose epochs at 1000 nodes are hundreds of
times slower than those of KL and KL + TW (without the W¹ losses it takes
minutes; docs/results/paper.md has the times measured).
--protocol reduced, the default, takes a few minutes: 200
nodes, 50 epochs and 5 seeds, the rest as the paper's. --nodes, --epochs,
--seeds, --train, --test, --batch and --lr override the protocol's values;
the report lists every difference from the paper's protocol.

Runs are resumable: each finished (loss, seed) run is written to
DIR/runs/LOSS-seedK.json and kept by later calls with the same settings
(another --seeds adds or leaves out seeds), and a run in progress saves a
checkpoint every --checkpoint-every epochs, so an interrupted command run
again continues where it stopped. Runs of other settings in DIR are an
error: use another --out.

Writes to --out, each file atomically: synthetic.md (Table 1 with the
paper's values beside twl's, the paper's findings and whether this run
reproduces them, paired t-tests across seeds, the setup), synthetic.json
(every per-seed number, the options and the protocol), and the plots
synthetic_curves.png/.svg (training loss per epoch) and
synthetic_metric_NAME.png/.svg (each metric per loss with error bars).
Prints the Markdown (--format text) or the JSON. Progress on standard
error.

The flags --features … --scale choose the data as for 'twl synth'; see
'twl synth --help' for the reasons behind their defaults.`

const syntheticExamples = `  # The reduced protocol into ./report (a few minutes).
  twl experiment synthetic --out report

  # The paper's protocol without the Sinkhorn losses (about half an hour).
  twl experiment synthetic --protocol paper --losses kl,kl+0.5tw,kl+tw --out report-paper

  # All of it (days); interrupt and rerun at will, it resumes.
  twl experiment synthetic --protocol paper --out report-paper

  # Only the TW losses against KL, 10 seeds, the printed sign of Algorithm 1.
  twl experiment synthetic --losses kl,kl+0.5tw,kl+tw --seeds 10 --sign grow --out report-grow`

func runSynthetic(e *env, args []string) error {
	fs := newFlags("experiment synthetic", "twl experiment synthetic [flags]", syntheticAbout, syntheticExamples)
	var cfg synthetic.Config
	fs.StringVar(&cfg.Protocol, "protocol", synthetic.ProtocolReduced, "the `PROTOCOL`: reduced or paper")
	fs.IntVar(&cfg.Seeds, "seeds", 0, "run seeds 1 … `N` (default: the protocol's, 5 or 10)")
	fs.IntVar(&cfg.Epochs, "epochs", 0, "`N` training epochs (default: the protocol's, 50 or 500)")
	fs.IntVar(&cfg.Nodes, "nodes", 0, "`N` tree nodes (default: the protocol's, 200 or 1000)")
	fs.IntVar(&cfg.Train, "train", 0, "`N` training samples (default 1000)")
	fs.IntVar(&cfg.Test, "test", 0, "`N` test samples (default 1000)")
	fs.IntVar(&cfg.Batch, "batch", 0, "`N` samples per mini-batch (default 10)")
	fs.Float64Var(&cfg.LR, "lr", 0, "Adam's learning `RATE` (default 0.001)")
	fs.Uint64Var(&cfg.DataSeed, "data-seed", 0, "the `SEED` of the data (tree, W1, W2, samples)")
	fs.BoolVar(&cfg.VaryData, "vary-data", false, "draw new data for seed k, from --data-seed + k")
	losses := fs.String("losses", strings.Join(synthetic.LossIDs, ","), "comma-separated `LOSSES` to run")
	fs.IntVar(&cfg.CheckpointEvery, "checkpoint-every", 10, "save a run in progress every `N` epochs")
	addSynthFlags(fs, &cfg.Data)
	o := addReportFlags(fs, "report", "write the report and the runs to `DIR` (created if needed)", true)
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	if err := noArgs(fs, "synthetic", pos); err != nil {
		return err
	}
	switch {
	case o.format != "text" && o.format != "json":
		return o.badFormat(fs)
	case o.out == "":
		return fs.fail("--out is required: the runs are kept there")
	case cfg.CheckpointEvery < 1:
		return fs.fail("--checkpoint-every must be at least 1")
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"seeds", cfg.Seeds}, {"epochs", cfg.Epochs}, {"nodes", cfg.Nodes}, {"train", cfg.Train}, {"test", cfg.Test}, {"batch", cfg.Batch}} {
		if f.v < 0 || f.v > 1e7 {
			return fs.fail("--%s must be between 0 (the protocol's value) and 10^7, got %d", f.name, f.v)
		}
	}
	if cfg.Nodes > 20000 {
		return fs.fail("--nodes must be at most 20000 (the W¹ losses and the data hold dense matrices), got %d", cfg.Nodes)
	}
	if cfg.Losses = commaList(*losses); len(cfg.Losses) == 0 {
		return fs.fail("--losses names no loss; want some of %s", synth.Choices(synthetic.LossIDs))
	}
	cfg.OutDir = o.out
	return runReport(e, fs, o, synthetic.ErrConfig, func(ctx context.Context, progress io.Writer) (*synthetic.Result, error) {
		cfg.Context, cfg.Progress = ctx, progress
		return synthetic.Run(cfg)
	})
}
