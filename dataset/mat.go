package dataset

import (
	"fmt"
	"math"
	"strconv"

	"github.com/twl-ldl/twl/matfile"
)

// ReadMAT reads a data set from the MAT-file at path; see FromMAT.
func ReadMAT(path string, opts *Options) (*Dataset, Report, error) {
	f, err := matfile.ReadFile(path)
	if err != nil {
		return nil, Report{}, err
	}
	return FromMAT(f, opts)
}

// FromMAT makes a data set of the variables "features" (n×d) and "labels"
// (n×c) of a MAT-file, the layout of the LDL benchmark files. Labels are
// named "0" … "c-1", the node names of tree.Chain(c) and tree.Star(c), and
// Lines is nil. Label rows are checked and rescaled as by ReadJSONL;
// messages name the 1-based row. Errors of package matfile (a missing
// variable, say) are returned as they are.
func FromMAT(f *matfile.File, opts *Options) (*Dataset, Report, error) {
	file := f.FileName()
	x, err := f.Matrix("features")
	if err != nil {
		return nil, Report{}, err
	}
	y, err := f.Matrix("labels")
	if err != nil {
		return nil, Report{}, err
	}
	n, _ := x.Dims()
	ny, c := y.Dims()
	if n != ny {
		return nil, Report{}, &Error{File: file, Err: ErrDimension,
			Msg: fmt.Sprintf("features has %d rows (samples), labels has %d", n, ny)}
	}
	chk := newChecker(file, opts)
	for i := range n {
		for k, v := range x.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, Report{}, &Error{File: file, Err: ErrNonFinite, Msg: fmt.Sprintf("row %d: feature %d is %v", i+1, k+1, v)}
			}
		}
		row := y.RawRowView(i)
		for j, v := range row {
			switch {
			case math.IsNaN(v) || math.IsInf(v, 0):
				return nil, Report{}, &Error{File: file, Err: ErrNonFinite, Msg: fmt.Sprintf("row %d: label %d has mass %v", i+1, j, v)}
			case v < 0:
				return nil, Report{}, &Error{File: file, Err: ErrNegative, Msg: fmt.Sprintf("row %d: label %d has mass %v", i+1, j, v)}
			}
		}
		if e := chk.check(row, i, 0); e != nil {
			e.File = file
			e.Msg = fmt.Sprintf("row %d", i+1) + prefixed(e.Msg)
			return nil, Report{}, e
		}
	}
	chk.rep.Rows = n
	names := make([]string, c)
	for j := range names {
		names[j] = strconv.Itoa(j)
	}
	return &Dataset{X: x, Y: y, Labels: names}, chk.rep, nil
}

func prefixed(msg string) string {
	if msg == "" {
		return ""
	}
	return ": " + msg
}
