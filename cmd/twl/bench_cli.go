package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/twl-ldl/twl/internal/atomicfile"
	"github.com/twl-ldl/twl/tree"
)

// benchChildEnv marks a child process of 'twl bench cli': the test binary
// of package main runs the command line it is given instead of the tests
// (see TestMain), so that the benchmark can be tested.
const benchChildEnv = "TWL_BENCH_CHILD"

// cliRuns is how many times 'bench cli' runs each command.
const cliRuns = 3

// cliRecord is one line of 'bench cli --format json'.
type cliRecord struct {
	Method       string  `json:"method"` // cli-distance, cli-eval
	Labels       int     `json:"labels"`
	Rows         int     `json:"rows"`
	NonZero      int     `json:"nonzero"`
	InputBytes   int64   `json:"input_bytes"` // the two files of rows
	SecondsMin   float64 `json:"seconds_min"`
	SecondsMax   float64 `json:"seconds_max"`
	PeakRSSBytes int64   `json:"peak_rss_bytes"` // the largest over the runs; -1 where the system does not say
	Runs         int     `json:"runs"`
}

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
	inBytes, err := writeCLICase(dir, L, rows, nnz, seed)
	if err != nil {
		return err
	}
	tr, a, b := filepath.Join(dir, "t.tree"), filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	cases := []struct {
		method string
		args   []string
	}{
		{"cli-distance", []string{"distance", "--tree", tr, "--out", filepath.Join(dir, "d.tsv"), a, b}},
		{"cli-eval", []string{"eval", "--tree", tr, "--format", "json", "--out", filepath.Join(dir, "e.json"), a, b}},
	}
	for _, c := range cases {
		rec := cliRecord{Method: c.method, Labels: L, Rows: rows, NonZero: nnz, InputBytes: inBytes, Runs: cliRuns, PeakRSSBytes: -1}
		for run := range cliRuns {
			if err := out.start(); err != nil {
				return err
			}
			cmd := exec.CommandContext(e.ctx, exe, c.args...)
			cmd.Env = append(os.Environ(), benchChildEnv+"=1")
			var stderr limitedBuffer
			cmd.Stderr = &stderr
			t0 := time.Now()
			err := cmd.Run()
			sec := time.Since(t0).Seconds()
			if err != nil {
				if e.stopped() != nil {
					return e.stopped()
				}
				return fmt.Errorf("bench cli: twl %s failed: %v: %s", c.args[0], err, stderr.String())
			}
			if run == 0 || sec < rec.SecondsMin {
				rec.SecondsMin = sec
			}
			rec.SecondsMax = max(rec.SecondsMax, sec)
			if rss := peakRSS(cmd.ProcessState); rss > rec.PeakRSSBytes {
				rec.PeakRSSBytes = rss
			}
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
			formatBytes(float64(inBytes)), formatSeconds(rec.SecondsMin)+" – "+formatSeconds(rec.SecondsMax), rss); err != nil {
			return err
		}
	}
	return nil
}

// cliHeader is the table header of 'bench cli'.
const cliHeader = "command           labels    rows   nnz      input   time (min – max)   peak RSS\n"

// writeCLICase writes the tree and the two files of rows of 'bench cli'
// into dir, and returns the size of the two files of rows.
func writeCLICase(dir string, L, rows, nnz int, seed uint64) (int64, error) {
	t := tree.Random(L, rand.NewPCG(seed, 0x636c69))
	if err := writeFileWith(filepath.Join(dir, "t.tree"), func(w *bufio.Writer) error { return t.Write(w) }); err != nil {
		return 0, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x726f7773))
	var total int64
	idx := make([]int, nnz)
	mass := make([]float64, nnz)
	for _, name := range []string{"a.jsonl", "b.jsonl"} {
		var n int64
		err := writeFileWith(filepath.Join(dir, name), func(w *bufio.Writer) error {
			var line []byte
			for range rows {
				// nnz distinct labels by rejection: nnz is far below L.
				seen := make(map[int]bool, nnz)
				var sum float64
				for k := range nnz {
					i := rng.IntN(L)
					for seen[i] {
						i = rng.IntN(L)
					}
					seen[i] = true
					idx[k], mass[k] = i, rng.Float64()+1e-3
					sum += mass[k]
				}
				line = append(line[:0], '{')
				for k := range nnz {
					if k > 0 {
						line = append(line, ',')
					}
					line = strconv.AppendQuote(line, t.Name(idx[k]))
					line = append(line, ':')
					line = strconv.AppendFloat(line, mass[k]/sum, 'g', -1, 64)
				}
				line = append(line, '}', '\n')
				n += int64(len(line))
				if _, err := w.Write(line); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// writeFileWith creates the file path and writes it with fill.
func writeFileWith(path string, fill func(*bufio.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<16)
	if err := fill(w); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// limitedBuffer keeps the first 4 KB written to it: a child's error.
type limitedBuffer struct{ b []byte }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := 4096 - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string { return string(l.b) }
