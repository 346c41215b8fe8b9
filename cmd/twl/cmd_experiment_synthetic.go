package main

import (
	"context"
	"io"
	"strings"

	"github.com/twl-ldl/twl/experiment/synthetic"
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
samples, 500 epochs, batch 10, Adam lr 0.001, 10 seeds; on 2 cores it takes
days, nearly all of it in Sinkhorn (17 to 29 s per epoch at 1000 nodes,
against 0.1 s for KL and KL + TW: without the W¹ losses it takes about half
an hour).
--protocol reduced, the default, takes 3 to 4 minutes on 2 cores: 200
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

const syntheticExamples = `  # The reduced protocol into ./report (3 to 4 minutes on 2 cores).
  twl experiment synthetic --out report

  # The paper's protocol without the Sinkhorn losses (about half an hour).
  twl experiment synthetic --protocol paper --losses kl,kl+0.5tw,kl+tw --out report-paper

  # All of it (days); interrupt and rerun at will, it resumes.
  twl experiment synthetic --protocol paper --out report-paper

  # Only the TW losses against KL, 10 seeds, the printed sign of Algorithm 1.
  twl experiment synthetic --losses kl,kl+0.5tw,kl+tw --seeds 10 --sign grow --out report-grow`

func runSynthetic(e *env, args []string) error {
	var cfg synthetic.Config
	f := newExpFlags("synthetic", "twl experiment synthetic [flags]", syntheticAbout, syntheticExamples,
		"report", "write the report and the runs to `DIR` (created if needed)", true, true)
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
	if err := f.checkOut(true); err != nil {
		return err
	}
	cfg.OutDir = f.out
	return runReport(e, f, func(ctx context.Context, progress io.Writer) (*synthetic.Result, error) {
		cfg.Context, cfg.Progress = ctx, progress
		return synthetic.Run(cfg)
	})
}
