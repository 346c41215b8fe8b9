package hdf5

import (
	"bytes"
	"errors"
	"math"
	"os"
	"reflect"
	"testing"
)

func open(t *testing.T, name string) *File {
	t.Helper()
	b, err := os.ReadFile("../../testdata/unifrac/" + name)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(bytes.NewReader(b), int64(len(b)), name)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// readers returns functions that convert a Value and its error to
// floats or strings, failing t on an error.
func readers(t *testing.T) (func(*Value, error) []float64, func(*Value, error) []string) {
	floats := func(v *Value, err error) []float64 {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		x, err := v.Float64s()
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	strs := func(v *Value, err error) []string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		s, err := v.Strings()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	return floats, strs
}

// TestBIOM reads table.biom, written by biom-format with h5py's defaults;
// the expected contents are those recorded in testdata/unifrac/README.md
// (the sample/matrix group holds the table column by column).
func TestBIOM(t *testing.T) {
	f := open(t, "table.biom")
	floats, strs := readers(t)
	m, err := f.Members("/")
	if err != nil || !reflect.DeepEqual(m, []string{"observation", "sample"}) {
		t.Errorf("members of /: %v, %v", m, err)
	}
	if got := strs(f.Dataset("observation/ids")); !reflect.DeepEqual(got, []string{"O1", "O2", "O_3", "O 4", "O5"}) {
		t.Errorf("observation ids %q", got)
	}
	if got := strs(f.Dataset("/sample/ids")); !reflect.DeepEqual(got, []string{"S1", "S2", "S3"}) {
		t.Errorf("sample ids %q", got)
	}
	for _, tc := range []struct {
		path string
		want []float64
	}{
		{"sample/matrix/data", []float64{1, 4, 3, 5, 0.5, 2, 6}},
		{"sample/matrix/indices", []float64{0, 2, 1, 2, 3, 0, 3}},
		{"sample/matrix/indptr", []float64{0, 2, 5, 7}},
	} {
		if got := floats(f.Dataset(tc.path)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s = %v, want %v", tc.path, got, tc.want)
		}
	}
	if got := floats(f.Attr("/", "shape")); !reflect.DeepEqual(got, []float64{5, 3}) {
		t.Errorf("shape %v", got)
	}
	if got := strs(f.Attr("/", "generated-by")); !reflect.DeepEqual(got, []string{"twl testdata"}) {
		t.Errorf("generated-by %q", got)
	}
	if _, err := f.Dataset("sample/nothing"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing dataset: %v", err)
	}
}

// TestLatest reads latest.h5 (superblock 3, version 2 object headers,
// link messages); contents as recorded in testdata/unifrac/README.md.
func TestLatest(t *testing.T) {
	f := open(t, "latest.h5")
	floats, strs := readers(t)
	if got := floats(f.Dataset("g/one")); !reflect.DeepEqual(got, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Errorf("one = %v", got)
	}
	if got := floats(f.Dataset("g/cont")); !reflect.DeepEqual(got, []float64{1.5, -2.25}) {
		t.Errorf("cont = %v", got)
	}
	if got := strs(f.Dataset("g/ids")); !reflect.DeepEqual(got, []string{"a", "bb", "ccc"}) {
		t.Errorf("ids = %q", got)
	}
	if got := floats(f.Attr("g", "shape")); !reflect.DeepEqual(got, []float64{3, 2}) {
		t.Errorf("shape = %v", got)
	}
	if got := strs(f.Attr("g", "name")); !reflect.DeepEqual(got, []string{"latest"}) {
		t.Errorf("name = %q", got)
	}
}

// TestChunks reads chunks.h5: a 7×5 matrix in 3×2 chunks (partial chunks
// at both edges) with shuffle and gzip, floats with Fletcher-32, fixed
// strings and a uint8 attribute, as recorded in testdata/unifrac/README.md.
func TestChunks(t *testing.T) {
	f := open(t, "chunks.h5")
	floats, strs := readers(t)
	v, err := f.Dataset("x")
	x := floats(v, err)
	if !reflect.DeepEqual(v.Dims(), []int{7, 5}) {
		t.Errorf("dims %v", v.Dims())
	}
	for i, got := range x {
		if got != float64(i) {
			t.Fatalf("x[%d] = %v", i, got)
		}
	}
	fl := floats(f.Dataset("f"))
	for i, got := range fl {
		if want := float64(float32(float64(i) / 99)); math.Abs(got-want) > 1e-7 {
			t.Fatalf("f[%d] = %v, want %v", i, got, want)
		}
	}
	if got := strs(f.Dataset("fixed")); !reflect.DeepEqual(got, []string{"ab", "cde"}) {
		t.Errorf("fixed = %q", got)
	}
	if got := floats(f.Attr("/", "u8")); !reflect.DeepEqual(got, []float64{255, 1}) {
		t.Errorf("u8 = %v", got)
	}
}

// TestCorrupt cuts and flips bytes of table.biom: every read fails with an
// *Error or succeeds, never panics.
func TestCorrupt(t *testing.T) {
	b, err := os.ReadFile("../../testdata/unifrac/table.biom")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(bytes.NewReader(b[:100]), 100, "cut"); err == nil {
		f, _ := Open(bytes.NewReader(b[:100]), 100, "cut")
		if _, err := f.Dataset("sample/ids"); !errors.Is(err, ErrTruncated) && !errors.Is(err, ErrCorrupt) {
			t.Errorf("cut file: %v", err)
		}
	}
	if _, err := Open(bytes.NewReader([]byte("not hdf5")), 8, "x"); !errors.Is(err, ErrNotHDF5) {
		t.Errorf("not HDF5: %v", err)
	}
}

// TestChunkErrorOrder breaks the deflate stream of every chunk of chunks.h5's
// x: the error must name the first chunk of the B-tree (found here by
// walking the B-tree alone, without inflating), whatever the scheduling of
// the parallel inflation, on every one of many reads.
func TestChunkErrorOrder(t *testing.T) {
	b, err := os.ReadFile("../../testdata/unifrac/chunks.h5")
	if err != nil {
		t.Fatal(err)
	}
	f := open(t, "chunks.h5")
	addr, err := f.lookup("x")
	if err != nil {
		t.Fatal(err)
	}
	h, err := f.header(addr)
	if err != nil {
		t.Fatal(err)
	}
	lm, _ := h.find(msgLayout)
	c := f.cursor(lm.data)
	if v, class := c.u8(), c.u8(); v != 3 || class != 2 {
		t.Fatalf("layout version %d class %d, want a version 3 chunked layout", v, class)
	}
	rank := int(c.u8()) - 1
	btree := c.off()
	var offs []int64
	err = f.walkBTree(btree, 1, rank, func(child uint64, key []byte) error {
		size := int64(le.Uint32(key))
		off := int64(f.base + child)
		offs = append(offs, off)
		for i := off + 2; i < off+size; i++ { // after the zlib header
			b[i] ^= 0xff
		}
		return nil
	})
	if err != nil || len(offs) < 2 {
		t.Fatalf("%d chunks, %v", len(offs), err)
	}
	for range 50 {
		g, err := Open(bytes.NewReader(b), int64(len(b)), "broken")
		if err != nil {
			t.Fatal(err)
		}
		_, err = g.Dataset("x")
		var he *Error
		if !errors.As(err, &he) || he.Offset != offs[0] {
			t.Fatalf("error %v, want one at the first chunk, byte %d", err, offs[0])
		}
	}
}

// TestDatasetNumbers checks that DatasetNumbers reads every dataset of
// the HDF5 files of testdata/unifrac as Dataset does (chunked datasets of
// floats and integers among them, read through the sink).
func TestDatasetNumbers(t *testing.T) {
	typed := 0
	for _, name := range []string{"table.biom", "chunks.h5", "latest.h5"} {
		f := open(t, name)
		var walk func(g string)
		walk = func(g string) {
			members, err := f.Members(g)
			if err != nil {
				return // a dataset
			}
			for _, m := range members {
				p := g + "/" + m
				if _, err := f.Members(p); err == nil {
					walk(p)
					continue
				}
				sameNumbers(t, f, p)
				if v, err := f.DatasetNumbers(p); err == nil && v.typed {
					typed++
				}
			}
		}
		walk("/")
	}
	if typed < 6 {
		t.Errorf("%d datasets read through the sink, want the 6 of table.biom's matrices at least", typed)
	}
}

// TestFixedStringNUL: a fixed-length string loses only the NULs and spaces
// that end it; a NUL before other bytes is kept, for the reader of ids to
// refuse, not taken as the end ("S\x001" was read as "S"). The file is
// chunks.h5 with its fixed strings "ab", "cde" (4 bytes each, NUL-padded,
// stored as they are) rewritten in place.
func TestFixedStringNUL(t *testing.T) {
	b, err := os.ReadFile("../../testdata/unifrac/chunks.h5")
	if err != nil {
		t.Fatal(err)
	}
	_, strs := readers(t)
	for _, c := range []struct {
		raw  string // the 8 bytes of the two strings
		want []string
	}{
		{"ab\x00\x00cde\x00", []string{"ab", "cde"}},
		{"a\x00b\x00c\x00\x00\x00", []string{"a\x00b", "c"}},
		{"\x001\x00\x00cd  ", []string{"\x001", "cd"}},
		{"\x00\x00\x00\x00abcd", []string{"", "abcd"}},
	} {
		at := bytes.Index(b, []byte("ab\x00\x00cde\x00"))
		if at < 0 {
			t.Fatal("chunks.h5 does not hold its fixed strings as they are")
		}
		h := bytes.Clone(b)
		copy(h[at:], c.raw)
		f, err := OpenBytes(h, "nul.h5")
		if err != nil {
			t.Fatal(err)
		}
		if got := strs(f.Dataset("fixed")); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %q, want %q", c.raw, got, c.want)
		}
	}
}
