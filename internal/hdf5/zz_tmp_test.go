package hdf5

import (
	"os"
	"testing"
	"time"
)

func TestZZPhases(t *testing.T) {
	for _, name := range []string{"/tmp/cl/c20k.biom", "/tmp/cl/c50k.biom"} {
		fh, _ := os.Open(name)
		fi, _ := fh.Stat()
		t0 := time.Now()
		f, err := Open(fh, fi.Size(), name)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("open %v", time.Since(t0))
		for _, p := range []string{"observation/ids", "sample/ids", "sample/matrix/data", "sample/matrix/indices", "sample/matrix/indptr"} {
			t0 := time.Now()
			v, err := f.Dataset(p)
			if err != nil {
				t.Fatal(err)
			}
			t1 := time.Now()
			if v.IsString() {
				v.Strings()
			} else {
				v.Float64s()
			}
			t.Logf("%s %v dims %v typ %+v bytes %d: dataset %v decode %v", name, p, v.dims, v.typ, len(v.data), t1.Sub(t0), time.Since(t1))
		}
	}
}

func BenchmarkZZStrings(b *testing.B) {
	raw, _ := os.ReadFile("/tmp/cl/c20k.biom")
	for b.Loop() {
		f, _ := OpenBytes(raw, "x")
		v, _ := f.Dataset("observation/ids")
		v.Strings()
	}
}
