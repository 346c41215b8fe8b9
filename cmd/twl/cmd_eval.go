package main

import (
	"bytes"
	"flag"
	"io"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/metric"
)

func runEval(e *env, args []string) (err error) {
	fs := newFlags("eval", "twl eval --tree TREE [flags] PRED.jsonl TARGET.jsonl\n  twl eval --trees T1,T2,... [flags] PRED.jsonl TARGET.jsonl\n  twl eval --multilabel --tree TREE [flags] PRED.jsonl LABELS.jsonl")
	treePath := treeFlag(fs, "required, or --trees")
	treeList := fs.String("trees", "", "instead of --tree, the comma-separated `TREES` (from 'twl tree build') whose leaves are the labels: tsw, the tree-sliced Wasserstein distance over them, in place of wasserstein")
	format := fs.String("format", "text", "output `FORMAT`: text or json")
	pyldl := fs.Bool("pyldl", false, "clip masses to [2.2e-16, 1] before clark, canberra and kl, as PyLDL does")
	normalize := fs.Bool("normalize", false, "rescale every row to sum 1, instead of requiring it")
	out := fs.OutFile("out", "write the output to `FILE`, all or nothing, instead of standard output")
	multilabel := fs.Bool("multilabel", false, "score against true label sets (LABELS instead of TARGET): pseudo-recall, top-k cost, ROC-AUC")
	k := fs.Int("k", 5, "with --multilabel: the k of top-k cost")
	target := fs.String("target", "uniform", "with --multilabel: the target distribution of a label set for the LDL measures, `uniform` on its labels or specific (on its most specific labels)")
	maxMemFlag := fs.maxMemoryFlag(4<<30, "refuse work that would hold more than `SIZE`: reading the tree (and a line of the files: a sixteenth of it, 64 MiB at most); with --multilabel, the predictions held densely (8 bytes per row and label)")
	asGiven := fs.Bool("as-given", false, "with --multilabel: keep label sets as given, instead of adding every ancestor of a label")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	maxMem := *maxMemFlag
	defer func() { err = memErr(err, maxMem) }()
	defer setMemoryLimit(int64(maxMem))()
	switch {
	case len(pos) != 2 && *multilabel:
		return fs.fail("want two files, the predictions PRED.jsonl and the label sets LABELS; got %s", plural(len(pos), "argument"))
	case len(pos) != 2:
		return fs.fail("want two files of distributions, PRED.jsonl TARGET.jsonl; got %s", plural(len(pos), "argument"))
	case pos[0] == "-" && pos[1] == "-":
		return fs.fail("only one of PRED and TARGET can be standard input ('-')")
	case *format != "text" && *format != "json":
		return fs.fail("--format must be text or json, not %q", *format)
	}
	if err := checkTreeFlags(fs, *treePath, *treeList); err != nil {
		return err
	}
	if *multilabel && *treeList != "" {
		return fs.fail("--multilabel needs one --tree, not --trees: label sets are closed under the ancestors of a single tree, and top-k cost is measured along it")
	}

	mode, err := corpus.ParseTarget(*target)
	if err != nil {
		return fs.fail("--target must be uniform or specific, not %q", *target)
	}
	if !*multilabel {
		set := ""
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "k" || f.Name == "target" || f.Name == "as-given" {
				set = f.Name
			}
		})
		if set != "" {
			return fs.fail("--%s applies only with --multilabel", set)
		}
	}
	files := fs.files()
	files.Input("PRED", pos[0])
	if *multilabel {
		files.Input("LABELS", pos[1])
	} else {
		files.Input("TARGET", pos[1])
	}
	inputTrees(files, *treePath, *treeList)
	if err := fs.checkFiles(files); err != nil {
		return err
	}
	// With --trees, t is a flat tree of the labels, the leaves of the
	// trees, and sl the tree-sliced distance over them.
	t, sl, err := readLabelTrees(fs, *treePath, *treeList)
	if err != nil {
		return err
	}
	if *multilabel && (*k < 1 || *k > t.Len()) {
		return fs.fail("--k must be between 1 and the %d labels of the tree", t.Len())
	}
	opts := &labeldist.Options{Normalize: *normalize, MaxLine: lineLimit(int64(maxMem))}
	if *multilabel {
		// The micro ROC-AUC ranks every (row, label) score at once, so the
		// predictions are held densely.
		P, err := readDense(e, pos[0], t, opts, int64(maxMem), "--multilabel holds every prediction densely, for the ROC-AUC over all (row, label) pairs")
		if err != nil {
			return err
		}
		Y, err := readLabelSets(e, pos[1], t, *asGiven)
		if err != nil {
			return err
		}
		rep, err := metric.ScoreMultiLabel(t, P, Y, &metric.MultiLabelOptions{Options: metric.Options{Clip: *pyldl}, K: *k, Target: mode})
		if err != nil {
			return err
		}
		return e.output(*out, reportBytes(rep, *format == "json"))
	}
	P, cp, err := rowReader(e, pos[0], t, opts)
	if err != nil {
		return err
	}
	defer cp.Close()
	T, ct, err := rowReader(e, pos[1], t, opts)
	if err != nil {
		return err
	}
	defer ct.Close()
	w, err := e.create(*out) // an unwritable --out fails before the work
	if err != nil {
		return err
	}
	defer w.Abort()
	prog := newProgress(e.stderr, "twl eval", "pairs")
	tab, err := metric.Score(envContext(e), t, P, T, &metric.ScoreOptions{
		Options: metric.Options{Clip: *pyldl}, Sliced: sl, ChunkRows: chunkRows,
		Why:      "eval pairs prediction r with target r, line by line",
		Progress: func(rows int) error { prog.tick(rows); return nil }})
	if err != nil {
		return rowsErr(err)
	}
	prog.done(P.Rows())
	if _, err := w.Write(reportBytes(tab, *format == "json")); err != nil {
		return err
	}
	return w.Commit()
}

// reportBytes returns r as text for people or as JSON.
func reportBytes(r interface {
	WriteText(io.Writer) error
	WriteJSON(io.Writer) error
}, asJSON bool) []byte {
	var buf bytes.Buffer
	if asJSON {
		r.WriteJSON(&buf) // a bytes.Buffer does not fail
	} else {
		r.WriteText(&buf)
	}
	return buf.Bytes()
}
