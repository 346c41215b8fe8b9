package distmat

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/internal/fileerr"
	"github.com/twl-ldl/twl/internal/testutil/hostile"
)

// The fixtures of TestReadFileFormats, all of one matrix, 12 samples:
//
//   - small.unweighted.tsv, small.unweighted_fp64.tsv and
//     small.unweighted_fp64.h5: written by Striped UniFrac's ssu
//     (unifrac-tools 1.2) from the table and tree of cmd/twl/testdata/ssu
//     (see its README.md): ssu -i small.biom -t small.nwk -m unweighted
//     -o small.unweighted.tsv (float32), -m unweighted_fp64 -o
//     small.unweighted_fp64.tsv (unifrac/testdata's
//     ssu_small.out.unweighted.tsv), and -m unweighted_fp64 -r hdf5_fp64
//     --pcoa 3 -o small.unweighted_fp64.h5;
//   - small.unweighted.qza: QIIME 2 2022.11 (q2cli 2022.11.1), qiime tools
//     import --type DistanceMatrix --input-path small.unweighted.tsv
//     --output-path small.unweighted.qza.

// TestReadFileFormats: ReadFile reads a QIIME 2 DistanceMatrix artifact as
// the TSV it holds, bit for bit, and ssu's HDF5 matrix as ssu's TSV of the
// same distances to within the TSV's 16 significant digits.
func TestReadFileFormats(t *testing.T) {
	want, err := ReadFile(filepath.Join("testdata", "small.unweighted.tsv"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.IDs) != 12 {
		t.Fatalf("%d ids", len(want.IDs))
	}
	q, err := ReadFile(filepath.Join("testdata", "small.unweighted.qza"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(q.IDs, want.IDs) || !slices.Equal(q.D, want.D) {
		t.Errorf(".qza: %v %v; want %v %v", q.IDs, q.D[:3], want.IDs, want.D[:3])
	}
	h, err := ReadFile(filepath.Join("testdata", "small.unweighted_fp64.h5"), nil)
	if err != nil {
		t.Fatal(err)
	}
	want64, err := ReadFile(filepath.Join("testdata", "small.unweighted_fp64.tsv"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(h.IDs, want.IDs) || len(h.D) != len(want.D) || h.Lines != nil {
		t.Fatalf(".h5: ids %v, %d values", h.IDs, len(h.D))
	}
	for k := range h.D {
		if math.Abs(h.D[k]-want64.D[k]) > 1e-15*math.Abs(want64.D[k]) {
			t.Errorf(".h5 value %d: %v, the TSV %v", k, h.D[k], want64.D[k])
		}
	}
	// Float32 HDF5, as ssu writes by default: the values are the float32
	// roundings of the float64 ones, exactly.
	var buf bytes.Buffer
	w, err := NewWriter(&buf, HDF5, want.IDs, &Options{Float32: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteRows(want.D); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	h32, err := ReadHDF5(bytes.NewReader(buf.Bytes()), int64(buf.Len()), "m.h5")
	if err != nil {
		t.Fatal(err)
	}
	for k := range h32.D {
		if h32.D[k] != float64(float32(want.D[k])) {
			t.Fatalf("float32 value %d: %v, want %v", k, h32.D[k], float32(want.D[k]))
		}
	}
}

// TestReadFileFormatsBad: damaged or hostile artifacts and HDF5 files are
// refused with an error naming the file, wrapping ErrInvalid or, for a
// payload past its bounds, fileerr.ErrTooLarge; never a panic, and a
// lying artifact is refused before its declared size is allocated.
func TestReadFileFormatsBad(t *testing.T) {
	dir := t.TempDir()
	tsv, _ := os.ReadFile(filepath.Join("testdata", "small.unweighted.tsv"))
	h5, _ := os.ReadFile(filepath.Join("testdata", "small.unweighted_fp64.h5"))
	const MB = 1 << 20
	cases := []struct {
		name string
		data []byte
		want error
		msg  string
	}{
		{"trunc.h5", h5[:len(h5)/2], ErrInvalid, "HDF5"},
		{"nomatrix.h5", h5[:0], ErrInvalid, ""}, // empty: read as a TSV of no header
		{"table.qza", hostile.ArtifactOf("feature-table.biom", tsv), ErrInvalid, "no file */data/distance-matrix.tsv"},
		{"short.qza", hostile.ArtifactOf("distance-matrix.tsv", tsv[:len(tsv)-40]), ErrInvalid, "distance-matrix.tsv:13: invalid matrix file: row \"S11\" has 9 values"},
		// 64 MiB of zeros declared as 1 TiB: more than deflate can make
		// of the compressed bytes.
		{"lie.qza", hostile.Artifact("distance-matrix.tsv", 64*MB, 1<<40), fileerr.ErrTooLarge, "more than deflate can make of it"},
		// Zeros declared as 4 KiB: archive/zip stops at the declared size.
		{"bomb.qza", hostile.Artifact("distance-matrix.tsv", 64*MB, 4096), ErrInvalid, "QIIME 2 artifact: 6f1c2a3e-0000-4000-8000-0000000000ff/data/distance-matrix.tsv: zip: not a valid zip file"},
	}
	for _, c := range cases {
		name := filepath.Join(dir, c.name)
		if err := os.WriteFile(name, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := ReadFile(name, nil)
		if err == nil {
			t.Errorf("%s: read %d ids", c.name, len(m.IDs))
			continue
		}
		if !errors.Is(err, c.want) || !strings.HasPrefix(err.Error(), name) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v; want %v and %q", c.name, err, c.want, c.msg)
		}
	}
}
