package tree

import (
	"errors"

	"github.com/twl-ldl/twl/internal/fileerr"
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
	// ErrTooLarge: reading would take more memory than Options.MaxBytes
	// allows, or a line is longer than the longest read (1 MiB).
	ErrTooLarge = fileerr.ErrTooLarge
)

// Error describes an invalid tree. File and Line locate the problem when the
// tree came from a file (Line is 1-based; 0 means no line applies).
type Error = fileerr.Error
