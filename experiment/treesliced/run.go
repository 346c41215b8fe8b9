package treesliced

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/internal/parallel"
	"github.com/twl-ldl/twl/ot/emd"
	"github.com/twl-ldl/twl/pointtree"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
)

// minEval is the least time of a block of TSW evaluations of one pair:
// the calls are repeated back to back (at least 3 times) and timed
// together; the fastest of evalBlocks blocks is kept, so that a block
// interrupted by another program does not count.
const (
	minEval    = 500 * time.Microsecond
	evalBlocks = 3
)

// Run runs the experiment of cfg: for each cell (d, n), in the order of
// Dims then Sizes, Pairs pairs of clouds, the exact W1 of each and TSW for
// every builder and number of trees. An invalid cfg gives an error
// wrapping ErrConfig; a done Context stops Run before its next pair, with
// the Context's error.
func Run(cfg Config) (*Result, error) {
	rc, err := cfg.Resolve()
	if err != nil {
		return nil, err
	}
	ctx := cfg.Context
	if ctx == nil {
		ctx = context.Background()
	}
	progress := func(format string, args ...any) {
		if cfg.Progress != nil {
			fmt.Fprintf(cfg.Progress, "treesliced: "+format+"\n", args...)
		}
	}
	res := &Result{Date: time.Now().UTC().Truncate(time.Second), Machine: report.ThisMachine(), CPU: cpuName(), Config: rc}
	start := time.Now()
	s := rc.Settings
	cells := len(s.Dims) * len(s.Sizes)
	for _, d := range s.Dims {
		for _, n := range s.Sizes {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			t0 := time.Now()
			progress("[%d/%d] d = %d, n = %d: %s, T = %s", len(res.Cells)+1, cells, d, n, plural(s.Pairs, "pair"), ints(s.Trees))
			c, err := runCell(ctx, rc, d, n)
			if err != nil {
				return nil, err
			}
			res.Cells = append(res.Cells, c)
			last := c.Rows[len(c.Rows)-1]
			progress("[%d/%d] d = %d, n = %d: done in %s; exact W1 %s per pair; %s with T = %d: correlation %s",
				len(res.Cells), cells, d, n, seconds(time.Since(t0).Seconds()), seconds(float64(c.ExactSeconds)), last.Builder, last.Trees, f3(last.Corr))
		}
	}
	res.Seconds = report.Float(time.Since(start).Seconds())
	return res, nil
}

// runCell measures the pairs of the cell (d, n) and summarizes them.
func runCell(ctx context.Context, rc Resolved, d, n int) (*Cell, error) {
	s := rc.Settings
	names := make([]string, 2*n)
	for i := range names {
		names[i] = strconv.Itoa(i) // pointtree's names for nil
	}
	c := &Cell{D: d, N: n, Pairs: make([]*PairRecord, s.Pairs)}
	errs := make([]error, s.Pairs)
	solvers := make(chan *emd.Solver, rc.Workers)
	for range rc.Workers {
		solvers <- new(emd.Solver)
	}
	parallel.Each(s.Pairs, rc.Workers, func(k int) {
		if errs[k] = ctx.Err(); errs[k] != nil {
			return
		}
		sv := <-solvers
		c.Pairs[k], errs[k] = measurePair(rc, d, n, k, names, sv)
		solvers <- sv
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	c.summarize(rc)
	return c, nil
}

// Salts of the seeds of one tree, per use.
const (
	saltCluster = 0x636c7573 // "clus"
	saltQuad    = 0x71756164 // "quad"
	saltFit     = 0x66697420 // "fit "
)

// TreeSeed is the seed of tree t of pair k of the cell (d, n) for the use
// salt: a SplitMix64 hash of them all, so that every tree of a run draws
// its own stream from Config.Seed.
func TreeSeed(seed uint64, d, n, k, t int, salt uint64) uint64 {
	h := seed
	for _, v := range []uint64{uint64(d), uint64(n), uint64(k), uint64(t), salt} {
		h = splitmix(h ^ splitmix(v))
	}
	return h
}

func splitmix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// built is the trees of one builder for a pair, with the time each took.
type built struct {
	trees   []*tree.Tree
	seconds []float64
}

// measurePair draws pair k of the cell, solves its exact W1 and evaluates
// TSW on the trees of every builder.
func measurePair(rc Resolved, d, n, k int, names []string, sv *emd.Solver) (*PairRecord, error) {
	s := rc.Settings
	p := NewPair(rc.Seed, d, n, k, rc.Components, rc.Masses)
	rec := &PairRecord{Index: k, Shift: report.Float(p.Shift)}

	if err := rec.exact(sv, p); err != nil {
		return nil, fmt.Errorf("treesliced: exact W1 of pair %d of d = %d, n = %d: %w", k, d, n, err)
	}

	u := p.Union()
	a, b := p.Dense()
	Tmax := s.Trees[len(s.Trees)-1]
	// build makes Tmax trees, timing each; the clustering trees are made
	// once and refitted by cluster+fit.
	var cluster *built
	var build func(name string) (*built, error)
	build = func(name string) (*built, error) {
		if name == BuilderCluster && cluster != nil {
			return cluster, nil
		}
		if name == BuilderClusterFit && cluster == nil {
			var err error
			if cluster, err = build(BuilderCluster); err != nil {
				return nil, err
			}
		}
		bt := &built{}
		for t := range Tmax {
			var tr *tree.Tree
			var err error
			t0 := time.Now()
			switch name {
			case BuilderCluster:
				tr, err = pointtree.Cluster(u, 2*n, d, nil, &pointtree.ClusterOptions{
					K: rc.ClusterK, Depth: rc.ClusterDepth, Iters: rc.ClusterIters,
					Seed: TreeSeed(rc.Seed, d, n, k, t, saltCluster), Workers: 1})
			case BuilderQuad:
				tr, err = pointtree.Quad(u, 2*n, d, nil, &pointtree.QuadOptions{
					Depth: rc.QuadDepth, Seed: TreeSeed(rc.Seed, d, n, k, t, saltQuad)})
			case BuilderClusterFit:
				tr, err = pointtree.FitWeights(cluster.trees[t], u, 2*n, d, nil, &pointtree.FitOptions{
					Pairs: s.FitPairs * 2 * n, Seed: TreeSeed(rc.Seed, d, n, k, t, saltFit)})
			}
			sec := time.Since(t0).Seconds()
			if err != nil {
				return nil, err
			}
			if name == BuilderClusterFit {
				sec += cluster.seconds[t] // a user builds the clustering tree too
			}
			bt.seconds = append(bt.seconds, sec)
			bt.trees = append(bt.trees, tr)
		}
		if name == BuilderCluster {
			cluster = bt
		}
		return bt, nil
	}
	for _, name := range rc.Builders {
		bt, err := build(name)
		if err != nil {
			return nil, fmt.Errorf("treesliced: %s trees of pair %d of d = %d, n = %d: %w", name, k, d, n, err)
		}
		br := &BuilderRecord{Builder: name, BuildSeconds: make([]report.Float, Tmax)}
		for t, sec := range bt.seconds {
			br.BuildSeconds[t] = report.Float(sec)
			br.Nodes += float64(bt.trees[t].Len()) / float64(Tmax)
		}
		for _, T := range s.Trees {
			sl, err := tsw.New(bt.trees[:T], names)
			if err != nil {
				return nil, fmt.Errorf("treesliced: %s trees of pair %d of d = %d, n = %d: %w", name, k, d, n, err)
			}
			v, sec := timeDistance(sl, a, b)
			br.TSW = append(br.TSW, report.Float(v))
			br.EvalSeconds = append(br.EvalSeconds, report.Float(sec))
		}
		rec.Builders = append(rec.Builders, br)
	}
	return rec, nil
}

// exact sets rec's W1 to the exact W1 of p, by the network simplex on the
// Euclidean cost matrix, and the times of the two.
func (rec *PairRecord) exact(sv *emd.Solver, p *Pair) error {
	t0 := time.Now()
	cost := p.Cost(nil)
	rec.CostSeconds = report.Float(time.Since(t0).Seconds())
	t0 = time.Now()
	w1, err := sv.Cost(cost, p.MA, p.MB)
	rec.SimplexSeconds = report.Float(time.Since(t0).Seconds())
	rec.W1 = report.Float(w1)
	return err
}

// timeDistance returns TSW(a, b) and the time of one evaluation: the first
// call (which allocates the workspaces) is not timed; then evalBlocks
// blocks of back-to-back calls, each lasting at least minEval and 3 calls,
// and the smallest mean time of a call in a block.
func timeDistance(s *tsw.Sliced, a, b []float64) (float64, float64) {
	v := s.Distance(a, b)
	best := math.Inf(1)
	for range evalBlocks {
		calls := 0
		t0 := time.Now()
		var el time.Duration
		for calls < 3 || el < minEval {
			if w := s.Distance(a, b); w != v && !(math.IsNaN(w) && math.IsNaN(v)) {
				panic("treesliced: TSW changed between calls") // tsw is deterministic
			}
			calls++
			el = time.Since(t0)
		}
		best = min(best, el.Seconds()/float64(calls))
	}
	return v, best
}

// plural formats "1 pair", "2 pairs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// ints formats a list of integers as "1, 4, 16".
func ints(v []int) string {
	s := ""
	for i, x := range v {
		if i > 0 {
			s += ", "
		}
		s += strconv.Itoa(x)
	}
	return s
}
