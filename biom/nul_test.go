package biom

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
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
