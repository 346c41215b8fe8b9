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
	// ErrBadLabel: a label holding a NUL byte (refused in every format).
	ErrBadLabel = errors.New("invalid label")
	// ErrEmpty: input without documents.
	ErrEmpty = errors.New("no documents")
)

// Error describes invalid input: it prints as "FILE:LINE: what is wrong:
// details", Line being the 1-based physical line of the problem.
type Error = fileerr.Error

// ErrTooLarge: a JSON Lines line longer than the longest read (64 MiB),
// or a BlurbGenreCollection file larger than MaxBlurb, which is read
// whole.
var ErrTooLarge = fileerr.ErrTooLarge

// MaxBlurb is the largest BlurbGenreCollection file read: 512 MiB (the
// data set's files are 10 to 60 MB). The file is read whole.
const MaxBlurb = 512 << 20
