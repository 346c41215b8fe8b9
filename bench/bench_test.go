package bench_test

import (
	"bufio"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/twl-ldl/twl/bench"
	"github.com/twl-ldl/twl/tree"
)

// TestMeasure counts the calls Measure makes: one warm-up and n timed.
func TestMeasure(t *testing.T) {
	calls := 0
	n, sec, _ := bench.Measure(func() { calls++; time.Sleep(100 * time.Microsecond) }, 5*time.Millisecond)
	if n < 1 || sec <= 0 {
		t.Fatalf("Measure: n = %d, %g s/op", n, sec)
	}
	// The rounds before the last one ran too: calls ≥ 1 + n.
	if calls < 1+n {
		t.Errorf("%d calls for n = %d", calls, n)
	}
	if float64(n)*sec < 0.005 {
		t.Errorf("n·sec = %g s, below the 5 ms target", float64(n)*sec)
	}
}

// TestRandomRows checks that every row is a distribution.
func TestRandomRows(t *testing.T) {
	x := bench.RandomRows(rand.New(rand.NewPCG(1, 2)), 3, 7)
	for r := range 3 {
		s := 0.0
		for _, v := range x[r*7 : (r+1)*7] {
			if v < 0 {
				t.Fatalf("row %d has a negative mass", r)
			}
			s += v
		}
		if math.Abs(s-1) > 1e-12 {
			t.Errorf("row %d sums to %g", r, s)
		}
	}
}

// TestCases runs every kernel case on a small tree and checks the record
// against the case's sizes.
func TestCases(t *testing.T) {
	tr := bench.RandomTree(50, "bfs", 1)
	for _, c := range bench.TWCases {
		rec := c.Run(tr, "bfs", 4, 2, 1, time.Millisecond)
		b := c.Batch
		if b == 0 {
			b = 4
		}
		if rec.Method != c.Method || rec.Labels != 50 || rec.Batch != b || rec.Order != "bfs" || rec.Iterations < 1 ||
			rec.SecondsPerOp <= 0 || rec.MemoryBytes < int64(8*50*b) {
			t.Errorf("%s: record %+v", c.Method, rec)
		}
		if math.Abs(rec.EntriesPerSecond*rec.SecondsPerOp-float64(b*50)) > 1e-6*float64(b*50) {
			t.Errorf("%s: entries/s · s/op = %g, want %d", c.Method, rec.EntriesPerSecond*rec.SecondsPerOp, b*50)
		}
	}
}

// TestCLIRecordAdd checks the range and the peak over runs by hand.
func TestCLIRecordAdd(t *testing.T) {
	r := bench.CLIRecord{PeakRSSBytes: -1}
	r.Add(2, 100)
	r.Add(1, 300)
	r.Add(3, -1)
	if r.SecondsMin != 1 || r.SecondsMax != 3 || r.PeakRSSBytes != 300 || r.Runs != 3 {
		t.Errorf("record %+v, want 1–3 s, 300 bytes, 3 runs", r)
	}
}

// TestWriteCLICase reads back the files it writes: a tree of L labels and
// rows of nnz labels of the tree, each a distribution.
func TestWriteCLICase(t *testing.T) {
	dir := t.TempDir()
	c, err := bench.WriteCLICase(dir, 40, 5, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := tree.ReadFile(c.Tree, nil)
	if err != nil || tr.Len() != 40 {
		t.Fatalf("tree: %v, %v", tr, err)
	}
	var size int64
	for _, f := range []string{c.A, c.B} {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		size += fi.Size()
		fh, _ := os.Open(f)
		sc := bufio.NewScanner(fh)
		rows := 0
		for sc.Scan() {
			rows++
			var m map[string]float64
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil || len(m) != 3 {
				t.Fatalf("%s:%d: %v, %d labels", f, rows, err, len(m))
			}
			s := 0.0
			for name, v := range m {
				if _, ok := tr.Index(name); !ok {
					t.Errorf("%s:%d: %q is not a label", f, rows, name)
				}
				s += v
			}
			if math.Abs(s-1) > 1e-12 {
				t.Errorf("%s:%d: sums to %g", f, rows, s)
			}
		}
		fh.Close()
		if rows != 5 {
			t.Errorf("%s: %d rows, want 5", f, rows)
		}
	}
	if size != c.InputBytes {
		t.Errorf("InputBytes %d, files %d", c.InputBytes, size)
	}
	if _, err := bench.WriteCLICase(dir, 2, 1, 3, 1); err == nil {
		t.Error("3 labels a row of 2: no error")
	}
}
