package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/twl-ldl/twl/bench"
	"github.com/twl-ldl/twl/internal/atomicfile"
)

// benchChildEnv marks a child process of 'twl bench cli': the test binary
// of package main runs the command line it is given instead of the tests
// (see TestMain), so that the benchmark can be tested.
const benchChildEnv = "TWL_BENCH_CHILD"

// cliRuns is how many times 'bench cli' runs each command.
const cliRuns = 3

// benchCLI times 'twl distance' and 'twl eval' as a user runs them, as
// child processes, on a random tree of L labels (written as an edge-list
// file) and two files of rows sparse distributions of nnz labels each, and
// reports the wall time and the peak resident memory of each run, as the
// operating system measured it.
func benchCLI(out *benchOut, L, rows, nnz int, seed uint64, maxMem byteSize) error {
	e := out.e
	if err := out.start(); err != nil {
		return err
	}
	if nnz > L {
		return fmt.Errorf("bench cli: --nnz %d is more than the %d labels", nnz, L)
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("bench cli: cannot find the twl executable to run: %w", err)
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
	fmt.Fprintf(e.stderr, "bench: cli L=%d: writing a random tree and 2 × %d rows of %d labels into %s\n", L, rows, nnz, dir)
	in, err := bench.WriteCLICase(dir, L, rows, nnz, seed)
	if err != nil {
		return err
	}
	cases := []struct {
		method string
		args   []string
	}{
		{"cli-distance", []string{"distance", "--tree", in.Tree, "--out", filepath.Join(dir, "d.tsv"), in.A, in.B}},
		{"cli-eval", []string{"eval", "--tree", in.Tree, "--format", "json", "--out", filepath.Join(dir, "e.json"), in.A, in.B}},
	}
	for _, c := range cases {
		rec := bench.CLIRecord{Method: c.method, Labels: L, Rows: rows, NonZero: nnz, InputBytes: in.InputBytes, PeakRSSBytes: -1}
		for range cliRuns {
			if err := out.start(); err != nil {
				return err
			}
			sec, rss, err := bench.RunChild(e.ctx, exe, c.args, []string{benchChildEnv + "=1"})
			if err != nil {
				if e.stopped() != nil {
					return e.stopped()
				}
				return fmt.Errorf("bench cli: twl %s failed: %v", c.args[0], err)
			}
			rec.Add(sec, rss)
		}
		out.ran++
		if out.asJSON {
			if err := out.enc.Encode(rec); err != nil {
				return err
			}
			continue
		}
		rss := "n/a"
		if rec.PeakRSSBytes >= 0 {
			rss = formatBytes(float64(rec.PeakRSSBytes))
		}
		if _, err := fmt.Fprintf(out, "%-14s %9d %7d %5d %10s %19s %10s\n", c.method, L, rows, nnz,
			formatBytes(float64(in.InputBytes)), formatSeconds(rec.SecondsMin)+" – "+formatSeconds(rec.SecondsMax), rss); err != nil {
			return err
		}
	}
	return nil
}

// cliHeader is the table header of 'bench cli'.
const cliHeader = "command           labels    rows   nnz      input   time (min – max)   peak RSS\n"
