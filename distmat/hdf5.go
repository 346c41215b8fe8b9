package distmat

import (
	"fmt"

	"github.com/twl-ldl/twl/internal/hdf5"
)

// The identification of ssu's HDF5 matrices, its datasets "format" and
// "version" (unifrac-binaries, write_mat_from_matrix_hdf5).
const (
	hdf5Format  = "BDSM"
	hdf5Version = "2020.12"
)

// startHDF5 declares the datasets of an HDF5 matrix and writes all but the
// values, which follow row by row, then the PCoA's at Close.
func (w *Writer) startHDF5(opts *Options) error {
	kind := hdf5.Float64
	var p *PCoA
	if opts != nil {
		if opts.Float32 {
			kind = hdf5.Float32
		}
		p = opts.PCoA
	}
	n := w.n
	if n == 0 {
		return fmt.Errorf("distmat: an HDF5 matrix of no sample")
	}
	ds := []hdf5.Dataset{
		{Name: "format", Kind: hdf5.FixedString, Dims: []int{1}, Strings: []string{hdf5Format}},
		{Name: "version", Kind: hdf5.FixedString, Dims: []int{1}, Strings: []string{hdf5Version}},
		{Name: "order", Kind: hdf5.VarString, Dims: []int{n}, Strings: w.ids},
		{Name: "matrix", Kind: kind, Dims: []int{n, n}},
	}
	if p != nil {
		k := len(p.Eigenvalues)
		if k == 0 || len(p.Proportion) != k || len(p.Coords) != n*k || p.Method == "" {
			panic("distmat: PCoA of inconsistent lengths")
		}
		ds = append(ds,
			hdf5.Dataset{Name: "pcoa_method", Kind: hdf5.FixedString, Dims: []int{1}, Strings: []string{p.Method}},
			hdf5.Dataset{Name: "pcoa_eigvals", Kind: kind, Dims: []int{k}},
			hdf5.Dataset{Name: "pcoa_proportion_explained", Kind: kind, Dims: []int{k}},
			hdf5.Dataset{Name: "pcoa_samples", Kind: kind, Dims: []int{n, k}},
		)
		w.pcoa = p
	}
	var err error
	w.h5, err = hdf5.NewWriter(w.w, ds)
	return err
}

// closeHDF5 writes the PCoA's values and ends the file.
func (w *Writer) closeHDF5() error {
	if p := w.pcoa; p != nil {
		for _, v := range [][]float64{p.Eigenvalues, p.Proportion, p.Coords} {
			if err := w.h5.WriteFloats(v); err != nil {
				return err
			}
		}
	}
	return w.h5.Close()
}
