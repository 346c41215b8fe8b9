package ldl

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/stat"

	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/metric"
)

// CVOptions control CrossValidate. The zero value is 10 × 10-fold
// cross-validation with the exact measures, one model per core at a time.
type CVOptions struct {
	Folds   int  // parts of the data; 0 means 10
	Repeats int  // repeats of the k-fold split; 0 means 10
	PyLDL   bool // compute the measures as PyLDL does (metric.Options.Clip)
	// Jobs is how many models are trained at a time; 0 means
	// runtime.GOMAXPROCS(0). The results do not depend on it.
	Jobs int
	// Progress, when not nil, is called as each fold finishes (in any
	// order, one call at a time) with its scores.
	Progress func(FoldScore)
}

// FoldScore is one fold's result.
type FoldScore struct {
	Repeat, Fold int       // 1-based
	Done, Total  int       // folds finished so far, this one included, of all
	Means        []float64 // the mean of each measure over the fold's rows, in the order of metric.Names
}

// Summary is the mean and the sample standard deviation (n − 1) of a
// measure's per-fold means.
type Summary struct {
	Mean, Std float64
}

// CVResult is the result of CrossValidate.
type CVResult struct {
	Folds, Repeats int
	Rows           int // the rows of the data
	// Means holds, per measure name of metric.Names, the per-fold means in
	// run order: repeat-major, folds in order.
	Means map[string][]float64
	// Summary holds, per measure name, the mean and sample standard
	// deviation of Means, as LDL papers report them.
	Summary map[string]Summary
}

// FoldError is the error of CrossValidate in one fold.
type FoldError struct {
	Repeat, Fold int // 1-based
	Err          error
}

// Error returns "repeat R, fold F: " and the fold's error.
func (e *FoldError) Error() string {
	return fmt.Sprintf("repeat %d, fold %d: %v", e.Repeat, e.Fold, e.Err)
}

// Unwrap returns the fold's error.
func (e *FoldError) Unwrap() error { return e.Err }

// Folds returns the k parts of the n rows of the repeat (0-based) of a
// cross-validation with seed: its test rows, fold by fold.
func Folds(n, k int, seed uint64, repeat int) [][]int {
	return dataset.KFold(n, k, rand.NewPCG(seed, streamFolds+uint64(repeat)))
}

// FoldSeed derives the seed that trains run i of a cross-validation
// (repeat i / folds, fold i % folds) from its seed, with the golden-ratio
// increment of SplitMix64: Fit with that seed on the other rows gives the
// fold's model.
func FoldSeed(seed uint64, i int) uint64 {
	return seed + uint64(i+1)*0x9e3779b97f4a7c15
}

// CrossValidate estimates how well a model fitted with opts predicts new
// samples, by repeated k-fold cross-validation, the protocol of the LDL
// literature: the rows of d are split at random into cv.Folds parts (Folds);
// each part in turn is predicted by a model trained on the others (with
// the standardization fitted on those only, with FoldSeed), and every
// measure of package metric is averaged over the part's rows. That is
// repeated cv.Repeats times with new splits. The splits and the training
// follow opts.Seed, so the result does not depend on cv.Jobs or the
// machine. opts.Progress and opts.Checkpoint are not used.
//
// When ctx is done, the folds in progress stop, training or scoring, and
// the error wraps ctx.Err(). An error in a fold (a run that diverges, see
// Fit) is a *FoldError, and stops the folds not yet started. Fewer rows
// than folds, and invalid options, are errors.
func CrossValidate(ctx context.Context, d *Data, opts *Options, cv *CVOptions) (*CVResult, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	s, err := o.resolve()
	if err != nil {
		return nil, err
	}
	var c CVOptions
	if cv != nil {
		c = *cv
	}
	if c.Folds == 0 {
		c.Folds = 10
	}
	if c.Repeats == 0 {
		c.Repeats = 10
	}
	n := d.Len()
	switch {
	case c.Folds < 2:
		return nil, fmt.Errorf("ldl: CVOptions.Folds must be at least 2, not %d", c.Folds)
	case c.Repeats < 1:
		return nil, fmt.Errorf("ldl: CVOptions.Repeats must be at least 1, not %d", c.Repeats)
	case c.Jobs < 0:
		return nil, fmt.Errorf("ldl: CVOptions.Jobs must be ≥ 0, not %d", c.Jobs)
	case c.Folds > n:
		return nil, fmt.Errorf("ldl: %s: %d rows, too few for %d folds", d.Name, n, c.Folds)
	}
	r := &crossValidation{d: d, s: &s, folds: c.Folds, repeats: c.Repeats, clip: c.PyLDL, jobs: c.Jobs, progress: c.Progress, ctx: ctx}
	means, err := r.run()
	if err != nil {
		return nil, err
	}
	res := &CVResult{Folds: c.Folds, Repeats: c.Repeats, Rows: n, Means: means, Summary: make(map[string]Summary, len(means))}
	for name, v := range means {
		m, sd := stat.MeanStdDev(v, nil)
		res.Summary[name] = Summary{Mean: m, Std: sd}
	}
	return res, nil
}

// crossValidation is one run of CrossValidate.
type crossValidation struct {
	d              *Data
	s              *settings
	folds, repeats int
	clip           bool
	jobs           int
	progress       func(FoldScore)
	ctx            context.Context // stops the folds; nil: never
}

// run trains and scores every fold of every repeat and returns, per metric
// name, the per-fold means in run order (repeat-major).
func (cv *crossValidation) run() (map[string][]float64, error) {
	n := cv.d.Len()
	type task struct{ repeat, fold, index int }
	var tasks []task
	testRows := make([][]int, 0, cv.folds*cv.repeats)
	for r := range cv.repeats {
		for f, part := range Folds(n, cv.folds, cv.s.Seed, r) {
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
		mu     sync.Mutex
		done   int
		failed bool
		next   = make(chan task)
		wg     sync.WaitGroup
	)
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ev := metric.NewEvaluator(cv.d.Tree, &metric.Options{Clip: cv.clip})
			for tk := range next {
				res, err := cv.fold(ev, testRows[tk.index], FoldSeed(cv.s.Seed, tk.index))
				mu.Lock()
				results[tk.index], errs[tk.index] = res, err
				if err != nil {
					failed = true
				}
				done++
				if cv.progress != nil && err == nil {
					cv.progress(FoldScore{Repeat: tk.repeat + 1, Fold: tk.fold + 1, Done: done, Total: total, Means: res})
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
		return nil, fmt.Errorf("ldl: cross-validation stopped: %w", cv.ctx.Err())
	}
	for i, err := range errs {
		if err != nil {
			return nil, &FoldError{Repeat: tasks[i].repeat + 1, Fold: tasks[i].fold + 1, Err: err}
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
	s := *cv.s
	s.Seed = seed
	f, _, err := fit(cv.ctx, cv.d, dataset.Complement(cv.d.Len(), test), &s, nil, "")
	if err != nil {
		return nil, err
	}
	// Predict and score the test rows a batch at a time, each target made
	// dense in turn: the same Row calls and means as Evaluator.Evaluate on
	// the whole fold, without holding it densely.
	L := len(f.Labels)
	M := len(metric.Names)
	const batch = 256 // even: rows pair in the kernels as in one whole batch
	P := make([]float64, min(batch, len(test))*L)
	q := make([]float64, L)
	vals := make([]float64, M*len(test)) // metric-major
	row := make([]float64, M)
	for b := 0; b < len(test); b += batch {
		if cv.ctx != nil && cv.ctx.Err() != nil {
			return nil, fmt.Errorf("ldl: stopped while scoring: %w", cv.ctx.Err())
		}
		part := test[b:min(b+batch, len(test))]
		f.Predict(P[:len(part)*L], subsetX(cv.d.X, part).RawMatrix().Data)
		for k, r := range part {
			cv.d.Y.Dense(q, r)
			ev.Row(row, P[k*L:(k+1)*L], q)
			for m, v := range row {
				vals[m*len(test)+b+k] = v
			}
		}
	}
	out := make([]float64, M)
	for m := range out {
		out[m] = stat.Mean(vals[m*len(test):(m+1)*len(test)], nil)
	}
	return out, nil
}
