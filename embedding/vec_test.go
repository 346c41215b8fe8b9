package embedding

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"testing"
	"testing/iotest"
)

// Real files of the shared test data (see /work/shared/data/SOURCES.md);
// the tests that read them skip when they are absent.
const (
	novelsVec = "../../shared/data/embeddings/novels-fasttext-100d.vec"
	gloveTxt  = "../../shared/data/embeddings/glove-twitter-25d-12k.txt"
)

func TestReadVecValid(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    string
		words []string
		dim   int
		data  []float32
	}{
		{"header", "2 3\na 1 2 3\nb 4 5 6\n", []string{"a", "b"}, 3, []float32{1, 2, 3, 4, 5, 6}},
		{"no header", "a 1 2 3\nb 4 5 6\n", []string{"a", "b"}, 3, []float32{1, 2, 3, 4, 5, 6}},
		{"trailing spaces, as fastText writes", "2 2\na 1 2 \nb 3 4  \n", []string{"a", "b"}, 2, []float32{1, 2, 3, 4}},
		{"CRLF and BOM", "\ufeff1 2\r\na 1 2 \r\n", []string{"a"}, 2, []float32{1, 2}},
		{"BOM without header", "\ufeffa 1 2\n", []string{"a"}, 2, []float32{1, 2}},
		{"no final newline", "a 1 2\nb 3 4", []string{"a", "b"}, 2, []float32{1, 2, 3, 4}},
		{"blank lines are skipped", "\n2 1\n\na 1\n\r\n  \nb 2\n\n", []string{"a", "b"}, 1, []float32{1, 2}},
		{"number syntax, -0 kept", "a -1.5e-3 +2 .5 5. 2.5E-1 -0\n", []string{"a"}, 6, []float32{-1.5e-3, 2, 0.5, 5, 0.25, float32(math.Copysign(0, -1))}},
		{"rounded to float32", "a 0.1 16777217 1e-50\n", []string{"a"}, 3, []float32{0.1, 16777216, 0}},
		{"words are kept byte for byte", "café 1\nCafé 2\n東京 3\n\u00a0 4\n, 5\n</s> 6\n", []string{"café", "Café", "東京", "\u00a0", ",", "</s>"}, 1, []float32{1, 2, 3, 4, 5, 6}},
		{"a word that is a number", "1 1\n7 3\n", []string{"7"}, 1, []float32{3}},
		{"one-dimensional, first field not a number", "x 3\n7 4\n", []string{"x", "7"}, 1, []float32{3, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := ReadVec(strings.NewReader(tc.in), "in.vec")
			if err != nil {
				t.Fatal(err)
			}
			if v.Dim() != tc.dim || v.Len() != len(tc.words) || len(v.Data) != len(tc.words)*tc.dim {
				t.Fatalf("Dim %d Len %d len(Data) %d, want %d, %d, %d", v.Dim(), v.Len(), len(v.Data), tc.dim, len(tc.words), len(tc.words)*tc.dim)
			}
			for i, w := range tc.words {
				if v.Words[i] != w {
					t.Errorf("word %d = %q, want %q", i, v.Words[i], w)
				}
				if j, ok := v.Index(w); !ok || j != i {
					t.Errorf("Index(%q) = %d, %v", w, j, ok)
				}
			}
			for i, x := range tc.data {
				if math.Float32bits(v.Data[i]) != math.Float32bits(x) {
					t.Errorf("Data = %v, want %v", v.Data, tc.data)
					break
				}
			}
		})
	}
}

func TestReadVecErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		err  error
		line int
		msg  string // a part of the message
	}{
		{"ragged row, short", "a 1 2 3\nb 4 5\n", ErrDimension, 2, `"b" has 2 values, want 3 (the dimension of the first row, line 1)`},
		{"ragged row, long", "2 2\na 1 2\nb 4 5 6\n", ErrDimension, 3, `"b" has 3 values, want 2 (the dimension in the header, line 1)`},
		{"ragged first row", "1 3\na 1 2\n", ErrDimension, 2, "has 2 values, want 3"},
		{"word alone", "a 1\nb\n", ErrDimension, 2, `"b" has 0 values, want 1`},
		{"word alone first", "b\na 1\n", ErrDimension, 1, `"b" has no values`},
		{"dimension 0 in the header", "3 0\n", ErrDimension, 1, "dimension 0"},
		{"not a number", "a 1 x2 3\n", ErrSyntax, 1, `"a": value 2, "x2", is not a number`},
		{"comma decimal", "a 1,5\n", ErrSyntax, 1, "is not a number"},
		{"hexadecimal float", "a 1 0x1p-2\n", ErrSyntax, 1, `"a": value 2, "0x1p-2", is not a number`},
		{"digit separator", "a 1_0\n", ErrSyntax, 1, `"a": value 1, "1_0", is not a number`},
		{"two spaces", "a 1  2\n", ErrSyntax, 1, "value 2 is empty (values are separated by single spaces)"},
		{"tab", "a 1\t2\n", ErrSyntax, 1, "not a number"},
		{"leading space", " a 1\n", ErrSyntax, 1, "empty word"},
		{"NaN", "a 1\nb nan\n", ErrNonFinite, 2, `"b": value 1 is "nan"`},
		{"Inf", "a Inf 1\n", ErrNonFinite, 1, `value 1 is "Inf"`},
		{"-Infinity", "a 1 -Infinity\n", ErrNonFinite, 1, `value 2 is "-Infinity"`},
		{"too large for float32", "a 1 3.5e38\n", ErrNonFinite, 1, `value 2, "3.5e38", is too large for a float32`},
		{"duplicate", "3 1\na 1\nb 2\na 3\n", ErrDuplicate, 4, `"a" is already on line 2`},
		{"header says more", "3 2\na 1 2\nb 3 4\n", ErrCount, 1, "the header gives 3 words, the file has 2"},
		{"header says fewer", "\n1 2\na 1 2\nb 3 4\n", ErrCount, 2, "the header gives 1 words, the file has 2"},
		{"header too large", "99999999999999999999 5\n", ErrSyntax, 1, "too large"},
		{"empty", "", ErrEmpty, 0, "no lines"},
		{"blank", "\n \r\n\n", ErrEmpty, 0, ""},
		{"BOM only", "\ufeff", ErrEmpty, 0, ""},
		{"header only", "10 5\n", ErrEmpty, 1, "a header and no rows"},
		{"NUL byte", "a 1\nb\x00 2\n", ErrNotText, 2, "NUL byte: is it a binary file? Word vectors come as text (.vec)"},
		{"invalid UTF-8", "a 1\nb\xff 2\n", ErrNotText, 2, "not UTF-8"},
		{"Latin-1", "caf\xe9 1\n", ErrNotText, 1, "not UTF-8"},
		{"fastText magic", "\xba\x16\x4f\x2f\x0c\x00\x00\x00", ErrNotText, 1, "this is a fastText .bin model"},
		{"binary with no newline", "x" + strings.Repeat("\x00\x01", 100000), ErrNotText, 1, "NUL"},
		{"long value, shortened in the message", "a " + strings.Repeat("9", 50) + "x\n", ErrSyntax, 1, `value 1, "` + strings.Repeat("9", 32) + `"…, is not a number`},
		{"CR alone is not a line break", "a 1\rb 2\n", ErrSyntax, 1, `"1\rb"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := ReadVec(strings.NewReader(tc.in), "in.vec")
			checkError(t, v, err, tc.err, "in.vec", tc.line, tc.msg)
		})
	}
}

// checkError checks that err is an *Error wrapping want at file:line whose
// message holds msg, and that no result came with it.
func checkError[T any](t *testing.T, got *T, err, want error, file string, line int, msg string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %v", want)
	}
	if got != nil {
		t.Errorf("a result with the error %v", err)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *Error", err, err)
	}
	if !errors.Is(err, want) {
		t.Errorf("error %q does not wrap %q", err, want)
	}
	if e.File != file || e.Line != line {
		t.Errorf("error %q at %s:%d, want %s:%d", err, e.File, e.Line, file, line)
	}
	prefix := ""
	if file != "" {
		prefix = file + ": "
	}
	if line > 0 {
		prefix = fmt.Sprintf("%s:%d: ", file, line)
	}
	if s := err.Error(); !strings.HasPrefix(s, prefix) || !strings.Contains(s, msg) {
		t.Errorf("message %q, want prefix %q and to contain %q", s, prefix, msg)
	}
}

// TestReadVecLongLines reads rows far longer than the reader's buffer, with
// an error at the very end of one.
func TestReadVecLongLines(t *testing.T) {
	const d = 30000 // about 5 × bufSize bytes a row
	var b strings.Builder
	for r := range 3 {
		fmt.Fprintf(&b, "w%d", r)
		for j := range d {
			fmt.Fprintf(&b, " %d", r*d+j)
		}
		b.WriteString("\n")
	}
	v, err := ReadVec(strings.NewReader(b.String()), "long.vec")
	if err != nil {
		t.Fatal(err)
	}
	if v.Len() != 3 || v.Dim() != d {
		t.Fatalf("Len %d Dim %d", v.Len(), v.Dim())
	}
	for i, x := range v.Data {
		if x != float32(i) {
			t.Fatalf("Data[%d] = %v", i, x)
		}
	}
	in := b.String() + "w3" + strings.Repeat(" 1", d-1) + " z\n"
	v, err = ReadVec(strings.NewReader(in), "long.vec")
	checkError(t, v, err, ErrSyntax, "long.vec", 4, fmt.Sprintf("value %d", d))
}

// TestReadVecIO: an I/O error is returned with the file and line, wrapped.
func TestReadVecIO(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader("a 1\nb 2\n"), iotest.ErrReader(boom))
	_, err := ReadVec(r, "in.vec")
	if !errors.Is(err, boom) || err.Error() != "in.vec:3: boom" {
		t.Errorf("error %v, want in.vec:3: boom", err)
	}
	// One byte at a time gives the same result as all at once.
	in := "\ufeff2 2\r\na 1 2 \r\nb 3 4"
	v, err := ReadVec(iotest.OneByteReader(strings.NewReader(in)), "in.vec")
	if err != nil || v.Len() != 2 || v.Data[3] != 4 {
		t.Errorf("one byte at a time: %v, %v", v, err)
	}
}

func TestReadFileMissing(t *testing.T) {
	_, err := ReadFile("testdata/no-such-file.vec")
	var pe *os.PathError
	if !errors.As(err, &pe) || pe.Path != "testdata/no-such-file.vec" || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("error %v (%T), want an *os.PathError for the path", err, err)
	}
}

func TestVectorsLookup(t *testing.T) {
	v, err := ReadVec(strings.NewReader("2 3\nthe 1 2 3\ncafé -1 -2 -3.5\n"), "in.vec")
	if err != nil {
		t.Fatal(err)
	}
	dst := []float32{9, 9, 9}
	for _, tc := range []struct {
		word  string
		found Found
		want  []float32
	}{
		{"café", InVocab, []float32{-1, -2, -3.5}},
		{"the", InVocab, []float32{1, 2, 3}},
		{"The", Missing, []float32{0, 0, 0}},
		{"cafe", Missing, []float32{0, 0, 0}},
		{"", Missing, []float32{0, 0, 0}},
	} {
		if f := v.Lookup(dst, tc.word); f != tc.found || fmt.Sprint(dst) != fmt.Sprint(tc.want) {
			t.Errorf("Lookup(%q) = %v %v, want %v %v", tc.word, f, dst, tc.found, tc.want)
		}
	}
	if fmt.Sprint(v.Row(1)) != "[-1 -2 -3.5]" {
		t.Errorf("Row(1) = %v", v.Row(1))
	}
	mustPanic(t, "Lookup with a short dst", func() { v.Lookup(make([]float32, 2), "the") })
	mustPanic(t, "Row out of range", func() { v.Row(2) })
}

func TestNewVectors(t *testing.T) {
	v, err := NewVectors([]string{"a", "b"}, 2, []float32{1, 2, 3, 4})
	if err != nil || v.Dim() != 2 || v.Len() != 2 {
		t.Fatalf("NewVectors: %v, %v", v, err)
	}
	if i, ok := v.Index("b"); !ok || i != 1 || v.Row(1)[1] != 4 {
		t.Errorf("Index(b) = %d, %v; Row(1) = %v", i, ok, v.Row(1))
	}
	v, err = NewVectors([]string{"a", "b", "a"}, 1, []float32{1, 2, 3})
	checkError(t, v, err, ErrDuplicate, "", 0, `"a" is words[0] and words[2]`)
	mustPanic(t, "dim 0", func() { NewVectors(nil, 0, nil) })
	mustPanic(t, "short data", func() { NewVectors([]string{"a"}, 2, []float32{1}) })
}

func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		r := recover()
		if r == nil {
			t.Errorf("%s: no panic", what)
			return
		}
		if s, ok := r.(string); !ok || !strings.HasPrefix(s, "embedding: ") {
			t.Errorf("%s: panic %v, want an \"embedding: \" message", what, r)
		}
	}()
	f()
}

// TestReadVecReal reads the real files of the shared test data. The
// expected counts are their headers, and the values were read from the
// files independently with awk, e.g.
// awk '$1=="the"{print NR, $2, $51, $101}' novels-fasttext-100d.vec.
func TestReadVecReal(t *testing.T) {
	for _, tc := range []struct {
		path  string
		n     int
		dim   int
		spots []spot
	}{
		{novelsVec, 42421, 100, []spot{
			{",", 0, 0, 0.34792}, {",", 0, 49, 0.021662}, {",", 0, 99, 0.0092993},
			{"the", 3, 0, 0.4444}, {"the", 3, 49, -0.10852}, {"the", 3, 99, 0.13609},
			{"whale", 16175, 0, -0.012852}, {"whale", 16175, 49, 0.10773}, {"whale", 16175, 99, -0.12666},
			{"\u00a0", 697, 0, -0.21851}, // line 699: a no-break space
			{"í", 2592, 0, 0.10829}, {"”", 4129, 0, 0.10423},
			{"hungry-looking", 42420, 0, 0.28502}, {"hungry-looking", 42420, 99, 0.014949},
		}},
		{gloveTxt, 11925, 25, []spot{
			{"the", 0, 0, -0.010167}, {"the", 0, 12, -6.3371}, {"the", 0, 24, -0.31208},
			{"love", 369, 0, -0.62645}, {"love", 369, 12, -4.97}, {"love", 369, 24, -0.10922},
			{"wizards", 11924, 0, 0.38488}, {"wizards", 11924, 24, 0.0049889},
		}},
	} {
		t.Run(tc.path, func(t *testing.T) {
			if testing.Short() {
				t.Skip("large data, skipped with -short")
			}
			if _, err := os.Stat(tc.path); err != nil {
				t.Skip("test data absent:", err)
			}
			src, err := ReadFile(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			v, ok := src.(*Vectors)
			if !ok {
				t.Fatalf("ReadFile gave a %T", src)
			}
			if v.Len() != tc.n || v.Dim() != tc.dim || len(v.Data) != tc.n*tc.dim {
				t.Fatalf("Len %d Dim %d len(Data) %d, want %d × %d", v.Len(), v.Dim(), len(v.Data), tc.n, tc.dim)
			}
			dst := make([]float32, tc.dim)
			for _, s := range tc.spots {
				i, ok := v.Index(s.word)
				if !ok || i != s.row {
					t.Errorf("Index(%q) = %d, %v, want %d", s.word, i, ok, s.row)
					continue
				}
				if got := v.Row(i)[s.col]; got != float32(s.want) {
					t.Errorf("%q[%d] = %v, want %v", s.word, s.col, got, s.want)
				}
				if f := v.Lookup(dst, s.word); f != InVocab || dst[s.col] != float32(s.want) {
					t.Errorf("Lookup(%q) = %v, [%d] = %v", s.word, f, s.col, dst[s.col])
				}
			}
			if f := v.Lookup(dst, "no-such-word-xyzzy"); f != Missing {
				t.Errorf("Lookup of a missing word: %v", f)
			}
		})
	}
}

type spot struct {
	word     string
	row, col int
	want     float64
}
