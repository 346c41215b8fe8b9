package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/twl-ldl/twl/internal/atomicfile"
	"github.com/twl-ldl/twl/internal/human"
	"github.com/twl-ldl/twl/tree"
)

// DefaultLabels are the numbers of labels each kernel of Kernels is timed
// at when none are given: the sizes of the reference tables.
var DefaultLabels = map[string][]int{
	"tw":       {100, 1000, 10000, 100000, 1000000},
	"emd":      {100, 1000, 3000},
	"plan":     {3000, 100000, 1000000},
	"sinkhorn": {100, 1000, 10000, 100000},
	"lstm":     {147}, // BlurbGenreCollection's genres
	"cli":      {100000, 1000000},
}

// Kernels resolves names of kernels (tw, plan, emd, sinkhorn, lstm, cli, or
// all, which is every one but cli) into the kernels to run, each once, in
// the order given; none means tw.
func Kernels(names []string) ([]string, error) {
	if len(names) == 0 {
		return []string{"tw"}, nil
	}
	var out []string
	for _, p := range names {
		ks := []string{p}
		switch p {
		case "all":
			ks = []string{"tw", "plan", "emd", "sinkhorn", "lstm"}
		case "tw", "plan", "emd", "sinkhorn", "lstm", "cli":
		default:
			return nil, fmt.Errorf("unknown kernel %q: the kernels are tw, plan, emd, sinkhorn, lstm, cli (or all, which leaves out cli)", p)
		}
		for _, k := range ks {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out, nil
}

// Runner runs the cases of 'twl bench' and writes their records to Out, as
// a table for people or as JSON Lines. What it writes before the first
// timed case (table headers, skipped cases) is held back until then, so
// that when every case is skipped Out receives nothing.
type Runner struct {
	Out  io.Writer // the records
	Log  io.Writer // progress and skipped cases, for people
	JSON bool      // JSON Lines instead of a table

	Ctx      context.Context // stops the run before the next case; nil: never
	Seed     uint64          // seeds the random trees and distributions
	Target   time.Duration   // how long each case runs
	MaxBytes int64           // cases that would hold more are skipped
	Batch    int             // rows per call in the batch cases
	Workers  int             // goroutines in the batch cases (0: GOMAXPROCS)

	// LSTM is the shape of the lstm case, and Freeze or TrainEmb times
	// only frozen or only trained word vectors.
	LSTM             LSTMShape
	Freeze, TrainEmb bool

	// Exe and Env run the twl child processes of the cli case; Rows and
	// NonZero are the shape of its files.
	Exe           string
	Env           []string
	Rows, NonZero int

	// Ran and Skipped count the cases timed and skipped.
	Ran, Skipped int

	held []byte
	enc  *json.Encoder
}

// Run runs each kernel (see Kernels) at each of labels (DefaultLabels of
// the kernel when empty), tw for each order of orders ("bfs", "random").
func (r *Runner) Run(kernels []string, labels []int, orders []string) error {
	if !r.JSON && slices.Contains(kernels, "cli") {
		fmt.Fprint(r, cliHeader)
	}
	if !r.JSON && slices.ContainsFunc(kernels, func(k string) bool { return k != "lstm" && k != "cli" }) {
		fmt.Fprintf(r, "%-22s %-6s %9s %6s %10s %10s %10s %10s\n",
			"method", "order", "labels", "batch", "time/op", "entries/s", "bytes/op", "memory")
	}
	for _, k := range kernels {
		Ls := labels
		if len(Ls) == 0 {
			Ls = DefaultLabels[k]
		}
		for _, L := range Ls {
			var err error
			switch k {
			case "tw":
				for _, ord := range orders {
					if err = r.TW(L, ord); err != nil {
						break
					}
				}
			case "plan":
				for _, ord := range orders {
					if err = r.Plan(L, ord); err != nil {
						break
					}
				}
			case "emd":
				err = r.EMD(L)
			case "sinkhorn":
				err = r.Sinkhorn(L)
			case "lstm":
				err = r.LSTMStep(L)
			case "cli":
				err = r.CLI(L)
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// Write writes p to Out once a case has been timed, what was held back
// first; before, it holds p back.
func (r *Runner) Write(p []byte) (int, error) {
	if r.Ran == 0 {
		r.held = append(r.held, p...)
		return len(p), nil
	}
	if len(r.held) > 0 {
		if _, err := r.Out.Write(r.held); err != nil {
			return 0, err
		}
		r.held = nil
	}
	return r.Out.Write(p)
}

// start returns the error of Ctx, before a case.
func (r *Runner) start() error {
	if r.Ctx == nil {
		return nil
	}
	return r.Ctx.Err()
}

func (r *Runner) workers() int {
	if r.Workers <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return r.Workers
}

// encode writes v as a line of JSON.
func (r *Runner) encode(v any) error {
	if r.enc == nil {
		r.enc = json.NewEncoder(r)
	}
	return r.enc.Encode(v)
}

// emit writes one result as a table row or a JSON line, and counts it.
func (r *Runner) emit(rec Record) error {
	if rec.Skipped != "" {
		r.Skipped++
	} else {
		r.Ran++
	}
	if r.JSON {
		return r.encode(rec)
	}
	if rec.Skipped != "" {
		_, err := fmt.Fprintf(r, "%-22s %-6s %9d %6d %10s %10s %10s %10s  (%s)\n",
			rec.Method, rec.Order, rec.Labels, rec.Batch, "-", "-", "-", human.Bytes(float64(rec.MemoryBytes)), rec.Skipped)
		return err
	}
	_, err := fmt.Fprintf(r, "%-22s %-6s %9d %6d %10s %10s %10d %10s\n",
		rec.Method, rec.Order, rec.Labels, rec.Batch, human.Seconds(rec.SecondsPerOp),
		human.Rate(rec.EntriesPerSecond), rec.BytesPerOp, human.Bytes(float64(rec.MemoryBytes)))
	return err
}

// TW times every case of TWCases on one random tree of L labels in the
// order ord.
func (r *Runner) TW(L int, ord string) error {
	var t *tree.Tree
	workers := r.workers()
	for _, c := range TWCases {
		b := c.Batch
		if b == 0 {
			b = r.Batch
		}
		if need := c.Need(L, b, workers); need > float64(r.MaxBytes) {
			fmt.Fprintf(r.Log, "bench: skip %s %s L=%d batch=%d: it needs about %s, more than --max-memory %s\n",
				c.Method, ord, L, b, human.Bytes(need), human.Size(r.MaxBytes))
			r.Skipped++
			continue
		}
		if err := r.start(); err != nil {
			return err
		}
		if t == nil {
			t = RandomTree(L, ord, r.Seed)
		}
		fmt.Fprintf(r.Log, "bench: %s %s L=%d batch=%d ...\n", c.Method, ord, L, b)
		if err := r.emit(c.Run(t, ord, r.Batch, workers, r.Seed, r.Target)); err != nil {
			return err
		}
	}
	return nil
}

// skip reports a case that would need more memory than allowed.
func (r *Runner) skip(method string, L int, need float64) error {
	fmt.Fprintf(r.Log, "bench: skip %s L=%d: it needs about %s, more than --max-memory %s\n",
		method, L, human.Bytes(need), human.Size(r.MaxBytes))
	return r.emit(Record{
		Method: method, Labels: L, Batch: 1, MemoryBytes: int64(need), Workers: 1,
		Skipped: "needs " + human.Bytes(need) + ", over --max-memory " + human.Size(r.MaxBytes),
	})
}

// EMD times the exact network simplex (EMD) at L labels.
func (r *Runner) EMD(L int) error {
	if need := EMDNeed(L); need > float64(r.MaxBytes) {
		return r.skip("emd", L, need)
	}
	if err := r.start(); err != nil {
		return err
	}
	fmt.Fprintf(r.Log, "bench: emd L=%d ...\n", L)
	rec, err := EMD(L, r.Seed, r.Target)
	if err != nil {
		return err
	}
	return r.emit(rec)
}

// Plan times an optimal transport plan at L labels in the order ord (see
// Plan), or reports the memory it would need over MaxBytes.
func (r *Runner) Plan(L int, ord string) error {
	if need := PlanNeed(L); need > float64(r.MaxBytes) {
		return r.skip("plan", L, need)
	}
	if err := r.start(); err != nil {
		return err
	}
	fmt.Fprintf(r.Log, "bench: plan L=%d order=%s ...\n", L, ord)
	return r.emit(Plan(L, ord, r.Seed, r.Target))
}

// Sinkhorn times Sinkhorn in the paper's efficiency setting at L labels,
// cold (building the kernel) and warm (the training-loss case); where the
// dense cost matrix and kernel do not fit in MaxBytes, the memory they
// would need is reported instead.
func (r *Runner) Sinkhorn(L int) error {
	if need := SinkhornNeed(L); need > float64(r.MaxBytes) {
		if err := r.skip("sinkhorn-cold", L, need); err != nil {
			return err
		}
		return r.skip("sinkhorn", L, need)
	}
	if err := r.start(); err != nil {
		return err
	}
	s := NewSinkhorn(L, r.Seed)
	fmt.Fprintf(r.Log, "bench: sinkhorn-cold L=%d ...\n", L)
	rec, err := s.Cold(r.Target)
	if err != nil {
		return err
	}
	if err := r.emit(rec); err != nil {
		return err
	}
	if err := r.start(); err != nil {
		return err
	}
	fmt.Fprintf(r.Log, "bench: sinkhorn L=%d ...\n", L)
	if rec, err = s.Warm(r.Target); err != nil {
		return err
	}
	return r.emit(rec)
}

// LSTMStep times training steps of the LSTM text model of shape r.LSTM
// with L labels, with frozen and trained word vectors (or one of them).
func (r *Runner) LSTMStep(L int) error {
	s := r.LSTM
	if need := s.Config(L).Bytes(s.Batch, s.Len); need > float64(r.MaxBytes) {
		return fmt.Errorf("bench lstm: these sizes need about %s, more than --max-memory %s", human.Bytes(need), human.Size(r.MaxBytes))
	}
	workers := r.workers()
	// The products and cell steps run on GOMAXPROCS threads.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(workers))
	var modes []bool
	if !r.TrainEmb {
		modes = append(modes, false)
	}
	if !r.Freeze {
		modes = append(modes, true)
	}
	if !r.JSON {
		fmt.Fprintf(r, "%-12s %-8s %6s %6s %4s %4s %6s %10s %12s %10s\n",
			"method", "vectors", "labels", "batch", "len", "dim", "hidden", "time/step", "tokens/s", "bytes/op")
	}
	for _, train := range modes {
		if err := r.start(); err != nil {
			return err
		}
		fmt.Fprintf(r.Log, "bench: lstm-train batch=%d len=%d dim=%d hidden=%d labels=%d train_emb=%v ...\n",
			s.Batch, s.Len, s.Dim, s.Hidden, L, train)
		rec := LSTM(L, s, train, workers, r.Seed, r.Target)
		r.Ran++
		if r.JSON {
			if err := r.encode(rec); err != nil {
				return err
			}
			continue
		}
		emb := "frozen"
		if train {
			emb = "trained"
		}
		if _, err := fmt.Fprintf(r, "%-12s %-8s %6d %6d %4d %4d %6d %10s %12.0f %10d\n", "lstm-train", emb, L, s.Batch,
			s.Len, s.Dim, s.Hidden, human.Seconds(rec.SecondsPerOp), rec.TokensPerSecond, rec.BytesPerOp); err != nil {
			return err
		}
	}
	return nil
}

// CLIRuns is how many times the cli case runs each command.
const CLIRuns = 3

// cliHeader is the table header of the cli case.
const cliHeader = "command           labels    rows   nnz      input   time (min – max)   peak RSS\n"

// CLI times 'twl distance' and 'twl eval' as a user runs them, as child
// processes of r.Exe, on a random tree of L labels (written as an
// edge-list file) and two files of r.Rows sparse distributions of
// r.NonZero labels each, and reports the wall time and the peak resident
// memory of each run, as the operating system measured it.
func (r *Runner) CLI(L int) error {
	if err := r.start(); err != nil {
		return err
	}
	if r.NonZero > L {
		return fmt.Errorf("bench cli: --nnz %d is more than the %d labels", r.NonZero, L)
	}
	dir, err := os.MkdirTemp("", "twl-bench-cli-")
	if err != nil {
		return err
	}
	// A second signal exits at once, without this deferred clean-up:
	// atomicfile.RemoveTemps removes the folder then.
	atomicfile.RegisterDir(dir)
	defer func() {
		os.RemoveAll(dir)
		atomicfile.UnregisterDir(dir)
	}()
	fmt.Fprintf(r.Log, "bench: cli L=%d: writing a random tree and 2 × %d rows of %d labels into %s\n", L, r.Rows, r.NonZero, dir)
	in, err := WriteCLICase(dir, L, r.Rows, r.NonZero, r.Seed)
	if err != nil {
		return err
	}
	ctx := r.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	cases := []struct {
		method string
		args   []string
	}{
		{"cli-distance", []string{"distance", "--tree", in.Tree, "--out", filepath.Join(dir, "d.tsv"), in.A, in.B}},
		{"cli-eval", []string{"eval", "--tree", in.Tree, "--format", "json", "--out", filepath.Join(dir, "e.json"), in.A, in.B}},
	}
	for _, c := range cases {
		rec := CLIRecord{Method: c.method, Labels: L, Rows: r.Rows, NonZero: r.NonZero, InputBytes: in.InputBytes, PeakRSSBytes: -1}
		for range CLIRuns {
			if err := r.start(); err != nil {
				return err
			}
			sec, rss, err := RunChild(ctx, r.Exe, c.args, r.Env)
			if err != nil {
				if err := r.start(); err != nil {
					return err
				}
				return fmt.Errorf("bench cli: twl %s failed: %v", c.args[0], err)
			}
			rec.Add(sec, rss)
		}
		r.Ran++
		if r.JSON {
			if err := r.encode(rec); err != nil {
				return err
			}
			continue
		}
		rss := "n/a"
		if rec.PeakRSSBytes >= 0 {
			rss = human.Bytes(float64(rec.PeakRSSBytes))
		}
		if _, err := fmt.Fprintf(r, "%-14s %9d %7d %5d %10s %19s %10s\n", c.method, L, r.Rows, r.NonZero,
			human.Bytes(float64(in.InputBytes)), human.Seconds(rec.SecondsMin)+" – "+human.Seconds(rec.SecondsMax), rss); err != nil {
			return err
		}
	}
	return nil
}
