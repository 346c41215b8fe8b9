package main

import (
	"bytes"
	"fmt"
	"time"

	"github.com/twl-ldl/twl/ldl"
	"github.com/twl-ldl/twl/metric"
)

const cvAbout = `
Cv estimates how well a model trained as 'twl train' would predict new
samples, by repeated k-fold cross-validation, the protocol of the LDL
literature: the rows of DATA are split at random into --folds parts; each part
in turn is predicted by a model trained on the others (with the
standardization fitted on those only), and every measure of 'twl eval' is
averaged over the part's rows. That is repeated --repeats times with new
splits. Cv prints, for each measure, the mean and the sample standard
deviation (n − 1) of those folds × repeats per-fold means, as LDL papers
report them; --format json writes one JSON object: "folds", "repeats",
"rows" (the samples of DATA), and for each measure name of 'twl eval'
("wasserstein", "kl", "chebyshev", "clark", "canberra", "cosine",
"intersection") {"mean": ..., "std": ...}. --pyldl computes the measures as
PyLDL does (see 'twl eval --help'), to compare with published tables.
` + trainFlagsAbout + `

The splits and the training of run i follow --seed, so the result does not
depend on --jobs or the machine. Progress goes to standard error, one line
per fold as it finishes: how many folds are done of how many, which fold
it was (folds run --jobs at a time and finish in any order), and its
chebyshev and wasserstein. Ctrl-C (SIGINT) or SIGTERM stops the folds in
progress, training or scoring, and writes nothing (exit status 130 or 143);
a run that diverges in any fold is an error (see 'twl train --help').`

const cvExamples = `  # SJAFFE, 10 × 10-fold as published for SA-BFGS (PyLDL README).
  twl cv --data SJAFFE.mat --tree star --folds 10 --repeats 10 --pyldl

  # Does the tree-Wasserstein term help on ordinal labels (ages)? Compare wasserstein.
  twl cv --data FG-Net.mat --tree chain --loss kl --repeats 3 --format json
  twl cv --data FG-Net.mat --tree chain --loss kl+tw --lambda 1 --repeats 3 --format json`

const defRepeats = 10

func runCV(e *env, args []string) error {
	fs := newFlags("cv", "twl cv --data DATA --tree TREE [flags]", cvAbout, cvExamples)
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

	if err := checkNotInput(fs, map[string]string{"out": *out}, map[string]string{"--data": *tf.data, "--tree": *tf.tree, "--trees": *tf.trees}); err != nil {
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
				s.Done, s.Total, s.Repeat, s.Fold, s.Means[metricIndex("chebyshev")], s.Means[metricIndex("wasserstein")],
				elapsed.Round(time.Millisecond), remaining.Round(time.Second))
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

func metricIndex(name string) int {
	for i, n := range metric.Names {
		if n == name {
			return i
		}
	}
	panic("cv: unknown metric " + name)
}
