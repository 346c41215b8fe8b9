package main

import (
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/twl-ldl/twl/bench"
	"github.com/twl-ldl/twl/tree"
)

const benchAbout = `
Bench times the tree-Wasserstein kernels of package tw on seeded random trees
(uniformly random labelled trees with unit weights) and random
distributions, for each number of labels L and each label order:

  bfs      labels numbered breadth-first from the root (tree.BreadthFirst):
           vectors are read in place, the layout twl's fast path is built for
  random   labels numbered as the random Prüfer tree comes (as networkx's
           random_tree): every vector is gathered through a permutation

and each kernel:

  distance                TW(a, b), one pair (Workspace.Distance)
  distance+grad           TW(a, b) and its gradient in a (Workspace.DistanceGrad)
  batch-loss+grad         TW and gradient for --batch rows (Batch.DistanceGrad)
  batch-logit-loss+grad   the same for softmax logits (Batch.LogitGrad)

Each case is repeated until it has run for --time. The table gives the time
per call, the label entries processed per second (batch × L / time), the
bytes allocated per call by the Go runtime (0 when the hot path reuses its
workspace) and the memory the case holds: workspaces plus inputs and outputs.
Cases that would hold more than --max-memory are skipped; when every case is
skipped, bench fails (exit status 1) and writes nothing to standard output. Progress goes to standard error;
--format json writes one JSON object per case, with the keys method,
labels, batch, seconds_per_op, bytes_per_op, entries_per_second,
memory_bytes, workers, iterations, order.

'twl bench lstm' times one training step of the LSTM text model (forward,
KL loss, backward through time, Adam) on --batch random documents of --len
tokens, word vectors of --dim, --hidden units and --labels outputs, with
frozen and trained word vectors; it reports training tokens per second,
and in JSON the keys method ("lstm-train"), tokens_per_second,
seconds_per_op, bytes_per_op, batch, len, dim, hidden, labels, vocab,
train_emb, workers, iterations.

'twl bench cli' measures the command line as a user meets it at 10⁵–10⁶
labels: it writes a random tree of L labels and two files of --rows rows
with --nnz labels each (default 3,000 rows of 20 labels) into a temporary
folder, runs 'twl distance' and 'twl eval' on them 3 times each as child
processes, and reports the wall time (min – max) and the peak resident
memory (max) the operating system measured for the child (Linux; n/a
elsewhere). JSON keys: method (cli-distance,
cli-eval), labels, rows, nonzero, input_bytes, seconds_min, seconds_max,
peak_rss_bytes, runs. 'all' leaves cli out.`

const benchExamples = `  # The default sizes, 100 to 10^6 labels, both orders (43-51 s on a
  # 2-core AMD EPYC; 128-139 µs for distance+grad, bfs, at 10^5).
  twl bench tw

  # distance and eval on 3,000 rows a side at 10^5 and 10^6 labels: time and peak memory.
  twl bench cli

  # Training tokens per second of the LSTM text model at the paper's shapes.
  twl bench lstm --batch 100 --len 200 --dim 100 --hidden 200 --labels 147

  # Two sizes, a batch of 256 rows, as JSON Lines for a script.
  twl bench tw --labels 1000,1e5 --batch 256 --format json > bench.jsonl`

// benchCase is one timed kernel on one tree.
func runBench(e *env, args []string) error {
	fs := newFlags("bench", "twl bench [flags] [tw|emd|sinkhorn|lstm|cli|all ...]", benchAbout, benchExamples)
	var labels intList
	fs.Var(&labels, "labels", "comma-separated numbers of labels `L` (default: tw 100,…,1000000; emd 100,1000,3000; sinkhorn 100,…,100000)")
	batch := fs.Int("batch", 100, "`N` rows per call in the batch cases")
	format := fs.String("format", "text", "output `FORMAT`: text or json")
	seed := fs.Uint64("seed", 1, "`S` seeds the random trees and distributions")
	workers := fs.Int("workers", 0, "`N` goroutines in the batch cases; 0 means GOMAXPROCS")
	target := fs.Duration("time", 500*time.Millisecond, "run each case for about `D` (such as 500ms, 2s)")
	order := fs.String("order", "bfs,random", "comma-separated label `ORDERS`: bfs, random")
	var ls lstmShape
	fs.IntVar(&ls.Len, "len", 200, "lstm: `N` tokens per document")
	fs.IntVar(&ls.Dim, "dim", 100, "lstm: word vectors of `D` dimensions")
	fs.IntVar(&ls.Hidden, "hidden", 200, "lstm: `H` hidden units")
	fs.IntVar(&ls.Vocab, "vocab", 20000, "lstm: `V` words in the vocabulary")
	fs.BoolVar(&ls.freeze, "freeze", false, "lstm: time frozen word vectors only (default: frozen and trained)")
	fs.BoolVar(&ls.trainEmb, "train-emb", false, "lstm: time trained word vectors only")
	cliRows := fs.Int("rows", 3000, "cli: `N` rows in each file of distributions")
	cliNNZ := fs.Int("nnz", 20, "cli: `K` labels with mass in each row")
	maxMem := byteSize(8 << 30)
	fs.Var(&maxMem, "max-memory", "skip cases that would hold more than `SIZE` (and report what they would need)")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	kernels, err := benchKernels(pos)
	if err != nil {
		return fs.fail("%v", err)
	}
	switch {
	case *format != "text" && *format != "json":
		return fs.fail("--format must be text or json, not %q", *format)
	case *batch < 1:
		return fs.fail("--batch must be at least 1")
	case *target <= 0:
		return fs.fail("--time must be positive")
	case ls.Len < 1 || ls.Dim < 1 || ls.Hidden < 1 || ls.Vocab < 1:
		return fs.fail("--len, --dim, --hidden and --vocab must be positive")
	case ls.Vocab > math.MaxInt32 || ls.Hidden > 1<<16 || ls.Dim > 1<<16 || ls.Len > 1<<24:
		return fs.fail("--vocab must be at most 2³¹−1, --hidden and --dim at most 65536, --len at most 2²⁴")
	case *cliRows < 1 || *cliNNZ < 1:
		return fs.fail("--rows and --nnz must be at least 1")
	case ls.freeze && ls.trainEmb:
		return fs.fail("--freeze and --train-emb exclude each other")
	}
	ls.Batch = *batch
	if *workers <= 0 {
		*workers = runtime.GOMAXPROCS(0)
	}
	orders := strings.Split(*order, ",")
	for _, o := range orders {
		if o != "bfs" && o != "random" {
			return fs.fail("--order takes bfs, random or both, comma-separated; not %q", *order)
		}
	}

	out := &benchOut{e: e, asJSON: *format == "json"}
	out.enc = json.NewEncoder(out)
	if *format == "text" && slices.Contains(kernels, "cli") {
		fmt.Fprint(out, cliHeader)
	}
	if *format == "text" && slices.ContainsFunc(kernels, func(k string) bool { return k != "lstm" && k != "cli" }) {
		fmt.Fprintf(out, "%-22s %-6s %9s %6s %10s %10s %10s %10s\n",
			"method", "order", "labels", "batch", "time/op", "entries/s", "bytes/op", "memory")
	}
	for _, k := range kernels {
		Ls := labels
		if len(Ls) == 0 {
			Ls = benchDefaultLabels[k]
		}
		for _, L := range Ls {
			var err error
			switch k {
			case "tw":
				for _, ord := range orders {
					if err = benchOne(out, L, ord, *batch, *workers, *seed, *target, maxMem); err != nil {
						break
					}
				}
			case "emd":
				err = benchEMD(out, L, *seed, *target, maxMem)
			case "sinkhorn":
				err = benchSinkhorn(out, L, *seed, *target, maxMem)
			case "lstm":
				err = benchLSTM(out, L, ls, *workers, *seed, *target, maxMem)
			case "cli":
				err = benchCLI(out, L, *cliRows, *cliNNZ, *seed, maxMem)
			}
			if err != nil {
				return err
			}
		}
	}
	if out.ran == 0 {
		return fmt.Errorf("bench: every case was skipped (%d), none timed: raise --max-memory (now %s) or ask for fewer --labels",
			out.skipped, maxMem.String())
	}
	return nil
}

// benchOut is where bench writes its results, and how many cases it timed
// and skipped. Its Write holds back what comes before the first timed case
// (table headers, skipped cases) and writes it with that case: when every
// case is skipped, bench fails and standard output stays empty.
type benchOut struct {
	e            *env
	asJSON       bool
	enc          *json.Encoder // writes to the benchOut
	ran, skipped int
	held         []byte
}

// Write writes p to standard output once a case has been timed (ran > 0),
// what was held back first; before, it holds p back.
func (out *benchOut) Write(p []byte) (int, error) {
	if out.ran == 0 {
		out.held = append(out.held, p...)
		return len(p), nil
	}
	if len(out.held) > 0 {
		if _, err := out.e.stdout.Write(out.held); err != nil {
			return 0, err
		}
		out.held = nil
	}
	return out.e.stdout.Write(p)
}

// start checks, before a case, that the process has not been asked to stop.
func (out *benchOut) start() error { return out.e.stopped() }

// emitRecord writes one result as a table row or a JSON line, and counts it.
func emitRecord(out *benchOut, rec bench.Record) error {
	if rec.Skipped != "" {
		out.skipped++
	} else {
		out.ran++
	}
	if out.asJSON {
		return out.enc.Encode(rec)
	}
	if rec.Skipped != "" {
		_, err := fmt.Fprintf(out, "%-22s %-6s %9d %6d %10s %10s %10s %10s  (%s)\n",
			rec.Method, rec.Order, rec.Labels, rec.Batch, "-", "-", "-", formatBytes(float64(rec.MemoryBytes)), rec.Skipped)
		return err
	}
	_, err := fmt.Fprintf(out, "%-22s %-6s %9d %6d %10s %10s %10d %10s\n",
		rec.Method, rec.Order, rec.Labels, rec.Batch, formatSeconds(rec.SecondsPerOp),
		formatRate(rec.EntriesPerSecond), rec.BytesPerOp, formatBytes(float64(rec.MemoryBytes)))
	return err
}

// benchOne times every kernel on one tree.
func benchOne(out *benchOut, L int, ord string, batch, workers int, seed uint64, target time.Duration, maxMem byteSize) error {
	e := out.e
	var t *tree.Tree
	for _, c := range bench.TWCases {
		b := c.Batch
		if b == 0 {
			b = batch
		}
		if need := c.Need(L, b, workers); need > float64(maxMem) {
			fmt.Fprintf(e.stderr, "bench: skip %s %s L=%d batch=%d: it needs about %s, more than --max-memory %s\n",
				c.Method, ord, L, b, formatBytes(need), maxMem.String())
			out.skipped++
			continue
		}
		if err := out.start(); err != nil {
			return err
		}
		if t == nil {
			t = bench.RandomTree(L, ord, seed)
		}
		fmt.Fprintf(e.stderr, "bench: %s %s L=%d batch=%d ...\n", c.Method, ord, L, b)
		if err := emitRecord(out, c.Run(t, ord, batch, workers, seed, target)); err != nil {
			return err
		}
	}
	return nil
}
