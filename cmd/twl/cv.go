package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/twl-ldl/twl/dataset"
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
	out := fs.String("out", "", "write the output to `FILE`, all or nothing, instead of standard output")
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
	if err := checkOutDir(*out); err != nil {
		return err
	}
	d, err := loadLDL(e, fs, *tf.data, *tf.tree, *tf.trees)
	if err != nil {
		return err
	}
	n := d.Len()
	if *folds > n {
		return fmt.Errorf("%s: %s, too few for %d folds", d.file, plural(n, "sample"), *folds)
	}
	var progress io.Writer
	if !*tf.quiet {
		progress = e.stderr
	}
	cv := &crossValidation{
		d: d, spec: tf.spec(*tf.data), folds: *folds, repeats: *repeats,
		clip: *pyldl, jobs: *jobs, progress: progress, ctx: e.ctx,
	}
	means, err := cv.run()
	if err != nil {
		return err
	}
	sum := summarize(means)
	var buf bytes.Buffer
	if *format == "json" {
		kv := make([]any, 0, 6+2*len(metric.Names))
		kv = append(kv, "folds", *folds, "repeats", *repeats, "rows", n)
		for _, name := range metric.Names {
			var b []byte
			b = append(b, `{"mean":`...)
			b = appendJSONFloat(b, sum[name][0])
			b = append(b, `,"std":`...)
			b = appendJSONFloat(b, sum[name][1])
			kv = append(kv, name, append(b, '}'))
		}
		writeJSONObject(&buf, kv...)
	} else {
		cv.writeText(&buf, sum)
	}
	return e.output(*out, buf.Bytes())
}

// crossValidation is one run of twl cv.
type crossValidation struct {
	d              *ldlData
	spec           fitSpec
	folds, repeats int
	clip           bool
	jobs           int
	progress       io.Writer
	ctx            context.Context // stops the folds; nil: never
}

// runSeed derives the seed of run i (repeat i / folds, fold i % folds)
// from the seed given, with the golden-ratio increment of SplitMix64.
func runSeed(seed uint64, i int) uint64 {
	return seed + uint64(i+1)*0x9e3779b97f4a7c15
}

// run trains and scores every fold of every repeat and returns, per metric
// name, the per-fold means in run order (repeat-major).
func (cv *crossValidation) run() (map[string][]float64, error) {
	n := cv.d.Len()
	type task struct{ repeat, fold, index int }
	var tasks []task
	testRows := make([][]int, 0, cv.folds*cv.repeats)
	for r := range cv.repeats {
		parts := dataset.KFold(n, cv.folds, rand.NewPCG(cv.spec.seed, streamFolds+uint64(r)))
		for f, part := range parts {
			tasks = append(tasks, task{r, f, len(testRows)})
			testRows = append(testRows, part)
		}
	}
	total := len(tasks)
	results := make([][]float64, total) // results[i][m]: metric m of run i
	errs := make([]error, total)

	jobs := cv.jobs
	if jobs == 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	jobs = min(jobs, total)
	var (
		mu      sync.Mutex
		done    int
		failed  bool
		started = time.Now()
		next    = make(chan task)
		wg      sync.WaitGroup
	)
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ev := metric.NewEvaluator(cv.d.t, &metric.Options{Clip: cv.clip})
			for tk := range next {
				res, err := cv.fold(ev, testRows[tk.index], runSeed(cv.spec.seed, tk.index))
				mu.Lock()
				results[tk.index], errs[tk.index] = res, err
				if err != nil {
					failed = true
				}
				done++
				if cv.progress != nil && err == nil {
					elapsed := time.Since(started)
					remaining := time.Duration(float64(elapsed) / float64(done) * float64(total-done))
					fmt.Fprintf(cv.progress, "%d/%d folds done (repeat %d, fold %d): chebyshev %.4f  wasserstein %.4f  elapsed %s  remaining %s\n",
						done, total, tk.repeat+1, tk.fold+1, res[metricIndex("chebyshev")], res[metricIndex("wasserstein")],
						elapsed.Round(time.Millisecond), remaining.Round(time.Second))
				}
				mu.Unlock()
			}
		}()
	}
	for _, tk := range tasks {
		mu.Lock()
		stop := failed
		mu.Unlock()
		if stop || cv.ctx != nil && cv.ctx.Err() != nil {
			break
		}
		next <- tk
	}
	close(next)
	wg.Wait()
	if cv.ctx != nil && cv.ctx.Err() != nil {
		return nil, fmt.Errorf("cv: stopped: %w", cv.ctx.Err())
	}
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("repeat %d, fold %d: %w", tasks[i].repeat+1, tasks[i].fold+1, err)
		}
	}
	means := make(map[string][]float64, len(metric.Names))
	for m, name := range metric.Names {
		v := make([]float64, total)
		for i := range v {
			v[i] = results[i][m]
		}
		means[name] = v
	}
	return means, nil
}

// fold trains on all rows but test and returns the mean of every metric
// (in the order of metric.Names) over the rows of test.
func (cv *crossValidation) fold(ev *metric.Evaluator, test []int, seed uint64) ([]float64, error) {
	spec := cv.spec
	spec.seed = seed
	res, err := fit(cv.d, dataset.Complement(cv.d.Len(), test), spec, fitRun{ctx: cv.ctx})
	if err != nil {
		return nil, err
	}
	// Predict and score the test rows a batch at a time, each target made
	// dense in turn: the same Row calls and means as Evaluator.Evaluate on
	// the whole fold, without holding it densely.
	L := len(res.file.Labels)
	M := len(metric.Names)
	const batch = 256 // even: rows pair in the kernels as in one whole batch
	P := make([]float64, min(batch, len(test))*L)
	q := make([]float64, L)
	vals := make([]float64, M*len(test)) // metric-major
	row := make([]float64, M)
	for s := 0; s < len(test); s += batch {
		if cv.ctx != nil && cv.ctx.Err() != nil {
			return nil, fmt.Errorf("cv: stopped while scoring: %w", cv.ctx.Err())
		}
		part := test[s:min(s+batch, len(test))]
		res.file.Predict(P[:len(part)*L], subsetX(cv.d.X, part).RawMatrix().Data)
		for k, r := range part {
			cv.d.Y.Dense(q, r)
			ev.Row(row, P[k*L:(k+1)*L], q)
			for m, v := range row {
				vals[m*len(test)+s+k] = v
			}
		}
	}
	out := make([]float64, M)
	for m := range out {
		out[m] = stat.Mean(vals[m*len(test):(m+1)*len(test)], nil)
	}
	return out, nil
}

func metricIndex(name string) int {
	for i, n := range metric.Names {
		if n == name {
			return i
		}
	}
	panic("cv: unknown metric " + name)
}

// summarize returns, per metric, the mean and the sample standard deviation
// of the per-fold means.
func summarize(means map[string][]float64) map[string][2]float64 {
	out := make(map[string][2]float64, len(means))
	for name, v := range means {
		m, s := stat.MeanStdDev(v, nil)
		out[name] = [2]float64{m, s}
	}
	return out
}

func (cv *crossValidation) writeText(buf *bytes.Buffer, sum map[string][2]float64) {
	s := cv.spec
	n, in := cv.d.X.Dims()
	fmt.Fprintf(buf, "%d-fold cross-validation × %s: %s\n", cv.folds, plural(cv.repeats, "repeat"), plural(cv.folds*cv.repeats, "model"))
	fmt.Fprintf(buf, "data %s: %s, %s, %s; tree %s\n", cv.d.file, plural(n, "sample"), plural(in, "feature"),
		plural(cv.d.t.Len(), "label"), cv.d.ref.Source)
	loss := s.loss
	if s.loss != "kl" {
		loss += fmt.Sprintf(" (λ %g)", s.lambda)
	}
	std := "standardized"
	if !s.standardize {
		std = "raw features"
	}
	fmt.Fprintf(buf, "loss %s; %d epochs, batch %d, lr %g, weight decay %g, %s", loss, s.epochs, s.batch, s.lr, s.weightDecay, std)
	if s.val > 0 {
		fmt.Fprintf(buf, ", validation %g", s.val)
		if s.patience > 0 {
			fmt.Fprintf(buf, " (patience %d)", s.patience)
		}
	}
	fmt.Fprintf(buf, "; seed %d\n\n", s.seed)
	fmt.Fprintf(buf, "%-16s %10s   %-8s\n", "measure", "mean", "± std")
	for _, name := range metric.Names {
		arrow := "↑"
		if metric.LowerIsBetter(name) {
			arrow = "↓"
		}
		fmt.Fprintf(buf, "%-16s %10s ± %-8s\n", name+" "+arrow, fixed4(sum[name][0]), fixed4(sum[name][1]))
	}
	conv := "exact measures"
	if cv.clip {
		conv = "measures as PyLDL computes them"
	}
	fmt.Fprintf(buf, "\nmean and sample standard deviation of the %d per-fold means; %s.\n", cv.folds*cv.repeats, conv)
}

// fixed4 formats v with 4 decimals, or as +Inf, -Inf, NaN.
func fixed4(v float64) string {
	return strconv.FormatFloat(v, 'f', 4, 64)
}
