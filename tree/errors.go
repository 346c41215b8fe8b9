package tree

import (
	"errors"
	"fmt"
)

// Sentinel errors wrapped by *Error; test for them with errors.Is.
var (
	ErrEmpty         = errors.New("tree has no nodes")
	ErrCycle         = errors.New("cycle")
	ErrTwoParents    = errors.New("node has two parents")
	ErrSelfLoop      = errors.New("self-loop")
	ErrDuplicateEdge = errors.New("duplicate edge")
	ErrBadWeight     = errors.New("invalid weight")
	ErrBadName       = errors.New("invalid node name")
	ErrSyntax        = errors.New("syntax error")
	ErrUnknownNode   = errors.New("unknown node")
)

// Error describes an invalid tree. File and Line locate the problem when the
// tree came from a file (Line is 1-based; 0 means no line applies).
type Error struct {
	File string
	Line int
	Err  error  // one of the sentinel errors above
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

func (e *Error) Unwrap() error { return e.Err }
