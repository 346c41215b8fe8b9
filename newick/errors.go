package newick

import (
	"errors"

	"github.com/twl-ldl/twl/internal/fileerr"
)

// Sentinel errors wrapped by *Error; test for them with errors.Is.
var (
	// ErrSyntax: the text is not a Newick tree: unbalanced parentheses, a
	// missing ';', text after the ';', an unterminated quote or comment.
	ErrSyntax = errors.New("newick syntax error")
	// ErrBadLength: a branch length that is not a finite non-negative
	// number.
	ErrBadLength = errors.New("invalid branch length")
	// ErrBadName: a tip label that cannot name a node of a twl tree (see
	// tree.ValidName), or two tips with the same label.
	ErrBadName = errors.New("invalid tip label")
	// ErrEmpty: no tree in the input.
	ErrEmpty = errors.New("no tree")
	// ErrTooLarge: reading would take more memory than Options.MaxBytes
	// allows.
	ErrTooLarge = fileerr.ErrTooLarge
)

// Error describes invalid Newick input: "FILE:LINE: what is wrong: at byte
// OFFSET: details", with the 1-based line and the 0-based byte offset of
// the problem in the input.
type Error = fileerr.Error
