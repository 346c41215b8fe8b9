package labeldist

import (
	"errors"

	"github.com/twl-ldl/twl/internal/fileerr"
)

// Sentinel errors wrapped by *Error; test for them with errors.Is.
var (
	// ErrSyntax: malformed JSON, trailing data after the value, a value that
	// is not a number (string, boolean, null, nested object or array), or a
	// line that is neither an object nor an array.
	ErrSyntax = errors.New("syntax error")
	// ErrUnknownLabel: an object key that names no node of the tree.
	ErrUnknownLabel = errors.New("unknown label")
	// ErrDuplicateLabel: the same label twice in one object.
	ErrDuplicateLabel = errors.New("duplicate label")
	// ErrNegative: a negative mass.
	ErrNegative = errors.New("negative mass")
	// ErrNonFinite: a mass that overflows float64 (or, when writing, a NaN
	// or infinite mass).
	ErrNonFinite = errors.New("non-finite mass")
	// ErrLength: an array whose length is not the number of labels.
	ErrLength = errors.New("wrong number of masses")
	// ErrZeroRow: a distribution whose masses are all zero.
	ErrZeroRow = errors.New("all masses are zero")
	// ErrSum: masses that do not sum to 1 within the tolerance.
	ErrSum = errors.New("masses do not sum to 1")
	// ErrUnderflow: masses to rescale (Options.Normalize) whose sum is
	// below 2.2e-308, the smallest normal float64, where a number holds
	// fewer digits than given (7e-324 reads as 5e-324): their proportions
	// would be silently wrong.
	ErrUnderflow = errors.New("masses too small to rescale")
)

// Error describes invalid input. File and Line locate the problem: Line is
// the 1-based physical line of the input for Read, or the 1-based row for
// the writing functions, and 0 when no line applies.
type Error = fileerr.Error

// ErrTooLarge: a line longer than the longest read (Options.MaxLine); it
// is wrapped by the error of Next, "FILE:LINE: line longer than …".
var ErrTooLarge = fileerr.ErrTooLarge
