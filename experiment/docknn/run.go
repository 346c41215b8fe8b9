package docknn

import (
	"context"
	"fmt"
	"github.com/twl-ldl/twl/internal/human"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/internal/parallel"
	"github.com/twl-ldl/twl/pointtree"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
)

// The PCG streams of the permutations that draw the documents.
const (
	streamTrain = 0x74_7261_696e // "train"
	streamTest  = 0x74_6573_74   // "test"
)

// TreeSeed returns the seed of tree t (0-based) of a builder, for the
// experiment's seed: a hash of the three, so that trees of different
// builders and indices are independent, and the tree t of a seed is the
// same whatever Trees holds.
func TreeSeed(seed uint64, builder string, t int) uint64 {
	h := mix(seed ^ 0x646f_636b_6e6e) // "docknn"
	for _, c := range []byte(builder) {
		h = mix(h ^ uint64(c))
	}
	return mix(h ^ uint64(t))
}

// mix is SplitMix64's finalizer after its increment.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Run draws the documents, computes the test-by-training distances of WMD
// and of every TSW, and classifies the test documents by their nearest
// training documents (see the package documentation). Errors: an invalid
// cfg (wrapping ErrConfig), documents that do not allow the experiment
// (ErrData: too few with a word left, a document without one class), a
// failure of the exact solver, and cfg.Context's error when it is done.
func Run(cfg Config) (*Result, error) {
	r, err := cfg.Resolve()
	if err != nil {
		return nil, err
	}
	began := time.Now()
	progress := cfg.Progress
	if progress == nil {
		progress = io.Discard
	}
	ctx := cfg.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	lex := newLexicon(cfg.Emb)
	trainRaw, trainNames, trainTC, err := draw(cfg.Train, r.DocsTrain, r.Words, r.KeepHeaders, rand.NewPCG(r.Seed, streamTrain), lex)
	if err != nil {
		return nil, err
	}
	testRaw, testNames, testTC, err := draw(cfg.Test, r.DocsTest, r.Words, r.KeepHeaders, rand.NewPCG(r.Seed, streamTest), lex)
	if err != nil {
		return nil, err
	}
	pts, bags := union(lex, trainRaw, testRaw)
	train, test := bags[0], bags[1]
	res := &Result{Header: report.NewHeader(ResultFormat, r), Train: trainTC, Test: testTC,
		Points: len(pts.names), Dim: pts.d}
	seen := map[string]bool{}
	for _, c := range slices.Concat(trainNames, testNames) {
		seen[c] = true
	}
	res.Classes = slices.Sorted(maps.Keys(seen))
	classIndex := func(names []string) []int {
		out := make([]int, len(names))
		for i, n := range names {
			out[i], _ = slices.BinarySearch(res.Classes, n)
		}
		return out
	}
	trainClass, testClass := classIndex(trainNames), classIndex(testNames)
	fmt.Fprintf(progress, "docknn: %d training documents (%d classes) of %s, %d test documents of %s; %d words of dimension %d; %.1f words a document\n",
		len(train), trainTC.Classes, cfg.Train.File, len(test), cfg.Test.File, res.Points, res.Dim,
		float64(trainTC.Distinct+testTC.Distinct)/float64(len(train)+len(test)))

	pairs := float64(len(train) * len(test))
	knn := func(m *Method, dist []float64) []int {
		errs, nearest := KNNErrors(dist, trainClass, testClass, len(res.Classes), r.Ks)
		m.BestError = report.Float(math.Inf(1))
		for q, e := range errs {
			m.Errors = append(m.Errors, report.Float(e))
			if report.Float(e) < m.BestError {
				m.BestK, m.BestError = r.Ks[q], report.Float(e)
			}
		}
		return nearest
	}
	_, res.CPUClock = processCPU()

	// The exact distances.
	solvers := make([]*wmd, r.Workers)
	rows := make([]rowWorker, r.Workers)
	for w := range solvers {
		solvers[w] = &wmd{p: pts, train: train, test: test}
		rows[w] = solvers[w]
	}
	wmdDist := make([]float64, len(test)*len(train))
	wall, cpu, err := matrix(ctx, wmdDist, len(train), len(test), rows, progress, "WMD")
	if err != nil {
		return nil, err
	}
	exact := Method{Name: "WMD", MatrixTimes: matrixTimes(wall, cpu, pairs), Speedup: 1, Agreement: 1, Correlation: 1, Ratio: 1}
	var costTime, pairTime time.Duration
	for _, s := range solvers {
		costTime += s.costTime
		pairTime += s.pairTime
	}
	exact.CostShare = report.Float(costTime.Seconds() / pairTime.Seconds())
	res.Utilization = report.Float(cpu.Seconds() / wall.Seconds() / float64(r.Workers))
	wmdNearest := knn(&exact, wmdDist)
	res.Methods = append(res.Methods, exact)
	fmt.Fprintf(progress, "docknn: WMD: %s (%s CPU a pair); best error %.1f%% at k = %d\n",
		human.Seconds(wall.Seconds()), human.Seconds(float64(exact.PairSeconds)), 100*float64(exact.BestError), exact.BestK)

	// The tree-sliced distances.
	maxT := slices.Max(r.Trees)
	dist := make([]float64, len(wmdDist))
	byEmb := make([]float64, len(wmdDist))
	for _, b := range r.Builders {
		trees := make([]*tree.Tree, maxT)
		build := make([]time.Duration, maxT)
		for t := range maxT {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			sw := startWatch()
			trees[t], err = buildTree(pts, b, TreeSeed(r.Seed, b, t), r)
			_, build[t] = sw.read()
			if err != nil {
				return nil, fmt.Errorf("docknn: %s tree %d: %w", b, t, err)
			}
		}
		for _, T := range r.Trees {
			name := fmt.Sprintf("TSW %s T=%d", b, T)
			sw := startWatch()
			s, err := tsw.New(trees[:T], pts.names)
			if err != nil {
				return nil, fmt.Errorf("docknn: %s trees: %w", b, err)
			}
			_, buildTime := sw.read()
			for _, d := range build[:T] {
				buildTime += d
			}
			for w := range rows {
				rows[w] = &tswRow{s: s.Clone(), train: train, test: test}
			}
			wall, cpu, err := matrix(ctx, dist, len(train), len(test), rows, progress, name)
			if err != nil {
				return nil, err
			}
			m := Method{Name: name, Builder: b, Trees: T, BuildSeconds: report.Float(buildTime.Seconds()),
				MatrixTimes: matrixTimes(wall, cpu, pairs)}
			m.Speedup = exact.PairSeconds / m.PairSeconds

			// The same distances by the ℓ₁ embedding.
			sw = startWatch()
			trainEmb, testEmb := make([]tsw.SparseVec, len(train)), make([]tsw.SparseVec, len(test))
			for i, bag := range train {
				trainEmb[i] = s.SparseEmbed(tsw.SparseVec{}, bag.Words, bag.Mass)
			}
			for i, bag := range test {
				testEmb[i] = s.SparseEmbed(tsw.SparseVec{}, bag.Words, bag.Mass)
			}
			_, embTime := sw.read()
			for w := range rows {
				rows[w] = &l1Row{train: trainEmb, test: testEmb, x: make([]float64, s.EmbedLen())}
			}
			_, cpu, err = matrix(ctx, byEmb, len(train), len(test), rows, progress, name+" (embedded)")
			if err != nil {
				return nil, err
			}
			m.EmbedSeconds, m.EmbedPairSeconds = report.Float(embTime.Seconds()), report.Float(cpu.Seconds()/pairs)
			m.EmbedSpeedup = exact.PairSeconds / m.EmbedPairSeconds
			m.TotalSpeedup = exact.CPUSeconds / (m.BuildSeconds + m.EmbedSeconds + report.Float(cpu.Seconds()))
			m.EmbedDiff = report.Float(maxDiff(byEmb, dist))

			nearest := knn(&m, dist)
			m.Agreement, m.Correlation, m.Ratio = compare(dist, wmdDist, nearest, wmdNearest)
			res.Methods = append(res.Methods, m)
			fmt.Fprintf(progress, "docknn: %s: trees %s; sparse distances %s (%s CPU a pair, %.0f× less than WMD); embedded %s a pair (%.0f×); best error %.1f%% at k = %d\n",
				name, human.Seconds(buildTime.Seconds()), human.Seconds(wall.Seconds()), human.Seconds(float64(m.PairSeconds)), float64(m.Speedup),
				human.Seconds(float64(m.EmbedPairSeconds)), float64(m.EmbedSpeedup), 100*float64(m.BestError), m.BestK)
		}
	}
	res.Seconds = report.Float(time.Since(began).Seconds())
	return res, nil
}

// stopwatch measures the wall-clock and CPU time of a step.
type stopwatch struct {
	wall time.Time
	cpu  time.Duration
	ok   bool
}

func startWatch() stopwatch {
	cpu, ok := processCPU()
	return stopwatch{wall: time.Now(), cpu: cpu, ok: ok}
}

// read returns the wall-clock and CPU time since the start; the CPU time
// is the wall-clock time where there is no CPU clock.
func (s stopwatch) read() (wall, cpu time.Duration) {
	wall = time.Since(s.wall)
	if c, ok := processCPU(); ok && s.ok {
		return wall, c - s.cpu
	}
	return wall, wall
}

// maxDiff returns the largest |x[i] − y[i]| relative to the largest |y[i]|.
func maxDiff(x, y []float64) float64 {
	var d, m float64
	for i := range x {
		d = max(d, math.Abs(x[i]-y[i]))
		m = max(m, math.Abs(y[i]))
	}
	if m == 0 {
		return d
	}
	return d / m
}

// buildTree builds one tree of builder b over the points.
func buildTree(p *points, b string, seed uint64, r Resolved) (*tree.Tree, error) {
	n := len(p.names)
	switch b {
	case BuilderCluster:
		return pointtree.Cluster(p.x, n, p.d, p.names, &pointtree.ClusterOptions{K: r.ClusterK, Depth: r.ClusterDepth,
			Iters: r.ClusterIters, Seed: seed, Workers: r.Workers})
	case BuilderQuad:
		return pointtree.Quad(p.x, n, p.d, p.names, &pointtree.QuadOptions{Depth: r.QuadDepth, Seed: seed})
	}
	panic("docknn: unknown builder " + b)
}

// compare returns the fraction of equal nearest documents, the Pearson
// correlation of x with the exact distances y, and the mean of x/y where
// y > 0.
func compare(x, y []float64, nx, ny []int) (agree, corr, ratio report.Float) {
	same := 0
	for i := range nx {
		if nx[i] == ny[i] {
			same++
		}
	}
	var sum float64
	n := 0
	for i := range x {
		if y[i] > 0 {
			sum += x[i] / y[i]
			n++
		}
	}
	return report.Float(float64(same) / float64(len(nx))), report.Float(stat.Correlation(x, y, nil)), report.Float(sum / float64(n))
}

// rowWorker computes the distances of test document i to every training
// document. Each goroutine has its own.
type rowWorker interface {
	row(dst []float64, i int) error
}

var (
	_ rowWorker = (*wmd)(nil)
	_ rowWorker = (*tswRow)(nil)
	_ rowWorker = (*l1Row)(nil)
)

func (w *wmd) row(dst []float64, i int) error {
	a := w.test[i]
	for j, b := range w.train {
		t0 := time.Now()
		d, err := w.distance(a, b)
		w.pairTime += time.Since(t0)
		if err != nil {
			return err
		}
		dst[j] = d
	}
	return nil
}

// tswRow computes tree-sliced distances on its own tsw.Sliced clone.
type tswRow struct {
	s           *tsw.Sliced
	train, test []Bag
}

func (w *tswRow) row(dst []float64, i int) error {
	a := w.test[i]
	for j, b := range w.train {
		dst[j] = w.s.SparseDistance(a.Words, a.Mass, b.Words, b.Mass)
	}
	return nil
}

// l1Row computes the ℓ₁ distances between the tree embeddings of
// tsw.Sliced.SparseEmbed: the test document's is scattered into x, dense,
// and each training document's sparse one read against it (see l1Dense).
type l1Row struct {
	train, test []tsw.SparseVec
	x           []float64 // zero between rows
}

func (w *l1Row) row(dst []float64, i int) error {
	a := w.test[i]
	var norm float64
	for k, j := range a.Index {
		w.x[j] = a.Value[k]
		norm += math.Abs(a.Value[k])
	}
	for j, b := range w.train {
		dst[j] = l1Dense(w.x, norm, b)
	}
	for _, j := range a.Index {
		w.x[j] = 0
	}
	return nil
}

// l1Dense returns ‖x − y‖₁ for x dense, of ℓ₁ norm xNorm, and y sparse,
// as xNorm + Σ_{i ∈ supp y} (|x_i − y_i| − |x_i|): O(y.Len()), with no
// branch on the indices, where tsw.L1 merges the two index lists. The sum
// cancels where y is close to x: the result is then within a few ulps of
// xNorm of the true distance, not relative to it.
func l1Dense(x []float64, xNorm float64, y tsw.SparseVec) float64 {
	s := xNorm
	for k, i := range y.Index {
		xi := x[i]
		s += math.Abs(xi-y.Value[k]) - math.Abs(xi)
	}
	return s
}

// A distance matrix is computed in progressSteps blocks of test documents,
// with a progress line after a block when progressEvery has passed since
// the last.
const (
	progressSteps = 10
	progressEvery = 5 * time.Second
)

// matrix fills dist (row-major, nTest rows of nTrain) with the workers, one
// test document a task, and returns its wall-clock and CPU time. It stops
// at the next task when ctx is done.
func matrix(ctx context.Context, dist []float64, nTrain, nTest int, workers []rowWorker, progress io.Writer, name string) (wall, cpu time.Duration, err error) {
	pool := make(chan rowWorker, len(workers))
	for _, w := range workers {
		pool <- w
	}
	errs := make([]error, nTest)
	sw := startWatch()
	var said time.Duration // when the last progress line was written
	step := max(1, (nTest+progressSteps-1)/progressSteps)
	for lo := 0; lo < nTest; lo += step {
		hi := min(lo+step, nTest)
		parallel.Each(hi-lo, len(workers), func(task int) {
			i := lo + task
			if ctx.Err() != nil {
				return
			}
			w := <-pool
			errs[i] = w.row(dist[i*nTrain:(i+1)*nTrain], i)
			pool <- w
		})
		if err := ctx.Err(); err != nil {
			return 0, 0, err
		}
		for i := lo; i < hi; i++ {
			if errs[i] != nil {
				return 0, 0, fmt.Errorf("docknn: %s, test document %d: %w", name, i, errs[i])
			}
		}
		if now, _ := sw.read(); hi < nTest && now-said >= progressEvery {
			fmt.Fprintf(progress, "docknn: %s: %d/%d test documents, %s\n", name, hi, nTest, human.Seconds(now.Seconds()))
			said = now
		}
	}
	wall, cpu = sw.read()
	return wall, cpu, nil
}
