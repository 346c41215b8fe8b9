package embedding

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// The fixtures of testdata, made by testdata/gen.sh with the official
// fastText 0.9.2: the models (NAME.bin) and what the tool printed about
// them (NAME.vec, NAME.words, NAME.ngrams, NAME.input). The settings are
// those of gen.sh; loss 2 is negative sampling, 3 softmax (the default of
// supervised); fastText sets bucket to 0 when maxn is 0.
var fixtures = []struct {
	name            string
	model, loss     int
	dim, bucket     int
	minn, maxn      int
	nwords, nlabels int
}{
	{"sg", 2, 2, 8, 2000, 2, 4, 165, 0},
	{"def", 2, 2, 4, 3000, 3, 6, 165, 0},
	{"tiny", 2, 2, 2, 10, 2, 3, 9, 0},
	{"nongram", 1, 2, 6, 0, 3, 0, 165, 0},
	{"sup", 3, 3, 4, 400, 2, 3, 45, 3},
}

func readFixture(t testing.TB, name string) (*FastText, []byte) {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name + ".bin")
	if err != nil {
		t.Fatal(err)
	}
	m, err := ReadBin(bytes.NewReader(data), name+".bin")
	if err != nil {
		t.Fatal(err)
	}
	return m, data
}

// printed is a line "word v1 … vd " as fastText prints it.
type printed struct {
	word string
	vals []string
}

// readPrinted reads the lines of a file of fastText's output; a line
// "== WORD" starts the block of WORD (in NAME.ngrams) and has no values.
func readPrinted(t *testing.T, path string) []printed {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []printed
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) > 0 {
			rows = append(rows, printed{fields[0], fields[1:]})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// closeTo reports whether got is within the precision of s, a number that
// fastText printed with the given significant digits (std::setprecision:
// 5 for word vectors, 6 for dump): within half a unit of the last printed
// digit. A printed 0 is exactly 0: any other float prints with an exponent.
func closeTo(got float32, s string, digits int) bool {
	p, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return false
	}
	if p == 0 {
		return got == 0
	}
	e := math.Floor(math.Log10(math.Abs(p)))
	tol := 0.5 * math.Pow(10, e-float64(digits-1)) * (1 + 1e-9)
	return math.Abs(float64(got)-p) <= tol
}

func checkPrinted(t *testing.T, what string, got []float32, want []string, digits int) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d values, fastText printed %d", what, len(got), len(want))
		return
	}
	for j := range got {
		if !closeTo(got[j], want[j], digits) {
			t.Errorf("%s = %v, fastText printed %v (%d significant digits)", what, got, want, digits)
			return
		}
	}
}

// TestReadBinFixtures reads the models and checks their settings and
// dictionaries against gen.sh and the .vec files the tool wrote, and every
// word's vector against the .vec rows (printed to 5 significant digits).
func TestReadBinFixtures(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			src, err := ReadFile("testdata/" + fx.name + ".bin")
			if err != nil {
				t.Fatal(err)
			}
			m, ok := src.(*FastText)
			if !ok {
				t.Fatalf("ReadFile gave a %T", src)
			}
			a := m.Args()
			if a.Model != fx.model || a.Loss != fx.loss || a.Dim != fx.dim || a.Bucket != fx.bucket ||
				a.Minn != fx.minn || a.Maxn != fx.maxn || a.MinCount != 1 || a.T != 1e-4 || a.LRUpdateRate != 100 {
				t.Errorf("Args = %+v", a)
			}
			if m.Dim() != fx.dim || m.Len() != fx.nwords || len(m.Labels()) != fx.nlabels {
				t.Errorf("Dim %d Len %d labels %d", m.Dim(), m.Len(), len(m.Labels()))
			}
			if m.rows != fx.nwords+fx.bucket || len(m.input) != m.rows*fx.dim {
				t.Errorf("input matrix %d rows, %d values", m.rows, len(m.input))
			}

			vec, err := ReadFile("testdata/" + fx.name + ".vec")
			if err != nil {
				t.Fatal(err)
			}
			v := vec.(*Vectors)
			if !slices.Equal(m.Words(), v.Words) {
				t.Errorf("Words() = %q,\n.vec has %q", m.Words(), v.Words)
			}
			rows := readPrinted(t, "testdata/"+fx.name+".vec")[1:] // after the header
			dst := make([]float32, m.Dim())
			for i, r := range rows {
				if f := m.Lookup(dst, r.word); f != InVocab {
					t.Errorf("Lookup(%q) = %v", r.word, f)
				}
				checkPrinted(t, r.word, dst, r.vals, 5)
				if j, ok := m.Index(r.word); !ok || j != i {
					t.Errorf("Index(%q) = %d, %v, want %d", r.word, j, ok, i)
				}
			}
			for _, l := range m.Labels() {
				if !strings.HasPrefix(l, "__label__") {
					t.Errorf("label %q", l)
				}
				if _, ok := m.Index(l); ok {
					t.Errorf("Index(%q): a label is a word", l)
				}
			}
		})
	}
}

// TestLookupPrintWordVectors compares Lookup with fastText's
// print-word-vectors for the words of testdata/queries.txt, in and out of
// the vocabulary, many of them not ASCII, and checks the kind found.
// print-word-vectors prints 5 significant digits, so that is the tolerance;
// TestLookupBitExact compares with fastText's library bit for bit.
func TestLookupPrintWordVectors(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			m, _ := readFixture(t, fx.name)
			count := map[Found]int{}
			dst := make([]float32, m.Dim())
			for _, r := range readPrinted(t, "testdata/"+fx.name+".words") {
				want := Subword
				if _, ok := m.Index(r.word); ok {
					want = InVocab
				} else if fx.maxn == 0 || r.word == "</s>" {
					want = Missing // fastText prints zeros
				}
				if f := m.Lookup(dst, r.word); f != want {
					t.Errorf("Lookup(%q) = %v, want %v", r.word, f, want)
				}
				count[want]++
				checkPrinted(t, r.word, dst, r.vals, 5)
			}
			t.Logf("%v", count)
			if count[InVocab] < 5 || (fx.maxn > 0) != (count[Subword] >= 10) {
				t.Errorf("the fixture has too few words of a kind: %v", count)
			}
		})
	}
}

// TestLookupBitExact compares Lookup with fastText's own library, bit for
// bit: NAME.exact holds FastText::getWordVector of the words of
// testdata/queries.txt and of every word of the vocabulary, printed with 9
// significant digits by testdata/exact.cc, which read back as the same
// float32.
func TestLookupBitExact(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			m, _ := readFixture(t, fx.name)
			rows := readPrinted(t, "testdata/"+fx.name+".exact")
			if len(rows) < fx.nwords+20 {
				t.Fatalf("%d rows", len(rows))
			}
			dst := make([]float32, m.Dim())
			for _, r := range rows {
				m.Lookup(dst, r.word)
				if len(r.vals) != len(dst) {
					t.Fatalf("%q: %d values", r.word, len(r.vals))
				}
				for j, s := range r.vals {
					x, err := strconv.ParseFloat(s, 32)
					if err != nil {
						t.Fatal(err)
					}
					if math.Float32bits(dst[j]) != math.Float32bits(float32(x)) {
						t.Errorf("%q[%d] = %v, fastText computes %v", r.word, j, dst[j], float32(x))
						break
					}
				}
			}
		})
	}
}

// TestNgramsPrintNgrams compares the subwords of words with fastText's
// print-ngrams: the n-grams as strings, in order, and their rows (5
// significant digits).
func TestNgramsPrintNgrams(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			m, _ := readFixture(t, fx.name)
			blocks := map[string][]printed{}
			var order []string
			var word string
			for _, r := range readPrinted(t, "testdata/"+fx.name+".ngrams") {
				if r.word == "==" {
					word = r.vals[0]
					order = append(order, word)
					blocks[word] = []printed{}
					continue
				}
				blocks[word] = append(blocks[word], r)
			}
			if len(order) < 10 {
				t.Fatalf("%d words in the fixture", len(order))
			}
			for _, w := range order {
				var names []string
				var rows []int
				if i, ok := m.Index(w); ok {
					names, rows = append(names, w), append(rows, i)
				}
				if w != eos {
					pad := "<" + w + ">"
					ngrams(w, m.args.Minn, m.args.Maxn, func(_ uint32, i, j int) { names = append(names, pad[i:j]) })
				}
				m.subwords(w, func(row int) { rows = append(rows, row) })
				want := blocks[w]
				if len(names) != len(want) || len(rows) != len(want) {
					t.Errorf("%q: %d n-grams %q, %d rows; fastText prints %d", w, len(names), names, len(rows), len(want))
					continue
				}
				for k, p := range want {
					if names[k] != p.word {
						t.Errorf("%q: n-gram %d is %q, fastText prints %q", w, k, names[k], p.word)
					}
					checkPrinted(t, fmt.Sprintf("%q: row of %q", w, p.word), m.input[rows[k]*m.Dim():(rows[k]+1)*m.Dim()], p.vals, 5)
				}
			}
		})
	}
}

// TestInputMatrixDump compares the first rows of the input matrix with
// fasttext dump NAME.bin input, which prints 6 significant digits.
func TestInputMatrixDump(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			m, _ := readFixture(t, fx.name)
			rows := readPrinted(t, "testdata/"+fx.name+".input")
			if h := rows[0]; h.word != strconv.Itoa(m.rows) || len(h.vals) != 1 || h.vals[0] != strconv.Itoa(m.Dim()) {
				t.Errorf("dump gives %s %v, the matrix is %d × %d", h.word, h.vals, m.rows, m.Dim())
			}
			for i, r := range rows[1:] {
				vals := append([]string{r.word}, r.vals...)
				checkPrinted(t, fmt.Sprintf("row %d", i), m.input[i*m.Dim():(i+1)*m.Dim()], vals, 6)
			}
		})
	}
}

// synth is a fastText model written by hand, for the cases that the tool
// does not make (pruning without quantization) and for exact arithmetic.
type synth struct {
	args          Args
	words, labels []string
	pruneSize     int64 // -1: no pruning
	prune         [][2]int32
	input         []float32
	outRows       int
}

// bytes writes s in fastText's layout (see the package documentation).
func (s synth) bytes() []byte {
	le := binary.LittleEndian
	b := le.AppendUint32(nil, binMagic)
	b = le.AppendUint32(b, binVersion)
	a := s.args
	for _, x := range []int{a.Dim, a.WS, a.Epoch, a.MinCount, a.Neg, a.WordNgrams, a.Loss, a.Model, a.Bucket, a.Minn, a.Maxn, a.LRUpdateRate} {
		b = le.AppendUint32(b, uint32(int32(x)))
	}
	b = le.AppendUint64(b, math.Float64bits(a.T))
	b = le.AppendUint32(b, uint32(len(s.words)+len(s.labels)))
	b = le.AppendUint32(b, uint32(len(s.words)))
	b = le.AppendUint32(b, uint32(len(s.labels)))
	b = le.AppendUint64(b, 1000)
	b = le.AppendUint64(b, uint64(s.pruneSize))
	for i, w := range append(slices.Clone(s.words), s.labels...) {
		b = append(append(b, w...), 0)
		b = le.AppendUint64(b, uint64(10-i))
		if i < len(s.words) {
			b = append(b, 0)
		} else {
			b = append(b, 1)
		}
	}
	for _, p := range s.prune {
		b = le.AppendUint32(b, uint32(p[0]))
		b = le.AppendUint32(b, uint32(p[1]))
	}
	b = append(b, 0)
	b = le.AppendUint64(b, uint64(len(s.input)/a.Dim))
	b = le.AppendUint64(b, uint64(a.Dim))
	for _, x := range s.input {
		b = le.AppendUint32(b, math.Float32bits(x))
	}
	b = append(b, 0)
	b = le.AppendUint64(b, uint64(s.outRows))
	b = le.AppendUint64(b, uint64(a.Dim))
	return append(b, make([]byte, 4*s.outRows*a.Dim)...)
}

// TestLookupExact checks the arithmetic of Lookup on a model whose rows are
// chosen so that every mean is exact or known: the sum in float32 in
// fastText's order, times float32(1/n).
func TestLookupExact(t *testing.T) {
	// With minn = maxn = 1, "ab" has the n-grams "a" and "b" ("<" and ">"
	// alone are left out). hash("a") = 3826002220 and hash("b") = 3876335077
	// (FNV-1a, computed by hand from the definition), so with 10 buckets
	// "a" is bucket 0 and "b" bucket 7.
	const a, b = 0, 7
	if hash("a")%10 != a || hash("b")%10 != b {
		t.Fatalf("buckets of a and b: %d, %d", hash("a")%10, hash("b")%10)
	}
	s := synth{
		args:      Args{Dim: 2, Bucket: 10, Minn: 1, Maxn: 1, T: 1e-4},
		words:     []string{"ab", "x"},
		pruneSize: -1,
		input:     make([]float32, (2+10)*2),
		outRows:   2,
	}
	set := func(row int, x, y float32) { s.input[2*row], s.input[2*row+1] = x, y }
	set(0, 1, 1)     // "ab"
	set(1, 5, -5)    // "x"
	set(2+a, 2, 4)   // bucket of "a"
	set(2+b, 3, 0.1) // bucket of "b"
	// hash("東") is 3416523463, bucket 3, with fastText's sign extension of
	// the bytes E6 9D B1; without it, 280768455, bucket 5 (both computed
	// from the definition with a few lines of Python).
	set(2+3, 6, 8)
	x := s.input[2*(2+hash("x")%10)]
	m, err := ReadBin(bytes.NewReader(s.bytes()), "synth.bin")
	if err != nil {
		t.Fatal(err)
	}
	third := float32(1.0 / 3) // fastText's factor, rounded to float32
	for _, tc := range []struct {
		word  string
		found Found
		want  [2]float32
	}{
		// In the vocabulary: the word's row, then "a", then "b".
		{"ab", InVocab, [2]float32{(1 + 2 + 3) * third, (float32(1) + 4 + 0.1) * third}},
		{"x", InVocab, [2]float32{(5 + x) * 0.5, (-5 + s.input[2*(2+hash("x")%10)+1]) * 0.5}},
		{"ba", Subword, [2]float32{(3 + 2) * 0.5, (float32(0.1) + 4) * 0.5}},
		{"a", Subword, [2]float32{2, 4}},
		{"aab", Subword, [2]float32{(2 + 2 + 3) * third, (float32(4) + 4 + 0.1) * third}},
		{"", Missing, [2]float32{0, 0}},    // "<>" has no n-gram of one character
		{eos, Missing, [2]float32{0, 0}},   // never has n-grams
		{"é", Subword, [2]float32{3, 0.1}}, // one n-gram, in the bucket of "b"
		{"東", Subword, [2]float32{6, 8}},   // bucket 3, see above
	} {
		dst := []float32{7, 7}
		if f := m.Lookup(dst, tc.word); f != tc.found || dst[0] != tc.want[0] || dst[1] != tc.want[1] {
			t.Errorf("Lookup(%q) = %v %v, want %v %v", tc.word, f, dst, tc.found, tc.want)
		}
	}

	// Pruned: only the bucket of "a" is kept, as row 0 after the words.
	s.pruneSize, s.prune = 1, [][2]int32{{a, 0}}
	s.input = []float32{1, 1, 5, -5, 2, 4}
	m, err = ReadBin(bytes.NewReader(s.bytes()), "pruned.bin")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		word  string
		found Found
		want  [2]float32
	}{
		{"ab", InVocab, [2]float32{(1 + 2) * 0.5, (1 + 4) * 0.5}},
		{"ba", Subword, [2]float32{2, 4}},
		{"b", Missing, [2]float32{0, 0}}, // its only n-gram was pruned
		{"x", InVocab, [2]float32{5, -5}},
	} {
		dst := []float32{7, 7}
		if f := m.Lookup(dst, tc.word); f != tc.found || dst[0] != tc.want[0] || dst[1] != tc.want[1] {
			t.Errorf("pruned: Lookup(%q) = %v %v, want %v %v", tc.word, f, dst, tc.found, tc.want)
		}
	}

	// pruneidx_size 0: every n-gram pruned away.
	s.pruneSize, s.prune, s.input = 0, nil, []float32{1, 1, 5, -5}
	m, err = ReadBin(bytes.NewReader(s.bytes()), "allpruned.bin")
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]float32, 2)
	if f := m.Lookup(dst, "ab"); f != InVocab || dst[0] != 1 || dst[1] != 1 {
		t.Errorf("all pruned: Lookup(ab) = %v %v", f, dst)
	}
	if f := m.Lookup(dst, "ba"); f != Missing {
		t.Errorf("all pruned: Lookup(ba) = %v %v", f, dst)
	}
	mustPanic(t, "Lookup with a long dst", func() { m.Lookup(make([]float32, 3), "ab") })
}

// TestReadBinLongWord reads a word longer than the reader's buffer, whole
// and cut short.
func TestReadBinLongWord(t *testing.T) {
	long := strings.Repeat("é", 40000)
	data := synth{args: Args{Dim: 1}, words: []string{"a", long}, pruneSize: -1, input: []float32{1, 2}}.bytes()
	m, err := ReadBin(bytes.NewReader(data), "long.bin")
	if err != nil {
		t.Fatal(err)
	}
	if i, ok := m.Index(long); !ok || i != 1 || m.Words()[1] != long {
		t.Errorf("Index of the long word: %d, %v", i, ok)
	}
	m, err = ReadBin(bytes.NewReader(data[:len(data)/2]), "long.bin")
	checkError(t, m, err, ErrTruncated, "long.bin", 0, "in dictionary entry 1")
}

// layout finds the offsets of the fields of a .bin that follow the
// dictionary, by walking its entries: an independent reading of the format
// for the tests that patch fixtures.
func layout(t *testing.T, data []byte) (entries []int, quant int) {
	t.Helper()
	size := int(binary.LittleEndian.Uint32(data[64:]))
	prune := int64(binary.LittleEndian.Uint64(data[84:]))
	off := 92
	for range size {
		entries = append(entries, off)
		off += bytes.IndexByte(data[off:], 0) + 1 + 8 + 1
	}
	return entries, off + 8*int(max(prune, 0))
}

func patch32(data []byte, off int, v int32) []byte {
	b := slices.Clone(data)
	binary.LittleEndian.PutUint32(b[off:], uint32(v))
	return b
}

func patch64(data []byte, off int, v int64) []byte {
	b := slices.Clone(data)
	binary.LittleEndian.PutUint64(b[off:], uint64(v))
	return b
}

func TestReadBinErrors(t *testing.T) {
	_, sg := readFixture(t, "sg")
	entries, quant := layout(t, sg)
	mat := quant + 1 // the input matrix: int64 rows, int64 cols, values
	ftz, err := os.ReadFile("testdata/sup.ftz")
	if err != nil {
		t.Fatal(err)
	}
	// Two entries of the same length, for a duplicate.
	dupA, dupB := -1, -1
	for i := 1; i < len(entries)-1 && dupA < 0; i++ {
		for j := i + 1; j < len(entries)-1; j++ {
			if entries[i+1]-entries[i] == entries[j+1]-entries[j] {
				dupA, dupB = i, j
				break
			}
		}
	}
	dup := slices.Clone(sg)
	n := entries[dupA+1] - entries[dupA] - 10
	copy(dup[entries[dupB]:entries[dupB]+n], sg[entries[dupA]:])
	nan := patch32(sg, mat+16+4*9, 0x7fc00000) // row 1, column 1

	for _, tc := range []struct {
		name string
		in   []byte
		err  error
		msg  string
	}{
		{"empty", nil, ErrNotFastText, "the file has 0 bytes"},
		{"short", []byte{0xba, 0x16}, ErrNotFastText, "2 bytes"},
		{"text", []byte("2 3\na 1 2 3\n"), ErrNotFastText, "a text file of word vectors, .vec?"},
		{"bad magic", patch32(sg, 0, 1234), ErrNotFastText, "not fastText's magic number 0x2f4f16ba"},
		{"version 11", patch32(sg, 4, 11), ErrVersion, "version 11; fastText 0.9.x models are version 12"},
		{"version 13", patch32(sg, 4, 13), ErrVersion, "version 13"},
		{"dim 0", patch32(sg, 8, 0), ErrDimension, "dim is 0"},
		{"dim 9", patch32(sg, 8, 9), ErrDimension, "the input matrix has 8 columns, dim is 9"},
		{"negative bucket", patch32(sg, 40, -1), ErrCorrupt, "bucket is -1"},
		{"bucket 2001", patch32(sg, 40, 2001), ErrCorrupt, "the input matrix has 2165 rows, want 2166"},
		{"size ≠ nwords + nlabels", patch32(sg, 64, 166), ErrCorrupt, "size 166, nwords 165, nlabels 0"},
		{"negative nlabels", patch32(patch32(sg, 72, -1), 64, 164), ErrCorrupt, "nlabels -1"},
		{"huge dictionary", patch32(patch32(sg, 64, math.MaxInt32), 68, math.MaxInt32), ErrTruncated, "2147483647 entries, more than the"},
		{"pruneidx_size -2", patch64(sg, 84, -2), ErrCorrupt, "pruneidx_size is -2"},
		{"huge pruneidx_size", patch64(sg, 84, 1<<60), ErrTruncated, "pruneidx_size 1152921504606846976 is more than"},
		{"label first", patch32(patch32(sg, 68, 164), 72, 1), ErrCorrupt, "dictionary entry 164"},
		{"type 7", func() []byte { b := slices.Clone(sg); b[entries[1]-1] = 7; return b }(), ErrCorrupt, "dictionary entry 0 (\"the\") has type 7"},
		{"duplicate word", dup, ErrDuplicate, fmt.Sprintf("dictionary entry %d", dupB)},
		{"quantized flag", func() []byte { b := slices.Clone(sg); b[quant] = 1; return b }(), ErrQuantized, "the input matrix is quantized"},
		{"bad quant flag", func() []byte { b := slices.Clone(sg); b[quant] = 2; return b }(), ErrCorrupt, "quant_input is 2"},
		{"quantized, pruned (fasttext quantize -cutoff)", ftz, ErrQuantized, "quantized model (.ftz) is not supported"},
		{"matrix rows", patch64(sg, mat, 2164), ErrCorrupt, "2164 rows, want 2165"},
		{"huge matrix", patch64(patch32(sg, 40, math.MaxInt32-165), mat, math.MaxInt32), ErrTruncated, "more than the"},
		{"NaN", nan, ErrNonFinite, "the input matrix: row 1, column 1 is NaN"},
		{"pruning out of range", synth{args: Args{Dim: 1, Bucket: 3}, words: []string{"a"}, pruneSize: 1,
			prune: [][2]int32{{0, 5}}, input: []float32{1, 2}}.bytes(), ErrCorrupt, "maps bucket 0 to 5, outside [0, 1)"},
		{"no rows", synth{args: Args{Dim: math.MaxInt32}, pruneSize: -1}.bytes(), ErrEmpty, "no words and no n-gram buckets"},
		{"output matrix columns", patch64(sg, len(sg)-165*8*4-8, 7), ErrDimension, "the output matrix has 7 columns"},
		{"output matrix rows", patch64(sg, len(sg)-165*8*4-16, 166), ErrTruncated, "the output matrix has 166×8 values"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ReadBin(bytes.NewReader(tc.in), "m.bin")
			checkError(t, m, err, tc.err, "m.bin", 0, tc.msg)
		})
	}
}

// TestReadBinTruncated cuts models at every offset (every offset of the
// smaller ones, the header and a stride of the larger one): each must give
// an error, not a panic, with the size of the input known or not.
func TestReadBinTruncated(t *testing.T) {
	for _, name := range []string{"nongram", "sup", "sg"} {
		_, data := readFixture(t, name)
		for k := 0; k < len(data); k++ {
			if name == "sg" && k > 4096 && k%97 != 0 && k < len(data)-64 {
				continue
			}
			var r io.Reader = bytes.NewReader(data[:k])
			hidden := k%5 == 0
			if hidden {
				r = struct{ io.Reader }{r} // size unknown
			}
			m, err := ReadBin(r, "cut.bin")
			want := ErrTruncated
			if k < 4 {
				want = ErrNotFastText
			}
			if m != nil || !errors.Is(err, want) {
				t.Fatalf("%s cut at %d of %d (hidden size %v): %v, want %v", name, k, len(data), hidden, err, want)
			}
		}
	}
}

// TestReadBinSizeUnknown reads a model through a reader that hides its
// size: the same model; and a header that claims 2³¹ words or a matrix of
// 2⁶² values makes ReadBin allocate little before it finds out.
func TestReadBinSizeUnknown(t *testing.T) {
	want, sg := readFixture(t, "sg")
	m, err := ReadBin(iotest.HalfReader(bytes.NewReader(sg)), "sg.bin")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.words, want.words) || !slices.Equal(m.input, want.input) || m.args != want.args {
		t.Error("reading through a reader of unknown size gave another model")
	}
	_, quant := layout(t, sg)
	for _, in := range [][]byte{
		patch32(patch32(sg, 64, math.MaxInt32), 68, math.MaxInt32),
		patch64(patch32(sg, 40, math.MaxInt32-165), quant+1, math.MaxInt32),
		patch64(sg, 84, math.MaxInt64),
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := ReadBin(struct{ io.Reader }{bytes.NewReader(in)}, "huge.bin")
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Error("no error")
		}
		if a := after.TotalAlloc - before.TotalAlloc; a > 8<<20 {
			t.Errorf("%v: allocated %d bytes", err, a)
		}
	}
}

func TestReadBinIO(t *testing.T) {
	_, sg := readFixture(t, "sg")
	boom := errors.New("boom")
	for _, k := range []int{2, 10, 100, 5000, len(sg) - 10} {
		r := io.MultiReader(bytes.NewReader(sg[:k]), iotest.ErrReader(boom))
		if _, err := ReadBin(r, "sg.bin"); !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "sg.bin: ") {
			t.Errorf("error at %d: %v", k, err)
		}
	}
}

// TestReadFileChooses: ReadFile goes by the content, not the name.
func TestReadFileChooses(t *testing.T) {
	dir := t.TempDir()
	_, sg := readFixture(t, "sg")
	bin, vec := dir+"/model.vec", dir+"/vectors.bin"
	if err := os.WriteFile(bin, sg, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(vec, []byte("1 2\na 1 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err := ReadFile(bin); err != nil || s.Dim() != 8 {
		t.Errorf("ReadFile(%s) = %T, %v", bin, s, err)
	} else if _, ok := s.(*FastText); !ok {
		t.Errorf("ReadFile(%s) = %T", bin, s)
	}
	if s, err := ReadFile(vec); err != nil {
		t.Error(err)
	} else if _, ok := s.(*Vectors); !ok {
		t.Errorf("ReadFile(%s) = %T", vec, s)
	}
	// A .bin of another version goes to ReadBin: ErrVersion, not a text error.
	if err := os.WriteFile(bin, patch32(sg, 4, 11), 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err := ReadFile(bin); s != nil || !errors.Is(err, ErrVersion) || !strings.HasPrefix(err.Error(), bin+": ") {
		t.Errorf("version 11: %v, %v", s, err)
	}
	// A truncated model: the file size is known, so the matrix is refused
	// before it is allocated.
	if err := os.WriteFile(bin, sg[:3000], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(bin); !errors.Is(err, ErrTruncated) {
		t.Errorf("truncated: %v", err)
	}
}

// TestReadBinTrailingBytes: fastText's own files end with the output
// matrix (TrailingBytes 0); bytes appended after it are counted, whether
// the size of the input is known or not. The expected counts are the
// number of bytes appended. (Before TrailingBytes they were ignored
// without a trace.)
func TestReadBinTrailingBytes(t *testing.T) {
	_, sg := readFixture(t, "sg")
	for _, extra := range []int{0, 1, 37} {
		in := append(slices.Clone(sg), make([]byte, extra)...)
		for name, r := range map[string]io.Reader{
			"size known":   bytes.NewReader(in),
			"size unknown": struct{ io.Reader }{bytes.NewReader(in)},
		} {
			m, err := ReadBin(r, "sg.bin")
			if err != nil {
				t.Fatal(err)
			}
			if got := m.TrailingBytes(); got != int64(extra) {
				t.Errorf("%d bytes appended, %s: TrailingBytes %d", extra, name, got)
			}
		}
	}
}
