package distmat

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// readTSV parses a matrix in ssu's layout.
func readTSV(t testing.TB, data []byte) ([]string, []float64) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	ids := strings.Split(lines[0], "\t")[1:]
	var v []float64
	for i, line := range lines[1:] {
		f := strings.Split(line, "\t")
		if f[0] != ids[i] || len(f) != len(ids)+1 {
			t.Fatalf("line %d: %q", i+2, line)
		}
		for _, s := range f[1:] {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			v = append(v, x)
		}
	}
	return ids, v
}

// TestTSVMatchesSSU rewrites the matrices that ssu wrote (recorded in
// package unifrac's test data) from their parsed values: the bytes must be
// ssu's, whatever the stripes and the number of workers. ssu formats with
// C's printf("%.16g"), so this checks the number format against C's.
func TestTSVMatchesSSU(t *testing.T) {
	files, _ := filepath.Glob("../unifrac/testdata/ssu_small.out.*.tsv")
	if len(files) == 0 {
		t.Fatal("no recorded ssu output")
	}
	for _, name := range files {
		want, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		ids, v := readTSV(t, want)
		n := len(ids)
		for _, stripe := range []int{1, 5, n} {
			for _, workers := range []int{1, 3} {
				var buf bytes.Buffer
				w, err := NewWriter(&buf, TSV, ids, &Options{Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				for r := 0; r < n; r += stripe {
					if err := w.WriteRows(v[r*n : min(r+stripe, n)*n]); err != nil {
						t.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(buf.Bytes(), want) {
					t.Errorf("%s stripe %d workers %d: bytes differ from ssu's", name, stripe, workers)
				}
			}
		}
	}
}

// TestAppendG16 checks the number format on values whose %.16g spelling
// is worked out by hand (C's rules: 16 significant digits, trailing zeros
// dropped, exponent form for exponents below −4 or from 16 on).
func TestAppendG16(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1, "1"}, {0.5, "0.5"}, {100, "100"},
		{1.5125, "1.5125"}, {0.1, "0.1"}, {1.0 / 3, "0.3333333333333333"},
		{2.0 / 3, "0.6666666666666666"}, {1e-5, "1e-05"}, {0.0001, "0.0001"},
		{2.5e-7, "2.5e-07"}, {1e16, "1e+16"}, {1e15, "1000000000000000"},
		{123456789.125, "123456789.125"}, {0.30000000000000004, "0.3"},
	} {
		if got := string(AppendG16(nil, c.x)); got != c.want {
			t.Errorf("AppendG16(%v) = %q, want %q", c.x, got, c.want)
		}
	}
}

// randomMatrix returns a symmetric n×n matrix with zero diagonal.
func randomMatrix(n int, seed uint64) ([]string, []float64) {
	r := rand.New(rand.NewPCG(seed, 1))
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("S%d", i)
	}
	v := make([]float64, n*n)
	for i := range n {
		for j := i + 1; j < n; j++ {
			x := r.Float64()
			if r.IntN(10) == 0 {
				x *= 1e-6
			}
			v[i*n+j], v[j*n+i] = x, x
		}
	}
	return ids, v
}

func oneShot(t testing.TB, f Format, ids []string, v []float64) []byte {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, f, ids, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteRows(v); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestNPY checks the .npy header against the format's specification and
// reads the values back bit for bit.
func TestNPY(t *testing.T) {
	for _, n := range []int{0, 1, 3, 1000} {
		ids, v := randomMatrix(n, 7)
		b := oneShot(t, NPY, ids, v)
		if string(b[:8]) != "\x93NUMPY\x01\x00" {
			t.Fatalf("magic %q", b[:8])
		}
		hl := int(binary.LittleEndian.Uint16(b[8:]))
		if (10+hl)%64 != 0 || b[10+hl-1] != '\n' {
			t.Fatalf("n=%d: header length %d", n, hl)
		}
		dict := strings.TrimRight(string(b[10:10+hl]), " \n")
		if want := fmt.Sprintf("{'descr': '<f8', 'fortran_order': False, 'shape': (%d, %d), }", n, n); dict != want {
			t.Fatalf("dict %q", dict)
		}
		data := b[10+hl:]
		if len(data) != 8*n*n {
			t.Fatalf("n=%d: %d bytes of data", n, len(data))
		}
		for k := range v {
			if got := math.Float64frombits(binary.LittleEndian.Uint64(data[8*k:])); math.Float64bits(got) != math.Float64bits(v[k]) {
				t.Fatalf("value %d: %v, want %v", k, got, v[k])
			}
		}
	}
}

func TestIDs(t *testing.T) {
	if _, err := NewWriter(&bytes.Buffer{}, TSV, []string{"a", "b\tc"}, nil); err == nil || !strings.Contains(err.Error(), "tab") {
		t.Errorf("tab in an id: %v", err)
	}
	var buf bytes.Buffer
	if err := WriteIDs(&buf, []string{"a", "b c"}); err != nil || buf.String() != "a\nb c\n" {
		t.Errorf("WriteIDs: %q %v", buf.String(), err)
	}
	for in, want := range map[string]string{"D.npy": "D.ids.txt", "x/D.NPY": "x/D.ids.txt", "D.bin": "D.bin.ids.txt"} {
		if got := IDsPath(in); got != want {
			t.Errorf("IDsPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestStripe checks that the stripes of every shard count cover the rows
// once, in order, on block bounds when there are enough blocks.
func TestStripe(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 255, 256, 257, 1000, 5000} {
		for shards := 1; shards <= 9; shards++ {
			row := 0
			for s := 1; s <= shards; s++ {
				lo, hi := Stripe(s, shards, n, 256)
				if lo != row || hi < lo {
					t.Fatalf("n=%d %d/%d: [%d, %d) after row %d", n, s, shards, lo, hi, row)
				}
				if (n+255)/256 >= shards && s < shards && hi%256 != 0 {
					t.Fatalf("n=%d %d/%d: [%d, %d) not on a block bound", n, s, shards, lo, hi)
				}
				row = hi
			}
			if row != n {
				t.Fatalf("n=%d shards %d: rows end at %d", n, shards, row)
			}
		}
	}
}

// writeParts writes the shards of v as partial files in dir.
func writeParts(t testing.TB, dir string, h Header, ids []string, v []float64, shards int) []string {
	n := len(ids)
	var names []string
	for s := 1; s <= shards; s++ {
		h := h
		h.N, h.IDHash, h.Shard, h.Shards = n, HashIDs(ids), s, shards
		h.Lo, h.Hi = Stripe(s, shards, n, 4)
		var buf bytes.Buffer
		w, err := NewPartWriter(&buf, &h, ids)
		if err != nil {
			t.Fatal(err)
		}
		for r := h.Lo; r < h.Hi; r += 3 {
			if err := w.WriteRows(v[r*n : min(r+3, h.Hi)*n]); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, fmt.Sprintf("part%d-%d", s, shards))
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	return names
}

var testHeader = Header{
	Tree: strings.Repeat("ab", 32), Table: strings.Repeat("cd", 32),
	Method: "weighted_normalized", Alpha: "-",
}

func openAll(t testing.TB, names []string) []*Part {
	var parts []*Part
	for _, name := range names {
		p, err := OpenPart(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		parts = append(parts, p)
	}
	return parts
}

// TestMergeEqualsOneShot merges the shards of matrices of several sizes,
// given in reverse order, and compares the bytes with the one-shot writer.
func TestMergeEqualsOneShot(t *testing.T) {
	for _, n := range []int{1, 2, 5, 13, 40} {
		ids, v := randomMatrix(n, uint64(n))
		for _, shards := range []int{1, 2, 3, 7} {
			dir := t.TempDir()
			names := writeParts(t, dir, testHeader, ids, v, shards)
			for i, j := 0, len(names)-1; i < j; i, j = i+1, j-1 {
				names[i], names[j] = names[j], names[i]
			}
			for _, f := range []Format{TSV, NPY} {
				parts := openAll(t, names)
				var buf bytes.Buffer
				if err := Merge(context.Background(), &buf, f, parts, nil); err != nil {
					t.Fatalf("n=%d shards=%d: %v", n, shards, err)
				}
				if want := oneShot(t, f, ids, v); !bytes.Equal(buf.Bytes(), want) {
					t.Errorf("n=%d shards=%d %v: merged bytes differ from one shot", n, shards, f)
				}
			}
		}
	}
}

func TestMergeRefuses(t *testing.T) {
	ids, v := randomMatrix(13, 3)
	dir := t.TempDir()
	three := writeParts(t, filepath.Join(dir), testHeader, ids, v, 3)
	sub := t.TempDir()
	two := writeParts(t, sub, testHeader, ids, v, 2)
	other := testHeader
	other.Alpha = "0.5"
	odir := t.TempDir()
	alpha := writeParts(t, odir, other, ids, v, 3)
	ids2 := append([]string(nil), ids...)
	ids2[4] = "renamed"
	idir := t.TempDir()
	renamed := writeParts(t, idir, testHeader, ids2, v, 3)
	for _, c := range []struct {
		name  string
		files []string
		want  string
	}{
		{"missing", []string{three[0], three[2]}, "rows 5 to 8 (1-based) are in no part: missing shard 2/3"},
		{"missing last", three[:2], "rows 9 to 13 (1-based) are in no part: missing shard 3/3"},
		{"duplicate", []string{three[0], three[1], three[1], three[2]}, "overlap"},
		{"overlapping", []string{two[0], three[1], three[2]}, "overlap"},
		{"alpha", []string{three[0], alpha[1], three[2]}, "alpha \"-\" differs from \"0.5\""},
		{"ids", []string{three[0], renamed[1], three[2]}, "sample ids"},
		{"none", nil, "no partial files"},
	} {
		parts := openAll(t, c.files)
		err := Merge(context.Background(), &bytes.Buffer{}, TSV, parts, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
		}
	}
	// A truncated part.
	b, _ := os.ReadFile(three[1])
	trunc := filepath.Join(dir, "trunc")
	os.WriteFile(trunc, b[:len(b)-5], 0o644)
	// Shard 2/3 of 13 rows holds rows 5 to 8 (Stripe(2, 3, 13, 4) = [4, 8)),
	// 13 values of 8 bytes each: 5 bytes short, row 8 is cut and row 7 is
	// the last whole one; cut to its header alone, no row is whole. (Main
	// said "rows [4, 8) of 13 values need 416 bytes after the header".)
	headLen := len(b) - 4*13*8
	for _, c := range []struct {
		size int
		want string
	}{
		{len(b) - 5, trunc + ": the file ends after row 7 of 8 (shard 2/3 holds rows 5 to 8 of 13): truncated"},
		{headLen + 3, trunc + ": the file ends before its first row, row 5 (shard 2/3 holds rows 5 to 8 of 13): truncated"},
	} {
		os.WriteFile(trunc, b[:c.size], 0o644)
		if _, err := OpenPart(trunc); err == nil || err.Error() != c.want || !errors.Is(err, ErrPart) {
			t.Errorf("truncated part: %v\nwant %s", err, c.want)
		}
	}
	os.WriteFile(trunc, append(b, 0), 0o644)
	if _, err := OpenPart(trunc); err == nil || !strings.Contains(err.Error(), "1 bytes more than its rows need") {
		t.Errorf("overlong part: %v", err)
	}
	// A file that is no part: one statement, naming the file (main said
	// "invalid partial matrix file: not a partial matrix file (...)").
	const tsv = "../unifrac/testdata/ssu_small.tsv"
	_, err := OpenPart(tsv)
	if want := tsv + " is not a partial file of 'twl unifrac --shard' (it does not start with twl-distmat-part)"; err == nil || err.Error() != want || !errors.Is(err, ErrPart) {
		t.Errorf("not a part: %v\nwant %s", err, want)
	}
}

// TestReadHeaderErrors checks malformed headers, each with the line it names.
func TestReadHeaderErrors(t *testing.T) {
	ids := []string{"a", "b"}
	good := testHeader
	good.N, good.IDHash, good.Lo, good.Hi, good.Shard, good.Shards = 2, HashIDs(ids), 0, 2, 1, 1
	text := string(good.appendText(nil)) + "a\nb\n"
	if _, got, err := ReadHeader(bufio.NewReader(strings.NewReader(text)), "p"); err != nil || len(got) != 2 {
		t.Fatalf("good header: %v", err)
	}
	for _, c := range []struct{ old, new, want string }{
		{"part 1", "part 2", "p:1: invalid partial matrix file: format version \"2\""},
		{"rows 0 2", "rows 0 3", "p:7: invalid partial matrix file: rows [0, 3) out of range"},
		{"shard 1/1", "shard 2/1", "p:8: invalid partial matrix file: shard 2/1 out of range"},
		{"method weighted_normalized", "method a b", "p:4: invalid partial matrix file: the method line holds 2 words"},
		{"\nb\n", "\nc\n", "do not match their hash"},
		{"samples 2", "samples x", "\"x\" is not a count"},
	} {
		bad := strings.Replace(text, c.old, c.new, 1)
		_, _, err := ReadHeader(bufio.NewReader(strings.NewReader(bad)), "p")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q → %q: %v, want %q", c.old, c.new, err, c.want)
		}
	}
}

func FuzzReadHeader(f *testing.F) {
	ids := []string{"a", "b"}
	h := testHeader
	h.N, h.IDHash, h.Lo, h.Hi, h.Shard, h.Shards = 2, HashIDs(ids), 0, 1, 1, 2
	f.Add(string(h.appendText(nil)) + "a\nb\n")
	f.Add("twl-distmat-part 1\ntree x\n")
	f.Fuzz(func(t *testing.T, s string) {
		h, ids, err := ReadHeader(bufio.NewReader(strings.NewReader(s)), "f")
		if err != nil {
			if !errors.Is(err, ErrPart) {
				t.Fatalf("error %v does not wrap ErrPart", err)
			}
			return
		}
		// What is read writes back to the same text.
		var buf bytes.Buffer
		if _, err := NewPartWriter(&buf, h, ids); err != nil {
			t.Fatalf("header read but not writable: %v", err)
		}
		if !strings.HasPrefix(s, buf.String()) {
			t.Fatalf("header %q reads as %+v, which writes %q", s, h, buf.String())
		}
	})
}

// BenchmarkWriteTSV formats a 1000×1000 matrix of distances in [0, 1) as
// TSV, in stripes of 256 rows (MB/s of output).
func BenchmarkWriteTSV(b *testing.B) {
	ids, v := randomMatrix(1000, 1)
	n := len(ids)
	size := int64(len(oneShot(b, TSV, ids, v)))
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		w, _ := NewWriter(discard{}, TSV, ids, nil)
		for r := 0; r < n; r += 256 {
			w.WriteRows(v[r*n : min(r+256, n)*n])
		}
		w.Close()
	}
}

// BenchmarkWriteNPY is BenchmarkWriteTSV for .npy output.
func BenchmarkWriteNPY(b *testing.B) {
	ids, v := randomMatrix(1000, 1)
	n := len(ids)
	b.SetBytes(int64(8 * n * n))
	b.ReportAllocs()
	for b.Loop() {
		w, _ := NewWriter(discard{}, NPY, ids, nil)
		for r := 0; r < n; r += 256 {
			w.WriteRows(v[r*n : min(r+256, n)*n])
		}
		w.Close()
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// TestAppendG16Fast compares the fast paths with strconv's correctly
// rounded formatting on random values, powers of ten and their neighbours,
// and integers.
func TestAppendG16Fast(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var xs []float64
	for range 2_000_000 {
		xs = append(xs, math.Pow(10, -4*r.Float64()))
		xs = append(xs, math.Float64frombits(r.Uint64N(math.Float64bits(1)-math.Float64bits(1e-4))+math.Float64bits(1e-4)))
	}
	for _, p := range []float64{1e-4, 1e-3, 1e-2, 1e-1, 1} {
		x := p
		for range 50 {
			xs = append(xs, x)
			x = math.Nextafter(x, 0)
		}
		x = p
		for range 50 {
			xs = append(xs, x)
			x = math.Nextafter(x, 2)
		}
		xs = append(xs, 0.99999999999999995, 0.099999999999999995, 0.5, 0.25)
	}
	// Exact values: x = j/2^(16+k) in [10^-k, 10^(1-k)) has at most 16
	// digits when j is even, and lies exactly halfway between two 16-digit
	// decimals when j is odd (rounded to the even one).
	for k := 1; k <= 4; k++ {
		d := math.Ldexp(1, -16-k)
		for j := math.Ceil(math.Pow(10, -float64(k)) / d); j*d < math.Pow(10, 1-float64(k)); j += float64(1 + r.IntN(40)) {
			xs = append(xs, j*d)
		}
	}
	// Integers: small ones, random ones of every magnitude up to and
	// beyond 10^15 (both signs), and the neighbours of 10^15.
	for k := 1; k < 2000; k++ { // 0 is "0" whatever its sign, unlike strconv
		xs = append(xs, float64(k), -float64(k))
	}
	for range 200_000 {
		x := math.Trunc(math.Pow(10, 17*r.Float64()))
		xs = append(xs, x, -x)
	}
	for _, p := range []float64{1e15, 1e16} {
		x := p
		for range 20 {
			xs = append(xs, x, math.Nextafter(x, 0), math.Nextafter(x, 2e16))
			x = math.Nextafter(x, 0)
		}
		xs = append(xs, p-1, p+1, p+0.5, p-0.5)
	}
	for _, x := range xs {
		got := string(AppendG16(nil, x))
		if want := strconv.FormatFloat(x, 'g', 16, 64); got != want {
			t.Fatalf("AppendG16(%v) = %q, strconv %q", x, got, want)
		}
	}
}

// TestDigits8 checks digits8 on every seventh number below 10^8 (every
// 997th with -short) and on the edges of the lanes, against strconv's
// spelling padded with zeros.
func TestDigits8(t *testing.T) {
	check := func(v uint32) {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], digits8(v)+0x3030303030303030)
		want := strconv.FormatUint(uint64(v)+1e8, 10)[1:]
		if string(b[:]) != want {
			t.Fatalf("digits8(%d) = %q, want %q", v, b[:], want)
		}
	}
	step := uint32(7)
	if testing.Short() {
		step = 997
	}
	for v := uint32(0); v < 1e8; v += step {
		check(v)
	}
	for _, v := range []uint32{1e8 - 1, 99999999, 10000000, 9999, 10000, 99, 100, 9, 10} {
		check(v)
	}
}

// TestStripeRows checks the stripe sizes against the sums worked out by
// hand: 1000 columns take 32,000 bytes a row.
func TestStripeRows(t *testing.T) {
	for _, c := range []struct {
		n, rows, align int
		fixed, limit   int64
		stripe, least  int
	}{
		{1000, 5000, 256, 0, 256 * 32000, 256, 256},       // exactly one block
		{1000, 5000, 256, 1, 256 * 32000, 0, 256},         // one byte short
		{1000, 100, 256, 0, 100 * 32000, 100, 100},        // a shard smaller than a block
		{1000, 20000, 256, 0, 1 << 40, 8192, 256},         // capped at 64 MiB of values: 8388 rows → 8192
		{1000, 3000, 256, 0, 1 << 40, 3000, 256},          // the whole matrix
		{1000, 5000, 256, 1e6, 1e6 + 600*32000, 512, 256}, // 600 rows fit: 2 blocks
	} {
		s, l := StripeRows(c.n, c.rows, c.align, c.fixed, c.limit)
		if s != c.stripe || l != c.least {
			t.Errorf("%+v: stripe %d, least %d", c, s, l)
		}
	}
}

// BenchmarkAppendG16 formats distances in [1e-4, 1) with AppendG16's
// integer path; BenchmarkStrconvG16 formats the same with strconv, for the
// ratio.
func BenchmarkAppendG16(b *testing.B) { benchG16(b, AppendG16) }

func BenchmarkStrconvG16(b *testing.B) {
	benchG16(b, func(dst []byte, x float64) []byte { return strconv.AppendFloat(dst, x, 'g', 16, 64) })
}

func benchG16(b *testing.B, f func([]byte, float64) []byte) {
	r := rand.New(rand.NewPCG(3, 4))
	xs := make([]float64, 4096)
	for i := range xs {
		xs[i] = 1e-4 + r.Float64()*(1-1e-4)
	}
	buf := make([]byte, 0, 32)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		buf = f(buf[:0], xs[i&4095])
		i++
	}
}

func TestParseShard(t *testing.T) {
	if i, n, err := ParseShard("2/7"); i != 2 || n != 7 || err != nil {
		t.Errorf("2/7: %d %d %v", i, n, err)
	}
	for _, s := range []string{"0/3", "4/3", "x/y", "3", "1/0", "-1/2", "1/2/3", ""} {
		if _, _, err := ParseShard(s); err == nil {
			t.Errorf("%q: no error", s)
		}
	}
}

// TestExpandRows: rows expanded from the condensed form equal the matrix
// filled pair by pair from the definition of the condensed index, for
// every stripe of several sizes.
func TestExpandRows(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 7, 20, 131} {
		full := make([]float64, n*n)
		var c []float64
		for i := range n {
			for j := i + 1; j < n; j++ {
				v := float64(1000*i + j) // distinct, so a misplaced value shows
				c = append(c, v)
				full[i*n+j], full[j*n+i] = v, v
			}
		}
		for _, s := range []int{1, 3, 64, n} {
			for i0 := 0; i0 < n; i0 += max(s, 1) {
				i1 := min(i0+s, n)
				dst := make([]float64, (i1-i0)*n)
				for k := range dst {
					dst[k] = -1
				}
				ExpandRows(dst, c, n, i0, i1)
				for k, v := range dst {
					if v != full[i0*n+k] {
						t.Fatalf("n=%d rows [%d,%d): value %d = %v, want %v", n, i0, i1, k, v, full[i0*n+k])
					}
				}
			}
		}
	}
}

// TestWriteRowsNotFinite: a NaN or infinite distance is refused with the
// pair of samples it belongs to, in every format, and nothing of the
// stripe is written. (Main wrote "NaN" into the matrix.)
func TestWriteRowsNotFinite(t *testing.T) {
	ids := []string{"a", "b", "c"}
	for _, c := range []struct {
		bad  float64
		want string
	}{
		{math.NaN(), `distmat: the distance between samples "b" and "c" is NaN, not a finite number`},
		{math.Inf(1), `distmat: the distance between samples "b" and "c" is +Inf, not a finite number`},
	} {
		for _, f := range []Format{TSV, NPY, part} {
			var buf bytes.Buffer
			var w *Writer
			var err error
			if f == part {
				h := testHeader
				h.N, h.IDHash, h.Lo, h.Hi, h.Shard, h.Shards = 3, HashIDs(ids), 0, 3, 1, 1
				w, err = NewPartWriter(&buf, &h, ids)
			} else {
				w, err = NewWriter(&buf, f, ids, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := w.WriteRows([]float64{0, 1, 2}); err != nil {
				t.Fatal(err)
			}
			size := buf.Len()
			err = w.WriteRows([]float64{1, 0, c.bad, 2, c.bad, 0})
			if err == nil || err.Error() != c.want {
				t.Errorf("%v %v: error %v, want %s", f, c.bad, err, c.want)
			}
			if buf.Len() != size {
				t.Errorf("%v: %d bytes written after the bad value", f, buf.Len()-size)
			}
			if w.Close() == nil {
				t.Errorf("%v: Close after the error: nil", f)
			}
		}
	}
}

// BenchmarkExpandRows expands a 3000-sample matrix from its condensed form
// by stripes of 64 rows.
func BenchmarkExpandRows(b *testing.B) {
	const n, s = 3000, 64
	c := make([]float64, n*(n-1)/2)
	for k := range c {
		c[k] = float64(k)
	}
	dst := make([]float64, s*n)
	b.ReportAllocs()
	b.SetBytes(n * n * 8)
	for b.Loop() {
		for i0 := 0; i0 < n; i0 += s {
			i1 := min(i0+s, n)
			ExpandRows(dst[:(i1-i0)*n], c, n, i0, i1)
		}
	}
}
