package biom

import (
	"errors"
	"os"
	"testing"
)

func readAll(path string) ([]byte, error) { return os.ReadFile(path) }

// FuzzParse checks that Parse never panics on text tables (JSON and TSV),
// that every error is an *Error, and that an accepted table is consistent.
// Seeds: the text tables of testdata/unifrac and a few small ones.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"table.json", "table-dense.json", "table.tsv", "table-taxonomy.tsv"} {
		b, err := os.ReadFile("../testdata/unifrac/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		"#OTU ID\tS1\tS2\nA\t1\t0\nB\t2\t0\n",
		`{"rows":[{"id":"A"}],"columns":[{"id":"S"}],"matrix_type":"dense","data":[[1]]}`,
		"#OTU ID\tS1\tS2\nA\t1\t-2\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tb, err := Parse(b, "fuzz", nil)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		if len(tb.Indptr) != len(tb.Samples)+1 || tb.Indptr[len(tb.Samples)] != len(tb.Data) || len(tb.Data) != len(tb.Indices) {
			t.Fatalf("inconsistent table %+v", tb)
		}
		for s := range tb.Samples {
			idx, val := tb.Row(s)
			for k := range idx {
				if idx[k] < 0 || int(idx[k]) >= len(tb.Observations) || (k > 0 && idx[k] <= idx[k-1]) || !(val[k] > 0) {
					t.Fatalf("row %d: bad entry %d: %v %v", s, k, idx[k], val[k])
				}
			}
		}
	})
}
