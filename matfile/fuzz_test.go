package matfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRead checks that Read never panics, that every error it returns is an
// *Error or the reader's own, and that Matrix never panics on what it
// accepts and returns a matrix of the declared shape. Seeds: the files under
// testdata (the hand-built tiny files, little- and big-endian) and a few
// built here: an uncompressed and a compressed double matrix, and each
// with its last byte cut off.
func FuzzRead(f *testing.F) {
	paths, _ := filepath.Glob("testdata/*.mat")
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, e := range []enc{le, be} {
		plain := e.file(e.double("x", 2, 2, 1, 2, 3, 4))
		comp := e.file(e.compress(e.double("x", 2, 2, 1, 2, 3, 4)))
		f.Add(plain)
		f.Add(comp)
		f.Add(plain[:len(plain)-1])
		f.Add(comp[:len(comp)-1])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := Read(bytes.NewReader(b), "fuzz.mat")
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		for _, v := range file.Vars() {
			m, err := file.Matrix(v.Name)
			if err != nil {
				if !errors.Is(err, ErrUnsupported) {
					t.Fatalf("Matrix(%q): %v", v.Name, err)
				}
				continue
			}
			if r, c := m.Dims(); r != v.Dims[0] || c != v.Dims[1] {
				t.Fatalf("Matrix(%q) is %d×%d, Vars says %v", v.Name, r, c, v.Dims)
			}
		}
	})
}
