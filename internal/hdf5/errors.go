package hdf5

import (
	"errors"
	"fmt"

	"github.com/twl-ldl/twl/internal/fileerr"
)

// Sentinel errors wrapped by *Error; test for them with errors.Is.
var (
	ErrNotHDF5     = errors.New("not an HDF5 file")
	ErrTruncated   = errors.New("truncated HDF5 file")
	ErrCorrupt     = errors.New("corrupt HDF5 data")
	ErrUnsupported = errors.New("unsupported HDF5 feature")
	ErrNotFound    = errors.New("no such HDF5 object")
	// ErrTooLarge: the values read would take more memory than the limit
	// set with SetLimit.
	ErrTooLarge = fileerr.ErrTooLarge
)

// Error describes a problem with an HDF5 file: "FILE: byte OFFSET: what is
// wrong: details".
type Error struct {
	File   string
	Offset int64 // byte offset of the structure at fault; -1 when none applies
	Err    error
	Msg    string
	// Size is set, with What, when a structure runs past the end of the
	// file (Err is then ErrTruncated): the file's size, where it ends.
	Size int64
	What string // the structure at Offset, such as "object header"
}

// Past reports whether the error is a structure that runs past the end of
// the file: a truncated file, or a damaged size or address.
func (e *Error) Past() bool { return e.Size > 0 && e.What != "" }

// Where says where the file ends relative to the structure: "the file ends
// at byte 500, inside the HDF5 object header at byte 96". It is "" unless
// Past.
func (e *Error) Where() string {
	if !e.Past() {
		return ""
	}
	rel := "inside"
	if e.Offset >= e.Size {
		rel = "before"
	}
	return fmt.Sprintf("the file ends at byte %d, %s the HDF5 %s at byte %d", e.Size, rel, e.What, e.Offset)
}

func (e *Error) Error() string {
	s := e.File
	if s == "" {
		s = "HDF5 file"
	}
	if e.Past() {
		return s + ": " + e.Where() + ": truncated or damaged HDF5 file"
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
