package matfile

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/twl-ldl/twl/internal/human"
	"gonum.org/v1/gonum/mat"
)

// FileName returns the file name given to Read.
func (f *File) FileName() string { return f.file }

// Text returns the descriptive text of the header, such as
// "MATLAB 5.0 MAT-file, Platform: PCWIN64, Created on: ...", without
// trailing blanks.
func (f *File) Text() string { return f.text }

// Names returns the names of the variables in the order of the file.
func (f *File) Names() []string {
	names := make([]string, len(f.vars))
	for i, v := range f.vars {
		names[i] = v.Name
	}
	return names
}

// Vars describes the variables in the order of the file.
func (f *File) Vars() []Var {
	vars := make([]Var, len(f.vars))
	for i, v := range f.vars {
		vars[i] = v.Var
		vars[i].Dims = slices.Clone(v.Dims)
	}
	return vars
}

func (f *File) lookup(name string) (*variable, error) {
	for i := range f.vars {
		if f.vars[i].Name == name {
			return &f.vars[i], nil
		}
	}
	have := make([]string, len(f.vars))
	for i, v := range f.vars {
		have[i] = strconv.Quote(v.Name)
	}
	msg := "the file holds no variables"
	if len(have) > 0 {
		msg = "the file holds " + strings.Join(have, ", ")
	}
	return nil, &Error{File: f.file, Var: name, Offset: -1, Err: ErrNoVariable, Msg: msg}
}

// Matrix returns the variable called name as a newly allocated rows×cols
// matrix: element (i, j) is MATLAB's name(i+1, j+1). The variable must be a
// real two-dimensional array of a numeric class or a logical array, with at
// least one element; otherwise Matrix returns an *Error wrapping
// ErrUnsupported, or ErrNoVariable if there is no such variable.
func (f *File) Matrix(name string) (*mat.Dense, error) {
	v, err := f.lookup(name)
	if err != nil {
		return nil, err
	}
	unsupported := func(format string, args ...any) error {
		return &Error{File: f.file, Var: name, Offset: v.offset, Err: ErrUnsupported, Msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case !v.Class.Numeric():
		return nil, unsupported("class %s; only real numeric and logical arrays are converted", v.Class)
	case v.Complex:
		return nil, unsupported("complex %s array; only real arrays are converted", v.Class)
	case len(v.Dims) != 2:
		return nil, unsupported("%d-dimensional %s array; only matrices are converted", len(v.Dims), dimString(v.Dims))
	case v.Dims[0] == 0 || v.Dims[1] == 0:
		return nil, unsupported("empty %s array", dimString(v.Dims))
	}
	r, c := v.Dims[0], v.Dims[1]
	if !f.take(8 * int64(r) * int64(c)) {
		return nil, &Error{File: f.file, Var: name, Offset: v.offset, Err: ErrTooLarge,
			Msg: fmt.Sprintf("%s %s array of %d values takes %s as float64, more than the values of a file of its size may take (%d times its size)",
				dimString(v.Dims), v.Class, r*c, human.Bytes(8*float64(r)*float64(c)), maxHeld)}
	}
	m := make([]float64, r*c)
	if r == 1 || c == 1 {
		decode(m, v.data, v.typ, f.order) // one layout is the other
		return mat.NewDense(r, c, m), nil
	}
	// Column by column (the stored order) through a column's scratch, into
	// rows: no second copy of the matrix.
	col := make([]float64, r)
	size := len(v.data) / (r * c)
	for j := range c {
		decode(col, v.data[j*r*size:(j+1)*r*size], v.typ, f.order)
		for i, x := range col {
			m[i*c+j] = x
		}
	}
	return mat.NewDense(r, c, m), nil
}
