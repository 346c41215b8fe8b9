package embedding

import (
	"errors"

	"github.com/twl-ldl/twl/internal/fileerr"
)

// Sentinel errors wrapped by *Error; test for them with errors.Is.
var (
	// ErrSyntax: a malformed line of a text file: a value that is not a
	// number, an empty field (two spaces in a row), an empty word, a header
	// whose numbers do not fit in an int.
	ErrSyntax = errors.New("syntax error")
	// ErrNonFinite: a value that is NaN, infinite, or too large for a
	// float32 (in a text file or in a fastText input matrix).
	ErrNonFinite = errors.New("non-finite value")
	// ErrDimension: a row with the wrong number of values, a dimension of
	// 0, or a fastText matrix whose columns are not the model's dim.
	ErrDimension = errors.New("wrong dimension")
	// ErrCount: a header whose word count is not the number of rows.
	ErrCount = errors.New("wrong word count")
	// ErrDuplicate: the same word twice.
	ErrDuplicate = errors.New("duplicate word")
	// ErrEmpty: an input with no vectors at all: a text file that is
	// empty, blank, or a header alone; a fastText model with no words and
	// no n-gram buckets.
	ErrEmpty = errors.New("no vectors")
	// ErrNotText: a NUL byte or bytes that are not UTF-8 in a text file:
	// most likely a binary file given by mistake.
	ErrNotText = errors.New("not a text file")
	// ErrNotFastText: an input that does not start with fastText's magic
	// number.
	ErrNotFastText = errors.New("not a fastText .bin model")
	// ErrVersion: a fastText model of a version other than 12.
	ErrVersion = errors.New("unsupported fastText version")
	// ErrQuantized: a quantized fastText model (.ftz).
	ErrQuantized = errors.New("quantized model (.ftz) is not supported")
	// ErrTruncated: a fastText model that ends before its output matrix
	// is complete, or whose sizes ask for more bytes than the file holds.
	ErrTruncated = errors.New("truncated fastText model")
	// ErrCorrupt: a fastText model whose sizes or fields are negative or
	// inconsistent.
	ErrCorrupt = errors.New("corrupt fastText model")
)

// Error describes invalid input. File names the input; Line is the 1-based
// line of a text file, and 0 for a fastText .bin model, whose errors give
// the byte offset or the dictionary entry in the message.
type Error = fileerr.Error

// ErrTooLarge: a line of a .vec file longer than MaxLine.
var ErrTooLarge = fileerr.ErrTooLarge

// MaxLine is the longest line of a .vec file read: 64 MiB (a vector of
// 300 dimensions takes about 3 KB).
const MaxLine = 64 << 20
