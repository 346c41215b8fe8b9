package hostile

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/zlib"
	"io"
	"reflect"
	"testing"

	"github.com/twl-ldl/twl/biom"
	"github.com/twl-ldl/twl/matfile"
)

// inflated returns the length of what r inflates to, checking every byte
// past prefix is zero.
func inflated(t *testing.T, r io.Reader, prefix []byte) int64 {
	t.Helper()
	head := make([]byte, len(prefix))
	if _, err := io.ReadFull(r, head); err != nil || !bytes.Equal(head, prefix) {
		t.Fatalf("prefix %q, %v; want %q", head, err, prefix)
	}
	buf := make([]byte, 1<<16)
	n := int64(len(prefix))
	for {
		k, err := r.Read(buf)
		for _, c := range buf[:k] {
			if c != 0 {
				t.Fatalf("a byte %d at %d", c, n)
			}
		}
		n += int64(k)
		if err == io.EOF {
			return n
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestZeros inflates the streams with compress/flate and compress/zlib
// (which checks the Adler-32) and counts their bytes.
func TestZeros(t *testing.T) {
	for _, n := range []int64{1 << 20, 5 << 20} {
		if got := inflated(t, flate.NewReader(bytes.NewReader(Zeros(n))), nil); got != n {
			t.Errorf("Zeros(%d) inflates to %d", n, got)
		}
		for _, prefix := range [][]byte{nil, []byte("MATLAB tag and more")} {
			zr, err := zlib.NewReader(bytes.NewReader(ZlibPrefixZeros(prefix, n)))
			if err != nil {
				t.Fatal(err)
			}
			if got := inflated(t, zr, prefix); got != int64(len(prefix))+n {
				t.Errorf("ZlibPrefixZeros(%q, %d) inflates to %d", prefix, n, got)
			}
		}
	}
	if got := len(Zeros(64 << 20)); got > 64<<20/500 {
		t.Errorf("Zeros(64 MiB) takes %d bytes", got)
	}
}

// TestArtifact opens the archive with archive/zip: the entry inflates to
// its size with a matching CRC-32 when the header declares it.
func TestArtifact(t *testing.T) {
	b := Artifact("feature-table.biom", 3<<20, 3<<20)
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	f := zr.File[1]
	rc, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	if got := inflated(t, rc, nil); got != 3<<20 {
		t.Errorf("%s inflates to %d", f.Name, got)
	}
}

// TestSmallBIOM reads the file with package biom: the ids and counts
// written.
func TestSmallBIOM(t *testing.T) {
	tb, err := biom.Parse(SmallBIOM("a", "b", "c"), "small.biom", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tb.Observations, []string{"a", "b", "c"}) || !reflect.DeepEqual(tb.Samples, []string{"S1", "S2"}) {
		t.Errorf("ids %q %q", tb.Observations, tb.Samples)
	}
	if !reflect.DeepEqual(tb.Data, []float64{1, 1, 1, 2}) || !reflect.DeepEqual(tb.Indptr, []int{0, 3, 4}) {
		t.Errorf("counts %v %v", tb.Data, tb.Indptr)
	}
}

// TestChunkedBIOM reads a BIOM file whose data are in chunks.
func TestChunkedBIOM(t *testing.T) {
	h := NewHDF5()
	data := Float64s(1, 2, 3, 4)
	tb, err := biom.Parse(h.BIOM(Table{
		ObsIDs:    h.Strings([]string{"a", "b"}),
		SampleIDs: h.Strings([]string{"S1", "S2"}),
		Data: h.Chunked(Float64, []uint64{4}, []uint64{2}, []Chunk{
			{Zlib: Zlib(data[:16]), Origin: []uint64{0}}, {Zlib: Zlib(data[16:]), Origin: []uint64{2}}}),
		Indices: h.Contiguous(Int32, []uint64{4}, Int32s(0, 1, 0, 1)),
		Indptr:  h.Contiguous(Int32, []uint64{3}, Int32s(0, 2, 4)),
	}), "chunked.biom", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tb.Data, []float64{1, 2, 3, 4}) {
		t.Errorf("counts %v", tb.Data)
	}
}

// TestMATZeros reads the file with package matfile.
func TestMATZeros(t *testing.T) {
	f, err := matfile.Read(bytes.NewReader(MATZeros(1024, 1024, 2)), "zeros.mat")
	if err != nil {
		t.Fatal(err)
	}
	v := f.Vars()
	if len(v) != 2 || v[0].Name != "features" || !reflect.DeepEqual(v[0].Dims, []int{1024, 1024}) || v[1].Name != "labels" {
		t.Errorf("variables %+v", v)
	}
}
