package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/twl-ldl/twl/internal/human"
	"github.com/twl-ldl/twl/synth"
)

func runSynth(e *env, args []string) error {
	fs := newFlags("synth", "twl synth --out DIR [flags]")
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
	// Links in an existing --out could make two of its files one.
	files := fs.files()
	for _, name := range []string{synth.TreeFile, synth.TrainFile, synth.TestFile, synth.MetaFile} {
		if name != synth.TestFile || *test > 0 {
			files.Output("a file of --out", filepath.Join(*out, name))
		}
	}
	if err := fs.checkFiles(files); err != nil {
		return err
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
	progress("synth: generated in %s; writing %s\n", human.Seconds(time.Since(start).Seconds()), *out)
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
