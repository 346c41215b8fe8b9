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
