package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/twl-ldl/twl/tree"
)

func TestReadJSONL(t *testing.T) {
	tr := animals(t)
	// A byte order mark, CRLF endings, a blank line, an escaped label name
	// ("do\u0067" is "dog"), an underflowing mass (read as 0), and no
	// newline at the end.
	in := "\xef\xbb\xbf" + `{"x": [1, -2.5e1], "y": {"dog": 0.75, "mammal": 0.25}}` + "\r\n" +
		"   \r\n" +
		`{ "y" : { "do\u0067" : 1 , "reptile": 1e-400 } , "x" : [ 0 , 1E+2 ] }`
	ds, rep, err := ReadJSONL(strings.NewReader(in), "in.jsonl", tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Expected values: the numbers on the lines above, masses placed in
	// the columns of the user indices animal 0, mammal 1, reptile 2, dog 3.
	wantX := mat.NewDense(2, 2, []float64{1, -25, 0, 100})
	wantY := mat.NewDense(2, 4, []float64{0, 0.25, 0, 0.75, 0, 0, 0, 1})
	if !mat.Equal(ds.X, wantX) || !mat.Equal(ds.Y, wantY) {
		t.Errorf("X = %v, Y = %v", mat.Formatted(ds.X), mat.Formatted(ds.Y))
	}
	if want := []int{1, 3}; !reflect.DeepEqual(ds.Lines, want) {
		t.Errorf("Lines = %v, want %v", ds.Lines, want)
	}
	if want := []string{"animal", "mammal", "reptile", "dog"}; !reflect.DeepEqual(ds.Labels, want) {
		t.Errorf("Labels = %q, want %q", ds.Labels, want)
	}
	if ds.Len() != 2 || rep.Rescaled != 0 || rep.Rows != 2 || rep.String() != "" {
		t.Errorf("Len() = %d, report %+v", ds.Len(), rep)
	}
}

// TestReadJSONLExtraKeys reads lines with keys other than "x" and "y",
// holding every kind of JSON value, which are skipped.
func TestReadJSONLExtraKeys(t *testing.T) {
	tr := animals(t)
	in := `{"id": "a\"}", "x": [1, 2], "meta": {"a": [1, {"b": null}], "c": {}, "d": []}, "y": {"dog": 1}, "ok": true}
{"x": [3, 4], "tags": [], "y": {"reptile": 1}, "n": -1.5e999, "f": false, "z": [[[["]"]]]]}
`
	ds, _, err := ReadJSONL(strings.NewReader(in), "k.jsonl", tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Expected: the "x" and "y" of the lines, as if the other keys were not there.
	want, _, err := ReadJSONL(strings.NewReader(`{"x": [1, 2], "y": {"dog": 1}}
{"x": [3, 4], "y": {"reptile": 1}}`), "k.jsonl", tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(ds.X, want.X) || !mat.Equal(ds.Y, want.Y) {
		t.Errorf("X = %v, Y = %v", mat.Formatted(ds.X), mat.Formatted(ds.Y))
	}
	// Deep nesting in a skipped value needs no recursion.
	deep := `{"x": [1], "y": {"dog": 1}, "id": ` + strings.Repeat("[", 1e6) + strings.Repeat("]", 1e6) + "}"
	if _, _, err := ReadJSONL(strings.NewReader(deep), "deep.jsonl", tr, nil); err != nil {
		t.Error(err)
	}
}

func TestReadJSONLRescale(t *testing.T) {
	tr := animals(t)
	in := `{"x": [1], "y": {"dog": 1}}
{"x": [2], "y": {"dog": 1, "reptile": 3}}
{"x": [3], "y": {"dog": 0.5}}
{"x": [4], "y": {"dog": 0.9999995, "animal": 0}}
`
	ds, rep, err := ReadJSONL(strings.NewReader(in), "r.jsonl", tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Line 2 sums to 4 (deviation 3), line 3 to 0.5; line 4 is within 1e-6
	// and kept as written.
	want := mat.NewDense(4, 4, []float64{
		0, 0, 0, 1,
		0, 0, 0.75, 0.25,
		0, 0, 0, 1,
		0, 0, 0, 0.9999995,
	})
	if !mat.Equal(ds.Y, want) {
		t.Errorf("Y = %v, want %v", mat.Formatted(ds.Y), mat.Formatted(want))
	}
	wantRep := Report{File: "r.jsonl", Rows: 4, Tol: 1e-6, Rescaled: 2, FirstRow: 1, FirstLine: 2, MaxDeviation: 3}
	if rep != wantRep {
		t.Errorf("report %+v, want %+v", rep, wantRep)
	}
	if got, want := rep.String(), "r.jsonl:2: 2 of 4 label rows did not sum to 1 within 1e-06 (largest deviation 3) and were rescaled; the first is on this line"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}

	_, _, err = ReadJSONL(strings.NewReader(in), "r.jsonl", tr, &Options{Strict: true})
	if !errors.Is(err, ErrSum) || err.Error() != "r.jsonl:2: masses do not sum to 1: they sum to 4 (tolerance 1e-06)" {
		t.Errorf("Strict: %v", err)
	}
	_, _, err = ReadJSONL(strings.NewReader(in), "r.jsonl", tr, &Options{Strict: true, Tol: 1e-7})
	if !errors.Is(err, ErrSum) {
		t.Errorf("Strict, Tol 1e-7: %v", err)
	}
	_, rep, err = ReadJSONL(strings.NewReader(in), "r.jsonl", tr, &Options{Tol: 5})
	if err != nil || rep.Rescaled != 0 {
		t.Errorf("Tol 5: %+v, %v", rep, err)
	}
}

func TestReadJSONLErrors(t *testing.T) {
	tr := animals(t)
	const ok = `{"x": [1, 2], "y": {"dog": 1}}` + "\n"
	for _, tc := range []struct {
		name string
		in   string
		err  error
		msg  string // the whole message
	}{
		{"empty", "", ErrEmpty, "e.jsonl: no samples"},
		{"blank lines only", "\n  \r\n\t\n", ErrEmpty, "e.jsonl: no samples"},
		{"unclosed object", `{"x": [1, 2], "y": {"dog": 1}`, ErrSyntax, `e.jsonl:1: syntax error: column 30: want ',' or '}' after the value of "y", found the end of the line`},
		{"not an object", `[1, 2]`, ErrSyntax, `e.jsonl:1: syntax error: column 1: want a JSON object {"x": [...], "y": {...}}, found "[1, 2]"`},
		{"trailing data", ok[:len(ok)-1] + " x", ErrSyntax, `e.jsonl:1: syntax error: column 32: data after the end of the JSON object: "x"`},
		{"key not a string", `{"x": [1], z: 1}`, ErrSyntax, `e.jsonl:1: syntax error: column 12: want a key such as "x" or "y" in double quotes, found "z: 1}"`},
		{"bad extra value", `{"x": [1], "id": [1, tru], "y": {"dog": 1}}`, ErrSyntax, `e.jsonl:1: syntax error: column 22: want a JSON value, found "tru], `},
		{"unclosed extra value", `{"x": [1], "y": {"dog": 1}, "id": {"a": [1}}`, ErrSyntax, `column 43: want ',' or ']', found "}}"`},
		{"extra key not a string", `{"x": [1], "y": {"dog": 1}, "id": {a: 1}}`, ErrSyntax, `column 36: want a key in double quotes`},
		{"bad number in extra value", `{"x": [1], "y": {"dog": 1}, "id": -}`, ErrSyntax, `column 35: want a number, found "-}"`},
		{"no y", `{"x": [1]}`, ErrSyntax, `e.jsonl:1: syntax error: no "y" (label distribution)`},
		{"no x", `{"y": {"dog": 1}}`, ErrSyntax, `e.jsonl:1: syntax error: no "x" (features)`},
		{"string mass", `{"x": [1], "y": {"dog": "1"}}`, ErrSyntax, `e.jsonl:1: syntax error: column 25: want a number, found "\"1\"}}"`},
		{"nested y", `{"x": [1], "y": {"dog": {}}}`, ErrSyntax, "want a number"},
		{"y as array", `{"x": [1], "y": [0, 0, 0, 1]}`, ErrSyntax, `want the label distribution "y" as an object`},
		{"x as object", `{"x": {}, "y": {"dog": 1}}`, ErrSyntax, `want the features of "x" as an array`},
		{"null feature", `{"x": [null], "y": {"dog": 1}}`, ErrSyntax, "want a number, found \"null]"},
		{"leading zero", `{"x": [01], "y": {"dog": 1}}`, ErrSyntax, "column 9: want ',' or ']' in \"x\""},
		{"bare point", `{"x": [1.], "y": {"dog": 1}}`, ErrSyntax, "want a digit after the decimal point"},
		{"plus sign", `{"x": [+1], "y": {"dog": 1}}`, ErrSyntax, "want a number"},
		{"empty exponent", `{"x": [1e], "y": {"dog": 1}}`, ErrSyntax, "want a digit in the exponent"},
		{"NaN", `{"x": [NaN], "y": {"dog": 1}}`, ErrSyntax, "want a number"},
		{"unterminated string", `{"x": [1], "y": {"dog`, ErrSyntax, "column 18: unterminated string"},
		{"control character", "{\"x\": [1], \"y\": {\"d\tg\": 1}}", ErrSyntax, "column 20: control character 0x09 in string"},
		{"bad escape", `{"x": [1], "y": {"d\qg": 1}}`, ErrSyntax, "invalid string"},
		{"invalid UTF-8", "{\"x\": [1], \"y\": {\"d\xffg\": 1}}", ErrSyntax, "invalid UTF-8"},
		{"unknown label", `{"x": [1], "y": {"cat": 1}}`, ErrUnknownLabel, `e.jsonl:1: unknown label: "cat" is not a node of the tree`},
		{"duplicate label", `{"x": [1], "y": {"dog": 0.5, "d\u006fg": 0.5}}`, ErrDuplicateKey, `e.jsonl:1: duplicate key: label "dog" appears more than once`},
		{"duplicate x", `{"x": [1], "x": [2], "y": {"dog": 1}}`, ErrDuplicateKey, `e.jsonl:1: duplicate key: "x" again at column 12`},
		// A byte order mark is three bytes of line 1 (as in labeldist).
		{"duplicate x after a BOM", "\ufeff" + `{"x": [1], "x": [2], "y": {"dog": 1}}`, ErrDuplicateKey, `e.jsonl:1: duplicate key: "x" again at column 15`},
		{"duplicate y", `{"y": {"dog": 1}, "x": [1], "y": {"dog": 1}}`, ErrDuplicateKey, `"y" again at column 29`},
		{"negative mass", `{"x": [1], "y": {"dog": 1.5, "mammal": -0.5}}`, ErrNegative, `e.jsonl:1: negative mass: "mammal" has mass -0.5`},
		{"overflowing mass", `{"x": [1], "y": {"dog": 1e999}}`, ErrNonFinite, `e.jsonl:1: non-finite value: the mass of "dog" overflows float64: 1e999`},
		{"masses sum to Inf", `{"x": [1], "y": {"dog": 1e308, "animal": 1e308}}`, ErrNonFinite, "the masses sum to +Inf"},
		{"overflowing feature", `{"x": [1, -2e400], "y": {"dog": 1}}`, ErrNonFinite, `e.jsonl:1: non-finite value: feature 2 (column 11) overflows float64: -2e400`},
		{"no features", `{"x": [], "y": {"dog": 1}}`, ErrDimension, `e.jsonl:1: wrong dimension: "x" holds no features`},
		{"wrong dimension", ok + "\n" + ok + `{"x": [1, 2, 3], "y": {"dog": 1}}`, ErrDimension, "e.jsonl:4: wrong dimension: 3 features, want 2 as on line 1"},
		{"empty y", `{"x": [1], "y": {}}`, ErrZeroRow, "e.jsonl:1: all masses are zero"},
		{"zero masses", ok + `{"x": [1, 2], "y": {"dog": 0, "animal": 0e5}}`, ErrZeroRow, "e.jsonl:2: all masses are zero"},
		// 7e-324 and 1e-323 read as 5e-324 and 1e-323: rescaled they would
		// be 1/3 and 2/3, not 7/17 and 10/17.
		{"subnormal masses", ok + `{"x": [1, 2], "y": {"dog": 7e-324, "animal": 1e-323}}`, ErrUnderflow,
			"e.jsonl:2: masses too small to rescale: they sum to 1.5e-323, below 2.2e-308"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds, _, err := ReadJSONL(strings.NewReader(tc.in), "e.jsonl", tr, nil)
			if ds != nil || !errors.Is(err, tc.err) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q does not contain %q", err, tc.msg)
			}
		})
	}
}

type failReader struct{ after io.Reader }

func (r failReader) Read(b []byte) (int, error) {
	n, err := r.after.Read(b)
	if err == io.EOF {
		return n, errors.New("disk on fire")
	}
	return n, err
}

func TestReadJSONLIOError(t *testing.T) {
	_, _, err := ReadJSONL(failReader{strings.NewReader(`{"x": [1], "y": {"dog": 1}}` + "\n")}, "f.jsonl", animals(t), nil)
	if err == nil || err.Error() != "f.jsonl: disk on fire" {
		t.Errorf("err = %v", err)
	}
}

// TestReadJSONLLongLine reads lines with 10^5 labels, far beyond
// bufio.Scanner's 64 KiB default.
func TestReadJSONLLongLine(t *testing.T) {
	const L = 100000
	tr := tree.Star(L)
	var sb strings.Builder
	for range 2 {
		sb.WriteString(`{"x": [1, 2, 3], "y": {`)
		for j := range L {
			if j > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, "%q: 1e-5", tr.Name(j))
		}
		sb.WriteString("}}\n")
	}
	if sb.Len() < 1<<20 {
		t.Fatalf("line only %d bytes", sb.Len())
	}
	ds, rep, err := ReadJSONL(strings.NewReader(sb.String()), "long.jsonl", tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n, l := ds.Y.Dims(); n != 2 || l != L || ds.Y.At(1, L-1) != 1e-5 {
		t.Errorf("Y is %d×%d, Y[1, L-1] = %v", n, l, ds.Y.At(1, L-1))
	}
	// Σ 1e-5 over 10^5 labels is 1 within rounding, far inside 1e-6.
	if rep.Rescaled != 0 {
		t.Errorf("report %+v", rep)
	}
}

func TestWriteJSONL(t *testing.T) {
	tr := animals(t)
	ds := &Dataset{
		X:      mat.NewDense(2, 4, []float64{0.5, -1, 1e-7, 1e21, 0, 123456789, 0.1, math.Copysign(0, -1)}),
		Y:      mat.NewDense(2, 4, []float64{0, 0.25, 0, 0.75, 1, 0, 0, 0}),
		Labels: []string{"animal", "mammal", "reptile", "dog"},
	}
	var b bytes.Buffer
	if err := WriteJSONL(&b, ds, tr); err != nil {
		t.Fatal(err)
	}
	// Expected: the values above as encoding/json writes float64s.
	want := `{"x":[0.5,-1,1e-7,1e+21],"y":{"mammal":0.25,"dog":0.75}}
{"x":[0,123456789,0.1,-0],"y":{"animal":1}}
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	// With a nil tree the data set's labels are used.
	var b2 bytes.Buffer
	if err := WriteJSONL(&b2, ds, nil); err != nil || b2.String() != want {
		t.Errorf("nil tree: %v\n%s", err, b2.String())
	}
	// Names that need escaping in JSON.
	odd, err := tree.FromParents([]int{-1, 0}, nil, []string{`a"b`, "<é>"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	ds2 := &Dataset{X: mat.NewDense(1, 1, []float64{1}), Y: mat.NewDense(1, 2, []float64{0.5, 0.5})}
	if err := WriteJSONL(&b, ds2, odd); err != nil || b.String() != `{"x":[1],"y":{"a\"b":0.5,"<é>":0.5}}`+"\n" {
		t.Errorf("odd names: %v %s", err, b.String())
	}
}

func TestWriteJSONLErrors(t *testing.T) {
	tr := animals(t)
	for _, tc := range []struct {
		name string
		x, y []float64
		err  error
		msg  string
	}{
		{"NaN feature", []float64{1, 2, 3, math.NaN()}, []float64{1, 0, 0, 0, 0, 0, 0, 1}, ErrNonFinite, "line 2: non-finite value: feature 2 is NaN"},
		{"Inf mass", []float64{1, 2, 3, 4}, []float64{math.Inf(1), 0, 0, 0, 0, 0, 0, 1}, ErrNonFinite, `line 1: non-finite value: the mass of "animal" is +Inf`},
		{"negative mass", []float64{1, 2, 3, 4}, []float64{1, 0, 0, 0, 0, 0, 2, -1}, ErrNegative, `line 2: negative mass: "dog" has mass -1`},
		{"zero row", []float64{1, 2, 3, 4}, []float64{1, 0, 0, 0, 0, 0, 0, 0}, ErrZeroRow, "line 2: all masses are zero"},
	} {
		ds := &Dataset{X: mat.NewDense(2, 2, tc.x), Y: mat.NewDense(2, 4, tc.y)}
		err := WriteJSONL(io.Discard, ds, tr)
		if !errors.Is(err, tc.err) || err.Error() != tc.msg {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.msg)
		}
	}
	ds := &Dataset{X: mat.NewDense(1, 1, []float64{1}), Y: mat.NewDense(1, 4, []float64{1, 0, 0, 0})}
	for _, tc := range []struct {
		name   string
		labels []string
		t      *tree.Tree
	}{
		{"no names", nil, nil},
		{"tree too small", nil, tree.Chain(3)},
		{"names differ", []string{"animal", "mammal", "dog", "reptile"}, tr},
		{"too few names", []string{"a"}, nil},
	} {
		ds.Labels = tc.labels
		if !panics(func() { WriteJSONL(io.Discard, ds, tc.t) }) {
			t.Errorf("%s: no panic", tc.name)
		}
	}
}

// TestRoundTrip writes random data sets, with values across the whole
// float64 range, and reads them back bit for bit.
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tr := tree.Random(50, rand.NewPCG(3, 4))
	special := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, math.MaxFloat64, -math.MaxFloat64, 1e-7, 1e21, 1e20, 0.1, 1.0 / 3}
	for trial := range 20 {
		n, d := 1+rng.IntN(30), 1+rng.IntN(10)
		x := make([]float64, n*d)
		for i := range x {
			if rng.IntN(4) == 0 {
				x[i] = special[rng.IntN(len(special))]
			} else {
				x[i] = math.Ldexp(rng.NormFloat64(), rng.IntN(200)-100)
			}
		}
		y := make([]float64, n*tr.Len())
		for i := range n {
			row := y[i*tr.Len() : (i+1)*tr.Len()]
			var s float64
			for j := range row {
				if rng.IntN(3) == 0 || j == i%len(row) {
					row[j] = rng.Float64() + 1e-3
					s += row[j]
				}
			}
			for j := range row {
				row[j] /= s
			}
		}
		ds := &Dataset{X: mat.NewDense(n, d, x), Y: mat.NewDense(n, tr.Len(), y)}
		var b bytes.Buffer
		if err := WriteJSONL(&b, ds, tr); err != nil {
			t.Fatal(err)
		}
		got, rep, err := ReadJSONL(&b, "rt.jsonl", tr, nil)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Rescaled != 0 {
			t.Errorf("trial %d: rescaled %d rows", trial, rep.Rescaled)
		}
		if !sameBits(got.X.RawMatrix().Data, x) || !sameBits(got.Y.RawMatrix().Data, y) {
			t.Fatalf("trial %d: round trip changed the data", trial)
		}
	}
}

// sameBits reports whether a and b hold the same float64s bit for bit,
// except that a zero may come back as +0 where -0 was written for a mass.
func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) && !(a[i] == 0 && b[i] == 0) {
			return false
		}
	}
	return true
}

func panics(f func()) (p bool) {
	defer func() { p = recover() != nil }()
	f()
	return false
}
