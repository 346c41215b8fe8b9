package hdf5

import (
	"errors"
	"fmt"
)

// Sentinel errors wrapped by *Error; test for them with errors.Is.
var (
	ErrNotHDF5     = errors.New("not an HDF5 file")
	ErrTruncated   = errors.New("truncated HDF5 file")
	ErrCorrupt     = errors.New("corrupt HDF5 data")
	ErrUnsupported = errors.New("unsupported HDF5 feature")
	ErrNotFound    = errors.New("no such HDF5 object")
)

// Error describes a problem with an HDF5 file: "FILE: byte OFFSET: what is
// wrong: details".
type Error struct {
	File   string
	Offset int64 // byte offset of the structure at fault; -1 when none applies
	Err    error
	Msg    string
}

func (e *Error) Error() string {
	s := e.File
	if s == "" {
		s = "HDF5 file"
	}
	if e.Offset >= 0 {
		s += fmt.Sprintf(": byte %d", e.Offset)
	}
	s += ": " + e.Err.Error()
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }
