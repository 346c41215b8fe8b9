package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/twl-ldl/twl/internal/atomicfile"
	"github.com/twl-ldl/twl/ldl"
	"github.com/twl-ldl/twl/model"
)

// trainFlagsAbout describes the data, the tree and the training flags shared
// by train and cv.
const trainFlagsAbout = `
DATA is JSON Lines, one sample per line, {"x": [features...], "y": {"label":
mass, ...}}, with the label names of TREE (an edge-list file, or chain:N or
star:N for labels named 0 … N−1); or a MATLAB .mat file with the matrices
"features" (n×d) and "labels" (n×c), the layout of the standard LDL
benchmarks, whose labels are named 0 … c−1: then TREE may be chain (ordinal
labels: ages, ratings, time points), star (unordered labels) or a tree file
with nodes of those names. Label rows that do not sum to 1 are rescaled, with
a warning (the policy of every command: "Rows that do not sum to 1" in
docs/formats.md).

The model is softmax(W·x + b), trained with Adam on mini-batches shuffled per
epoch, on the loss
  kl            KL(y ‖ p)
  kl+tw         KL(y ‖ p) + λ·TW(p, y), TW the tree-Wasserstein distance
  kl+sinkhorn   KL(y ‖ p) + λ·W(p, y), W by Sinkhorn on the tree metric
                (--reg, --iters; dense L×L, at most 10000 labels)
averaged over each mini-batch. Features are standardized with the mean and
standard deviation of the training rows, which the model keeps.

The defaults (100 epochs, batch 32, Adam's lr 0.001 as in the paper, L2
weight decay 0.03 on the weights but not the biases, standardized features)
reproduce the published SA-BFGS quality on SJAFFE in 10 × 10-fold
cross-validation (Chebyshev .093 ± .009; PyLDL .092 ± .010). The paper's
setting for its synthetic data is --epochs 500 --batch 10 --weight-decay 0.
Everything random (initial weights, splits, shuffling) follows --seed: the
same command gives the same model bit for bit.`

const trainAbout = `
Train fits a label-distribution model to the samples of DATA and writes it
to MODEL, a JSON file that 'twl predict' reads: the labels, the feature
dimension, the standardization, a SHA-256 of the label tree, the weights
and how they were trained.
` + trainFlagsAbout + `

--val FRAC holds out that fraction of the rows: the loss on them is printed
each epoch and the weights of the best epoch are kept; --patience stops
training after that many epochs without improvement.

--checkpoint FILE saves the state of training atomically after every epoch
(every N epochs with --checkpoint-every N, and after the last). The file
stays after training. To resume after an interruption (Ctrl-C, a kill, a
crash), run the same command again: training continues after the last
epoch saved, with the same result, bit for bit, as an uninterrupted run.
Run again once finished, it writes MODEL from the checkpoint without
training; with a larger --epochs it trains on. A checkpoint of other data or
settings is refused: remove it to start afresh.

A run that diverges (a loss that is not finite, or more than 100 times that
of predicting the uniform distribution, as --lr 1e10 gives) stops at the
first epoch that does, and is an error that writes no model: lower --lr.

Ctrl-C (SIGINT) or SIGTERM stops training before the next mini-batch:
MODEL is not written, the checkpoint keeps the last complete epoch, and the
exit status is 130 (143 for SIGTERM). Progress (epoch, loss, elapsed and
remaining time) goes to standard error, a summary to standard output
(--format json: one JSON object). An error in the input is reported as
FILE:LINE: what is wrong, with exit status 1, and then MODEL is not written;
it is written all or nothing, and the locations of MODEL and the checkpoint
are checked to be writable before training starts.`

const trainExamples = `  # An LDL benchmark with unordered labels (the defaults suit it).
  twl train --data SJAFFE.mat --tree star --out sjaffe.model

  # Ordinal labels (ages): add the tree-Wasserstein distance on a chain to KL.
  twl train --data FG-Net.mat --tree chain --loss kl+tw --lambda 1 --out fgnet.model

  # JSON Lines with a label hierarchy, early stopping, resumable.
  twl train --data books.jsonl --tree genres.tree --loss kl+tw --val 0.2 --patience 10 \
      --epochs 500 --checkpoint books.ckpt --out books.model`

func runTrain(e *env, args []string) error {
	fs := newFlags("train", "twl train --data DATA --tree TREE --out MODEL [flags]", trainAbout, trainExamples)
	tf := addTrainFlags(fs)
	out := fs.OutFile("out", "write the model to `FILE`, all or nothing (required)")
	checkpoint := fs.OutFile("checkpoint", "save training state to `FILE` after every epoch, and resume from it if it exists (the file stays after training)")
	checkpointEvery := fs.Int("checkpoint-every", 1, "with --checkpoint, save every `N` epochs (and after the last)")
	format := fs.String("format", "text", "summary `FORMAT`: text or json")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fs.fail("train takes no arguments; give the data with --data")
	}
	if err := tf.check(e, fs); err != nil {
		return err
	}
	switch {
	case *out == "":
		return fs.fail("--out is required")
	case *format != "text" && *format != "json":
		return fs.fail("--format must be text or json, not %q", *format)
	case *checkpoint != "" && *checkpoint == *out:
		return fs.fail("--checkpoint and --out must be different files")
	case *checkpointEvery < 1:
		return fs.fail("--checkpoint-every must be at least 1, not %d", *checkpointEvery)
	case fs.isSet("checkpoint-every") && *checkpoint == "":
		return fs.fail("--checkpoint-every applies only with --checkpoint")
	}

	if err := checkNotInput(fs, map[string]string{"out": *out, "checkpoint": *checkpoint},
		map[string]string{"--data": *tf.data, "--tree": *tf.tree, "--trees": *tf.trees}); err != nil {
		return err
	}
	d, sliced, err := loadLDL(e, fs, *tf.data, *tf.tree, *tf.trees)
	if err != nil {
		return err
	}
	opts := tf.options(fs, sliced)
	if !*tf.quiet {
		opts.Progress = e.stderr
	}
	opts.Checkpoint, opts.CheckpointEvery = *checkpoint, *checkpointEvery
	f, h, err := ldl.Fit(e.ctx, d, &opts)
	if err != nil {
		if e.stopped() != nil && *checkpoint != "" {
			if _, serr := os.Stat(*checkpoint); serr == nil {
				fmt.Fprintf(e.stderr, "twl train: %s keeps the last complete epoch saved; run the same command again to resume\n", *checkpoint)
			}
		}
		return fitError(err, *tf.lr, *checkpoint)
	}
	var mb bytes.Buffer
	if err := model.Save(&mb, f); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(*out, mb.Bytes(), 0o644); err != nil {
		return err
	}
	var buf bytes.Buffer
	if *format == "json" {
		ldl.WriteFitJSON(&buf, *out, f)
	} else {
		ldl.WriteFitText(&buf, *out, f, h)
	}
	return e.output("", buf.Bytes())
}
