package dataset

import (
	"errors"

	"github.com/twl-ldl/twl/internal/fileerr"
)

// Sentinel errors wrapped by *Error; test for them with errors.Is.
var (
	// ErrSyntax: malformed JSON, a missing "x" (or a missing "y" where
	// targets are required), or a value of the wrong kind.
	ErrSyntax = errors.New("syntax error")
	// ErrUnknownLabel: a key of "y" that names no node of the tree.
	ErrUnknownLabel = errors.New("unknown label")
	// ErrDuplicateKey: "x" or "y" twice in a line, or a label twice in
	// "y".
	ErrDuplicateKey = errors.New("duplicate key")
	// ErrNegative: a negative label mass.
	ErrNegative = errors.New("negative mass")
	// ErrNonFinite: a feature or a mass that is NaN or infinite, or a JSON
	// number that overflows float64.
	ErrNonFinite = errors.New("non-finite value")
	// ErrDimension: a sample whose number of features differs from the
	// first sample's, a sample with no features, or (MAT-files) feature and
	// label matrices with different numbers of rows.
	ErrDimension = errors.New("wrong dimension")
	// ErrZeroRow: a label distribution whose masses are all zero.
	ErrZeroRow = errors.New("all masses are zero")
	// ErrSum: with Options.Strict, masses that do not sum to 1 within the
	// tolerance.
	ErrSum = errors.New("masses do not sum to 1")
	// ErrUnderflow: a label row to rescale whose masses sum to less than
	// 2.2e-308, the smallest normal float64, where a number holds fewer
	// digits than given (7e-324 reads as 5e-324): its proportions would be
	// silently wrong.
	ErrUnderflow = errors.New("masses too small to rescale")
	// ErrEmpty: input without samples.
	ErrEmpty = errors.New("no samples")
)

// Error describes invalid data. File and Line locate the problem: Line is
// the 1-based physical line of a text file, and 0 when no line applies
// (MAT-files, where the message names the row instead).
type Error = fileerr.Error
