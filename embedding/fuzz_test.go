package embedding

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// FuzzReadVec checks that ReadVec never panics; that its errors are
// *Errors on a line of the input; and that what it accepts agrees with a
// plain reading of the format by strings.Split and strconv.ParseFloat, bit
// for bit. Seeds are below.
func FuzzReadVec(f *testing.F) {
	for _, s := range []string{
		"2 3\na 1 2 3\nb 4 5 6\n",
		"a 1 2\nb 3 4",
		"\ufeff1 2\r\ncafé 0.5 -1e-3 \r\n",
		"\n2 1\n\na 1\n\r\nb 2\n\n",
		"a 1 2\nb 3\n",
		"3 1\na 1\nb 2\na 3\n",
		"a nan\n", "a 1e39\n", "a 0x1p-3 +2 .5\n",
		"1 0\n", "10 5\n", "", "\x00", "caf\xe9 1\n",
		"\xba\x16\x4f\x2f\x0c\x00\x00\x00",
		"7 3\n", "x 3\n7 4\n", " a 1\n", "a 1  2\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ReadVec(bytes.NewReader(data), "fuzz")
		lines := strings.Split(string(data), "\n")
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			if e.File != "fuzz" || e.Line < 0 || e.Line > len(lines) || (e.Line == 0 && !errors.Is(err, ErrEmpty)) {
				t.Fatalf("error %v: line %d of %d", err, e.Line, len(lines))
			}
			return
		}
		if v.Len() < 1 || v.Dim() < 1 || len(v.Data) != v.Len()*v.Dim() {
			t.Fatalf("Len %d Dim %d len(Data) %d", v.Len(), v.Dim(), len(v.Data))
		}
		// The plain reading.
		var rows [][]string
		for n, line := range lines {
			if n == 0 {
				line = strings.TrimPrefix(line, "\ufeff")
			}
			line = strings.TrimRight(line, " \r")
			if line != "" {
				rows = append(rows, strings.Split(line, " "))
			}
		}
		if h := rows[0]; len(h) == 2 && digits([]byte(h[0])) && digits([]byte(h[1])) {
			if n, _ := strconv.Atoi(h[0]); n != v.Len() {
				t.Fatalf("header %q, %d words", h, v.Len())
			}
			rows = rows[1:]
		}
		if len(rows) != v.Len() {
			t.Fatalf("%d rows, ReadVec gives %d words", len(rows), v.Len())
		}
		dst := make([]float32, v.Dim())
		for i, r := range rows {
			if r[0] != v.Words[i] || len(r) != v.Dim()+1 {
				t.Fatalf("row %d is %q, ReadVec gives %q and %d values", i, r, v.Words[i], v.Dim())
			}
			if f := v.Lookup(dst, r[0]); f != InVocab {
				t.Fatalf("Lookup(%q) = %v", r[0], f)
			}
			for j, s := range r[1:] {
				x, err := strconv.ParseFloat(s, 32)
				if err != nil || math.IsInf(x, 0) || math.IsNaN(x) || strings.ContainsAny(s, "_xXpP") {
					t.Fatalf("row %d value %d %q accepted: %v", i, j, s, err)
				}
				if math.Float32bits(float32(x)) != math.Float32bits(dst[j]) {
					t.Fatalf("row %d value %d %q: ReadVec gives %v", i, j, s, dst[j])
				}
			}
		}
	})
}

// FuzzReadBin checks that ReadBin never panics, whatever the bytes, with
// the size of the input known or not, and that the models it accepts can be
// looked up: every word of the vocabulary is InVocab, other words are not.
// Seeds: testdata/tiny.bin, a model of 484 bytes from the fastText tool
// (which the fuzzer mutates; larger seeds make it spend its time
// minimizing), cut and patched copies, and a pruned model written by hand.
func FuzzReadBin(f *testing.F) {
	data, err := os.ReadFile("testdata/tiny.bin")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data, false)
	f.Add(data, true)
	f.Add(data[:len(data)/2], false)
	f.Add(patch32(data, 4, 11), false)
	pruned := synth{args: Args{Dim: 2, Bucket: 10, Minn: 1, Maxn: 3}, words: []string{"ab", "x"}, labels: []string{"__label__y"},
		pruneSize: 2, prune: [][2]int32{{0, 1}, {7, 0}}, input: make([]float32, 8), outRows: 1}
	f.Add(pruned.bytes(), false)
	f.Add(pruned.bytes(), true)
	f.Add([]byte{}, false)
	f.Fuzz(func(t *testing.T, data []byte, hide bool) {
		var r io.Reader = bytes.NewReader(data)
		if hide {
			r = struct{ io.Reader }{r}
		}
		m, err := ReadBin(r, "fuzz")
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.File != "fuzz" || e.Line != 0 {
				t.Fatalf("error %v (%T)", err, err)
			}
			return
		}
		if m.Dim() < 1 || m.Len() != len(m.Words()) || len(m.input) != m.rows*m.Dim() {
			t.Fatalf("Dim %d Len %d, %d values for %d rows", m.Dim(), m.Len(), len(m.input), m.rows)
		}
		dst := make([]float32, m.Dim())
		for _, w := range m.Words() {
			if f := m.Lookup(dst, w); f != InVocab {
				t.Fatalf("Lookup(%q) = %v", w, f)
			}
		}
		for _, w := range append([]string{"", "</s>", "zz", "é東\xff", "abcdefghijklmnop"}, m.Labels()...) {
			if _, ok := m.Index(w); ok {
				continue
			}
			if f := m.Lookup(dst, w); f == InVocab {
				t.Fatalf("Lookup(%q) = %v", w, f)
			}
		}
	})
}
