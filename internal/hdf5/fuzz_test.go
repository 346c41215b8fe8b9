package hdf5

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzOpen checks that no input makes the reader panic and that every
// error is an *Error. Seeds: the HDF5 files of testdata/unifrac.
func FuzzOpen(f *testing.F) {
	for _, pat := range []string{"*.h5", "*.biom"} {
		paths, _ := filepath.Glob("../../testdata/unifrac/" + pat)
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		check := func(err error) {
			var e *Error
			if err != nil && !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
		}
		file, err := Open(bytes.NewReader(b), int64(len(b)), "fuzz.h5")
		check(err)
		if err != nil {
			return
		}
		for _, g := range []string{"/", "g", "observation", "sample/matrix"} {
			members, err := file.Members(g)
			check(err)
			attrs, err := file.Attrs(g)
			check(err)
			for _, a := range attrs {
				v, err := file.Attr(g, a)
				check(err)
				if err == nil {
					_, err = v.Strings()
					check(err)
					_, err = v.Float64s()
					check(err)
				}
			}
			for _, m := range members {
				v, err := file.Dataset(g + "/" + m)
				check(err)
				if err == nil {
					_, err = v.Strings()
					check(err)
					_, err = v.Float64s()
					check(err)
				}
			}
		}
	})
}
