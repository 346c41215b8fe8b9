package distmat

import (
	"errors"
	"fmt"
	"io"

	"github.com/twl-ldl/twl/internal/fileerr"
	"github.com/twl-ldl/twl/internal/hdf5"
	"github.com/twl-ldl/twl/internal/qza"
)

// ReadQZA reads the matrix of a QIIME 2 DistanceMatrix artifact, the zip
// archive r of size bytes: its UUID/data/distance-matrix.tsv, a TSV matrix
// (Read), parsed as it inflates. The payload's declared size must be one
// deflate can reach from its compressed size, and sizes the matrix as a
// file's size does (Read); inflating more or fewer bytes than declared is
// an error. name is the file name used in errors, which name the payload
// as name:PATH and, for the TSV, the line.
func ReadQZA(r io.ReaderAt, size int64, name string, opts *Options) (*Matrix, error) {
	s, err := qza.Open(r, size, "distance-matrix.tsv", 0)
	if err != nil {
		return nil, &fileerr.Error{File: name, Err: qzaErr(err), Msg: "QIIME 2 artifact: " + err.Error()}
	}
	defer s.Close()
	cr := &catchReader{s: s}
	m, err := Read(cr, name+":"+s.Name, opts)
	if err != nil && cr.err != nil {
		// The archive failed, not the text.
		return nil, &fileerr.Error{File: name, Err: qzaErr(cr.err), Msg: fmt.Sprintf("QIIME 2 artifact: %s: %v", s.Name, cr.err)}
	}
	return m, err
}

// catchReader keeps the error of an artifact's payload other than io.EOF.
type catchReader struct {
	s   *qza.Stream
	err error
}

func (r *catchReader) Len() int { return r.s.Len() }

func (r *catchReader) Read(p []byte) (int, error) {
	n, err := r.s.Read(p)
	if err != nil && err != io.EOF {
		r.err = err
	}
	return n, err
}

// qzaErr is the sentinel of an artifact's error: fileerr.ErrTooLarge for
// a payload past its bounds, else ErrInvalid.
func qzaErr(err error) error {
	if errors.Is(err, fileerr.ErrTooLarge) {
		return fileerr.ErrTooLarge
	}
	return ErrInvalid
}

// ReadHDF5 reads a matrix in ssu's HDF5 layout (see the package
// documentation) from r, of size bytes: the ids of "order" and the N×N
// values of "matrix" (float64 or float32), which must be finite. Their
// dimensions are compared before anything is read, and what they take is
// bounded by the file's size (internal/hdf5: 1100 times it at most). name
// is the file name used in errors, which wrap ErrInvalid.
func ReadHDF5(r io.ReaderAt, size int64, name string) (*Matrix, error) {
	fail := func(format string, args ...any) error {
		return &fileerr.Error{File: name, Err: ErrInvalid, Msg: fmt.Sprintf(format, args...)}
	}
	wrap := func(err error) error {
		var he *hdf5.Error
		if errors.As(err, &he) {
			sentinel := ErrInvalid
			if errors.Is(err, fileerr.ErrTooLarge) {
				sentinel = fileerr.ErrTooLarge
			}
			return &fileerr.Error{File: name, Err: sentinel, Msg: "HDF5: " + he.Error()}
		}
		return fail("HDF5: %v", err)
	}
	f, err := hdf5.Open(r, size, name)
	if err != nil {
		return nil, wrap(err)
	}
	od, err := f.Dims("order")
	if err != nil {
		return nil, fail("HDF5: the sample ids, \"order\": %v (not a matrix written by ssu or twl unifrac?)", err)
	}
	md, err := f.Dims("matrix")
	if err != nil {
		return nil, fail("HDF5: the distances, \"matrix\": %v (not a matrix written by ssu or twl unifrac?)", err)
	}
	if len(od) != 1 || len(md) != 2 || md[0] != od[0] || md[1] != od[0] {
		return nil, fail("\"matrix\" is %v for the %v ids of \"order\": want N×N for N ids", md, od)
	}
	ov, err := f.Dataset("order")
	if err != nil {
		return nil, wrap(err)
	}
	if !ov.IsString() {
		return nil, fail("\"order\" is not a list of strings")
	}
	ids, err := ov.Strings()
	if err != nil {
		return nil, wrap(err)
	}
	if err := CheckIDs(ids); err != nil {
		return nil, fail("\"order\": %v", err)
	}
	mv, err := f.Dataset("matrix")
	if err != nil {
		return nil, wrap(err)
	}
	if mv.IsString() {
		return nil, fail("\"matrix\" is not of numbers")
	}
	d, err := mv.Float64s()
	if err != nil {
		return nil, wrap(err)
	}
	n := len(ids)
	if len(d) != n*n {
		return nil, fail("\"matrix\" holds %d values for %d ids", len(d), n)
	}
	for k, v := range d {
		if v-v != 0 {
			return nil, fail("the distance from %q to %q is %v: distances must be finite", ids[k/n], ids[k%n], v)
		}
	}
	return &Matrix{IDs: ids, D: d}, nil
}
