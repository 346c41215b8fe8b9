package labeldist

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/twl-ldl/twl/tree"
)

// AppendFormat appends the distribution row over the labels of t to dst as a
// JSON object, {"label":mass,...}, without a line ending, and returns the
// extended slice. Labels come in user order, zero masses are omitted, and
// masses are written in the shortest form that reads back to the same
// float64. The row is not rescaled and its sum is not checked.
//
// A negative, NaN or infinite mass is an *Error wrapping ErrNegative or
// ErrNonFinite, and then dst is returned unchanged. A row whose length is
// not t.Len() panics. Label names that are not valid UTF-8 are written with
// U+FFFD in place of the invalid bytes, as encoding/json does.
func AppendFormat(dst []byte, t *tree.Tree, row []float64) ([]byte, error) {
	if len(row) != t.Len() {
		panic("labeldist: len(row) != tree.Len()")
	}
	if e := checkRow(t, row); e != nil {
		return dst, e
	}
	return appendRow(dst, t, row), nil
}

// Format returns the distribution row over the labels of t as a JSON
// object, as AppendFormat writes it.
func Format(t *tree.Tree, row []float64) (string, error) {
	b, err := AppendFormat(nil, t, row)
	return string(b), err
}

// Write writes the rows of data, a row-major matrix with t.Len() columns,
// to w, one JSON object per line as AppendFormat formats it. It checks every
// row before writing anything, so an invalid mass leaves w untouched; the
// *Error then gives the 1-based row in Line. A data length that is not a
// multiple of t.Len() panics.
func Write(w io.Writer, t *tree.Tree, data []float64) error {
	L := t.Len()
	if len(data)%L != 0 {
		panic("labeldist: len(data) is not a multiple of tree.Len()")
	}
	for r := 0; r*L < len(data); r++ {
		if e := checkRow(t, data[r*L:(r+1)*L]); e != nil {
			e.Line = r + 1
			return e
		}
	}
	bw := bufio.NewWriter(w)
	var buf []byte
	for r := 0; r*L < len(data); r++ {
		buf = appendRow(buf[:0], t, data[r*L:(r+1)*L])
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func checkRow(t *tree.Tree, row []float64) *Error {
	for i, v := range row {
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return &Error{Err: ErrNonFinite, Msg: fmt.Sprintf("%q: %v", t.Name(i), v)}
		case v < 0:
			return &Error{Err: ErrNegative, Msg: fmt.Sprintf("%q: %s", t.Name(i), fmtFloat(v))}
		}
	}
	return nil
}

func appendRow(dst []byte, t *tree.Tree, row []float64) []byte {
	dst = append(dst, '{')
	first := true
	for i, v := range row {
		if v == 0 {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = appendString(dst, t.Name(i))
		dst = append(dst, ':')
		dst = strconv.AppendFloat(dst, v, 'g', -1, 64)
	}
	return append(dst, '}')
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string. It escapes what JSON requires
// and U+2028, U+2029 (line separators in JavaScript), and replaces invalid
// UTF-8 by U+FFFD.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}
