package labeldist

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/twl-ldl/twl/tree"
)

// figure1 is the tree of Figure 1 of the paper. User order: animal 0,
// mammal 1, reptile 2, dog 3, cat 4, lizard 5, snake 6.
const figure1 = "animal\tmammal\nanimal\treptile\nmammal\tdog\nmammal\tcat\nreptile\tlizard\nreptile\tsnake\n"

func fig1(tb testing.TB) *tree.Tree {
	tb.Helper()
	t, err := tree.Read(strings.NewReader(figure1), "figure1.tree", nil)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

func TestReadValid(t *testing.T) {
	tr := fig1(t)
	for _, tc := range []struct {
		name  string
		in    string
		opts  *Options
		want  [][]float64
		lines []int
	}{
		{"object", `{"dog": 0.25, "cat": 0.75}`, nil,
			[][]float64{{0, 0, 0, 0.25, 0.75, 0, 0}}, []int{1}},
		{"internal node", `{"mammal": 1}`, nil,
			[][]float64{{0, 1, 0, 0, 0, 0, 0}}, []int{1}},
		{"array", `[0, 0, 0, 0.5, 0.5, 0, 0]`, nil,
			[][]float64{{0, 0, 0, 0.5, 0.5, 0, 0}}, []int{1}},
		{"compact array, exponents", `[0,0,0,5e-1,5E-1,0.0,0e0]`, nil,
			[][]float64{{0, 0, 0, 0.5, 0.5, 0, 0}}, []int{1}},
		{"blank lines are skipped, lines counted", "\n  \t\n{\"cat\":1}\n\n[1,0,0,0,0,0,0]\n\n", nil,
			[][]float64{{0, 0, 0, 0, 1, 0, 0}, {1, 0, 0, 0, 0, 0, 0}}, []int{3, 5}},
		{"no final newline", "{\"cat\":1}\n{\"dog\":1}", nil,
			[][]float64{{0, 0, 0, 0, 1, 0, 0}, {0, 0, 0, 1, 0, 0, 0}}, []int{1, 2}},
		{"CRLF and BOM", "\ufeff{\"cat\":1}\r\n\r\n{\"dog\":1}\r\n", nil,
			[][]float64{{0, 0, 0, 0, 1, 0, 0}, {0, 0, 0, 1, 0, 0, 0}}, []int{1, 3}},
		{"escaped label", `{"c\u0061t": 1, "\u0064og": 0}`, nil,
			[][]float64{{0, 0, 0, 0, 1, 0, 0}}, []int{1}},
		{"negative zero and underflow are zero", `{"cat": 1, "dog": -0, "snake": 1e-400}`, nil,
			[][]float64{{0, 0, 0, 0, 1, 0, 0}}, []int{1}},
		{"measures: any total, empty rows", "{\"cat\": 2.5, \"dog\": 1}\n{}\n[0,0,0,0,0,0,0]\n", &Options{Measures: true, Normalize: true},
			[][]float64{{0, 0, 0, 1, 2.5, 0, 0}, {0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0}}, []int{1, 2, 3}},
		{"within tolerance, kept as written", `{"cat": 0.9999995}`, nil,
			[][]float64{{0, 0, 0, 0, 0.9999995, 0, 0}}, []int{1}},
		{"fastText's predict-prob layout", "__label__cat 0.75 __label__dog 0.25\n\n  __label__animal\t1e-1  __label__snake 0.9 \r\n", nil,
			[][]float64{{0, 0, 0, 0.25, 0.75, 0, 0}, {0.1, 0, 0, 0, 0, 0, 0.9}}, []int{1, 3}},
		{"fastText's layout, rescaled (fastText adds 1e-5 to each)", "__label__cat 0.700005 __label__dog 0.300005", &Options{Normalize: true},
			[][]float64{{0, 0, 0, 0.300005 / 1.00001, 0.700005 / 1.00001, 0, 0}}, []int{1}},
		{"larger tolerance", `{"cat": 0.9}`, &Options{Tol: 0.2},
			[][]float64{{0, 0, 0, 0, 0.9, 0, 0}}, []int{1}},
		{"infinite tolerance", `{"cat": 5}`, &Options{Tol: math.Inf(1)},
			[][]float64{{0, 0, 0, 0, 5, 0, 0}}, []int{1}},
		{"normalize", `{"dog": 1, "cat": 3}`, &Options{Normalize: true},
			[][]float64{{0, 0, 0, 0.25, 0.75, 0, 0}}, []int{1}},
		{"normalize a sum that overflows", `{"dog": 1e308, "cat": 1e308}`, &Options{Normalize: true},
			[][]float64{{0, 0, 0, 0.5, 0.5, 0, 0}}, []int{1}},
		// The smallest sum rescaled: 2⁻¹⁰²², normal, so each share is
		// exact (the halves are 2⁻¹⁰²³, subnormal, and exact too).
		{"normalize the smallest normal sum", `{"dog": 1.1125369292536007e-308, "cat": 1.1125369292536007e-308}`, &Options{Normalize: true},
			[][]float64{{0, 0, 0, 0.5, 0.5, 0, 0}}, []int{1}},
		{"empty input", "", nil, nil, nil},
		{"only blank lines", "\n\r\n \n", nil, nil, nil},
		{"only a BOM", "\ufeff", nil, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Read(strings.NewReader(tc.in), "in.jsonl", tr, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if s.Rows != len(tc.want) || s.L != 7 || len(s.Data) != 7*len(tc.want) || s.File != "in.jsonl" {
				t.Fatalf("got Rows=%d L=%d len(Data)=%d File=%q", s.Rows, s.L, len(s.Data), s.File)
			}
			for r, want := range tc.want {
				got := s.Row(r)
				for i := range want {
					if got[i] != want[i] || math.Signbit(got[i]) {
						t.Errorf("row %d = %v, want %v", r, got, want)
						break
					}
				}
				if s.Lines[r] != tc.lines[r] {
					t.Errorf("Lines[%d] = %d, want %d", r, s.Lines[r], tc.lines[r])
				}
			}
		})
	}
}

func TestReadErrors(t *testing.T) {
	tr := fig1(t)
	const ok = `{"cat": 1}` + "\n"
	for _, tc := range []struct {
		name string
		in   string
		opts *Options
		err  error
		line int
		msg  string // a part of the message
	}{
		{"unknown label", `{"fish": 1}`, nil, ErrUnknownLabel, 1, `unknown label: "fish"`},
		{"unknown label after blank lines", ok + "\n\n" + `{"cat": 0.5, "fish": 0.5}`, nil, ErrUnknownLabel, 4, `"fish"`},
		{"label case matters", `{"Cat": 1}`, nil, ErrUnknownLabel, 1, `"Cat"`},
		{"negative", `{"dog": -0.5, "cat": 1.5}`, nil, ErrNegative, 1, `"dog": -0.5`},
		{"negative in array", `[0, 0, 0, 1.5, -0.5, 0, 0]`, nil, ErrNegative, 1, `element 5 ("cat"): -0.5`},
		{"overflow", `{"dog": 1e999}`, nil, ErrNonFinite, 1, "1e999 overflows"},
		{"negative overflow", `{"dog": -1e999}`, nil, ErrNonFinite, 1, "overflows"},
		{"overflow in array", `[0, 0, 0, 1e400, 0, 0, 0]`, nil, ErrNonFinite, 1, "element 4"},
		{"NaN", `{"dog": NaN}`, nil, ErrSyntax, 1, `column 9: want a number for the value of "dog", found "NaN"`},
		{"misspelt literal", `{"dog": tru}`, nil, ErrSyntax, 1, `found "tru"`},
		{"Infinity", `{"dog": Infinity}`, nil, ErrSyntax, 1, ""},
		{"string value", `{"dog": "1"}`, nil, ErrSyntax, 1, `the value of "dog" is a string`},
		{"nested object", `{"dog": {"cat": 1}}`, nil, ErrSyntax, 1, "is an object"},
		{"nested array", `{"dog": [1]}`, nil, ErrSyntax, 1, "is an array"},
		{"null", `{"dog": null}`, nil, ErrSyntax, 1, `the value of "dog" is null, want a number`},
		{"boolean", `{"dog": true}`, nil, ErrSyntax, 1, `is true`},
		{"string in array", `[0, 0, 0, "1", 0, 0, 0]`, nil, ErrSyntax, 1, "element 4 is a string"},
		{"trailing garbage", `{"dog": 1} x`, nil, ErrSyntax, 1, "column 12: data after the end"},
		{"two values", `{"dog": 1}{"cat": 1}`, nil, ErrSyntax, 1, "data after the end"},
		{"trailing comma", `{"dog": 1,}`, nil, ErrSyntax, 1, ""},
		{"missing colon", `{"dog" 1}`, nil, ErrSyntax, 1, "want ':'"},
		{"unquoted key", `{dog: 1}`, nil, ErrSyntax, 1, ""},
		{"single quotes", `{'dog': 1}`, nil, ErrSyntax, 1, ""},
		{"leading zero", `{"dog": 01}`, nil, ErrSyntax, 1, ""},
		{"leading dot", `{"dog": .5}`, nil, ErrSyntax, 1, ""},
		{"trailing dot", `{"dog": 1.}`, nil, ErrSyntax, 1, "invalid number"},
		{"bare exponent", `{"dog": 1e}`, nil, ErrSyntax, 1, "invalid number"},
		{"plus sign", `{"dog": +1}`, nil, ErrSyntax, 1, ""},
		{"lone minus", `{"dog": -}`, nil, ErrSyntax, 1, "invalid number"},
		{"hex", `{"dog": 0x1}`, nil, ErrSyntax, 1, ""},
		{"unterminated object", `{"dog": 1`, nil, ErrSyntax, 1, "end of line"},
		{"unterminated string", `{"dog`, nil, ErrSyntax, 1, "unterminated string"},
		{"unterminated array", `[1, 0`, nil, ErrSyntax, 1, "end of line"},
		{"bad escape", `{"d\og": 1}`, nil, ErrSyntax, 1, "invalid escape"},
		{"bad unicode escape", `{"d\u00g1": 1}`, nil, ErrSyntax, 1, `\u escape`},
		{"control character", "{\"d\x01og\": 1}", nil, ErrSyntax, 1, "control character"},
		{"string line", `"dog"`, nil, ErrSyntax, 1, "an array of 7 masses or __label__NAME mass pairs, found a string"},
		// fastText's predict-prob layout.
		{"fastText: unknown label", "__label__dog 0.5 __label__fish 0.5", nil, ErrUnknownLabel, 1, `"fish"`},
		{"fastText: prefix alone", "__label__ 1", nil, ErrUnknownLabel, 1, `""`},
		{"fastText: duplicate", "__label__dog 0.5 __label__dog 0.5", nil, ErrDuplicateLabel, 1, `"dog"`},
		{"fastText: no mass", "__label__dog 1 __label__cat", nil, ErrSyntax, 1, "column 28: want the mass of __label__cat"},
		{"fastText: two labels", "__label__dog __label__cat 1", nil, ErrSyntax, 1, `want a number for the mass of "dog"`},
		{"fastText: a word", "__label__dog 1 cat 0", nil, ErrSyntax, 1, `column 16: want a label __label__NAME, found "cat"`},
		{"fastText: mass and label joined", "__label__dog 0.5__label__cat 0.5", nil, ErrSyntax, 1, "want white space after the mass"},
		{"fastText: a comma", "__label__dog 1,", nil, ErrSyntax, 1, "want white space after the mass"},
		{"fastText: negative", "__label__dog -1 __label__cat 2", nil, ErrNegative, 1, `"dog": -1`},
		{"fastText: overflow", "__label__dog 1e999", nil, ErrNonFinite, 1, ""},
		{"fastText: another prefix", "_label_dog 1", nil, ErrSyntax, 1, "want a label __label__NAME"},
		{"fastText: sum", "__label__dog 0.5 __label__cat 0.49", nil, ErrSum, 1, "sum is 0.99"},
		{"number line", `1`, nil, ErrSyntax, 1, "want a JSON object"},
		{"null line", `null`, nil, ErrSyntax, 1, "found null"},
		{"array of arrays", `[[1]]`, nil, ErrSyntax, 1, "element 1 is an array"},
		{"NUL byte", "{\"dog\": 1}\x00", nil, ErrSyntax, 1, "data after the end"},
		{"BOM on line 2", ok + "\ufeff{\"cat\": 1}", nil, ErrSyntax, 2, ""},
		{"syntax before unknown label", `{"fish": 1, "cat": "x"}`, nil, ErrSyntax, 1, "column 20"},
		{"syntax before negative", `{"dog": -1, "cat": 2,}`, nil, ErrSyntax, 1, ""},
		{"first problem from the left", `{"dog": -1, "fish": 2}`, nil, ErrNegative, 1, `"dog"`},
		{"negative before length", `[-1, 2]`, nil, ErrNegative, 1, "element 1"},
		{"duplicate", `{"dog": 0.5, "dog": 0.5}`, nil, ErrDuplicateLabel, 1, `"dog"`},
		{"duplicate via escape", `{"dog": 0.5, "d\u006fg": 0.5}`, nil, ErrDuplicateLabel, 1, `"dog"`},
		{"duplicate of a zero", `{"dog": 0, "cat": 1, "dog": 0}`, nil, ErrDuplicateLabel, 1, ""},
		{"duplicate on line 3", ok + ok + `{"dog": 0.5, "dog": 0.5}`, nil, ErrDuplicateLabel, 3, ""},
		{"empty object", `{}`, nil, ErrZeroRow, 1, ""},
		{"zero object", `{"dog": 0, "cat": -0}`, nil, ErrZeroRow, 1, ""},
		{"zero array", `[0, 0, 0, 0, 0, 0, 0]`, nil, ErrZeroRow, 1, ""},
		{"zero with normalize", ok + `{}`, &Options{Normalize: true}, ErrZeroRow, 2, ""},
		{"sum below 1", `{"dog": 0.9}`, nil, ErrSum, 1, "sum is 0.9 (tolerance 1e-06)"},
		{"sum above 1", `{"dog": 0.6, "cat": 0.6}`, nil, ErrSum, 1, "sum is 1.2"},
		{"sum just outside tolerance", `{"dog": 0.999998}`, nil, ErrSum, 1, ""},
		{"sum that overflows", `{"dog": 1e308, "cat": 1e308}`, nil, ErrSum, 1, "sum is +Inf"},
		// 7e-324 and 1e-323 read as 5e-324 and 1e-323 (subnormals hold
		// fewer digits): rescaled they would be 1/3 and 2/3, not 7/17 and
		// 10/17.
		{"subnormal sum to rescale", ok + `{"dog": 7e-324, "cat": 1e-323}`, &Options{Normalize: true}, ErrUnderflow, 2,
			"they sum to 1.5e-323, below 2.2e-308"},
		{"one subnormal mass to rescale", `{"dog": 5e-324}`, &Options{Normalize: true}, ErrUnderflow, 1, ""},
		{"short array", `[1, 0]`, nil, ErrLength, 1, "the array has 2 masses, the tree has 7 labels"},
		{"long array", `[1, 0, 0, 0, 0, 0, 0, 0]`, nil, ErrLength, 1, "has 8 masses"},
		{"empty array", `[]`, nil, ErrLength, 1, "has 0 masses"},
		{"CRLF line count", "{\"cat\":1}\r\n\r\n{\"fish\":1}\r\n", nil, ErrUnknownLabel, 3, ""},
		{"CR alone is not a line break", "{\"cat\":1}\r{\"dog\":1}\n", nil, ErrSyntax, 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Read(strings.NewReader(tc.in), "in.jsonl", tr, tc.opts)
			if err == nil {
				t.Fatalf("no error, got %d rows %v", s.Rows, s.Data)
			}
			if s != nil {
				t.Errorf("non-nil Set with an error")
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T) is not an *Error", err, err)
			}
			if !errors.Is(err, tc.err) {
				t.Errorf("error %q does not wrap %q", err, tc.err)
			}
			if e.File != "in.jsonl" || e.Line != tc.line {
				t.Errorf("error %q at %s:%d, want in.jsonl:%d", err, e.File, e.Line, tc.line)
			}
			prefix := fmt.Sprintf("in.jsonl:%d: ", tc.line)
			if msg := err.Error(); !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, tc.msg) {
				t.Errorf("message %q, want prefix %q and to contain %q", msg, prefix, tc.msg)
			}
		})
	}
}

// TestReadLongLines reads lines far longer than the reader's buffer, in both
// forms, and finds an error at the very end of such a line.
func TestReadLongLines(t *testing.T) {
	const L = 100000
	tr := tree.Star(L)
	rng := rand.New(rand.NewPCG(1, 2))
	want := make([]float64, L)
	var obj, arr strings.Builder
	obj.WriteString("{")
	arr.WriteString("[")
	for i := range want {
		want[i] = float64(rng.IntN(1000))
		if i > 0 {
			obj.WriteString(", ")
			arr.WriteString(", ")
		}
		fmt.Fprintf(&obj, "%q: %g", tr.Name(i), want[i])
		fmt.Fprintf(&arr, "%g", want[i])
	}
	var sum float64
	for _, v := range want {
		sum += v
	}
	for i := range want {
		want[i] /= sum
	}
	obj.WriteString("}")
	arr.WriteString("]")
	in := obj.String() + "\n" + arr.String() + "\n"
	// HalfReader makes the bufio.Reader see many short reads.
	s, err := Read(iotest.HalfReader(strings.NewReader(in)), "long.jsonl", tr, &Options{Normalize: true})
	if err != nil {
		t.Fatal(err)
	}
	if s.Rows != 2 || s.Lines[1] != 2 {
		t.Fatalf("Rows = %d, Lines = %v", s.Rows, s.Lines)
	}
	for r := range 2 {
		for i, v := range s.Row(r) {
			if v != want[i] {
				t.Fatalf("row %d, label %d: got %v, want %v", r, i, v, want[i])
			}
		}
	}

	bad := strings.TrimSuffix(obj.String(), "}") + `, "nope": 1}`
	_, err = Read(strings.NewReader(in+"\n"+bad), "long.jsonl", tr, &Options{Normalize: true})
	if !errors.Is(err, ErrUnknownLabel) || !strings.HasPrefix(err.Error(), "long.jsonl:4: ") {
		t.Errorf("got %v, want long.jsonl:4: unknown label", err)
	}
}

func TestReadIOError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("{\"cat\": 1}\n"), iotest.ErrReader(boom))
	_, err := Read(r, "in.jsonl", fig1(t), nil)
	if !errors.Is(err, boom) || err.Error() != "in.jsonl:2: boom" {
		t.Errorf("got %v, want in.jsonl:2: boom", err)
	}
}

func TestReadFile(t *testing.T) {
	tr := fig1(t)
	path := filepath.Join(t.TempDir(), "d.jsonl")
	if err := os.WriteFile(path, []byte("{\"cat\": 1}\n{\"fish\": 1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path, tr, nil)
	if !errors.Is(err, ErrUnknownLabel) || !strings.HasPrefix(err.Error(), path+":2: ") {
		t.Errorf("got %v", err)
	}
	_, err = ReadFile(filepath.Join(t.TempDir(), "missing.jsonl"), tr, nil)
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("got %v, want a not-exist error", err)
	}
}

func TestOptionsTolPanics(t *testing.T) {
	for _, tol := range []float64{-1, math.NaN()} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Tol %v: no panic", tol)
				}
			}()
			Read(strings.NewReader(""), "x", fig1(t), &Options{Tol: tol})
		}()
	}
}

func TestSetAt(t *testing.T) {
	s, err := Read(strings.NewReader("\n{\"cat\": 1}\n"), "in.jsonl", fig1(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.At(0); got != "in.jsonl:2" {
		t.Errorf("At(0) = %q", got)
	}
}

// TestReaderSparse reads random rows (objects with labels in random order,
// arrays, with --normalize) through a Reader and checks every sparse row
// against the dense row Read gives: the same masses bit for bit, indices
// increasing, no zero listed.
func TestReaderSparse(t *testing.T) {
	tr := fig1(t)
	rng := rand.New(rand.NewPCG(1, 2))
	var in strings.Builder
	for r := range 300 {
		perm := rng.Perm(7)[:1+rng.IntN(7)]
		if r%3 == 0 {
			in.WriteString("[")
			for i := range 7 {
				if i > 0 {
					in.WriteString(",")
				}
				v := 0.0
				if rng.IntN(2) == 0 {
					v = rng.Float64()
				}
				if i == 3 {
					v += 0.5 // never all zero
				}
				fmt.Fprint(&in, v)
			}
			in.WriteString("]\n")
			continue
		}
		in.WriteString("{")
		for k, i := range perm {
			if k > 0 {
				in.WriteString(", ")
			}
			v := rng.Float64() + 0.01
			if k == 1 {
				v = 0
			}
			fmt.Fprintf(&in, "%q: %v", tr.Name(i), v)
		}
		in.WriteString("}\n\n")
	}
	opts := &Options{Normalize: true}
	set, err := Read(strings.NewReader(in.String()), "rows.jsonl", tr, opts)
	if err != nil {
		t.Fatal(err)
	}
	rd := NewReader(strings.NewReader(in.String()), "rows.jsonl", tr, opts)
	dense := make([]float64, 7)
	for r := 0; rd.Next(); r++ {
		v := rd.Row()
		for k := 1; k < len(v.Index); k++ {
			if v.Index[k] <= v.Index[k-1] {
				t.Fatalf("row %d: indices %v not increasing", r, v.Index)
			}
		}
		for _, m := range v.Mass {
			if m == 0 {
				t.Fatalf("row %d lists a zero mass", r)
			}
		}
		v.Dense(dense)
		for i, m := range set.Row(r) {
			if math.Float64bits(m) != math.Float64bits(dense[i]) {
				t.Fatalf("row %d label %d: reader %v, Read %v", r, i, dense[i], m)
			}
		}
		if rd.Line() != set.Lines[r] || rd.At() != set.At(r) {
			t.Fatalf("row %d: line %d, Read says %d", r, rd.Line(), set.Lines[r])
		}
		if rd.Rows() != r+1 {
			t.Fatalf("Rows() = %d after %d rows", rd.Rows(), r+1)
		}
	}
	if rd.Err() != nil || rd.Rows() != set.Rows {
		t.Fatalf("reader: %v after %d rows, Read has %d", rd.Err(), rd.Rows(), set.Rows)
	}
}

// TestReaderError: the Reader stops at the first bad row with the error
// Read gives, after yielding the good rows before it.
func TestReaderError(t *testing.T) {
	tr := fig1(t)
	in := "{\"cat\": 1}\n{\"dog\": 0.5}\n{\"cat\": 1}\n"
	rd := NewReader(strings.NewReader(in), "p.jsonl", tr, nil)
	n := 0
	for rd.Next() {
		n++
	}
	_, want := Read(strings.NewReader(in), "p.jsonl", tr, nil)
	if n != 1 || rd.Err() == nil || rd.Err().Error() != want.Error() || !errors.Is(rd.Err(), ErrSum) {
		t.Fatalf("%d rows then %v; Read: %v", n, rd.Err(), want)
	}
	if rd.Next() {
		t.Error("Next after an error returned true")
	}
}

// TestReadAllLimit reads three rows of the 7 labels of figure1, 56 bytes
// each (8·7, by hand), under limits that hold them, and one that holds
// only two: the third row, on line 4, is then refused with 3·56 = 168
// bytes needed.
func TestReadAllLimit(t *testing.T) {
	const in = "{\"cat\": 1}\n\n{\"dog\": 0.5, \"snake\": 0.5}\n[0,0,0,0,0,0,1]\n"
	for _, limit := range []int64{168, 1 << 20, math.MaxInt64} {
		s, err := NewReader(strings.NewReader(in), "in", fig1(t), nil).ReadAll(limit)
		if err != nil || s.Rows != 3 || s.L != 7 || s.Row(1)[3] != 0.5 || s.Row(2)[6] != 1 || s.Lines[2] != 4 {
			t.Errorf("limit %d: %+v, %v", limit, s, err)
		}
	}
	_, err := NewReader(strings.NewReader(in), "in", fig1(t), nil).ReadAll(167)
	var se *SizeError
	if !errors.As(err, &se) || *se != (SizeError{At: "in:4", Rows: 3, L: 7, Need: 168, Limit: 167}) {
		t.Errorf("limit 167: %v", err)
	}
	// A limit of 0 holds no row.
	if _, err := NewReader(strings.NewReader(in), "in", fig1(t), nil).ReadAll(0); !errors.As(err, &se) || se.Rows != 1 || se.At != "in:1" {
		t.Errorf("limit 0: %v", err)
	}
	// After one Next, ReadAll reads the rows that remain.
	rd := NewReader(strings.NewReader(in), "in", fig1(t), nil)
	rd.Next()
	if s, err := rd.ReadAll(112); err != nil || s.Rows != 2 || s.Lines[0] != 3 {
		t.Errorf("the rest: %+v, %v", s, err)
	}
	// A row in error is reported as Read reports it.
	if _, err := NewReader(strings.NewReader("{\"cow\": 1}\n"), "in", fig1(t), nil).ReadAll(1 << 20); !errors.Is(err, ErrUnknownLabel) {
		t.Errorf("unknown label: %v", err)
	}
}
