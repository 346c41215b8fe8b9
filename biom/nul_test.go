package biom

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil/hostile"
)

// TestNULInIDs: an id holding a NUL byte is refused, the same in every
// format (a fixed-length HDF5 id "S\x001" was cut to "S" while BIOM JSON
// kept the NUL). Each file is a table of testdata/unifrac with one id
// rewritten: in the HDF5 file, the global heap's "S2" becomes "S\x00" in
// place (the ids are variable-length strings, their bytes stored as they
// are).
func TestNULInIDs(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile("../testdata/unifrac/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	replace := func(b []byte, old, new string) []byte {
		if bytes.Count(b, []byte(old)) != 1 {
			t.Fatalf("%q is not once in the file", old)
		}
		return bytes.Replace(b, []byte(old), []byte(new), 1)
	}
	for _, c := range []struct {
		name string
		b    []byte
		want string
	}{
		{"table.biom", replace(read("table.biom"), "S2", "S\x00"), `table.biom: invalid id: sample 2 has an id holding a NUL byte, "S\x00"`},
		{"table.json", replace(read("table.json"), `"id": "S2"`, `"id": "S\u00002"`), `sample 2 has an id holding a NUL byte, "S\x002"`},
		{"table.tsv", replace(read("table.tsv"), "\tS2\t", "\tS\x002\t"), `sample 2 has an id holding a NUL byte, "S\x002"`},
		{"table.tsv", replace(read("table.tsv"), "O2\t", "O\x002\t"), `observation 2 has an id holding a NUL byte, "O\x002"`},
	} {
		_, err := Parse(c.b, c.name, nil)
		if !errors.Is(err, ErrDuplicateID) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), c.name) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestHDF5FixedIDsAndTinyCounts: the cases as a BIOM 2.1 file with
// fixed-length ids has them, written here (hostile.HDF5): sample ids
// "S\x001" and "S2" of 3 bytes, NUL-padded, were read as "S" and "S2";
// the first is now refused, the NUL-padding of the second taken off. A
// count of 5e-324 is refused as from the text formats.
func TestHDF5FixedIDsAndTinyCounts(t *testing.T) {
	table := func(ids []string, counts ...float64) []byte {
		h := hostile.NewHDF5()
		fixed := make([]byte, 0, 3*len(ids))
		for _, id := range ids {
			fixed = append(fixed, (id + "\x00\x00\x00")[:3]...)
		}
		return h.BIOM(hostile.Table{
			ObsIDs:    h.Strings([]string{"A", "B"}),
			SampleIDs: h.Contiguous(hostile.Fixed(3), []uint64{uint64(len(ids))}, fixed),
			Data:      h.Contiguous(hostile.Float64, []uint64{2}, hostile.Float64s(counts...)),
			Indices:   h.Contiguous(hostile.Int32, []uint64{2}, hostile.Int32s(0, 1)),
			Indptr:    h.Contiguous(hostile.Int32, []uint64{3}, hostile.Int32s(0, 1, 2)),
		})
	}
	tb, err := Parse(table([]string{"S1", "S2"}, 1, 2), "ok.biom", nil)
	if err != nil || tb.Samples[0] != "S1" || tb.Samples[1] != "S2" {
		t.Fatalf("fixed-length ids: %v, %v", tb, err)
	}
	_, err = Parse(table([]string{"S\x001", "S2"}, 1, 2), "nul.biom", nil)
	if !errors.Is(err, ErrDuplicateID) || err.Error() != `nul.biom: invalid id: sample 1 has an id holding a NUL byte, "S\x001"` {
		t.Errorf("fixed-length id with a NUL: %v", err)
	}
	_, err = Parse(table([]string{"S1", "S2"}, 1, 5e-324), "tiny.biom", nil)
	if !errors.Is(err, ErrCount) || !strings.Contains(err.Error(), `count 5e-324 of observation "B" in sample "S2" is below 2.2e-308`) {
		t.Errorf("subnormal count: %v", err)
	}
}
