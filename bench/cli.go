package bench

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/twl-ldl/twl/tree"
)

// CLIRecord is one command timed as a child process: a line of
// 'twl bench cli --format json'.
type CLIRecord struct {
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

// Add records one run of sec seconds and peak resident memory rss (-1
// where unknown).
func (r *CLIRecord) Add(sec float64, rss int64) {
	if r.Runs == 0 || sec < r.SecondsMin {
		r.SecondsMin = sec
	}
	r.SecondsMax = max(r.SecondsMax, sec)
	r.PeakRSSBytes = max(r.PeakRSSBytes, rss)
	r.Runs++
}

// CLICase is the input of the command cases: a random tree of L labels as
// an edge-list file and two files of rows sparse distributions of nnz labels
// each, in a folder.
type CLICase struct {
	Tree, A, B string // the files
	InputBytes int64  // the size of A and B
}

// WriteCLICase writes the files of a CLICase into dir. nnz must be at most
// L.
func WriteCLICase(dir string, L, rows, nnz int, seed uint64) (CLICase, error) {
	c := CLICase{Tree: filepath.Join(dir, "t.tree"), A: filepath.Join(dir, "a.jsonl"), B: filepath.Join(dir, "b.jsonl")}
	if nnz > L {
		return c, fmt.Errorf("bench: %d labels a row is more than the %d labels", nnz, L)
	}
	t := tree.Random(L, rand.NewPCG(seed, 0x636c69))
	if err := writeFileWith(c.Tree, func(w *bufio.Writer) error { return t.Write(w) }); err != nil {
		return c, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x726f7773))
	idx := make([]int, nnz)
	mass := make([]float64, nnz)
	for _, name := range []string{c.A, c.B} {
		var n int64
		err := writeFileWith(name, func(w *bufio.Writer) error {
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
			return c, err
		}
		c.InputBytes += n
	}
	return c, nil
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

// RunChild runs the program exe with args and the extra environment env
// (KEY=VALUE) as a child process, and returns its wall time in seconds
// and its peak resident memory in bytes as the operating system accounts
// it (-1 where it does not say). A failed run's error holds the first 4 KB
// of its standard error.
func RunChild(ctx context.Context, exe string, args, env []string) (sec float64, rss int64, err error) {
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	t0 := time.Now()
	err = cmd.Run()
	sec = time.Since(t0).Seconds()
	if err != nil {
		return sec, -1, fmt.Errorf("%v: %s", err, stderr.String())
	}
	return sec, peakRSS(cmd.ProcessState), nil
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
