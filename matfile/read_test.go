package matfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func read(t *testing.T, b []byte) *File {
	t.Helper()
	f, err := Read(bytes.NewReader(b), "test.mat")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestReadTiny(t *testing.T) {
	fileBytes := func(path string) []byte {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"little-endian", le.tiny()},
		{"big-endian", be.tiny()},
		{"testdata/tiny_le.mat", fileBytes("testdata/tiny_le.mat")},
		{"testdata/tiny_be.mat", fileBytes("testdata/tiny_be.mat")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := read(t, tc.b)
			if got, want := f.Names(), []string{"A", "v", "mask", "c"}; !reflect.DeepEqual(got, want) {
				t.Errorf("Names() = %q, want %q", got, want)
			}
			wantVars := []Var{
				{Name: "A", Class: Double, Dims: []int{2, 3}},
				{Name: "v", Class: Double, Dims: []int{1, 3}},
				{Name: "mask", Class: Uint8, Dims: []int{2, 2}, Logical: true},
				{Name: "c", Class: Cell, Dims: []int{1, 1}},
			}
			if got := f.Vars(); !reflect.DeepEqual(got, wantVars) {
				t.Errorf("Vars() = %+v, want %+v", got, wantVars)
			}
			if !strings.HasPrefix(f.Text(), "MATLAB 5.0 MAT-file") || strings.HasSuffix(f.Text(), " ") {
				t.Errorf("Text() = %q", f.Text())
			}
			// The expected matrices are those written by tiny, in row-major order.
			for _, m := range []struct {
				name string
				want *mat.Dense
			}{
				{"A", mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})},
				{"v", mat.NewDense(1, 3, []float64{7, 8, 9})},
				{"mask", mat.NewDense(2, 2, []float64{1, 0, 0, 1})},
			} {
				got, err := f.Matrix(m.name)
				if err != nil {
					t.Fatal(err)
				}
				if !mat.Equal(got, m.want) {
					t.Errorf("Matrix(%q) = %v, want %v", m.name, mat.Formatted(got), mat.Formatted(m.want))
				}
			}
			if _, err := f.Matrix("c"); !errors.Is(err, ErrUnsupported) {
				t.Errorf("Matrix(\"c\") error = %v, want ErrUnsupported", err)
			}
		})
	}
}

// TestWriteTestdata rewrites testdata/tiny_{le,be}.mat from the test
// builder when MATFILE_UPDATE is set. The files are kept, not rebuilt on
// every run, so that they stay fixed seeds for FuzzRead and ExampleReadFile
// even if compress/zlib's output changes; TestReadTiny reads both.
func TestWriteTestdata(t *testing.T) {
	if os.Getenv("MATFILE_UPDATE") == "" {
		t.Skip("set MATFILE_UPDATE=1 to rewrite testdata/tiny_*.mat")
	}
	for path, e := range map[string]enc{"testdata/tiny_le.mat": le, "testdata/tiny_be.mat": be} {
		if err := os.WriteFile(path, e.tiny(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestStorageTypes reads a double array stored in every numeric data type,
// in both byte orders. The values are the extremes of each type, written
// out by hand.
func TestStorageTypes(t *testing.T) {
	for _, e := range []enc{le, be} {
		o := e.o
		for _, tc := range []struct {
			typ  uint32
			data []byte
			want []float64
		}{
			{miINT8, []byte{0x80, 0x7f}, []float64{-128, 127}},
			{miUINT8, []byte{0, 0xff}, []float64{0, 255}},
			{miINT16, o.AppendUint16(o.AppendUint16(nil, 0x8000), 0x7fff), []float64{-32768, 32767}},
			{miUINT16, o.AppendUint16(o.AppendUint16(nil, 0), 0xffff), []float64{0, 65535}},
			{miINT32, o.AppendUint32(o.AppendUint32(nil, 0x80000000), 0x7fffffff), []float64{-2147483648, 2147483647}},
			{miUINT32, o.AppendUint32(o.AppendUint32(nil, 0), 0xffffffff), []float64{0, 4294967295}},
			{miSINGLE, o.AppendUint32(o.AppendUint32(nil, math.Float32bits(-1.5)), math.Float32bits(0.1)), []float64{-1.5, float64(float32(0.1))}},
			{miDOUBLE, e.doubles(0.1, -math.MaxFloat64), []float64{0.1, -math.MaxFloat64}},
			{miINT64, o.AppendUint64(o.AppendUint64(nil, 1<<63), 1<<53), []float64{-(1 << 63), 1 << 53}},
			{miUINT64, o.AppendUint64(o.AppendUint64(nil, 0), 1<<63), []float64{0, 1 << 63}},
		} {
			b := e.file(e.matrix(uint32(Double), []int32{1, 2}, "x", e.elem(tc.typ, tc.data)))
			f := read(t, b)
			m, err := f.Matrix("x")
			if err != nil {
				t.Fatal(err)
			}
			if got := m.RawRowView(0); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%v %s: got %v, want %v", o, typeName(tc.typ), got, tc.want)
			}
		}
	}
}

// TestLongTags checks that data of at most 4 bytes is also read when
// written with a full 8-byte tag, which the format allows.
func TestLongTags(t *testing.T) {
	e := le
	body := e.longElem(miUINT32, e.o.AppendUint32(e.o.AppendUint32(nil, uint32(Int8)), 0))
	body = append(body, e.longElem(miINT32, e.o.AppendUint32(e.o.AppendUint32(nil, 1), 3))...)
	body = append(body, e.longElem(miINT8, []byte("ab"))...)
	body = append(body, e.longElem(miINT8, []byte{1, 2, 0xff})...)
	f := read(t, e.file(append(e.tag(miMATRIX, len(body)), body...)))
	m, err := f.Matrix("ab")
	if err != nil {
		t.Fatal(err)
	}
	if want := mat.NewDense(1, 3, []float64{1, 2, -1}); !mat.Equal(m, want) {
		t.Errorf("got %v, want %v", mat.Formatted(m), mat.Formatted(want))
	}
}

func TestMatrixErrors(t *testing.T) {
	e := le
	b := e.file(
		e.double("ok", 1, 1, 3),
		e.matrix(uint32(Double)|0x800, []int32{1, 1}, "z", e.elem(miDOUBLE, e.doubles(1)), e.elem(miDOUBLE, e.doubles(2))),
		e.matrix(uint32(Double), []int32{1, 2, 2}, "cube", e.elem(miDOUBLE, e.doubles(1, 2, 3, 4))),
		e.matrix(uint32(Double), []int32{0, 3}, "empty", e.tag(miDOUBLE, 0)),
		e.matrix(uint32(Char), []int32{1, 2}, "s", e.elem(miUTF8, []byte("hi"))),
		e.matrix(uint32(Sparse), []int32{2, 2}, "sp"),
		e.matrix(uint32(Struct), []int32{1, 1}, "st"),
	)
	f := read(t, b)
	for _, tc := range []struct {
		name string
		err  error
		msg  string
	}{
		{"nope", ErrNoVariable, `test.mat: variable "nope": no such variable: the file holds "ok", "z", "cube", "empty", "s", "sp", "st"`},
		{"z", ErrUnsupported, `test.mat: variable "z" (element at byte 192): unsupported variable: complex double array`},
		{"cube", ErrUnsupported, "3-dimensional 1×2×2 array"},
		{"empty", ErrUnsupported, "empty 0×3 array"},
		{"s", ErrUnsupported, "class char"},
		{"sp", ErrUnsupported, "class sparse"},
		{"st", ErrUnsupported, "class struct"},
	} {
		_, err := f.Matrix(tc.name)
		if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("Matrix(%q) error = %v, want %v containing %q", tc.name, err, tc.err, tc.msg)
		}
	}
	if m, err := f.Matrix("ok"); err != nil || m.At(0, 0) != 3 {
		t.Errorf("Matrix(\"ok\") = %v, %v", m, err)
	}
}

// TestCorrupt checks that damaged files are reported with the right
// sentinel and a message that locates the damage.
func TestCorrupt(t *testing.T) {
	e := le
	good := e.file(e.double("A", 2, 1, 1, 2))
	// Offsets in good: header 0..127, miMATRIX tag 128, flags 136, dims 152,
	// name 168, real part tag 176, data 184..199.
	set := func(b []byte, off int, v uint32) []byte {
		b = bytes.Clone(b)
		binary.LittleEndian.PutUint32(b[off:], v)
		return b
	}
	comp := e.file(e.compress(e.double("A", 2, 1, 1, 2)))
	zbody := comp[136:]
	inflated := func(elem []byte) []byte { // compress elem, whatever it says
		return e.file(e.compress(elem))
	}
	for _, tc := range []struct {
		name string
		b    []byte
		err  error
		msg  string
	}{
		{"empty", nil, ErrNotMAT, "0 bytes"},
		{"short header", []byte("MATLAB 5.0 MAT-file"), ErrTruncated, "shorter than the 128-byte header"},
		{"no endian indicator", append(bytes.Clone(good[:126]), 'X', 'X'), ErrNotMAT, `byte 126`},
		{"version 7.3", set(good, 124, 0x4d490200)[:128], ErrNotMAT, "version 7.3"},
		{"cut in element", good[:len(good)-5], ErrTruncated, "element at byte 128: truncated MAT-file: miMATRIX element declares 64 bytes, 59 are left"},
		{"cut in tag", good[:133], ErrTruncated, "element at byte 128"},
		{"trailing garbage", append(bytes.Clone(good), 1, 2, 3), ErrTruncated, "element at byte 200"},
		{"huge top-level size", set(good, 132, math.MaxUint32), ErrTruncated, "declares 4294967295 bytes"},
		{"top-level double", set(good, 128, miDOUBLE), ErrCorrupt, "top-level element of type miDOUBLE"},
		{"unknown type", set(good, 128, 99), ErrCorrupt, "unknown data type 99"},
		{"bad flags type", set(good, 136, miDOUBLE), ErrCorrupt, "byte 136: array flags: want 8 bytes of miUINT32"},
		{"class 0", set(good, 144, 0), ErrCorrupt, "unknown class 0"},
		{"class 200", set(good, 144, 200), ErrCorrupt, "unknown class 200"},
		{"negative dimension", set(good, 160, 0xffffffff), ErrCorrupt, "negative dimension -1"},
		{"huge dimensions", set(set(good, 160, 1<<30), 164, 1<<30), ErrCorrupt, "dimensions 1073741824×1073741824 call for more than 2^40 values, the data holds 2"},
		{"dimensions disagree", set(good, 160, 3), ErrCorrupt, `variable "A" (element at byte 128): corrupt MAT data: byte 176: real part: dimensions 3×1 call for 3 values, the data holds 2 values of miDOUBLE`},
		{"real part not numeric", set(good, 176, miMATRIX), ErrCorrupt, "miMATRIX is not a numeric data type"},
		{"real part ragged", set(good, 176, miINT32|0), ErrCorrupt, "dimensions 2×1 call for 2 values, the data holds 4 values of miINT32"},
		{"real part too long", set(good, 180, 1000), ErrTruncated, "real part: truncated: miDOUBLE element declares 1000 bytes, 16 are left"},
		{"small element too big", set(good, 168, 5<<16|miINT8), ErrCorrupt, "small element declares 5 bytes"},
		{"name not text", set(good, 168, 1<<16|miDOUBLE), ErrCorrupt, "array name: want miINT8, found miDOUBLE"},
		{"duplicate name", e.file(e.double("A", 1, 1, 1), e.double("A", 1, 1, 2)), ErrCorrupt, `variable "A" (element at byte 192): corrupt MAT data: a second variable of that name`},
		{"zlib garbage", e.file(append(e.tag(miCOMPRESSED, 8), 1, 2, 3, 4, 5, 6, 7, 8)), ErrCorrupt, "zlib header"},
		{"zlib cut", e.file(append(e.tag(miCOMPRESSED, len(zbody)-10), zbody[:len(zbody)-10]...)), ErrTruncated, "compressed data ends"},
		{"zlib checksum", func() []byte { b := bytes.Clone(comp); b[len(b)-1] ^= 0xff; return b }(), ErrCorrupt, "checksum"},
		{"inflates to a double", inflated(e.elem(miDOUBLE, e.doubles(1))), ErrCorrupt, "compressed element holds miDOUBLE, want miMATRIX"},
		{"inflated size huge", inflated(append(e.tag(miMATRIX, math.MaxUint32), make([]byte, 16)...)), ErrCorrupt, "declares 4294967295 inflated bytes, more than its"},
		{"inflated size short", inflated(append(e.tag(miMATRIX, 1000), make([]byte, 16)...)), ErrTruncated, "the 1000 declared bytes"},
		{"inflated size long", inflated(append(e.double("A", 1, 1, 1), 0, 0, 0, 0, 0, 0, 0, 0)), ErrCorrupt, "inflates to more than the 56 bytes its tag declares"},
		{"inflated dims disagree", inflated(e.double("A", 5, 5, 1)), ErrCorrupt, `variable "A" (element at byte 128): corrupt MAT data: byte 48 of the inflated element: real part`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Read(bytes.NewReader(tc.b), "bad.mat")
			if f != nil || !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("Read: %v, want %v containing %q", err, tc.err, tc.msg)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "bad.mat: ") {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

// TestTrailingZeros checks that up to 7 zero bytes after the last element
// (padding) are accepted.
func TestTrailingZeros(t *testing.T) {
	f := read(t, append(le.tiny(), 0, 0, 0, 0, 0))
	if len(f.Names()) != 4 {
		t.Errorf("Names() = %q", f.Names())
	}
}

// TestHugeDeclaredSizes checks that corrupt size fields do not make Read
// allocate what they declare.
func TestHugeDeclaredSizes(t *testing.T) {
	e := le
	for _, b := range [][]byte{
		e.file(e.matrix(uint32(Double), []int32{1 << 20, 1 << 20}, "A", e.elem(miDOUBLE, e.doubles(1)))),
		e.file(e.compress(append(e.tag(miMATRIX, math.MaxUint32), make([]byte, 1<<16)...))),
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := Read(bytes.NewReader(b), "huge.mat"); err == nil {
			t.Fatal("no error")
		}
		runtime.ReadMemStats(&after)
		if d := after.TotalAlloc - before.TotalAlloc; d > 1<<24 {
			t.Errorf("Read allocated %d bytes for a %d-byte input", d, len(b))
		}
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestReadError(t *testing.T) {
	_, err := Read(errReader{}, "x.mat")
	if err == nil || err.Error() != "x.mat: disk on fire" {
		t.Errorf("err = %v", err)
	}
	if _, err := ReadFile("testdata/no such file.mat"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile error = %v, want os.ErrNotExist", err)
	}
}
