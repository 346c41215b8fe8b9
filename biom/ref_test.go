package biom

// The HDF5 table reader as first written, reading one dataset after the
// other through io.ReaderAt, kept as the reference for TestSameAsReference.

import (
	"fmt"
	"io"

	"github.com/twl-ldl/twl/internal/hdf5"
)

// refReadHDF5 reads a BIOM 2.1 table: the ids in observation/ids and
// sample/ids, the counts in sample/matrix (compressed sparse columns of
// the observations × samples matrix), or in observation/matrix when
// sample/matrix is absent.
func refReadHDF5(r io.ReaderAt, size int64, file string, opts *Options) (*Table, error) {
	f, err := hdf5.Open(r, size, file)
	if err != nil {
		return nil, hdf5Error(file, err)
	}
	strs := func(path string) ([]string, error) {
		v, err := f.Dataset(path)
		if err != nil {
			return nil, hdf5Error(file, err)
		}
		if !v.IsString() || len(v.Dims()) != 1 {
			return nil, &Error{File: file, Err: ErrFormat, Msg: fmt.Sprintf("%s is not a list of strings", path)}
		}
		s, err := v.Strings()
		return s, hdf5Error(file, err)
	}
	// The declared lengths are compared before anything is read, as
	// readHDF5 does (checkDims).
	if _, merr := f.Members("sample/matrix"); merr == nil {
		err = checkDims(f, file, "sample/matrix", false, 0)
	} else {
		err = checkDims(f, file, "observation/matrix", true, 0)
	}
	if err != nil {
		return nil, err
	}
	b := &builder{file: file}
	if b.obs, err = strs("observation/ids"); err != nil {
		return nil, err
	}
	if b.samples, err = strs("sample/ids"); err != nil {
		return nil, err
	}
	if v, err := f.Attr("/", "shape"); err == nil && v.IsInt() {
		shape, err := v.Int64s()
		if err == nil && (len(shape) != 2 || shape[0] != int64(len(b.obs)) || shape[1] != int64(len(b.samples))) {
			return nil, &Error{File: file, Err: ErrFormat, Msg: fmt.Sprintf("shape attribute %v, but %d observation ids and %d sample ids", shape, len(b.obs), len(b.samples))}
		}
	}
	major, minor, transpose := b.samples, b.obs, false
	group := "sample/matrix"
	if _, err := f.Members(group); err != nil {
		group, transpose = "observation/matrix", true
		major, minor = b.obs, b.samples
	}
	num := func(name string) ([]float64, error) {
		v, err := f.Dataset(group + "/" + name)
		if err != nil {
			return nil, hdf5Error(file, err)
		}
		if v.IsString() || len(v.Dims()) != 1 {
			return nil, &Error{File: file, Err: ErrFormat, Msg: fmt.Sprintf("%s/%s is not a list of numbers", group, name)}
		}
		x, err := v.Float64s()
		return x, hdf5Error(file, err)
	}
	data, err := num("data")
	if err != nil {
		return nil, err
	}
	indices, err := num("indices")
	if err != nil {
		return nil, err
	}
	indptr, err := num("indptr")
	if err != nil {
		return nil, err
	}
	bad := func(format string, args ...any) error {
		return &Error{File: file, Err: ErrFormat, Msg: group + ": " + fmt.Sprintf(format, args...)}
	}
	if len(indptr) != len(major)+1 {
		return nil, bad("indptr has %d entries for %d ids", len(indptr), len(major))
	}
	if len(indices) != len(data) {
		return nil, bad("%d indices for %d values", len(indices), len(data))
	}
	if indptr[0] != 0 || indptr[len(major)] != float64(len(data)) {
		return nil, bad("indptr runs from %v to %v, want 0 to %d", indptr[0], indptr[len(major)], len(data))
	}
	if !transpose {
		// The rows are the samples already: check the indices and hand the
		// rows to the builder as they are.
		b.rowPtr = make([]int, len(major)+1)
		b.rowIdx = make([]int32, len(data))
		for i := range major {
			lo, hi := indptr[i], indptr[i+1]
			if hi < lo {
				return nil, bad("indptr decreases at entry %d", i+1)
			}
			if hi > float64(len(data)) {
				return nil, bad("indptr runs past the %d values at entry %d", len(data), i+2)
			}
			for k := int(lo); k < int(hi); k++ {
				j := indices[k]
				if j < 0 || j >= float64(len(minor)) || j != float64(int(j)) {
					return nil, bad("index %v at %d is out of range [0, %d)", j, k, len(minor))
				}
				b.rowIdx[k] = int32(j)
			}
			b.rowPtr[i+1] = int(hi)
		}
		b.rowVal = data
		return b.build(opts)
	}
	b.entries = make([]entry, 0, len(data))
	for i := range major {
		lo, hi := indptr[i], indptr[i+1]
		if hi < lo {
			return nil, bad("indptr decreases at entry %d", i+1)
		}
		if hi > float64(len(data)) {
			return nil, bad("indptr runs past the %d values at entry %d", len(data), i+2)
		}
		for k := int(lo); k < int(hi); k++ {
			j := indices[k]
			if j < 0 || j >= float64(len(minor)) || j != float64(int(j)) {
				return nil, bad("index %v at %d is out of range [0, %d)", j, k, len(minor))
			}
			b.entries = append(b.entries, entry{s: int(j), o: i, v: data[k]})
		}
	}
	return b.build(opts)
}
