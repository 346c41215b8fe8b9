package corpus

import (
	"errors"

	"github.com/twl-ldl/twl/internal/fileerr"
)

// Sentinel errors wrapped by *Error; test for them with errors.Is.
var (
	// ErrFormat: input in none of the formats, or the wrong one for the
	// reader (a label-set file given as a corpus, a binary file).
	ErrFormat = errors.New("unrecognized format")
	// ErrSyntax: malformed JSON or record markup: a key or value of the
	// wrong kind, text outside a record, a tag that is not closed where it
	// must be, a repeated key or element, a fastText word that is the label
	// prefix alone.
	ErrSyntax = errors.New("syntax error")
	// ErrNoText: a record without its text (no <body>, no "text" or
	// "token" key).
	ErrNoText = errors.New("no text")
	// ErrEmptyText: a document whose text is empty, without
	// Options.AllowEmpty.
	ErrEmptyText = errors.New("empty text")
	// ErrNoLabels: a record without labels, or with an empty label set.
	ErrNoLabels = errors.New("no labels")
	// ErrUnknownLabel: a label that names no node of the tree.
	ErrUnknownLabel = errors.New("unknown label")
	// ErrEmpty: input without documents.
	ErrEmpty = errors.New("no documents")
)

// Error describes invalid input: it prints as "FILE:LINE: what is wrong:
// details", Line being the 1-based physical line of the problem.
type Error = fileerr.Error
