package main

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/twl-ldl/twl/synth"
)

const synthAbout = `
Synth generates the synthetic data set of the paper (Algorithm 1): a random
tree of --nodes nodes (uniform over labelled trees, unit edge weights),
random matrices W1 (n×m) and W2 (m×(l+1)), and per sample a random
n-vector x passed through two sigmoid layers, o = sigmoid(W2ᵀ sigmoid(W1ᵀx));
σ = --scale·o[l+1], v = argmax and u = argmin of o[1..l], and the target

  p(s) ∝ exp(±d(v,s)/σ²) + exp(±d(u,s)/σ²)   over every node s,

d the tree's shortest-path metric. p is computed in log space, exact for
every σ, however small.

The paper leaves these choices open; each is a flag:
  --x-dist, --w1-dist, --w2-dist   normal (default), uniform (U[0,1)) or
        symmetric (U[−1,1)). With uniform draws every first-layer
        pre-activation is positive, the layer saturates, and nearly every
        sample gets the same v, u and σ: a degenerate data set.
  --features n (default 100, as in the paper's training benchmark) and
        --hidden m (default 100; the paper gives none).
  --input   raw (default): the features are x. hidden: sigmoid(W1ᵀx).
        output: o, which Algorithm 1 as printed returns; its argmax and
        argmin name v and u, so the features leak the target.
  --sign    decay (default): exp(−d/σ²), mass around v and u. grow:
        exp(+d/σ²), the formula as printed, most mass farthest from them.

Everything follows --seed (PCG streams): the same command writes the same
files, and the test set does not depend on --samples.

DIR receives, all or nothing (a new DIR appears complete at the end, an
existing one gets all four files at the end; DIR is checked to be writable
before anything is generated; Ctrl-C or SIGTERM leaves nothing behind,
exit status 130 or 143):
  tree.txt      the tree, one edge per line: parent<TAB>child<TAB>1
  train.jsonl   --samples lines {"x": [...], "y": {"label": mass, ...}}
  test.jsonl    --test lines, drawn from the same tree, W1 and W2
  synth.json    the configuration and seed used, and how varied the
                samples are (distinct v and u, quantiles of σ)
which 'twl train --data DIR/train.jsonl --tree DIR/tree.txt' reads.
Progress goes to standard error, a summary to standard output.`

const synthExamples = `  # The paper's size: 1000 nodes, 1000 training and 1000 test samples.
  twl synth --nodes 1000 --samples 1000 --seed 1 --out synth1000

  # Train on it with KL + TW and score the test set.
  twl train --data synth1000/train.jsonl --tree synth1000/tree.txt --loss kl+tw \
      --epochs 500 --batch 10 --lr 0.001 --weight-decay 0 --out synth.model
  twl predict --model synth.model --data synth1000/test.jsonl --out pred.jsonl

  # Algorithm 1 exactly as printed: uniform draws, the transformed vector as
  # features and exp(+d/σ²).
  twl synth --x-dist uniform --w1-dist uniform --w2-dist uniform \
      --input output --sign grow --out printed`

func runSynth(e *env, args []string) error {
	fs := newFlags("synth", "twl synth --out DIR [flags]", synthAbout, synthExamples)
	var cfg synth.Config
	fs.IntVar(&cfg.Nodes, "nodes", 1000, "`l`, the number of tree nodes (labels)")
	samples := fs.Int("samples", 1000, "the number of training `SAMPLES`")
	test := fs.Int("test", 1000, "the number of test `SAMPLES` (0: no test.jsonl)")
	seed := fs.Uint64("seed", 1, "the random `SEED` of everything")
	out := fs.OutDir("out", "", "the output `DIR` (required)")
	addSynthFlags(fs, &cfg)
	quiet := fs.Bool("quiet", false, "no progress on standard error")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 0:
		return fs.fail("synth takes no arguments, got %q", pos)
	case *out == "":
		return fs.fail("--out is required")
	case cfg.Nodes < 2 || cfg.Nodes > 1e6:
		return fs.fail("--nodes must be between 2 and 10^6, got %d", cfg.Nodes)
	case *samples < 1 || *samples > 1e7:
		return fs.fail("--samples must be between 1 and 10^7, got %d", *samples)
	case *test < 0 || *test > 1e7:
		return fs.fail("--test must be between 0 and 10^7, got %d", *test)
	case cfg.Features < 1 || cfg.Hidden < 1:
		return fs.fail("--features and --hidden must be positive")
	case !(cfg.Scale > 0) || cfg.Scale > 1e300:
		return fs.fail("--scale must be positive and finite, got %v", cfg.Scale)
	}
	if err := cfg.Validate(); err != nil {
		return fs.fail("%v", err)
	}
	// Dense storage: refuse sizes that cannot fit before trying.
	if bytes := 8 * float64(*samples+*test) * float64(cfg.Nodes+cfg.InputDim()); bytes > 8<<30 {
		return fs.fail("%d samples of %d features and %d labels would take %s in memory; ask for fewer",
			*samples+*test, cfg.InputDim(), cfg.Nodes, formatBytes(bytes))
	}

	progress := func(format string, args ...any) {
		if !*quiet {
			fmt.Fprintf(e.stderr, format, args...)
		}
	}
	start := time.Now()
	progress("synth: tree of %d nodes, W1 %d×%d, W2 %d×%d, %d + %d samples (seed %d)\n",
		cfg.Nodes, cfg.Features, cfg.Hidden, cfg.Hidden, cfg.Nodes+1, *samples, *test, *seed)
	ctx := e.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	d, err := synth.GenerateContext(ctx, cfg, *seed, *samples, *test)
	if err != nil {
		return err
	}
	if err := e.stopped(); err != nil {
		return err
	}
	progress("synth: generated in %s; writing %s\n", formatSeconds(time.Since(start).Seconds()), *out)
	if err := d.WriteDir(*out); err != nil {
		return err
	}

	var buf bytes.Buffer
	if err := d.WriteSummary(&buf, *out); err != nil {
		return err
	}
	return e.output("", buf.Bytes())
}

// addSynthFlags adds the flags of the choices of Algorithm 1 that the
// paper leaves open (all of synth.Config but Nodes), shared by synth and
// experiment synthetic.
func addSynthFlags(fs *flags, cfg *synth.Config) {
	fs.IntVar(&cfg.Features, "features", 100, "`n`, the length of the random vector x")
	fs.IntVar(&cfg.Hidden, "hidden", 100, "`m`, the width of the first layer")
	fs.TextVar(&cfg.X, "x-dist", synth.Normal, "the distribution of x: `DIST` normal, uniform or symmetric")
	fs.TextVar(&cfg.W1, "w1-dist", synth.Normal, "the distribution of W1: `DIST` normal, uniform or symmetric")
	fs.TextVar(&cfg.W2, "w2-dist", synth.Normal, "the distribution of W2: `DIST` normal, uniform or symmetric")
	fs.TextVar(&cfg.Input, "input", synth.Raw, "the features, `INPUT`: raw, hidden or output")
	fs.TextVar(&cfg.Sign, "sign", synth.Decay, "the `SIGN` in exp(±d/σ²): decay (−) or grow (+, as printed)")
	fs.Float64Var(&cfg.Scale, "scale", 10, "the factor in σ = `SCALE`·o[l+1]")
}
