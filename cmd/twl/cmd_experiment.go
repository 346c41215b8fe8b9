package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/experiment/efficiency"
	expreport "github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/experiment/text"
	"github.com/twl-ldl/twl/textmodel"
	"github.com/twl-ldl/twl/tree"
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
	examples: `  # Both tables, plots and REPORT.md into ./report (about 5 minutes on 2 cores).
  twl experiment all --out report

  # Table 3 into ./report (about a minute on 2 cores).
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

// expFlags are the flags of an experiment command: each setting flag is
// bound to a field of the experiment's Config, set only when given, and
// named by the setting it sets, so that the experiment's
// report.ConfigError is printed in flag words ("--seeds 0: must be at
// least 1"). out, format and quiet are the report's flags.
type expFlags struct {
	*flags
	setting     map[string]string // Config field → flag
	out, format string
	quiet       bool
}

// newExpFlags returns the flags of experiment name with --out (default
// out, help outUsage), with format --format and with quiet --quiet.
func newExpFlags(name, synopsis, about, examples, out, outUsage string, format, quiet bool) *expFlags {
	f := &expFlags{flags: newFlags("experiment "+name, synopsis, about, examples), setting: map[string]string{}, format: "text"}
	f.StringVar(&f.out, "out", out, outUsage)
	if format {
		f.StringVar(&f.format, "format", "text", "standard output `FORMAT`: text (the Markdown report) or json")
	}
	if quiet {
		f.BoolVar(&f.quiet, "quiet", false, "no progress on standard error")
	}
	return f
}

// set binds flag name to the Config field setting at p: a **int, a
// **float64 or a **time.Duration (set only when the flag is given), a
// *[]int (a comma-separated list), a *[]string (a comma-separated list of
// names), a *string, a *bool or a *uint64 (with default def).
func (f *expFlags) set(name, setting string, p any, def any, usage string) {
	f.setting[setting] = name
	switch p := p.(type) {
	case *string:
		f.StringVar(p, name, def.(string), usage)
	case *bool:
		f.BoolVar(p, name, false, usage)
	case *uint64:
		f.Uint64Var(p, name, def.(uint64), usage)
	case *[]int:
		f.Var((*intList)(p), name, usage)
	default:
		f.Var(optional{p}, name, usage)
	}
}

// optional is a flag that sets a Config field only when given: a
// pointer-valued field (**int, **float64, **time.Duration) or a list of
// names (*[]string).
type optional struct{ p any }

func (optional) String() string { return "" }

func (v optional) Set(s string) error {
	s = strings.TrimSpace(s)
	switch p := v.p.(type) {
	case **int:
		i, err := parseInt(s, strconv.IntSize)
		*p = new(int(i))
		return err
	case **float64:
		x, err := strconv.ParseFloat(s, 64)
		*p = new(x)
		return err
	case **time.Duration:
		d, err := time.ParseDuration(s)
		*p = new(d)
		return err
	case *[]string:
		*p = commaList(s)
	}
	return nil
}

// parseArgs parses args, allowing no positional argument and --format text
// or json only.
func (f *expFlags) parseArgs(e *env, args []string) error {
	pos, err := f.parse(e, args)
	switch {
	case err != nil:
		return err
	case len(pos) > 0:
		return f.fail("%s takes no arguments, got %q", strings.TrimPrefix(f.Name(), "twl "), pos)
	case f.format != "text" && f.format != "json":
		return f.fail("--format must be text or json, not %q", f.format)
	}
	return nil
}

// required fails unless every named flag is given.
func (f *expFlags) required(names ...string) error {
	for _, n := range names {
		if !f.isSet(n) {
			return f.fail("--%s is required", n)
		}
	}
	return nil
}

// checkOut checks that --out is a folder that can be written, and, with
// runs, that it is given (the runs are kept there).
func (f *expFlags) checkOut(runs bool) error {
	if f.out == "" {
		if runs {
			return f.fail("--out is required: the runs are kept there")
		}
		return nil
	}
	return checkDir(f.out)
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
// by e's context, an invalid configuration being a usage error in flag
// words, then writes its report (see writeReport).
func runReport[R experimentResult](e *env, f *expFlags, run func(ctx context.Context, progress io.Writer) (R, error)) error {
	var progress io.Writer
	if !f.quiet {
		progress = e.stderr
	}
	if err := e.stopped(); err != nil {
		return err
	}
	res, err := run(e.ctx, progress)
	if err != nil {
		return f.configError(err)
	}
	return writeReport(e, res, f)
}

// configError returns err, an experiment's report.ConfigError made a
// usage error in the words of the flag that set the setting.
func (f *expFlags) configError(err error) error {
	ce := expreport.AsConfigError(err)
	if ce == nil {
		return err
	}
	if name, ok := f.setting[ce.Setting]; ok {
		return f.fail("--%s: %s", strings.TrimSpace(name+" "+ce.Value), ce.Problem)
	}
	return f.fail("%s", strings.TrimPrefix(err.Error(), ce.Kind.Error()+": "))
}

// writeReport writes the report's files to --out, unless it is "", names
// them on standard error unless --quiet, and prints the report: its
// Markdown, or with --format json its JSON.
func writeReport(e *env, res experimentResult, f *expFlags) error {
	if f.out != "" {
		files, err := res.WriteFiles(f.out)
		if err != nil {
			return err
		}
		for _, name := range files {
			if !f.quiet {
				fmt.Fprintf(e.stderr, "experiment: wrote %s\n", filepath.Join(f.out, name))
			}
		}
	}
	if f.format == "json" {
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

const efficiencyExamples = `  # The paper's sizes and 10^6 for TW (about a minute on 2 cores).
  twl experiment efficiency --out report

  # Two small sizes, 5 measurements each, JSON on standard output.
  twl experiment efficiency --labels 100,1000 --repeats 5 --format json --out ""`

func runEfficiency(e *env, args []string) error {
	var cfg efficiency.Config
	f := newExpFlags("efficiency", "twl experiment efficiency [flags]", efficiencyAbout, efficiencyExamples,
		"report", "write the report files to `DIR` (created if needed; \"\" writes none)", true, false)
	f.set("labels", "Labels", &cfg.Labels, nil, "comma-separated numbers of labels `L`, such as 100,1e4 (default 100,1e3,1e4,1e5,1e6)")
	f.set("repeats", "Repeats", &cfg.Repeats, nil, "at least `N` measurements per case (default 3; 10 for cases under 50 ms)")
	f.set("min-time", "MinTime", &cfg.MinTime, nil, "time fast calls back to back for at least `D` per measurement (default 20ms)")
	f.set("seed", "Seed", &cfg.Seed, uint64(1), "`S` seeds the random trees and distributions")
	var maxMem byteSize
	f.Var(&maxMem, "max-memory", "report, not run, cases needing more than `SIZE` such as 4GiB (default 80% of available memory)")
	f.set("no-rss", "NoRSS", &cfg.NoRSS, nil, "do not measure peak resident memory in separate processes")
	if err := f.parseArgs(e, args); err != nil {
		return err
	}
	if f.isSet("max-memory") && maxMem == 0 {
		return f.fail("--max-memory 0: must be a positive size such as 512MiB or 2GB")
	}
	if err := f.checkOut(false); err != nil {
		return err
	}
	cfg.MaxBytes, cfg.Progress = int64(maxMem), e.stderr
	return runReport(e, f, func(ctx context.Context, _ io.Writer) (*efficiency.Result, error) {
		cfg.Context = ctx
		return efficiency.Run(cfg)
	})
}

// seedsEpochsBatch adds --seeds, --epochs and --batch (of items per
// mini-batch), whose defaults the help gives.
func (f *expFlags) seedsEpochsBatch(seeds, epochs, batch **int, seedsDef, epochsDef, batchDef, items string) {
	f.set("seeds", "Seeds", seeds, nil, "run seeds 1 … `N` (default: the protocol's, "+seedsDef+")")
	f.set("epochs", "Epochs", epochs, nil, "`N` training epochs (default: the protocol's, "+epochsDef+")")
	f.set("batch", "Batch", batch, nil, "`N` "+items+" per mini-batch (default "+batchDef+")")
}

// textProtocol adds the flags of the text experiment's protocols: the
// protocol, and the settings that replace its values.
func (f *expFlags) textProtocol(protocol *string, seeds, epochs, batch, hidden, maxLen **int, lr **float64) {
	f.set("protocol", "Protocol", protocol, text.ProtocolReduced, "the `PROTOCOL`: reduced or paper")
	f.seedsEpochsBatch(seeds, epochs, batch, "3 or 10", "18 or 100", "100", "documents")
	f.set("hidden", "Hidden", hidden, nil, "the LSTM's hidden size `H` (default: the protocol's, 100 or 200)")
	f.set("max-len", "MaxLen", maxLen, nil, "cut documents at `N` tokens (default: the protocol's, 100 or 200)")
	f.set("lr", "LR", lr, nil, "Adam's learning `RATE` (default: the protocol's, 0.004 or 0.001)")
}

// corpusPaths are the document files of an experiment on text (--train,
// --test, and --dev where it has one), its --tree, --emb and --title.
type corpusPaths struct {
	files        [3]string // train, test, dev
	tree, source string    // --tree, and the name of the tree read
	emb          string
	title        bool
	treeless     bool // the documents are read without a tree
	loaded       *tree.Tree
}

// add adds --train, --test and, with dev not "", --dev, bound to the
// Config fields train, test and dev; testNote is --test's default.
func (c *corpusPaths) add(f *expFlags, train, test, dev, testNote string) {
	if testNote == "" {
		testNote = " (default: a split of --train)"
	}
	f.set("train", train, &c.files[0], "", "the training documents `FILE` (required)")
	f.set("test", test, &c.files[1], "", "the test documents `FILE`"+testNote)
	if dev != "" {
		f.set("dev", dev, &c.files[2], "", "validation documents `FILE` (needs --test)")
	}
}

// read reads the label tree, unless treeless, and the documents (nil for a
// file not given) with opts.
func (c *corpusPaths) read(f *expFlags, opts *corpus.Options) ([3]*corpus.Corpus, error) {
	var docs [3]*corpus.Corpus
	var err error
	if !c.treeless {
		if c.loaded, c.source, err = resolveTree(f.flags, c.tree, 0); err != nil {
			return docs, err
		}
	}
	for i, path := range c.files {
		if docs[i], err = expreport.ReadDocuments(path, c.loaded, opts); err != nil {
			return docs, err
		}
	}
	return docs, nil
}

// vectors reads the word vectors of path, none for "".
func (c *corpusPaths) vectors(path string) (embedding.Source, textmodel.EmbeddingRef, error) {
	if path == "" {
		return nil, textmodel.EmbeddingRef{}, nil
	}
	return readEmbeddings(path)
}
