package dataset

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// sample is a Sample copied out of a Reader.
type sample struct {
	X     []float64
	Index []int
	Mass  []float64
	HasY  bool
	Line  int
}

// readAll reads every sample of in with a Reader.
func readAll(in string, t *tree.Tree, opts *ReaderOptions) ([]sample, Report, error) {
	rd := NewReader(strings.NewReader(in), "r.jsonl", t, opts)
	var out []sample
	for rd.Next() {
		s := rd.Sample()
		out = append(out, sample{
			X: append([]float64(nil), s.X...), Index: append([]int(nil), s.Y.Index...),
			Mass: append([]float64(nil), s.Y.Mass...), HasY: s.HasY, Line: s.Line,
		})
	}
	return out, rd.Report(), rd.Err()
}

func TestReader(t *testing.T) {
	tr := animals(t) // animal 0, mammal 1, reptile 2, dog 3
	in := `{"x": [1, 2], "y": {"dog": 0.75, "animal": 0, "mammal": 0.25}, "id": 7}

{"x": [3, 4], "id": "no targets"}
{"x": [5, 6], "y": {"reptile": 2, "animal": 6}}
`
	// Expected: the masses of each line in user-index order, zeros left
	// out, line 4 rescaled by 1/8.
	yes := []sample{
		{X: []float64{1, 2}, Index: []int{1, 3}, Mass: []float64{0.25, 0.75}, HasY: true, Line: 1},
		{X: []float64{3, 4}, Line: 3},
		{X: []float64{5, 6}, Index: []int{0, 2}, Mass: []float64{0.75, 0.25}, HasY: true, Line: 4},
	}
	got, rep, err := readAll(in, tr, &ReaderOptions{Targets: TargetsOptional})
	if err != nil || !reflect.DeepEqual(got, yes) {
		t.Errorf("TargetsOptional: %v\n%+v\nwant\n%+v", err, got, yes)
	}
	if want := (Report{File: "r.jsonl", Rows: 3, Tol: 1e-6, Rescaled: 1, FirstRow: 2, FirstLine: 4, MaxDeviation: 7}); rep != want {
		t.Errorf("report %+v, want %+v", rep, want)
	}

	// Ignored targets: "y" is not read, even where it is no distribution
	// of the tree.
	in2 := strings.Replace(in, `"reptile": 2`, `"zebra": -2, "z": [true]`, 1)
	got, _, err = readAll(in2, nil, &ReaderOptions{Targets: TargetsIgnored})
	no := []sample{{X: []float64{1, 2}, Line: 1}, {X: []float64{3, 4}, Line: 3}, {X: []float64{5, 6}, Line: 4}}
	if err != nil || !reflect.DeepEqual(got, no) {
		t.Errorf("TargetsIgnored: %v\n%+v\nwant\n%+v", err, got, no)
	}

	// Required targets (the default): line 3 is an error.
	got, _, err = readAll(in, tr, nil)
	if !errors.Is(err, ErrSyntax) || err.Error() != `r.jsonl:3: syntax error: no "y" (label distribution)` || len(got) != 1 {
		t.Errorf("TargetsRequired: %d samples, %v", len(got), err)
	}
	// Strict sums: line 4 is an error.
	_, _, err = readAll(in, tr, &ReaderOptions{Options: Options{Strict: true}, Targets: TargetsOptional})
	if !errors.Is(err, ErrSum) || !strings.HasPrefix(err.Error(), "r.jsonl:4: ") {
		t.Errorf("Strict: %v", err)
	}
}

func TestReaderErrors(t *testing.T) {
	tr := animals(t)
	for _, tc := range []struct {
		name    string
		in      string
		targets Targets
		err     error
		msg     string
	}{
		{"empty", "\n\n", TargetsIgnored, ErrEmpty, "r.jsonl: no samples"},
		{"no x", `{"y": {"dog": 1}}`, TargetsIgnored, ErrSyntax, `r.jsonl:1: syntax error: no "x" (features)`},
		{"duplicate ignored y", `{"x": [1], "y": 1, "y": 2}`, TargetsIgnored, ErrDuplicateKey, `r.jsonl:1: duplicate key: "y" again at column 20`},
		{"ignored y not JSON", `{"x": [1], "y": {"dog": 1,}}`, TargetsIgnored, ErrSyntax, `r.jsonl:1: syntax error: column 27: want a key in double quotes, found "}}"`},
		{"unknown label", `{"x": [1]}` + "\n" + `{"x": [1], "y": {"cat": 1}}`, TargetsOptional, ErrUnknownLabel, `r.jsonl:2: unknown label: "cat" is not a node of the tree`},
		{"zero row", `{"x": [1], "y": {"dog": 0}}`, TargetsOptional, ErrZeroRow, `r.jsonl:1: all masses are zero`},
		{"dimension", `{"x": [1]}` + "\n" + `{"x": [1, 2]}`, TargetsOptional, ErrDimension, `r.jsonl:2: wrong dimension: 2 features, want 1 as on line 1`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := readAll(tc.in, tr, &ReaderOptions{Targets: tc.targets})
			var e *Error
			if !errors.Is(err, tc.err) || !errors.As(err, &e) || err.Error() != tc.msg {
				t.Errorf("error %v, want %q", err, tc.msg)
			}
		})
	}
	rd := NewReader(failReader{strings.NewReader(`{"x": [1]}` + "\n")}, "f.jsonl", nil, &ReaderOptions{Targets: TargetsIgnored})
	if !rd.Next() || rd.Next() || rd.Err() == nil || rd.Err().Error() != "f.jsonl: disk on fire" || rd.Next() {
		t.Errorf("I/O error: %v", rd.Err())
	}
	for name, f := range map[string]func(){
		"nil tree":    func() { NewReader(strings.NewReader(""), "x", nil, nil) },
		"bad targets": func() { NewReader(strings.NewReader(""), "x", tr, &ReaderOptions{Targets: 7}) },
		"bad tol":     func() { NewReader(strings.NewReader(""), "x", tr, &ReaderOptions{Options: Options{Tol: -1}}) },
	} {
		if !panics(f) {
			t.Errorf("%s: no panic", name)
		}
	}
}

// TestReaderAllocs checks that reading a sample allocates nothing once the
// Reader's buffers have grown: memory does not grow with the number of
// samples.
func TestReaderAllocs(t *testing.T) {
	tr := tree.Star(1000)
	var line strings.Builder
	line.WriteString(`{"id": [1, {"a": "b"}], "x": [1, 2, 3], "y": {`)
	for j := 999; j >= 980; j-- { // out of order: sorted by the Reader
		fmt.Fprintf(&line, "%q: 0.05,", tr.Name(j))
	}
	in := strings.TrimSuffix(line.String(), ",") + "}}\n"
	for _, targets := range []Targets{TargetsRequired, TargetsIgnored} {
		rd := NewReader(&repeat{line: in}, "a.jsonl", tr, &ReaderOptions{Targets: targets})
		for range 10 {
			rd.Next()
		}
		if a := testing.AllocsPerRun(1000, func() { rd.Next() }); a != 0 || rd.Err() != nil {
			t.Errorf("targets %d: %v allocations a sample, err %v", targets, a, rd.Err())
		}
		if s := rd.Sample(); targets == TargetsRequired && (s.Y.Len() != 20 || s.Y.Index[0] != 980) {
			t.Errorf("y = %+v", s.Y)
		}
	}
}

// repeat is an endless reader of the same line.
type repeat struct {
	line string
	off  int
}

func (r *repeat) Read(b []byte) (int, error) {
	n := 0
	for n < len(b) {
		c := copy(b[n:], r.line[r.off:])
		n += c
		r.off = (r.off + c) % len(r.line)
	}
	return n, nil
}

// TestReaderMatchesReadJSONL reads random data sets with both, bit for bit.
func TestReaderMatchesReadJSONL(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	tr := tree.Random(40, rand.NewPCG(7, 8))
	L := tr.Len()
	for trial := range 20 {
		var sb strings.Builder
		n := 1 + rng.IntN(20)
		for range n {
			sb.WriteString(`{"x": [`)
			fmt.Fprintf(&sb, "%v, %v], \"y\": {", rng.NormFloat64(), rng.NormFloat64())
			for k, j := range rng.Perm(L)[:1+rng.IntN(L)] {
				if k > 0 {
					sb.WriteByte(',')
				}
				fmt.Fprintf(&sb, "%q: %v", tr.Name(j), rng.Float64()*float64(rng.IntN(3)))
			}
			sb.WriteString("}}\n")
		}
		ds, rep, err1 := ReadJSONL(strings.NewReader(sb.String()), "r.jsonl", tr, nil)
		got, rep2, err2 := readAll(sb.String(), tr, nil)
		if (err1 == nil) != (err2 == nil) || err1 != nil && err1.Error() != err2.Error() {
			t.Fatalf("trial %d: errors %v and %v", trial, err1, err2)
		}
		if err1 != nil {
			continue
		}
		if rep != rep2 || len(got) != n {
			t.Fatalf("trial %d: reports %+v and %+v, %d samples", trial, rep, rep2, len(got))
		}
		row := make([]float64, L)
		for i, s := range got {
			Sparse{Index: s.Index, Mass: s.Mass}.Dense(row)
			if !sameBits(row, ds.Y.RawRowView(i)) || !sameBits(s.X, ds.X.RawRowView(i)) {
				t.Fatalf("trial %d, sample %d differs", trial, i)
			}
		}
	}
}

func TestReadJSONLFile(t *testing.T) {
	tr := animals(t)
	ds, _, err := ReadJSONLFile("testdata/animals.jsonl", tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open("testdata/animals.jsonl")
	defer f.Close()
	want, _, _ := ReadJSONL(f, "testdata/animals.jsonl", tr, nil)
	if !reflect.DeepEqual(ds, want) {
		t.Errorf("ReadJSONLFile differs from ReadJSONL")
	}
	if _, _, err := ReadJSONLFile("testdata/nope.jsonl", tr, nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestSparseDense(t *testing.T) {
	row := []float64{9, 9, 9, 9}
	Sparse{Index: []int{3, 1}, Mass: []float64{0.5, 0.25}}.Dense(row)
	if want := []float64{0, 0.25, 0, 0.5}; !reflect.DeepEqual(row, want) {
		t.Errorf("%v, want %v", row, want)
	}
	if !panics(func() { Sparse{Index: []int{4}, Mass: []float64{1}}.Dense(row) }) ||
		!panics(func() { Sparse{Index: []int{1}}.Dense(row) }) {
		t.Error("no panic")
	}
}

var _ io.Reader = (*repeat)(nil)
