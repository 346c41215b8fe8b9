package ldl

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/internal/jsonscan"
	"github.com/twl-ldl/twl/tree"
)

// halvesFile writes lines (each ending in "\n" or "\r\n" as given) as
// d.jsonl beside the tree of labels a, b, c of writeData, and returns the
// data and tree paths.
func halvesFile(t *testing.T, lines []string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	for name, data := range map[string]string{"t.tree": "a\tb\na\tc\n", "d.jsonl": strings.Join(lines, "")} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "d.jsonl"), filepath.Join(dir, "t.tree")
}

// halvesLines returns 40 lines of 3 features over labels a, b, c (one
// blank, some ending in "\r\n", rows 4, if first, and 31 summing to 1.5
// and 0.5, so rescaled, one in each half).
func halvesLines(first bool) []string {
	var lines []string
	for r := range 40 {
		a, b := 0.125+float64(r%5)*0.0625, 0.25
		c := 1 - a - b
		if r == 4 && first {
			c += 0.5
		}
		if r == 31 {
			a, b, c = 0.25, 0.125, 0.125
		}
		end := "\n"
		if r%3 == 1 {
			end = "\r\n"
		}
		lines = append(lines, fmt.Sprintf(`{"x": [%d.5, %v, -%d], "y": {"c": %v, "a": %v, "b": %v}}`, r, math.Sqrt(float64(r)), r%7, c, a, b)+end)
		if r == 11 {
			lines = append(lines, "\n")
		}
	}
	return lines
}

// loadWith runs Load with the given split size.
func loadWith(t *testing.T, split int64, data, treePath string, opts *LoadOptions) (*Data, error) {
	t.Helper()
	defer func(s int64) { splitSize = s }(splitSize)
	splitSize = split
	return Load(context.Background(), data, treePath, opts)
}

// TestLoadHalves checks a file read in two halves against the dense reader
// dataset.ReadJSONL of the same file, an independent reading: the same
// features and targets bit for bit, and the same report (a rescaled row in
// each half: the first is row 5 on line 5, the largest deviation 0.5; or
// in the second half alone: row 32 on line 33, deviation 0.5).
func TestLoadHalves(t *testing.T) {
	for _, first := range []bool{true, false} {
		testLoadHalves(t, first)
	}
}

func testLoadHalves(t *testing.T, first bool) {
	data, treePath := halvesFile(t, halvesLines(first))
	f, err := os.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	tr, err := tree.ReadFile(treePath, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := readHalves(context.Background(), f, fi.Size(), data, tr, nil); p == nil || err != nil {
		t.Fatalf("readHalves: %v, %v; want the rows of two halves", p, err)
	}
	ds, rep, err := dataset.ReadJSONLFile(data, tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	var calls []int
	d, err := loadWith(t, 1, data, treePath, &LoadOptions{Progress: func(n int) { calls = append(calls, n) }})
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 40 || d.Report != rep {
		t.Fatalf("%d rows, report %+v; want 40 and ReadJSONL's %+v", d.Len(), d.Report, rep)
	}
	if first && (rep.Rescaled != 2 || rep.FirstRow != 4 || rep.FirstLine != 5 || rep.MaxDeviation != 0.5) ||
		!first && (rep.Rescaled != 1 || rep.FirstRow != 31 || rep.FirstLine != 33 || rep.MaxDeviation != 0.5) {
		t.Fatalf("ReadJSONL's report %+v; want 2 rescaled, the first row 5 on line 5, or 1, row 32 on line 33, deviation 0.5", rep)
	}
	// One call, at the first row of the first half (every 4096 rows), with
	// the rows the second half has read by then.
	if len(calls) != 1 || calls[0] < 0 || calls[0] > 40 {
		t.Errorf("progress calls %v; want one, with 0 to 40 rows", calls)
	}
	dense := make([]float64, 3)
	for r := range 40 {
		for k := range 3 {
			if got, want := d.X.At(r, k), ds.X.At(r, k); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("row %d, feature %d: %v, ReadJSONL %v", r, k, got, want)
			}
		}
		d.Y.Dense(dense, r)
		for j := range 3 {
			if got, want := dense[j], ds.Y.At(r, j); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("row %d, label %d: %v, ReadJSONL %v", r, j, got, want)
			}
		}
	}
}

// TestLoadHalvesErrors checks that a file whose reading in halves meets a
// problem gives the error of one reading: the message of Load without a
// split, with the line counted by hand.
func TestLoadHalvesErrors(t *testing.T) {
	base := halvesLines(true) // base[i] is line i+1 (line 13 is blank)
	with := func(i int, line string) []string {
		l := append([]string(nil), base...)
		l[i] = line
		return l
	}
	for _, tc := range []struct {
		name  string
		lines []string
		want  string // in the message
	}{
		{"bad number in the second half", with(35, `{"x": [1, 2, 3], "y": {"a": 1e}}`+"\n"), "d.jsonl:36:"},
		{"bad number in the first half", with(2, `{"x": [1, 2, 3], "y": {"a": -}}`+"\n"), "d.jsonl:3:"},
		{"features in the second half", with(30, `{"x": [1, 2], "y": {"a": 1}}`+"\n"), "d.jsonl:31: wrong dimension: 2 features, want 3 as on line 1"},
		{"unknown label in the second half", with(38, `{"x": [1, 2, 3], "y": {"z": 1}}`+"\n"), "d.jsonl:39:"},
		{"every line of the second half", append(base[:25:25], `{"x": [1, 2], "y": {"a": 1}}`+"\n", `{"x": [1, 2], "y": {"a": 1}}`+"\n"), "d.jsonl:26: wrong dimension: 2 features, want 3"},
	} {
		data, treePath := halvesFile(t, tc.lines)
		_, want := loadWith(t, 1<<40, data, treePath, nil)
		_, got := loadWith(t, 1, data, treePath, nil)
		if want == nil || got == nil || got.Error() != want.Error() || !strings.Contains(got.Error(), tc.want) {
			t.Errorf("%s: error %v; want %v, with %q", tc.name, got, want, tc.want)
		}
	}

	// A byte order mark that starts the second half is an error of one
	// reading (it is only allowed at the start of the file), not the start
	// of a file.
	lines := append([]string(nil), base...)
	size := len(strings.Join(lines, "")) + len(jsonscan.BOM)
	off := 0
	for i, l := range lines {
		if off+len(l) > size/2 {
			lines[i+1] = jsonscan.BOM + lines[i+1]
			break
		}
		off += len(l)
	}
	data, treePath := halvesFile(t, lines)
	f, err := os.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cut, _ := jsonscan.LineEndAfter(f, int64(size/2), int64(size))
	head := make([]byte, 3)
	f.ReadAt(head, cut)
	if !bytes.Equal(head, []byte(jsonscan.BOM)) {
		t.Fatalf("setup: the cut at %d is not at the byte order mark", cut)
	}
	_, want := loadWith(t, 1<<40, data, treePath, nil)
	_, got := loadWith(t, 1, data, treePath, nil)
	if want == nil || got == nil || got.Error() != want.Error() {
		t.Errorf("byte order mark at the cut: error %v; want %v", got, want)
	}
}

// TestLoadHalvesStopped checks that a done context stops a reading in
// halves with the context's error.
func TestLoadHalvesStopped(t *testing.T) {
	data, treePath := halvesFile(t, halvesLines(true))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	defer func(s int64) { splitSize = s }(splitSize)
	splitSize = 1
	_, err := Load(ctx, data, treePath, nil)
	if err == nil || !strings.Contains(err.Error(), "stopped") || !strings.Contains(err.Error(), context.Canceled.Error()) {
		t.Fatalf("error %v; want the reading stopped by the context", err)
	}
}
