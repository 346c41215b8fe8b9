package jsonscan

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Scanner reads JSON tokens from one line. Its methods read at Pos and, on
// success, move Pos past what they read. The zero value scans an empty line.
type Scanner struct {
	Line []byte // the line, without its line ending
	Pos  int    // read position in Line
	Col0 int    // bytes before Line on its physical line (a byte order mark)
}

// Reset makes s scan line from its start; col0 is the number of bytes before
// line on its physical line (see Lines.Line).
func (s *Scanner) Reset(line []byte, col0 int) {
	s.Line, s.Pos, s.Col0 = line, 0, col0
}

// SkipSpace moves Pos past JSON white space.
func (s *Scanner) SkipSpace() { s.Pos = skipSpace(s.Line, s.Pos) }

// Peek returns the byte at Pos, or 0 at the end of the line.
func (s *Scanner) Peek() byte {
	if s.Pos < len(s.Line) {
		return s.Line[s.Pos]
	}
	return 0
}

// Accept moves past the byte at Pos and the white space after it, and
// reports true, if that byte is c; otherwise it does nothing and reports
// false.
func (s *Scanner) Accept(c byte) bool {
	if s.Pos < len(s.Line) && s.Line[s.Pos] == c {
		s.Pos = skipSpace(s.Line, s.Pos+1)
		return true
	}
	return false
}

// Col returns the 1-based column of byte i of Line on its physical line.
func (s *Scanner) Col(i int) int { return s.Col0 + i + 1 }

// Msgf formats a message about byte i of Line, prefixed with its column:
// "column 7: ...".
func (s *Scanner) Msgf(i int, format string, args ...any) string {
	return fmt.Sprintf("column %d: ", s.Col(i)) + fmt.Sprintf(format, args...)
}

func (s *Scanner) errAt(c Code, i int, err error) *Error {
	return &Error{Code: c, Pos: i, Col: s.Col(i), Err: err}
}

// Number reads the JSON number at Pos (RFC 8259: an optional '-', then 0 or
// a digit 1-9 and more digits, then an optional fraction and exponent) and
// returns its float64 value, rounded by strconv.ParseFloat. A number that
// underflows is 0 (or -0), without error.
//
// The digits are read into an integer mantissa as they are scanned, and
// numbers of at most 19 significant digits are converted without strconv
// (an exact product or quotient of float64 values, else the Eisel-Lemire
// algorithm), giving strconv.ParseFloat's result bit for bit; the rare
// others (longer mantissas, values too close to a half-way point between
// two float64 values, the least subnormals, overflows) go to strconv.
//
// Malformed text is an *Error with Code NotNumber, NoInt, NoFraction or
// NoExponent, and leaves Pos where it was. A number too large for float64
// gives ±Inf and an *Error with Code Overflow, and Pos moves past it as
// after a number that fits, so that Line[start:Pos] is its text.
func (s *Scanner) Number() (float64, *Error) {
	b, start := s.Line, s.Pos
	j := start
	neg := j < len(b) && b[j] == '-'
	if neg {
		j++
	}
	// The value is man·10^exp10 while man holds the first maxMantDigits
	// significant digits; trunc records a non-zero digit left out.
	var (
		man   uint64
		nd    int // significant digits in man
		exp10 int
		trunc bool
	)
	switch {
	case j < len(b) && b[j] == '0':
		j++
	case j < len(b) && '1' <= b[j] && b[j] <= '9':
		for ; j < len(b) && '0' <= b[j] && b[j] <= '9'; j++ {
			if nd < maxMantDigits {
				man = man*10 + uint64(b[j]-'0')
				nd++
			} else {
				exp10++
				trunc = trunc || b[j] != '0'
			}
		}
	case j == start:
		return 0, s.errAt(NotNumber, start, nil)
	default:
		return 0, s.errAt(NoInt, j, nil)
	}
	if j < len(b) && b[j] == '.' {
		k := j + 1
		if man == 0 {
			// Leading zeros, not significant (as in the loop below).
			for ; k < len(b) && b[k] == '0'; k++ {
				exp10--
			}
		}
		// Then eight significant digits at a time while they fit in man
		// (man ≠ 0 or a first digit ≠ 0): the man·10⁸ + digits of the loop
		// below, in one step.
		for nd+8 <= maxMantDigits && k+8 <= len(b) {
			v, ok := eightDigits(binary.LittleEndian.Uint64(b[k:]))
			if !ok {
				break
			}
			man = man*1e8 + v
			exp10 -= 8
			nd += 8
			k += 8
		}
		for ; k < len(b) && '0' <= b[k] && b[k] <= '9'; k++ {
			if nd < maxMantDigits {
				// Leading zeros (man == 0) are not significant.
				man = man*10 + uint64(b[k]-'0')
				exp10--
				if man != 0 {
					nd++
				}
			} else {
				trunc = trunc || b[k] != '0'
			}
		}
		if k == j+1 {
			return 0, s.errAt(NoFraction, k, nil)
		}
		j = k
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		j++
		eneg := false
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			eneg = b[j] == '-'
			j++
		}
		k, e := j, 0
		for ; k < len(b) && '0' <= b[k] && b[k] <= '9'; k++ {
			if e < 100000 { // beyond every float64, however long the mantissa
				e = e*10 + int(b[k]-'0')
			}
		}
		if k == j {
			return 0, s.errAt(NoExponent, k, nil)
		}
		if eneg {
			e = -e
		}
		exp10 += e
		j = k
	}
	if !trunc {
		if v, ok := exactFloat(man, exp10, neg); ok {
			s.Pos = j
			return v, nil
		}
		if v, ok := eiselLemire(man, exp10, neg); ok {
			s.Pos = j
			return v, nil
		}
		if exp10 < -300 {
			if v, ok := subnormal(man, exp10, neg); ok {
				s.Pos = j
				return v, nil
			}
		}
	}
	return s.parseFloat(start, j)
}

// parseFloat returns the value of the number Line[start:j] as
// strconv.ParseFloat rounds it, and moves Pos to j: Number's way for the
// numbers its fast paths leave out.
func (s *Scanner) parseFloat(start, j int) (float64, *Error) {
	v, err := strconv.ParseFloat(string(s.Line[start:j]), 64)
	s.Pos = j
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return v, s.errAt(Overflow, start, err)
		}
		return 0, s.errAt(Invalid, start, err)
	}
	return v, nil
}

// Str reads the JSON string at Pos, which must hold '"', and returns its
// value. Invalid UTF-8 and unpaired surrogate escapes become U+FFFD, as in
// encoding/json. The error, which leaves Pos where it was, is the first
// problem from the left: an *Error with Code BadEscape, BadUnicode,
// ControlChar or Unterminated (also for a backslash at the end of the line).
// Str panics if Pos does not hold '"'.
func (s *Scanner) Str() (string, *Error) {
	raw, v, e := s.StrRaw()
	if raw != nil {
		return string(raw), nil
	}
	return v, e
}

// StrRaw is Str without a copy of plain strings: a string without escapes
// and of valid UTF-8 is returned as raw, its bytes between the quotes (a
// subslice of Line, non-nil even when empty), with an empty v; any other
// is returned decoded, as Str decodes it, as v with a nil raw. Errors and
// the read position are those of Str.
func (s *Scanner) StrRaw() (raw []byte, v string, e *Error) {
	start := s.Pos
	end, escaped, ascii, e := s.scanStr(true)
	if e != nil {
		return nil, "", e
	}
	tok := s.Line[start:end]
	if !escaped && (ascii || utf8.Valid(tok)) {
		s.Pos = end
		return tok[1 : len(tok)-1], "", nil
	}
	v, err := Unquote(tok)
	if err != nil {
		return nil, "", s.errAt(Invalid, start, err) // not reached: tok was checked
	}
	s.Pos = end
	return nil, v, nil
}

// RawStr finds the end of the JSON string at Pos, which must hold '"', and
// returns its token, quotes included, as a subslice of Line, whether it
// holds a backslash, and whether all its bytes are ASCII (then it is valid
// UTF-8). It skips the byte after each backslash without checking the
// escape, and does not check UTF-8: the caller decides what to do with
// the token, for example decode it with Unquote when escaped is set, which
// reports bad escapes. The error, which leaves Pos where it was, is an
// *Error with Code ControlChar, for the first unescaped control character,
// or Unterminated. RawStr panics if Pos does not hold '"'.
func (s *Scanner) RawStr() (tok []byte, escaped, ascii bool, e *Error) {
	start := s.Pos
	end, escaped, ascii, e := s.scanStr(false)
	if e != nil {
		return nil, false, false, e
	}
	s.Pos = end
	return s.Line[start:end], escaped, ascii, nil
}

// scanStr scans the string at Pos and returns the index after its closing
// quote, whether it holds a backslash, and whether all its bytes are ASCII.
// If strict is set it checks each escape, and stops at the first bad one;
// otherwise it skips the byte after a backslash, whatever it is.
func (s *Scanner) scanStr(strict bool) (end int, escaped, ascii bool, e *Error) {
	b, start := s.Line, s.Pos
	if start >= len(b) || b[start] != '"' {
		panic("jsonscan: no string at the read position")
	}
	var all byte // the bitwise OR of the plain bytes, for ascii
	j := start + 1
	for j < len(b) {
		switch c := b[j]; {
		case c == '"':
			return j + 1, escaped, all < utf8.RuneSelf, nil
		case c == '\\':
			escaped = true
			if strict {
				if code := checkEscape(b, j); code != 0 {
					return 0, false, false, s.errAt(code, j, nil)
				}
			}
			if j+1 < len(b) {
				all |= b[j+1]
			}
			j += 2
		case c < 0x20:
			return 0, false, false, s.errAt(ControlChar, j, nil)
		default:
			all |= c
			j++
		}
	}
	return 0, false, false, s.errAt(Unterminated, start, nil)
}

// checkEscape checks the escape sequence at b[j] == '\\'. It returns 0 for
// a valid escape and for a backslash at the end of b (which leaves the
// string unterminated), else BadEscape or BadUnicode.
func checkEscape(b []byte, j int) Code {
	if j+1 >= len(b) {
		return 0
	}
	switch b[j+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 0
	case 'u':
		if j+6 > len(b) || !isHex(b[j+2]) || !isHex(b[j+3]) || !isHex(b[j+4]) || !isHex(b[j+5]) {
			return BadUnicode
		}
		return 0
	}
	return BadEscape
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// Unquote returns the value of the JSON string token tok, quotes included,
// as encoding/json decodes it: invalid UTF-8 and unpaired surrogate escapes
// become U+FFFD. The error, for a malformed token, is encoding/json's.
func Unquote(tok []byte) (string, error) {
	var v string
	err := json.Unmarshal(tok, &v)
	return v, err
}

// Found describes the character at Pos for a message: "end of line", the
// rune quoted as by strconv.QuoteRune, or "byte 0xff" for a byte that is
// not valid UTF-8.
func (s *Scanner) Found() string {
	if s.Pos >= len(s.Line) {
		return "end of line"
	}
	r, size := utf8.DecodeRune(s.Line[s.Pos:])
	if r == utf8.RuneError && size == 1 {
		return fmt.Sprintf("byte 0x%02x", s.Line[s.Pos])
	}
	return strconv.QuoteRune(r)
}

// Snippet describes the text at Pos for a message: its first 16 bytes, or
// a little more to end on a whole UTF-8 sequence, quoted as by
// strconv.Quote, with "…" before the closing quote if the line goes on; or
// "the end of the line".
func (s *Scanner) Snippet() string {
	b, i := s.Line, s.Pos
	if i >= len(b) {
		return "the end of the line"
	}
	end := i
	for end < len(b) && end-i < 16 {
		_, size := utf8.DecodeRune(b[end:])
		end += size
	}
	q := strconv.Quote(string(b[i:end]))
	if end < len(b) {
		q = q[:len(q)-1] + `…"`
	}
	return q
}

// Word returns the run of ASCII letters, digits and the number punctuation
// "+-." at Pos, at most 40 bytes, quoted as by strconv.Quote; if there is
// none, it returns Found().
func (s *Scanner) Word() string {
	b, i := s.Line, s.Pos
	j := i
	for j < len(b) && j-i < 40 {
		c := b[j]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '+' || c == '.') {
			break
		}
		j++
	}
	if j == i {
		return s.Found()
	}
	return strconv.Quote(string(b[i:j]))
}

// What describes the JSON value that starts at Pos, from its first bytes,
// for a message: "a string", "a number", "true", "false", "null", or else
// Word().
func (s *Scanner) What() string {
	switch c := s.Peek(); {
	case c == '"':
		return "a string"
	case c == '-' || '0' <= c && c <= '9':
		return "a number"
	}
	for _, w := range []string{"true", "false", "null"} {
		if bytes.HasPrefix(s.Line[s.Pos:], []byte(w)) {
			return w
		}
	}
	return s.Word()
}

// eightDigits returns the value of the eight decimal digits in the bytes of
// u (the first in the lowest byte), and false if one of them is not a digit.
func eightDigits(u uint64) (uint64, bool) {
	const ones = 0x0101010101010101
	// A byte c is a digit when both c and c + 6 lie in 0x30 … 0x3f (a
	// carry out of a byte ≥ 0xfa comes with that byte's own failure).
	if u&(0xf0*ones)|(u+6*ones)&(0xf0*ones)>>4 != 0x33*ones {
		return 0, false
	}
	u -= 0x30 * ones
	u = (u*10 + u>>8) & 0x00ff00ff00ff00ff      // pairs of digits
	u = (u*100 + u>>16) & 0x0000ffff0000ffff    // groups of four
	return (u*10000 + u>>32) & 0xffffffff, true // all eight
}
