package main

import (
	"bytes"
	"fmt"
	"github.com/twl-ldl/twl/internal/human"
	"slices"
	"time"

	"github.com/twl-ldl/twl/ldl"
	"github.com/twl-ldl/twl/metric"
)

const defRepeats = 10

func runCV(e *env, args []string) error {
	fs := newFlags("cv", "twl cv --data DATA --tree TREE [flags]")
	tf := addTrainFlags(fs)
	folds := fs.Int("folds", 10, "the number of `FOLDS` (parts of the data)")
	repeats := fs.Int("repeats", defRepeats, "the number of `REPEATS` of the k-fold split")
	pyldl := fs.Bool("pyldl", false, "compute the measures as PyLDL does (masses clipped to [2.2e-16, 1] before clark, canberra and kl)")
	jobs := fs.Int("jobs", 0, "train this many `MODELS` at a time (0: one per core)")
	format := fs.String("format", "text", "output `FORMAT`: text or json")
	out := fs.OutFile("out", "write the output to `FILE`, all or nothing, instead of standard output")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fs.fail("cv takes no arguments; give the data with --data")
	}
	if err := tf.check(e, fs); err != nil {
		return err
	}
	switch {
	case *folds < 2:
		return fs.fail("--folds must be at least 2, not %d", *folds)
	case *repeats < 1:
		return fs.fail("--repeats must be at least 1, not %d", *repeats)
	case *jobs < 0:
		return fs.fail("--jobs must be ≥ 0, not %d", *jobs)
	case *format != "text" && *format != "json":
		return fs.fail("--format must be text or json, not %q", *format)
	}

	files := fs.files()
	files.Input("--data", *tf.data)
	inputTrees(files, *tf.tree, *tf.trees)
	if err := fs.checkFiles(files); err != nil {
		return err
	}
	d, sliced, err := loadLDL(e, fs, *tf.data, *tf.tree, *tf.trees)
	if err != nil {
		return err
	}
	n := d.Len()
	if *folds > n {
		return fmt.Errorf("%s: %s, too few for %d folds", d.Name, plural(n, "sample"), *folds)
	}
	cvOpts := &ldl.CVOptions{Folds: *folds, Repeats: *repeats, PyLDL: *pyldl, Jobs: *jobs}
	if !*tf.quiet {
		started := time.Now()
		cvOpts.Progress = func(s ldl.FoldScore) {
			elapsed := time.Since(started)
			remaining := time.Duration(float64(elapsed) / float64(s.Done) * float64(s.Total-s.Done))
			fmt.Fprintf(e.stderr, "%d/%d folds done (repeat %d, fold %d): chebyshev %.4f  wasserstein %.4f  elapsed %s  remaining %s\n",
				s.Done, s.Total, s.Repeat, s.Fold, s.Means[slices.Index(metric.Names, "chebyshev")], s.Means[slices.Index(metric.Names, "wasserstein")],
				human.Seconds(elapsed.Seconds()), human.Seconds(remaining.Seconds()))
		}
	}
	opts := tf.options(fs, sliced)
	res, err := ldl.CrossValidate(e.ctx, d, &opts, cvOpts)
	if err != nil {
		return fitError(err, *tf.lr, "")
	}
	var buf bytes.Buffer
	if *format == "json" {
		err = res.WriteJSON(&buf)
	} else {
		err = res.WriteText(&buf, d, &opts, *pyldl)
	}
	if err != nil {
		return err
	}
	return e.output(*out, buf.Bytes())
}
