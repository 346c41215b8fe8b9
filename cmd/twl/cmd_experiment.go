package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/twl-ldl/twl/experiment/efficiency"
)

// experiments are the subcommands of twl experiment, in the order of its
// help. Adding one is one entry.
var experiments = &group{
	name: "experiment",
	noun: "experiment",
	subs: []*command{
		{"efficiency", "the paper's Table 3: time and memory of TW and Sinkhorn against L", runEfficiency},
		{"synthetic", "the paper's Table 1: five losses on synthetic data, over seeds", runSynthetic},
		{"text", "the paper's Table 2: an LSTM text classifier with five losses, over seeds", runTextExperiment},
		{"tsw", "tree-sliced Wasserstein against the exact W1 on random point clouds: accuracy and speed", runTSWExperiment},
		{"docknn", "documents' k-nearest-neighbour error and time: tree-sliced Wasserstein against the exact WMD", runDocKNN},
		{"labeltrees", "flat labels: an LSTM trained with KL + TW over the given tree, trees built from vectors, a star", runLabelTrees},
		{"all", "every experiment into one report folder with REPORT.md", runAll},
	},
	about: `
Experiment reproduces the experiments of the tree-Wasserstein paper
(Toyokuni et al.: efficiency, synthetic, text) and runs the evidence for
trees built from points (tsw: how well the tree-sliced distance
approximates the Euclidean W1; docknn: k-nearest-neighbour classification
of 20 Newsgroups with the tree-sliced distance against the exact word
mover's distance; labeltrees: which tree to train with when the labels
come without one), and writes each as a report: a Markdown table (the
paper's numbers beside twl's where there are some), a JSON file with every
measurement, and plots (PNG and SVG). Progress goes to standard
error. The output folder is checked to be writable before anything runs.
Ctrl-C (SIGINT) or SIGTERM stops an experiment at once, with exit status
130 (143): its files are complete or absent, and the synthetic and text
experiments, run again with the same command, resume from the runs and
checkpoints they had saved.`,
	examples: `  # Both tables, plots and REPORT.md into ./report (a few minutes).
  twl experiment all --out report

  # Table 3 into ./report.
  twl experiment efficiency --out report

  # The flags of one experiment.
  twl experiment efficiency --help`,
}

func runExperiment(e *env, args []string) error { return experiments.run(e, args) }

// experimentResult is what an experiment's Run returns.
type experimentResult interface {
	WriteFiles(dir string) ([]string, error)
	WriteJSON(w io.Writer) error
	Markdown() string
}

// reportFlags are the flags of an experiment command's report.
type reportFlags struct {
	out, format string
	quiet       bool
}

// addReportFlags adds to fs --out (default out, help outUsage), --format
// and, with quiet, --quiet.
func addReportFlags(fs *flags, out, outUsage string, quiet bool) *reportFlags {
	o := &reportFlags{}
	fs.OutDirVar(&o.out, "out", out, outUsage)
	fs.StringVar(&o.format, "format", "text", "standard output `FORMAT`: text (the Markdown report) or json")
	if quiet {
		fs.BoolVar(&o.quiet, "quiet", false, "no progress on standard error")
	}
	return o
}

// noArgs is the usage error of experiment name given positional
// arguments pos, nil when there are none.
func noArgs(fs *flags, name string, pos []string) error {
	if len(pos) > 0 {
		return fs.fail("experiment %s takes no arguments, got %q", name, pos)
	}
	return nil
}

// badFormat is the usage error of a --format other than text and json.
func (o *reportFlags) badFormat(fs *flags) error {
	return fs.fail("--format must be text or json, not %q", o.format)
}

// commaList returns the non-empty, trimmed items of the comma-separated
// list s; none is an empty, not a nil, slice.
func commaList(s string) []string {
	items := []string{}
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			items = append(items, v)
		}
	}
	return items
}

// runReport is the end of every experiment command: it runs the
// experiment, with progress on standard error unless --quiet and stopped
// by e's context, an invalid configuration (errConfig) being a usage
// error, then writes its report (see writeReport).
func runReport[R experimentResult](e *env, fs *flags, o *reportFlags, errConfig error, run func(ctx context.Context, progress io.Writer) (R, error)) error {
	var progress io.Writer
	if !o.quiet {
		progress = e.stderr
	}
	if err := e.stopped(); err != nil {
		return err
	}
	res, err := run(e.ctx, progress)
	if err != nil {
		if errors.Is(err, errConfig) {
			return fs.fail("%v", err)
		}
		return err
	}
	return writeReport(e, res, o)
}

// writeReport writes the report's files to --out, unless it is "", names
// them on standard error unless --quiet, and prints the report: its
// Markdown, or with --format json its JSON.
func writeReport(e *env, res experimentResult, o *reportFlags) error {
	if o.out != "" {
		files, err := res.WriteFiles(o.out)
		if err != nil {
			return err
		}
		if !o.quiet {
			for _, f := range files {
				fmt.Fprintf(e.stderr, "experiment: wrote %s\n", filepath.Join(o.out, f))
			}
		}
	}
	if o.format == "json" {
		var js bytes.Buffer
		if err := res.WriteJSON(&js); err != nil {
			return err
		}
		_, err := e.stdout.Write(js.Bytes())
		return err
	}
	_, err := io.WriteString(e.stdout, res.Markdown())
	return err
}

// init makes a copy of twl started by efficiency.Run to measure peak
// memory (with efficiency.ChildEnv set) measure one case and exit here,
// before main.
func init() {
	if child, err := efficiency.RunChild(os.Stdout); child {
		if err != nil {
			fmt.Fprintln(os.Stderr, "twl:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

const efficiencyAbout = `
Efficiency reproduces Table 3 of the paper: the time and memory to evaluate
the loss of one pair of random distributions on L labels, for the
tree-Wasserstein distance TW on a random tree with unit weights (loss and
gradient; loss only) and for the Sinkhorn Wasserstein loss W¹ with λ = 50
and 10 log-domain iterations on the cost 11ᵀ − I (cold: kernel built and
solved, like one POT call; warm: kernel reused; each with and without the
gradient).

Time is the mean ± standard deviation of several measurements. Memory is
measured two ways: bytes allocated on the Go heap by building the metric
(tree or cost matrix), the setup and one call; and the peak resident memory
(VmHWM, Linux) of a separate twl process that runs the case alone, minus
that process's own at start. Cases that would need more than --max-memory
are reported with what they would need, as the paper does for W¹ at 10⁵.

Writes to --out: efficiency.md (the table beside the paper's numbers, with
how each figure was measured), efficiency.json (every measurement),
efficiency-time.png/.svg and efficiency-memory.png/.svg (log-log plots),
each atomically; and prints the table (--format text) or the JSON.`

const efficiencyExamples = `  # The paper's sizes and 10^6 for TW.
  twl experiment efficiency --out report

  # Two small sizes, 5 measurements each, JSON on standard output.
  twl experiment efficiency --labels 100,1000 --repeats 5 --format json --out ""`

func runEfficiency(e *env, args []string) error {
	fs := newFlags("experiment efficiency", "twl experiment efficiency [flags]", efficiencyAbout, efficiencyExamples)
	o := addReportFlags(fs, "report", "write the report files to `DIR` (created if needed; \"\" writes none)", false)
	labels := intList(slices.Clone(efficiency.DefaultLabels))
	fs.Var(&labels, "labels", "comma-separated numbers of labels `L`, such as 100,1e4")
	repeats := fs.Int("repeats", 3, "at least `N` measurements per case (10 for cases under 50 ms)")
	minTime := fs.Duration("min-time", 20*time.Millisecond, "time fast calls back to back for at least `D` per measurement")
	seed := fs.Uint64("seed", 1, "`S` seeds the random trees and distributions")
	maxMemText := fs.String("max-memory", "", "report, not run, cases needing more than `SIZE` such as 4GiB (default 80% of available memory)")
	noRSS := fs.Bool("no-rss", false, "do not measure peak resident memory in separate processes")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	if err := noArgs(fs, "efficiency", pos); err != nil {
		return err
	}
	switch {
	case o.format != "text" && o.format != "json":
		return o.badFormat(fs)
	case *repeats < 1:
		return fs.fail("--repeats must be at least 1")
	case *minTime <= 0:
		return fs.fail("--min-time must be positive")
	}
	for _, L := range labels {
		if L < 2 {
			return fs.fail("--labels must be at least 2, got %d", L)
		}
	}
	var maxMem byteSize
	if *maxMemText != "" {
		if err := maxMem.Set(*maxMemText); err != nil || maxMem == 0 {
			return fs.fail("invalid value %q for flag --max-memory: a positive size such as 512MiB or 2GB", *maxMemText)
		}
	}
	cfg := efficiency.Config{
		Labels: labels, Repeats: *repeats, MinTime: *minTime, Seed: *seed,
		MaxBytes: int64(maxMem), NoRSS: *noRSS, Progress: e.stderr,
	}
	return runReport(e, fs, o, efficiency.ErrConfig, func(ctx context.Context, _ io.Writer) (*efficiency.Result, error) {
		cfg.Context = ctx
		return efficiency.Run(cfg)
	})
}
