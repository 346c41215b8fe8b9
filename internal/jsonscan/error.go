package jsonscan

import "fmt"

// A Code says what is wrong with a token.
type Code int

// The problems the scanner reports. All are syntax errors except Overflow,
// which is a well-formed number whose magnitude is too large for float64.
const (
	// NotNumber: the value at Pos starts with neither '-' nor a digit.
	NotNumber Code = iota + 1
	// NoInt: no digit after the minus sign, at Pos.
	NoInt
	// NoFraction: no digit after the decimal point, at Pos.
	NoFraction
	// NoExponent: no digit in the exponent, at Pos after the 'e' or 'E'
	// and its sign.
	NoExponent
	// Overflow: the number at Pos is too large for float64.
	Overflow
	// Unterminated: the string that starts at Pos has no closing quote on
	// the line.
	Unterminated
	// BadEscape: the backslash at Pos is followed by none of the characters
	// " \ / b f n r t u.
	BadEscape
	// BadUnicode: the \u escape at Pos is not followed by four hexadecimal
	// digits.
	BadUnicode
	// ControlChar: the byte at Pos, in a string, is an unescaped control
	// character (U+0000 to U+001F).
	ControlChar
	// Invalid: strconv or encoding/json rejected the token at Pos although
	// the scanner's grammar accepts it. Err says why. Not expected.
	Invalid
)

var codeText = [...]string{
	NotNumber:    "not a number",
	NoInt:        "no digit after the minus sign",
	NoFraction:   "no digit after the decimal point",
	NoExponent:   "no digit in the exponent",
	Overflow:     "number overflows float64",
	Unterminated: "unterminated string",
	BadEscape:    "invalid escape in string",
	BadUnicode:   `invalid \u escape in string, want 4 hexadecimal digits`,
	ControlChar:  "unescaped control character in string",
	Invalid:      "invalid token",
}

// String returns a short description of c.
func (c Code) String() string {
	if 0 < c && int(c) < len(codeText) {
		return codeText[c]
	}
	return fmt.Sprintf("Code(%d)", int(c))
}

// Error is a lexical problem on a line. Callers usually convert it into
// their own error type; its Error method gives a neutral message.
type Error struct {
	Code Code
	Pos  int   // index in Scanner.Line of the offending byte (see Code)
	Col  int   // 1-based column of Pos on the physical line: Col0 + Pos + 1
	Err  error // the strconv or encoding/json error behind Overflow or Invalid, else nil
}

// Error returns "column COL: DESCRIPTION".
func (e *Error) Error() string {
	msg := fmt.Sprintf("column %d: %v", e.Col, e.Code)
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns e.Err.
func (e *Error) Unwrap() error { return e.Err }
