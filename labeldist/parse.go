package labeldist

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/twl-ldl/twl/tree"
)

// parser reads one line at a time. It accepts exactly the JSON texts that
// are a flat object of numbers or a flat array of numbers, with JSON's
// grammar for strings, numbers and white space (RFC 8259).
type parser struct {
	t    *tree.Tree
	seen []int // seen[i] == row when label i was set in the current row
	row  int   // 1-based number of the row being parsed

	// bad is the first error in the values of the line (a label or a mass),
	// reported only if the line has no syntax error.
	bad *Error

	b    []byte // the line, without its line ending
	i    int    // read position in b
	col0 int    // bytes before b on its physical line (a byte order mark)
}

// parse reads the distribution on line b into row, which is zero and of
// length t.Len(). The returned *Error has no File or Line yet.
func (p *parser) parse(row []float64, b []byte, col0 int) *Error {
	p.b, p.i, p.col0, p.bad = b, skipSpace(b, 0), col0, nil
	var e *Error
	switch p.peek() {
	case '{':
		e = p.object(row)
	case '[':
		e = p.array(row)
	default:
		return p.syntax("want a JSON object {\"label\": mass, ...} or an array of %d masses, found %s", len(row), p.what())
	}
	if e != nil {
		return e
	}
	if p.i = skipSpace(p.b, p.i); p.i < len(p.b) {
		return p.syntax("data after the end of the JSON value: %s", p.found())
	}
	return p.bad
}

// fail records e as the line's error unless one came earlier.
func (p *parser) fail(e *Error) {
	if p.bad == nil {
		p.bad = e
	}
}

func (p *parser) object(row []float64) *Error {
	p.i = skipSpace(p.b, p.i+1) // '{'
	if p.peek() == '}' {
		p.i++
		return nil
	}
	for {
		if p.peek() != '"' {
			return p.syntax("want a label in double quotes, found %s", p.found())
		}
		name, e := p.str()
		if e != nil {
			return e
		}
		label, ok := p.t.Index(name)
		switch {
		case !ok:
			p.fail(&Error{Err: ErrUnknownLabel, Msg: strconv.Quote(name)})
			label = -1
		case p.seen[label] == p.row:
			p.fail(&Error{Err: ErrDuplicateLabel, Msg: strconv.Quote(name) + " appears more than once"})
		}
		if label >= 0 {
			p.seen[label] = p.row
		}
		if p.i = skipSpace(p.b, p.i); p.peek() != ':' {
			return p.syntax("want ':' after the label %q, found %s", name, p.found())
		}
		p.i = skipSpace(p.b, p.i+1)
		v, e := p.number(func() string { return fmt.Sprintf("the value of %q", name) })
		switch {
		case e != nil && e.Err == ErrSyntax:
			return e
		case e != nil:
			p.fail(e)
		case v < 0:
			p.fail(&Error{Err: ErrNegative, Msg: fmt.Sprintf("%q: %s", name, fmtFloat(v))})
		case label >= 0:
			row[label] = v + 0 // +0 turns -0 into 0
		}
		p.i = skipSpace(p.b, p.i)
		switch p.peek() {
		case ',':
			p.i = skipSpace(p.b, p.i+1)
		case '}':
			p.i++
			return nil
		default:
			return p.syntax("want ',' or '}' after a value, found %s", p.found())
		}
	}
}

func (p *parser) array(row []float64) *Error {
	p.i = skipSpace(p.b, p.i+1) // '['
	n := 0
	if p.peek() == ']' {
		p.i++
	} else {
		for {
			n++
			v, e := p.number(func() string { return fmt.Sprintf("element %d", n) })
			switch {
			case e != nil && e.Err == ErrSyntax:
				return e
			case e != nil:
				p.fail(e)
			case n > len(row):
			case v < 0:
				p.fail(&Error{Err: ErrNegative, Msg: fmt.Sprintf("element %d (%q): %s", n, p.t.Name(n-1), fmtFloat(v))})
			default:
				row[n-1] = v + 0
			}
			p.i = skipSpace(p.b, p.i)
			if p.peek() == ',' {
				p.i = skipSpace(p.b, p.i+1)
				continue
			}
			if p.peek() == ']' {
				p.i++
				break
			}
			return p.syntax("want ',' or ']' after a value, found %s", p.found())
		}
	}
	if n != len(row) {
		p.fail(&Error{Err: ErrLength, Msg: fmt.Sprintf("the array has %d masses, the tree has %d labels", n, len(row))})
	}
	return nil
}

// number reads a JSON number at p.i. what describes the value in messages.
func (p *parser) number(what func() string) (float64, *Error) {
	b, start := p.b, p.i
	j := start
	digits := func() bool {
		k := j
		for j < len(b) && '0' <= b[j] && b[j] <= '9' {
			j++
		}
		return j > k
	}
	c := p.peek()
	switch {
	case c == '-' || '0' <= c && c <= '9':
	case c == '"':
		return 0, p.syntax("%s is a string, want a number", what())
	case c == '{':
		return 0, p.syntax("%s is an object, want a number", what())
	case c == '[':
		return 0, p.syntax("%s is an array, want a number", what())
	default:
		if w := p.what(); w == "true" || w == "false" || w == "null" {
			return 0, p.syntax("%s is %s, want a number", what(), w)
		}
		return 0, p.syntax("want a number for %s, found %s", what(), p.word())
	}
	ok := true
	if b[j] == '-' {
		j++
	}
	switch {
	case j < len(b) && b[j] == '0':
		j++
	default:
		ok = digits()
	}
	if ok && j < len(b) && b[j] == '.' {
		j++
		ok = digits()
	}
	if ok && j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		j++
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		ok = digits()
	}
	if !ok {
		return 0, p.syntax("invalid number %s for %s", p.word(), what())
	}
	v, err := strconv.ParseFloat(string(b[start:j]), 64)
	p.i = j
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, &Error{Err: ErrNonFinite, Msg: fmt.Sprintf("%s: %s overflows float64", what(), b[start:j])}
		}
		return 0, p.syntaxAt(start, "invalid number %q for %s", b[start:j], what())
	}
	return v, nil
}

// str reads a JSON string at p.i, which holds '"', and returns its value.
// Invalid UTF-8 becomes U+FFFD, as in encoding/json.
func (p *parser) str() (string, *Error) {
	b, start := p.b, p.i
	plain := true // no escapes and valid UTF-8
	j := start + 1
	for {
		if j >= len(b) {
			return "", p.syntaxAt(start, "unterminated string")
		}
		c := b[j]
		switch {
		case c == '"':
			p.i = j + 1
			if plain {
				return string(b[start+1 : j]), nil
			}
			var s string
			if err := json.Unmarshal(b[start:j+1], &s); err != nil {
				return "", p.syntaxAt(start, "invalid string: %v", err)
			}
			return s, nil
		case c == '\\':
			plain = false
			if j+1 >= len(b) {
				return "", p.syntaxAt(start, "unterminated string")
			}
			switch b[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				if j+6 > len(b) || !isHex(b[j+2]) || !isHex(b[j+3]) || !isHex(b[j+4]) || !isHex(b[j+5]) {
					return "", p.syntaxAt(j, "invalid \\u escape in string, want 4 hexadecimal digits")
				}
				j += 6
			default:
				return "", p.syntaxAt(j, "invalid escape %s in string", describe(b[j:min(j+2, len(b))]))
			}
		case c < 0x20:
			return "", p.syntaxAt(j, "control character %U in string, escape it", rune(c))
		case c < utf8.RuneSelf:
			j++
		default:
			r, size := utf8.DecodeRune(b[j:])
			if r == utf8.RuneError && size == 1 {
				plain = false
			}
			j += size
		}
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// skipSpace returns the position of the first byte at or after i in b that
// is not JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

func (p *parser) peek() byte {
	if p.i < len(p.b) {
		return p.b[p.i]
	}
	return 0
}

// found describes what stands at p.i, for messages.
func (p *parser) found() string {
	if p.i >= len(p.b) {
		return "end of line"
	}
	r, size := utf8.DecodeRune(p.b[p.i:])
	if r == utf8.RuneError && size == 1 {
		return fmt.Sprintf("byte 0x%02x", p.b[p.i])
	}
	return strconv.QuoteRune(r)
}

// word returns the run of letters, digits and number punctuation at p.i,
// quoted and shortened for messages.
func (p *parser) word() string {
	j := p.i
	for j < len(p.b) && j-p.i < 40 {
		c := p.b[j]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '+' || c == '.') {
			break
		}
		j++
	}
	if j == p.i {
		return p.found()
	}
	return describe(p.b[p.i:j])
}

// what describes the JSON value that starts at p.i, for messages.
func (p *parser) what() string {
	switch c := p.peek(); {
	case c == '"':
		return "a string"
	case c == '-' || '0' <= c && c <= '9':
		return "a number"
	}
	for _, w := range []string{"true", "false", "null"} {
		if bytes.HasPrefix(p.b[p.i:], []byte(w)) {
			return w
		}
	}
	return p.word()
}

func describe(b []byte) string { return strconv.Quote(string(b)) }

func (p *parser) syntax(format string, args ...any) *Error {
	return p.syntaxAt(p.i, format, args...)
}

// syntaxAt returns an ErrSyntax for byte i of the line, with its 1-based
// column on the physical line.
func (p *parser) syntaxAt(i int, format string, args ...any) *Error {
	return &Error{Err: ErrSyntax, Msg: fmt.Sprintf("column %d: ", p.col0+i+1) + fmt.Sprintf(format, args...)}
}
