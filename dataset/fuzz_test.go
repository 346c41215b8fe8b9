package dataset

import (
	"bytes"
	"errors"
	"math"
	"os"
	"testing"
)

// FuzzReadJSONL checks that ReadJSONL never panics, that its errors are
// *Error values, and that what it accepts is well-formed (finite features,
// finite non-negative masses summing to 1) and survives WriteJSONL and
// ReadJSONL unchanged. Seeds: testdata/animals.jsonl and the lines below.
func FuzzReadJSONL(f *testing.F) {
	b, err := os.ReadFile("testdata/animals.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	for _, s := range []string{
		`{"x": [1], "y": {"dog": 1}}`,
		"\xef\xbb\xbf{\"y\": {\"d\\u006fg\": 2, \"animal\": 2}, \"x\": [1e-400, -0]}\r\n",
		`{"x": [1, 2], "y": {"dog": 0.5}}` + "\n" + `{"x": [3], "y": {"dog": 1}}`,
		`{"x": [1e999], "y": {"dog": 1}}`,
		`{"x": [1], "y": {"dog": -1}}`,
		`{"x": [1], "y": {}}`,
		`{"x": [1], "y": {"dog": 1, "dog": 1}}`,
		`[1, 2]`,
		"",
	} {
		f.Add([]byte(s))
	}
	tr := animals(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		ds, rep, err := ReadJSONL(bytes.NewReader(in), "fuzz.jsonl", tr, nil)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.File != "fuzz.jsonl" {
				t.Fatalf("error %v is not an *Error naming the file", err)
			}
			return
		}
		n, _ := ds.X.Dims()
		if len(ds.Lines) != n || rep.Rows != n {
			t.Fatalf("%d rows, %d lines, report %+v", n, len(ds.Lines), rep)
		}
		for _, v := range ds.X.RawMatrix().Data {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("feature %v", v)
			}
		}
		for i := range n {
			var s float64
			for _, v := range ds.Y.RawRowView(i) {
				if !(v >= 0) || math.IsInf(v, 0) {
					t.Fatalf("mass %v", v)
				}
				s += v
			}
			if math.Abs(s-1) > 1e-6 {
				t.Fatalf("row %d sums to %v", i, s)
			}
		}
		var out bytes.Buffer
		if err := WriteJSONL(&out, ds, tr); err != nil {
			t.Fatal(err)
		}
		back, rep2, err := ReadJSONL(&out, "out.jsonl", tr, nil)
		if err != nil {
			t.Fatalf("reading back %q: %v", out.String(), err)
		}
		if rep2.Rescaled != 0 || !sameBits(back.X.RawMatrix().Data, ds.X.RawMatrix().Data) || !sameBits(back.Y.RawMatrix().Data, ds.Y.RawMatrix().Data) {
			t.Fatalf("round trip changed the data: %q", out.String())
		}
	})
}

// FuzzReader checks the Reader against ReadJSONL: with targets required it
// accepts what ReadJSONL accepts, sample for sample, and refuses the rest
// with the same error; with targets optional or ignored it accepts every
// input that ReadJSONL accepts, and what it yields is well-formed (indices
// increasing and in range, masses positive and finite, features finite).
// It never panics, and its errors are *Error values naming the file. Seeds:
// those of FuzzReadJSONL and lines with other keys and without "y".
func FuzzReader(f *testing.F) {
	b, err := os.ReadFile("testdata/animals.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	for _, s := range []string{
		`{"x": [1], "y": {"dog": 1}, "id": "a"}`,
		`{"id": [1, {"a": null, "b": [true, false]}], "x": [1, 2]}`,
		`{"x": [1], "y": {"cat": -1}, "n": -1e999}`,
		`{"x": [1], "y": {"dog": 0.5, "reptile": 0.5, "animal": 1}}` + "\n" + `{"x": [2]}`,
		`{"x": [1], "z": [[[{"a": "\u00e9"}]]], "y": {"dog": 1}}`,
		`{"x": [1], "y": {"dog": 1}, "y": {}}`,
		`{"x": [1], "z": tru}`,
		`{"x": [1], "z": {"a" 1}}`,
		`{"x": [1], "z": [1,]}`,
	} {
		f.Add([]byte(s))
	}
	tr := animals(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		ds, rep, errDense := ReadJSONL(bytes.NewReader(in), "fuzz.jsonl", tr, nil)
		for _, targets := range []Targets{TargetsRequired, TargetsOptional, TargetsIgnored} {
			rd := NewReader(bytes.NewReader(in), "fuzz.jsonl", tr, &ReaderOptions{Targets: targets})
			row := make([]float64, tr.Len())
			n := 0
			for rd.Next() {
				s := rd.Sample()
				if s.Line <= 0 || len(s.X) == 0 || len(s.X) != rd.Dim() {
					t.Fatalf("targets %d: sample %+v, dimension %d", targets, s, rd.Dim())
				}
				for _, v := range s.X {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						t.Fatalf("feature %v", v)
					}
				}
				if targets == TargetsIgnored && (s.HasY || s.Y.Len() != 0) {
					t.Fatalf("ignored targets read: %+v", s)
				}
				for k, j := range s.Y.Index {
					if j < 0 || j >= tr.Len() || k > 0 && j <= s.Y.Index[k-1] || !(s.Y.Mass[k] > 0) || math.IsInf(s.Y.Mass[k], 0) {
						t.Fatalf("targets %d: y %+v", targets, s.Y)
					}
				}
				if errDense == nil && targets != TargetsIgnored {
					s.Y.Dense(row)
					if !s.HasY || !sameBits(row, ds.Y.RawRowView(n)) || !sameBits(s.X, ds.X.RawRowView(n)) || s.Line != ds.Lines[n] {
						t.Fatalf("targets %d: sample %d differs from ReadJSONL's", targets, n)
					}
				}
				n++
			}
			err := rd.Err()
			if err != nil {
				var e *Error
				if !errors.As(err, &e) || e.File != "fuzz.jsonl" {
					t.Fatalf("error %v is not an *Error naming the file", err)
				}
			}
			switch {
			case targets == TargetsRequired && (errDense == nil) != (err == nil):
				t.Fatalf("ReadJSONL: %v, Reader: %v", errDense, err)
			case targets == TargetsRequired && err != nil && err.Error() != errDense.Error():
				t.Fatalf("ReadJSONL: %v, Reader: %v", errDense, err)
			case errDense == nil && err != nil:
				t.Fatalf("targets %d: %v; ReadJSONL accepts the input", targets, err)
			case errDense == nil && (n != ds.Len() || targets != TargetsIgnored && rd.Report() != rep):
				t.Fatalf("targets %d: %d samples, report %+v; ReadJSONL: %d, %+v", targets, n, rd.Report(), ds.Len(), rep)
			}
		}
	})
}
