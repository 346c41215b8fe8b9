package main

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/twl-ldl/twl/bench"
)

func runBench(e *env, args []string) error {
	fs := newFlags("bench", "twl bench [flags] [tw|emd|sinkhorn|lstm|cli|all ...]")
	var labels intList
	fs.Var(&labels, "labels", "comma-separated numbers of labels `L` (default: tw 100,…,1000000; emd 100,1000,3000; sinkhorn 100,…,100000)")
	format := fs.String("format", "text", "output `FORMAT`: text or json")
	r := &bench.Runner{Out: e.stdout, Log: e.stderr, Ctx: e.ctx}
	fs.IntVar(&r.Batch, "batch", 100, "`N` rows per call in the batch cases")
	fs.Uint64Var(&r.Seed, "seed", 1, "`S` seeds the random trees and distributions")
	fs.IntVar(&r.Workers, "workers", 0, "`N` goroutines in the batch cases (0: all cores)")
	fs.DurationVar(&r.Target, "time", 500*time.Millisecond, "run each case for about `D` (such as 500ms, 2s)")
	order := fs.String("order", "bfs,random", "comma-separated label `ORDERS`: bfs, random")
	ls := &r.LSTM
	fs.IntVar(&ls.Len, "len", 200, "lstm: `N` tokens per document")
	fs.IntVar(&ls.Dim, "dim", 100, "lstm: word vectors of `D` dimensions")
	fs.IntVar(&ls.Hidden, "hidden", 200, "lstm: `H` hidden units")
	fs.IntVar(&ls.Vocab, "vocab", 20000, "lstm: `V` words in the vocabulary")
	fs.BoolVar(&r.Freeze, "freeze", false, "lstm: time frozen word vectors only (default: frozen and trained)")
	fs.BoolVar(&r.TrainEmb, "train-emb", false, "lstm: time trained word vectors only")
	fs.IntVar(&r.Rows, "rows", 3000, "cli: `N` rows in each file of distributions")
	fs.IntVar(&r.NonZero, "nnz", 20, "cli: `K` labels with mass in each row")
	maxMem := byteSize(8 << 30)
	fs.Var(&maxMem, "max-memory", "skip cases that would hold more than `SIZE` (and report what they would need)")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	kernels, err := bench.Kernels(pos)
	if err != nil {
		return fs.fail("%v", err)
	}
	switch {
	case *format != "text" && *format != "json":
		return fs.fail("--format must be text or json, not %q", *format)
	case r.Workers < 0:
		return fs.fail("--workers %d is negative", r.Workers)
	case r.Batch < 1:
		return fs.fail("--batch must be at least 1")
	case r.Target <= 0:
		return fs.fail("--time must be positive")
	case ls.Len < 1 || ls.Dim < 1 || ls.Hidden < 1 || ls.Vocab < 1:
		return fs.fail("--len, --dim, --hidden and --vocab must be positive")
	case ls.Vocab > math.MaxInt32 || ls.Hidden > 1<<16 || ls.Dim > 1<<16 || ls.Len > 1<<24:
		return fs.fail("--vocab must be at most 2³¹−1, --hidden and --dim at most 65536, --len at most 2²⁴")
	case r.Rows < 1 || r.NonZero < 1:
		return fs.fail("--rows and --nnz must be at least 1")
	case r.Freeze && r.TrainEmb:
		return fs.fail("--freeze and --train-emb exclude each other")
	}
	ls.Batch = r.Batch
	orders := strings.Split(*order, ",")
	for _, o := range orders {
		if o != "bfs" && o != "random" {
			return fs.fail("--order takes bfs, random or both, comma-separated; not %q", *order)
		}
	}
	if slices.Contains(kernels, "cli") {
		if r.Exe, err = os.Executable(); err != nil {
			return fmt.Errorf("bench cli: cannot find the twl executable to run: %w", err)
		}
		// The test binary runs the command line it is given instead of the
		// tests when benchChildEnv is set (see TestMain).
		r.Env = []string{benchChildEnv + "=1"}
	}
	r.JSON, r.MaxBytes = *format == "json", int64(maxMem)
	if err := r.Run(kernels, labels, orders); err != nil {
		return err
	}
	if r.Ran == 0 {
		return fmt.Errorf("bench: every case was skipped (%d), none timed: raise --max-memory (now %s) or ask for fewer --labels",
			r.Skipped, maxMem.String())
	}
	return nil
}

// benchChildEnv marks a child process of 'twl bench cli'.
const benchChildEnv = "TWL_BENCH_CHILD"
