// Package fileerr is the error type shared by twl's readers: a problem in
// input data, located by file and 1-based line, wrapping a sentinel error
// that callers test with errors.Is. Packages tree, labeldist and dataset
// export it under their own name (tree.Error, …) with their own sentinels.
package fileerr

import (
	"errors"
	"fmt"
)

// Error describes invalid input. File and Line locate the problem (Line is
// 1-based; 0 means no line applies); Err is the sentinel error that
// classifies it and Msg gives the details. It prints as
// "FILE:LINE: what is wrong: details".
type Error struct {
	File string
	Line int
	Err  error  // a sentinel error of the package that returned it
	Msg  string // details
}

func (e *Error) Error() string {
	var prefix string
	switch {
	case e.File != "" && e.Line > 0:
		prefix = fmt.Sprintf("%s:%d: ", e.File, e.Line)
	case e.File != "":
		prefix = e.File + ": "
	case e.Line > 0:
		prefix = fmt.Sprintf("line %d: ", e.Line)
	}
	if e.Msg == "" {
		return prefix + e.Err.Error()
	}
	return prefix + e.Err.Error() + ": " + e.Msg
}

// Unwrap returns the sentinel error.
func (e *Error) Unwrap() error { return e.Err }

// ErrTooLarge is the sentinel of input that reading would need more
// memory for than it may take: a file larger than the limit, a compressed
// part that inflates past it, a declared size past it, a line longer than
// the longest read. The packages that read files export it under their
// own name (biom.ErrTooLarge, …).
var ErrTooLarge = errors.New("too large to read")
