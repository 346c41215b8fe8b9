package biom

import (
	"os"
	"testing"
)

// BenchmarkReadHDF5 parses a BIOM 2.1 table held in memory: the table named
// by $TWL_BENCH_BIOM (such as the c20k case that
// unifrac/testdata/genclade.py writes: 1,000 samples, 300 of 20,000
// observations each, 2 MB), or else testdata/unifrac/table.biom (33 KB).
// MB/s counts the file's bytes.
func BenchmarkReadHDF5(b *testing.B) {
	path := os.Getenv("TWL_BENCH_BIOM")
	if path == "" {
		path = "../testdata/unifrac/table.biom"
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(raw, path, nil); err != nil {
			b.Fatal(err)
		}
	}
}
