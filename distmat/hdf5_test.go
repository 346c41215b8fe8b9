package distmat

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/internal/hdf5"
)

// readHDF5 reads an HDF5 matrix back with package internal/hdf5's reader.
func readHDF5(t *testing.T, b []byte) (*hdf5.File, []string, []float64) {
	t.Helper()
	f, err := hdf5.OpenBytes(b, "m.h5")
	if err != nil {
		t.Fatal(err)
	}
	v, err := f.Dataset("order")
	if err != nil {
		t.Fatal(err)
	}
	ids, err := v.Strings()
	if err != nil {
		t.Fatal(err)
	}
	if v, err = f.Dataset("matrix"); err != nil {
		t.Fatal(err)
	}
	m, err := v.Float64s()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ids); !slices.Equal(v.Dims(), []int{n, n}) {
		t.Fatalf("matrix of dimensions %v for %d ids", v.Dims(), n)
	}
	return f, ids, m
}

// TestHDF5 writes matrices in ssu's HDF5 layout and reads them back:
// float64 bit for bit, float32 as each value rounded, the ids, ssu's
// format and version strings, and the PCoA datasets.
func TestHDF5(t *testing.T) {
	for _, n := range []int{1, 3, 300} {
		ids, v := randomMatrix(n, 5)
		b := oneShot(t, HDF5, ids, v)
		f, gotIDs, m := readHDF5(t, b)
		if !slices.Equal(gotIDs, ids) || !slices.Equal(m, v) {
			t.Errorf("n=%d: float64 matrix or ids differ", n)
		}
		for name, want := range map[string]string{"format": "BDSM", "version": "2020.12"} {
			d, err := f.Dataset(name)
			if err != nil {
				t.Fatal(err)
			}
			if s, _ := d.Strings(); !slices.Equal(s, []string{want}) {
				t.Errorf("%s = %q, want %q", name, s, want)
			}
		}
		if _, err := f.Dataset("pcoa_eigvals"); err == nil {
			t.Error("PCoA datasets without a PCoA")
		}
	}
	ids, v := randomMatrix(40, 9)
	p := &PCoA{Method: "eigh", Eigenvalues: []float64{3, 2}, Proportion: []float64{0.6, 0.4}, Coords: make([]float64, 80)}
	for i := range p.Coords {
		p.Coords[i] = float64(i) / 7
	}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, HDF5, ids, &Options{Float32: true, PCoA: p})
	if err != nil {
		t.Fatal(err)
	}
	// Written through WriteCondensed, as twl unifrac does for small
	// matrices.
	n := len(ids)
	var c []float64
	for i := range n {
		c = append(c, v[i*n+i+1:(i+1)*n]...)
	}
	if err := w.WriteCondensed(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f, gotIDs, m := readHDF5(t, buf.Bytes())
	if !slices.Equal(gotIDs, ids) {
		t.Error("ids differ")
	}
	for i := range v {
		if m[i] != float64(float32(v[i])) {
			t.Fatalf("value %d: %v, want float32(%v)", i, m[i], v[i])
		}
	}
	for name, want := range map[string][]float64{"pcoa_eigvals": p.Eigenvalues, "pcoa_proportion_explained": p.Proportion, "pcoa_samples": p.Coords} {
		d, err := f.Dataset(name)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := d.Float64s()
		for i := range want {
			if got[i] != float64(float32(want[i])) || math.IsNaN(got[i]) {
				t.Errorf("%s[%d] = %v, want float32(%v)", name, i, got[i], want[i])
			}
		}
	}
	d, _ := f.Dataset("pcoa_samples")
	if !slices.Equal(d.Dims(), []int{40, 2}) {
		t.Errorf("pcoa_samples of dimensions %v", d.Dims())
	}
}

// TestHDF5Merge merges partial files into an HDF5 matrix equal to the
// one-shot file, byte for byte.
func TestHDF5Merge(t *testing.T) {
	ids, v := randomMatrix(700, 3)
	h := Header{Tree: HashIDs(nil), Table: HashIDs(nil), Method: "unweighted", Alpha: "-"}
	names := writeParts(t, t.TempDir(), h, ids, v, 3)
	var buf bytes.Buffer
	if err := Merge(context.Background(), &buf, HDF5, openAll(t, names), nil); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), oneShot(t, HDF5, ids, v)) {
		t.Error("merged HDF5 file differs from the one-shot file")
	}
}

// TestUnnumberedParts merges parts of row ranges that are not shards I/N
// ("shard -"), and names a missing one as such.
func TestUnnumberedParts(t *testing.T) {
	ids, v := randomMatrix(10, 4)
	n := len(ids)
	dir := t.TempDir()
	var names []string
	for k, r := range [][2]int{{0, 3}, {3, 4}, {4, 10}} {
		h := testHeader
		h.N, h.IDHash, h.Lo, h.Hi = n, HashIDs(ids), r[0], r[1]
		var buf bytes.Buffer
		w, err := NewPartWriter(&buf, &h, ids)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteRows(v[r[0]*n : r[1]*n]); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if k == 0 && !bytes.Contains(buf.Bytes(), []byte("\nshard -\n\n")) {
			t.Fatalf("header %q", buf.Bytes()[:400])
		}
		name := filepath.Join(dir, fmt.Sprintf("p%d", k))
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	var buf bytes.Buffer
	if err := Merge(context.Background(), &buf, TSV, openAll(t, names), nil); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), oneShot(t, TSV, ids, v)) {
		t.Error("merged matrix differs")
	}
	err := Merge(context.Background(), io.Discard, TSV, openAll(t, []string{names[0], names[2]}), nil)
	if err == nil || !strings.Contains(err.Error(), "row 4 (1-based) is in no part: a part is missing") {
		t.Errorf("a missing part: %v", err)
	}
}
