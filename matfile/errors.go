package matfile

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/twl-ldl/twl/internal/fileerr"
)

// Sentinel errors wrapped by *Error; test for them with errors.Is.
var (
	// ErrNotMAT: the input is not a MATLAB 5 MAT-file (too short for the
	// header, no endian indicator, or another version such as 7.3/HDF5).
	ErrNotMAT = errors.New("not a MATLAB 5 MAT-file")
	// ErrTruncated: the input ends inside the header or an element, or a
	// compressed stream ends early.
	ErrTruncated = errors.New("truncated MAT-file")
	// ErrCorrupt: an element is malformed: an unknown data type, sizes that
	// do not agree, invalid zlib data.
	ErrCorrupt = errors.New("corrupt MAT data")
	// ErrUnsupported: a variable that Matrix cannot convert: a class other
	// than the numeric and logical ones, a complex array, an array with more
	// than two dimensions or with no elements.
	ErrUnsupported = errors.New("unsupported variable")
	// ErrNoVariable: no variable of the requested name.
	ErrNoVariable = errors.New("no such variable")
	// ErrTooLarge: values that would take more memory than a file of its
	// size may: inflated and converted to float64, together more than 1100
	// times the file's size (deflate's largest ratio is 1032).
	ErrTooLarge = fileerr.ErrTooLarge
)

// Error describes a problem with a MAT-file.
type Error struct {
	File   string // file name given to Read
	Var    string // variable name, "" when unknown
	Offset int64  // byte offset of the variable's element in the file, -1 when none applies
	Err    error  // one of the sentinel errors above
	Msg    string // details
}

func (e *Error) Error() string {
	s := e.File
	if s == "" {
		s = "MAT-file"
	}
	switch {
	case e.Var != "" && e.Offset >= 0:
		s += fmt.Sprintf(": variable %s (element at byte %d)", strconv.Quote(e.Var), e.Offset)
	case e.Var != "":
		s += ": variable " + strconv.Quote(e.Var)
	case e.Offset >= 0:
		s += fmt.Sprintf(": element at byte %d", e.Offset)
	}
	s += ": " + e.Err.Error()
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }
