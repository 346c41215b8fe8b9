package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
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
		{"text", "the paper's Table 2: an LSTM text classifier with five losses, over seeds (--model bag: the bag of n-grams, TW against KL, fastText beside)", runTextExperiment},
		{"tsw", "tree-sliced Wasserstein against the exact W1 on random point clouds: accuracy and speed", runTSWExperiment},
		{"docknn", "documents' k-nearest-neighbour error and time: tree-sliced Wasserstein against the exact WMD", runDocKNN},
		{"labeltrees", "flat labels: an LSTM trained with KL + TW over the given tree, trees built from vectors, a star", runLabelTrees},
		{"all", "every experiment into one report folder with REPORT.md", runAll},
	},
}

func runExperiment(e *env, args []string) error { return experiments.run(e, args) }

// experimentResult is what an experiment's Run returns.
type experimentResult interface {
	WriteFiles(dir string) ([]string, error)
	WriteJSON(w io.Writer) error
	Markdown() string
}

// expFlags are the flags of an experiment command, each bound to a Config
// field (set only when given) and mapped from it, so that a
// report.ConfigError is printed in flag words ("--seeds 0: must be …").
type expFlags struct {
	*flags
	setting     map[string]string // Config field → flag
	out, format string
	quiet       bool
	runs        bool // --out keeps runs: it is required
	// inputs are the flags naming files the experiment reads, which
	// parseArgs checks are not in --out (see inputFlag).
	inputs []expInput
}

// expInput is a flag naming an input file: its name and value, a tree
// spec (chain:N names no file) if tree.
type expInput struct {
	name string
	p    *string
	tree bool
}

// inputFlag records that the string flag name, bound to p, names a file
// the experiment reads (a tree spec if tree), for the overwrite check of
// parseArgs.
func (f *expFlags) inputFlag(name string, p *string, tree bool) {
	f.inputs = append(f.inputs, expInput{name, p, tree})
}

// newExpFlags returns the flags of experiment name (help in
// help/experiment-NAME.txt): --out (required with runs), --format, --quiet.
func newExpFlags(name, synopsis, out, outUsage string, format, quiet, runs bool) *expFlags {
	f := &expFlags{flags: newFlags("experiment "+name, synopsis), setting: map[string]string{}, format: "text", runs: runs}
	f.OutDirVar(&f.out, "out", out, outUsage)
	if format {
		f.StringVar(&f.format, "format", "text", "standard output `FORMAT`: text (the Markdown report) or json")
	}
	if quiet {
		f.BoolVar(&f.quiet, "quiet", false, "no progress on standard error")
	}
	return f
}

// set binds flag name to the Config field setting at p: see optional, or
// a *[]int (a list), a *string, a *bool or a *uint64 (with default def).
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

// optional sets a **int, **float64, **time.Duration or *[]string (a
// comma-separated list) only when the flag is given.
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
// or json only, and checks that the flags named required are given and
// that --out is a folder that can be written (given, if runs are kept)
// holding none of the input files (inputFlag).
func (f *expFlags) parseArgs(e *env, args []string, required ...string) error {
	pos, err := f.parse(e, args)
	switch {
	case err != nil:
		return err
	case len(pos) > 0:
		return f.fail("%s takes no arguments, got %q", strings.TrimPrefix(f.Name(), "twl "), pos)
	case f.format != "text" && f.format != "json":
		return f.fail("--format must be text or json, not %q", f.format)
	}
	for _, n := range required {
		if !f.isSet(n) {
			return f.fail("--%s is required", n)
		}
	}
	if f.out == "" && f.runs {
		return f.fail("--out is required: the runs are kept there")
	}
	files := f.files()
	for _, in := range f.inputs {
		if in.tree {
			inputTree(files, "--"+in.name, *in.p)
		} else {
			files.Input("--"+in.name, *in.p)
		}
	}
	return f.checkFiles(files)
}

// commaList returns the non-empty items of the comma-separated list s,
// spaces removed; none is an empty, not a nil, slice.
func commaList(s string) []string {
	return slices.DeleteFunc(strings.Split(strings.ReplaceAll(s, " ", ""), ","), func(v string) bool { return v == "" })
}

// runReport runs the experiment, with progress on standard error unless
// --quiet, stopped by e's context, and writes its report (writeReport).
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
		for i := 0; i < len(files) && !f.quiet; i++ {
			fmt.Fprintf(e.stderr, "experiment: wrote %s\n", filepath.Join(f.out, files[i]))
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
// memory measure one case and exit here, before main.
func init() {
	if child, err := efficiency.RunChild(os.Stdout); child {
		if err != nil {
			fmt.Fprintln(os.Stderr, "twl:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

func runEfficiency(e *env, args []string) error {
	var cfg efficiency.Config
	f := newExpFlags("efficiency", "twl experiment efficiency [flags]",
		"report", "write the report files to `DIR` (created if needed; \"\" writes none)", true, false, false)
	f.set("labels", "Labels", &cfg.Labels, nil, "comma-separated numbers of labels `L`, such as 100,1e4 (default 100,1000,10000,100000,1000000)")
	f.set("repeats", "Repeats", &cfg.Repeats, nil, "at least `N` measurements per case (default 3; 10 for cases under 50 ms)")
	f.set("min-time", "MinTime", &cfg.MinTime, nil, "time fast calls back to back for at least `D` per measurement (default 20ms)")
	f.set("seed", "Seed", &cfg.Seed, uint64(1), "`S` seeds the random trees and distributions")
	var maxMem byteSize
	f.Var(&maxMem, "max-memory", "report, not run, cases needing more than `SIZE` such as 4GiB (default 80% of available memory)")
	f.Lookup("max-memory").DefValue = "" // the default is said in words
	f.set("no-rss", "NoRSS", &cfg.NoRSS, nil, "do not measure peak resident memory in separate processes")
	if err := f.parseArgs(e, args); err != nil {
		return err
	}
	if f.isSet("max-memory") && maxMem == 0 {
		return f.fail("--max-memory 0: must be a positive size such as 512MiB or 2GB")
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

// newTextFlags returns the flags of an experiment on text, name, whose
// runs are kept in --out (default report-NAME, help outUsage): its file
// flags (corpusPaths.add; --dev only with dev, its help, not "") and the
// text experiment's protocol flags, set in o.
func newTextFlags(o *text.ProtocolOptions, name, outUsage, dev, tree, emb string) (*expFlags, *corpusPaths) {
	synopsis := "twl experiment " + name + " --train FILE [--test FILE] --tree TREE [flags]"
	if dev != "" {
		synopsis = strings.Replace(synopsis, "[--test FILE] ", "[--dev FILE] [--test FILE]\n      ", 1)
	}
	f, paths := newExpFlags(name, synopsis, "report-"+name, outUsage, true, true, true), &corpusPaths{}
	paths.add(f, " (default: a split of --train)", dev, tree, emb)
	f.set("protocol", "Protocol", &o.Protocol, text.ProtocolReduced, "the `PROTOCOL`: reduced or paper")
	f.seedsEpochsBatch(&o.Seeds, &o.Epochs, &o.Batch, "3 or 10", "18 or 100", "100", "documents")
	f.set("hidden", "Hidden", &o.Hidden, nil, "the LSTM's hidden size `H` (default: the protocol's, 100 or 200)")
	f.set("max-len", "MaxLen", &o.MaxLen, nil, "cut documents at `N` tokens (default: the protocol's, 100 or 200)")
	f.set("lr", "LR", &o.LR, nil, "Adam's learning `RATE` (default: the protocol's, 0.004 or 0.001)")
	return f, paths
}

// corpusPaths are the file flags of an experiment on text; read fills
// docs (train, test, dev), source (the tree's name), vecs and ref.
type corpusPaths struct {
	files             [3]string // train, test, dev
	tree, source, emb string
	title, treeless   bool // treeless: the documents are read without a tree
	docs              [3]*corpus.Corpus
	vecs              embedding.Source
	ref               textmodel.EmbeddingRef
}

// add adds --train, --test (testNote its default), --dev with dev (its
// help) not "", --emb (emb its help), and unless treeless --tree (tree
// its help) and --title.
func (c *corpusPaths) add(f *expFlags, testNote, dev, tree, emb string) {
	f.set("train", "Train", &c.files[0], "", "the training documents `FILE` (required)")
	f.set("test", "Test", &c.files[1], "", "the test documents `FILE`"+testNote)
	f.inputFlag("train", &c.files[0], false)
	f.inputFlag("test", &c.files[1], false)
	if dev != "" {
		f.set("dev", "Dev", &c.files[2], "", dev)
		f.inputFlag("dev", &c.files[2], false)
	}
	if !c.treeless {
		f.set("tree", "TreeSource", &c.tree, "", tree)
		f.inputFlag("tree", &c.tree, true)
		f.set("title", "Title", &c.title, nil, "BlurbGenreCollection: the text is the title and the body")
	}
	f.set("emb", "Emb", &c.emb, "", emb)
	f.inputFlag("emb", &c.emb, false)
}

// read reads the label tree, unless treeless, the documents (nil for a
// file not given) with opts, and the word vectors of --emb, if given.
func (c *corpusPaths) read(f *expFlags, opts *corpus.Options) (err error) {
	var t *tree.Tree
	if !c.treeless {
		if t, c.source, err = resolveTree(f.flags, c.tree, 0); err != nil {
			return err
		}
	}
	for i, path := range c.files {
		if c.docs[i], err = expreport.ReadDocuments(path, t, opts); err != nil {
			return err
		}
	}
	if c.emb != "" {
		c.vecs, c.ref, err = readEmbeddings(c.emb)
	}
	return err
}
