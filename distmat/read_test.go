package distmat

import (
	"bytes"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/internal/fileerr"
)

// onlyReader hides every method of r but Read, as a pipe would.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// TestReadRoundTrip reads what the writer writes, in both formats, with
// several workers and blocks small enough to cut lines: the values come
// back as written (NPY bit for bit; TSV to the 16 digits ssu's format
// keeps, read as strconv reads the text).
func TestReadRoundTrip(t *testing.T) {
	defer func(b int) { readBlock = b }(readBlock)
	for _, n := range []int{1, 2, 7, 90} {
		ids, v := randomMatrix(n, uint64(n))
		tsv := oneShot(t, TSV, ids, v)
		npy := oneShot(t, NPY, ids, v)
		// The values as the TSV text holds them.
		_, want := readTSV(t, tsv)
		for _, block := range []int{4 << 20, 64, 1000} {
			readBlock = block
			for _, workers := range []int{1, 2, 5} {
				for _, r := range []io.Reader{bytes.NewReader(tsv), onlyReader{bytes.NewReader(tsv)}} {
					m, err := Read(r, "d.tsv", &Options{Workers: workers})
					if err != nil {
						t.Fatalf("n %d, block %d, workers %d: %v", n, block, workers, err)
					}
					if !slices.Equal(m.IDs, ids) || !slices.Equal(m.D, want) {
						t.Fatalf("n %d, block %d, workers %d: the matrix read differs", n, block, workers)
					}
					for i, l := range m.Lines {
						if l != i+2 {
							t.Fatalf("row %d on line %d, want %d", i, l, i+2)
						}
					}
				}
			}
		}
		m, err := ReadNPY(bytes.NewReader(npy), "d.npy", ids)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(m.D, v) || m.Lines != nil {
			t.Errorf("n %d: NPY read differs", n)
		}
		m, err = ReadNPY(onlyReader{bytes.NewReader(npy)}, "d.npy", ids)
		if err != nil || !slices.Equal(m.D, v) {
			t.Errorf("n %d: NPY from a pipe: %v", n, err)
		}
	}
}

// TestReadSkbio reads a file that scikit-bio 0.5.8 wrote
// (DistanceMatrix(d, ids).write(path, format="lsmat"), d[i, j] =
// sqrt(i+j+1)·|i−j|/3 in NumPy), whose values Python writes in the
// shortest form that reads back exactly: the values must be NumPy's bits,
// computed here by the same correctly rounded operations.
func TestReadSkbio(t *testing.T) {
	m, err := func() (*Matrix, error) {
		return ReadFile("testdata/skbio_lsmat.tsv", nil)
	}()
	if err != nil {
		t.Fatal(err)
	}
	n := 5
	for i := range n {
		if m.IDs[i] != "sample."+strconv.Itoa(i) {
			t.Errorf("id %d is %q", i, m.IDs[i])
		}
		for j := range n {
			want := math.Sqrt(float64(i+j)+1) * math.Abs(float64(i-j)) / 3
			if m.D[i*n+j] != want {
				t.Errorf("(%d, %d) = %v, want %v", i, j, m.D[i*n+j], want)
			}
		}
	}
}

// TestReadLayout: what scikit-bio's lsmat reader accepts besides the plain
// layout: comments and blank lines before the header, blank lines among
// the rows, spaces around cells, a CR before each LF, trailing tabs, no
// final line feed, a byte-order mark.
func TestReadLayout(t *testing.T) {
	want := []float64{0, 1.5, 1.5, 0}
	for _, text := range []string{
		"\ta\tb\na\t0\t1.5\nb\t1.5\t0\n",
		"# a comment\n\n  # another\n\ta\tb\na\t0\t1.5\n\nb\t1.5\t0",
		"\ta \t b\r\n a\t 0 \t1.5\t\r\n\r\nb\t1.5e0\t+0.0\t \n\n",
		"\ufeff\ta\tb\na\t0\t1.5\nb\t1.5\t0\n",
	} {
		m, err := Read(strings.NewReader(text), "d.tsv", nil)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if !slices.Equal(m.IDs, []string{"a", "b"}) || !slices.Equal(m.D, want) {
			t.Errorf("%q: ids %q, values %v", text, m.IDs, m.D)
		}
	}
}

func TestReadErrors(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"empty", "", "d.tsv: invalid matrix file: no header line"},
		{"comments only", "# x\n\n", "d.tsv: invalid matrix file: no header line"},
		{"header without tab", "a\tb\na\t0\t1\nb\t1\t0\n", "d.tsv:1: invalid matrix file: the header must start with a tab"},
		{"empty id", "\ta\t\tb\n", "d.tsv:1: invalid matrix file: sample id 2 is empty"},
		{"duplicate id", "\ta\ta\n", `d.tsv:1: invalid matrix file: sample id "a" appears twice`},
		{"NUL", "\ta\tb\x00\n", "d.tsv:1: invalid matrix file: sample id 2 holds a NUL byte"},
		{"too short for header", "\ta\tb\tc\td\te\tf\n", "d.tsv:1: invalid matrix file: the header names 6 samples, but the input (13 bytes) is too short"},
		{"wrong id", "\ta\tb\na\t0\t1\nc\t1\t0\n", `d.tsv:3: invalid matrix file: row 2 is "c", but the header's sample 2 is "b"`},
		{"few values", "\ta\tb\na\t0\nb\t1\t0\n", `d.tsv:2: invalid matrix file: row "a" has 1 values; the header names 2 samples`},
		{"id only", "\ta\tb\na\nb\t1\t0\n", `d.tsv:2: invalid matrix file: row "a" has 0 values`},
		{"many values", "\ta\tb\na\t0\t1\t2\nb\t1\t0\n", `d.tsv:2: invalid matrix file: row "a" has more than the 2 values`},
		{"not a number", "\ta\tb\na\t0\t1\nb\tx1\t0\n", `d.tsv:3: invalid matrix file: row "b", column 1 ("a"): "x1" is not a number`},
		{"empty cell", "\ta\tb\tc\na\t0\t\t1\nb\t1\t0\t1\nc\t1\t1\t0\n", `d.tsv:2: invalid matrix file: row "a", column 2 ("b"): "" is not a number`},
		{"NaN", "\ta\tb\na\t0\tnan\nb\t1\t0\n", `d.tsv:2: invalid matrix file: row "a", column 2 ("b"): nan is not a finite number`},
		{"infinite", "\ta\tb\na\t0\t1\nb\t1e999\t0\n", `d.tsv:3: invalid matrix file: row "b", column 1 ("a"): 1e999 is not a finite number`},
		{"rows cut", "\ta\tb\na\t0\t1\n\n", "d.tsv:3: invalid matrix file: the file ends after 1 rows; the header names 2 samples"},
		{"extra row", "\ta\tb\na\t0\t1\nb\t1\t0\nc\t1\t1\n", "d.tsv:4: invalid matrix file: a row beyond the 2 the header names"},
		// Two faults: the earlier line's is reported, however the rows
		// are shared among workers.
		{"earliest", "\ta\tb\tc\na\t0\t1\t1\nb\t1\t0\tq\nc\t1\tz\t0\n", `d.tsv:3: invalid matrix file: row "b", column 3 ("c"): "q" is not a number`},
		{"earliest beyond", "\ta\tb\na\t0\t1\t1\nb\t1\t0\nc\t1\t1\n", `d.tsv:2: invalid matrix file: row "a" has more than the 2 values`},
	}
	defer func(b int) { readBlock = b }(readBlock)
	for _, c := range cases {
		if c.want == "" {
			continue
		}
		for _, block := range []int{4 << 20, 8} {
			readBlock = block
			for _, workers := range []int{1, 3} {
				_, err := Read(strings.NewReader(c.text), "d.tsv", &Options{Workers: workers})
				if err == nil || !strings.HasPrefix(err.Error(), c.want) || !errors.Is(err, ErrInvalid) {
					t.Errorf("%s (block %d, workers %d): got %v\nwant %s…", c.name, block, workers, err, c.want)
				}
				var fe *fileerr.Error
				if err != nil && !errors.As(err, &fe) {
					t.Errorf("%s: %T is no *fileerr.Error", c.name, err)
				}
			}
		}
	}
}

func TestReadNPYErrors(t *testing.T) {
	ids := []string{"a", "b"}
	good := oneShot(t, NPY, ids, []float64{0, 1, 1, 0})
	header := func(dict string) []byte {
		h := append([]byte("\x93NUMPY\x01\x00"), byte(len(dict)+1), 0)
		return append(append(h, dict...), '\n')
	}
	values := good[len(good)-32:]
	cases := []struct {
		name string
		data []byte
		ids  []string
		want string
	}{
		{"not npy", []byte("\ta\tb\n"), ids, "not an NPY file"},
		{"version", append([]byte("\x93NUMPY\x04\x00"), good[8:]...), ids, "NPY version 4.0"},
		{"cut header", good[:20], ids, "the header is cut short"},
		{"ids", good, []string{"a"}, "a 2×2 matrix for 1 sample ids"},
		{"type", append(header("{'descr': '<i8', 'fortran_order': False, 'shape': (2, 2), }"), values...), ids, `values of type "<i8"`},
		{"shape", append(header("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }"), values...), ids, "shape [2 3], not a square matrix"},
		{"cut values", good[:len(good)-8], ids, "the values are cut short"},
		{"key", append(header("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), 'x': 1}"), values...), ids, `unknown key "x"`},
		{"missing key", append(header("{'descr': '<f8', 'shape': (2, 2)}"), values...), ids, "is missing"},
		{"NaN", append(good[:len(good)-8:len(good)-8], 0, 0, 0, 0, 0, 0, 0xf8, 0x7f), ids, `row "b", column 2 ("b"): NaN is not a finite number`},
	}
	for _, c := range cases {
		_, err := ReadNPY(bytes.NewReader(c.data), "d.npy", c.ids)
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v, want …%s…", c.name, err, c.want)
		}
	}
	// Fortran order and float32 values.
	f32 := header("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }")
	for _, v := range []float32{0, 2, 1.5, 0} { // column-major: (1,0) = 2, (0,1) = 1.5
		f32 = append(f32, byte(math.Float32bits(v)), byte(math.Float32bits(v)>>8), byte(math.Float32bits(v)>>16), byte(math.Float32bits(v)>>24))
	}
	m, err := ReadNPY(bytes.NewReader(f32), "d.npy", ids)
	if err != nil || !slices.Equal(m.D, []float64{0, 1.5, 2, 0}) {
		t.Errorf("float32, Fortran order: %v, %v", m, err)
	}
}

func TestReadIDsAndFile(t *testing.T) {
	dir := t.TempDir()
	ids, v := randomMatrix(6, 3)
	name := filepath.Join(dir, "d.npy")
	if err := os.WriteFile(name, oneShot(t, NPY, ids, v), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(name, nil); err == nil || !strings.Contains(err.Error(), "d.ids.txt") {
		t.Errorf("no sidecar: %v", err)
	}
	var b bytes.Buffer
	if err := WriteIDs(&b, ids); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(IDsPath(name), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := ReadFile(name, nil)
	if err != nil || !slices.Equal(m.D, v) || !slices.Equal(m.IDs, ids) {
		t.Errorf("npy and sidecar: %v", err)
	}
	for text, want := range map[string]string{
		"a\n\nb\n":   "f:2: invalid matrix file: an empty sample id",
		"a\nb\na\n":  `f:3: invalid matrix file: sample id "a" appears twice (first on line 1)`,
		"a\tb\n":     `f:1: invalid matrix file: sample id "a\tb" holds a tab or a NUL byte`,
		"  \n\n":     "f: invalid matrix file: no sample ids",
		"a\r\nb\r\n": "",
	} {
		got, err := ReadIDs(strings.NewReader(text), "f")
		if want == "" {
			if err != nil || !slices.Equal(got, []string{"a", "b"}) {
				t.Errorf("%q: %q, %v", text, got, err)
			}
		} else if err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %s", text, err, want)
		}
	}
}

// FuzzRead: the TSV and NPY readers never panic, every error wraps
// ErrInvalid, and a TSV matrix read is the same with one worker as with
// three, and reads back from what the writer makes of it.
func FuzzRead(f *testing.F) {
	f.Add([]byte("\ta\tb\na\t0\t1.5\nb\t1.5\t0\n"))
	f.Add([]byte("# c\n\ta\tb\r\n a\t 0 \t1\t\r\n\nb\t1\t0"))
	f.Add([]byte("\ta\tb\na\t0\tnan\n"))
	ids, v := randomMatrix(3, 1)
	f.Add(oneShot(f, TSV, ids, v))
	f.Add(oneShot(f, NPY, ids, v))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer func(b int) { readBlock = b }(readBlock)
		readBlock = 16
		m, err := Read(bytes.NewReader(data), "f", &Options{Workers: 1})
		m3, err3 := Read(onlyReader{bytes.NewReader(data)}, "f", &Options{Workers: 3})
		if (err == nil) != (err3 == nil) || err != nil && err.Error() != err3.Error() {
			t.Fatalf("1 worker: %v; 3 workers: %v", err, err3)
		}
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
		} else {
			if !slices.Equal(m.IDs, m3.IDs) || !slices.EqualFunc(m.D, m3.D, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
				t.Fatal("1 and 3 workers read other matrices")
			}
			// The values are strconv's reading of the cells.
			var want []float64
			header := false
			for _, ln := range strings.Split(string(data), "\n") {
				ln = strings.TrimRight(ln, " \t\r\v\f")
				if strings.Trim(ln, " \t\r\v\f\ufeff") == "" || !header && strings.HasPrefix(strings.TrimLeft(ln, " \t\r\v\f"), "#") {
					continue
				}
				if !header {
					header = true
					continue
				}
				for _, c := range strings.Split(ln, "\t")[1:] {
					v, err := strconv.ParseFloat(strings.Trim(c, " \t\r\v\f"), 64)
					if err != nil {
						t.Fatalf("cell %q read, but strconv: %v", c, err)
					}
					want = append(want, v)
				}
			}
			if !slices.EqualFunc(m.D, want, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
				t.Fatalf("read %v, strconv reads %v", m.D, want)
			}
			if CheckIDs(m.IDs) == nil {
				var buf bytes.Buffer
				w, err := NewWriter(&buf, NPY, m.IDs, nil)
				if err != nil {
					t.Fatal(err)
				}
				if err := w.WriteRows(m.D); err != nil {
					t.Fatal(err)
				}
				w.Close()
				back, err := ReadNPY(&buf, "f", m.IDs)
				if err != nil || !slices.Equal(back.D, m.D) {
					t.Fatalf("NPY round trip: %v", err)
				}
			}
		}
		if _, err := ReadNPY(bytes.NewReader(data), "f", []string{"a", "b", "c"}); err != nil && !errors.Is(err, ErrInvalid) {
			t.Fatalf("NPY error %v does not wrap ErrInvalid", err)
		}
	})
}

// TestFastFloat: the fast path gives strconv.ParseFloat's bits, or declines.
func TestFastFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var texts []string
	for range 40000 {
		v := rng.Float64() * math.Pow(10, float64(rng.IntN(40)-20))
		switch rng.IntN(4) {
		case 0:
			texts = append(texts, strconv.FormatFloat(v, 'g', 16, 64))
		case 1:
			texts = append(texts, strconv.FormatFloat(v, 'g', -1, 64))
		case 2:
			texts = append(texts, strconv.FormatFloat(-v, 'f', rng.IntN(20), 64))
		default:
			texts = append(texts, string(AppendG16(nil, v)))
		}
	}
	texts = append(texts, "0", "-0", "+0.0", "0.", ".5", "5.", "1e22", "1e23", "9007199254740992", "9007199254740993",
		"1e-22", "123456789012345678", "1234567890123456789", "12345678901234567890", "0.000000000000000000001",
		"1e", "e5", ".", "-", "+", "1e+", "1.5e-3", "1E5", "00000000000000000000001", "1_0", "0x1p3", "inf", "nan", " 1", "1 ")
	// Up to 19 digits with powers of ten up to ±27 either way: the exact
	// integer paths; and numbers halfway between two float64 values, which
	// round to the even one: integers 2^k + odd·2^(k−54) between 2⁵³ and
	// 2⁶⁴, and odd 54-bit integers over 2, 4 and 8 written in decimals.
	for range 60000 {
		m := rng.Uint64N(10_000_000_000_000_000_000)
		m >>= rng.UintN(64)
		e := rng.IntN(55) - 27
		texts = append(texts, strconv.FormatUint(m, 10)+"e"+strconv.Itoa(e))
		digits := strconv.FormatUint(m, 10)
		if p := rng.IntN(len(digits) + 1); p < len(digits) {
			texts = append(texts, digits[:p]+"."+digits[p:])
		}
	}
	for range 30000 {
		k := 54 + rng.IntN(10)
		low := uint(k - 54)
		m := uint64(1)<<(k-1) | rng.Uint64N(uint64(1)<<(k-1))&^(1<<(low+1)-1) | 1<<low // odd·2^low, 54 significant bits
		texts = append(texts, strconv.FormatUint(m, 10))
		odd := uint64(1)<<53 | rng.Uint64N(1<<53) | 1
		j := 1 + rng.IntN(3)
		whole, frac := odd>>j, odd&(1<<j-1)
		texts = append(texts, strconv.FormatUint(whole, 10)+strings.TrimPrefix(strconv.FormatFloat(float64(frac)/float64(uint64(1)<<j), 'f', -1, 64), "0"))
	}
	fast := 0
	for _, s := range texts {
		want, err := strconv.ParseFloat(s, 64)
		got, used, ok := fastFloat([]byte(s + "\tx"))
		if !ok {
			continue
		}
		fast++
		if err != nil || math.Float64bits(got) != math.Float64bits(want) || used != len(s) {
			t.Errorf("%q: fast %v (%d bytes), strconv %v, %v", s, got, used, want, err)
		}
	}
	if fast < len(texts)/3 {
		t.Errorf("the fast path took %d of %d", fast, len(texts))
	}
}

// TestEightDigits checks the word-at-a-time digit test and conversion
// against a byte loop, on random words and on words of digits with one
// byte changed to its neighbours ('/' and ':' border the digits).
func TestEightDigits(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 30000 {
		var b [8]byte
		for k := range b {
			b[k] = '0' + byte(rng.IntN(10))
		}
		if rng.IntN(2) == 0 {
			b[rng.IntN(8)] = []byte{'/', ':', 0, 0xff, ' ', '.', 'e', byte(rng.Uint32())}[rng.IntN(8)]
		}
		all, val := true, uint32(0)
		for _, c := range b {
			if c < '0' || c > '9' {
				all = false
			}
			val = val*10 + uint32(c-'0')
		}
		v := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 | uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
		if eightDigits(v) != all {
			t.Fatalf("%q: eightDigits %v", b, !all)
		}
		if all && eightValue(v) != val {
			t.Fatalf("%q: eightValue %d, want %d", b, eightValue(v), val)
		}
	}
}

// BenchmarkRead reads a 1000×1000 matrix in ssu's TSV layout (MB/s of
// text), with one worker and all.
func BenchmarkRead(b *testing.B) {
	ids, v := randomMatrix(1000, 1)
	tsv := oneShot(b, TSV, ids, v)
	for _, w := range []int{1, 0} {
		b.Run("workers="+strconv.Itoa(w), func(b *testing.B) {
			b.SetBytes(int64(len(tsv)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Read(bytes.NewReader(tsv), "d.tsv", &Options{Workers: w}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
