package labeldist

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/twl-ldl/twl/internal/jsonscan"
	"github.com/twl-ldl/twl/internal/strindex"
	"github.com/twl-ldl/twl/tree"
)

// parser reads one line at a time. It accepts exactly the JSON texts that
// are a flat object of numbers or a flat array of numbers, with JSON's
// grammar for strings, numbers and white space (RFC 8259).
type parser struct {
	jsonscan.Scanner // the line and the read position

	t    *tree.Tree
	seen []int // seen[i] == row when label i was set in the current row
	row  int   // 1-based number of the row being parsed

	// The non-zero masses of the row, in the order they appear.
	idx []int
	val []float64

	// bad is the first error in the values of the line (a label or a mass),
	// reported only if the line has no syntax error.
	bad *Error

	// names finds labels once the lookups have paid for building it
	// (lookups counts them until then); shared, read-only, by the parsers
	// of the parts of one file.
	names   *strindex.Packed
	lookups int
}

// lookup returns the user index of the label named raw (a plain name,
// not nil) or name.
func (p *parser) lookup(raw []byte, name string) (int, bool) {
	if raw == nil {
		return p.t.Index(name)
	}
	if p.names != nil {
		return p.names.Get(raw)
	}
	// The index pays for itself once a quarter of the labels were looked
	// up: building it costs about as much as that many lookups.
	if p.lookups++; p.lookups > p.t.Len()/4+256 {
		p.names = packNames(p.t)
	}
	return p.t.Index(string(raw)) // inlined: no copy
}

// isLabel reports whether label i is named raw, a plain name.
func (p *parser) isLabel(i int, raw []byte) bool {
	if p.names != nil {
		return p.names.Equal(i, raw)
	}
	return p.t.Name(i) == string(raw)
}

// packNames returns the index of the labels of t by name.
func packNames(t *tree.Tree) *strindex.Packed {
	return strindex.NewPacked(t.Len(), t.Name)
}

// parse reads the distribution on line b into p.idx and p.val, its
// non-zero masses in the order of the line; col0 is the number of bytes
// before b on its physical line. The returned *Error has no File or Line
// yet.
func (p *parser) parse(b []byte, col0 int) *Error {
	p.Reset(b, col0)
	p.SkipSpace()
	p.bad = nil
	p.idx, p.val = p.idx[:0], p.val[:0]
	var e *Error
	switch p.Peek() {
	case '{':
		e = p.object()
	case '[':
		e = p.array(p.t.Len())
	case '_':
		e = p.predictProb()
	default:
		return p.syntax("want a JSON object {\"label\": mass, ...}, an array of %d masses or __label__NAME mass pairs, found %s", p.t.Len(), p.What())
	}
	if e != nil {
		return e
	}
	if p.SkipSpace(); p.Pos < len(p.Line) {
		return p.syntax("data after the end of the JSON value: %s", p.Found())
	}
	return p.bad
}

// fail records e as the line's error unless one came earlier.
func (p *parser) fail(e *Error) {
	if p.bad == nil {
		p.bad = e
	}
}

// set records mass v (finite, non-negative) of label i.
func (p *parser) set(i int, v float64) {
	if v != 0 {
		p.idx = append(p.idx, i)
		p.val = append(p.val, v)
	}
}

func (p *parser) object() *Error {
	p.Accept('{')
	if p.Accept('}') {
		return nil
	}
	// The label after the last one is often the next in the line, in a
	// file written in the tree's order: it is tried first where the last
	// label followed the one before it.
	next, try := 0, true
	for {
		if p.Peek() != '"' {
			return p.syntax("want a label in double quotes, found %s", p.Found())
		}
		raw, name, e := p.str()
		if e != nil {
			return e
		}
		// A plain name (raw) is compared or looked up without a copy,
		// and copied only for a message (labelName).
		var label int
		var ok bool
		if try && raw != nil && next < p.t.Len() && p.isLabel(next, raw) {
			label, ok = next, true
		} else {
			label, ok = p.lookup(raw, name)
		}
		try = ok && label == next
		switch {
		case !ok:
			p.fail(&Error{Err: ErrUnknownLabel, Msg: strconv.Quote(labelName(raw, name))})
			label = -1
		case p.seen[label] == p.row:
			p.fail(&Error{Err: ErrDuplicateLabel, Msg: strconv.Quote(labelName(raw, name)) + " appears more than once"})
		}
		if label >= 0 {
			p.seen[label] = p.row
			next = label + 1
		}
		if p.SkipSpace(); !p.Accept(':') {
			return p.syntax("want ':' after the label %q, found %s", labelName(raw, name), p.Found())
		}
		v, e := p.number(func() string { return fmt.Sprintf("the value of %q", labelName(raw, name)) })
		switch {
		case e != nil && e.Err == ErrSyntax:
			return e
		case e != nil:
			p.fail(e)
		case v < 0:
			p.fail(&Error{Err: ErrNegative, Msg: fmt.Sprintf("%q: %s", labelName(raw, name), fmtFloat(v))})
		case label >= 0:
			p.set(label, v)
		}
		p.SkipSpace()
		switch {
		case p.Accept(','):
		case p.Accept('}'):
			return nil
		default:
			return p.syntax("want ',' or '}' after a value, found %s", p.Found())
		}
	}
}

// LabelPrefix starts the label of each pair of fastText's predict-prob
// layout.
const LabelPrefix = "__label__"

// isSpace reports whether c is JSON white space, which separates the
// words of fastText's layout.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// predictProb reads a line in the layout of 'fasttext predict-prob': pairs
// of a label, __label__NAME, and its mass (a JSON number), separated by
// white space. The labels left out have mass 0.
func (p *parser) predictProb() *Error {
	for {
		p.SkipSpace()
		if p.Pos == len(p.Line) {
			return nil
		}
		start := p.Pos
		end := start
		for end < len(p.Line) && !isSpace(p.Line[end]) {
			end++
		}
		raw, ok := bytes.CutPrefix(p.Line[start:end], []byte(LabelPrefix))
		if !ok {
			return p.syntax("want a label %sNAME, found %s", LabelPrefix, p.Word())
		}
		p.Pos = end
		label, ok := -1, false
		if len(raw) > 0 {
			label, ok = p.lookup(raw, "")
		}
		switch {
		case !ok:
			p.fail(&Error{Err: ErrUnknownLabel, Msg: strconv.Quote(string(raw))})
			label = -1
		case p.seen[label] == p.row:
			p.fail(&Error{Err: ErrDuplicateLabel, Msg: strconv.Quote(string(raw)) + " appears more than once"})
		}
		if label >= 0 {
			p.seen[label] = p.row
		}
		if p.SkipSpace(); p.Pos == len(p.Line) {
			return p.syntax("want the mass of %s%s after it, found the end of the line", LabelPrefix, raw)
		}
		v, e := p.number(func() string { return fmt.Sprintf("the mass of %q", raw) })
		switch {
		case e != nil && e.Err == ErrSyntax:
			return e
		case e != nil:
			p.fail(e)
		case v < 0:
			p.fail(&Error{Err: ErrNegative, Msg: fmt.Sprintf("%q: %s", raw, fmtFloat(v))})
		case label >= 0:
			p.set(label, v)
		}
		if p.Pos < len(p.Line) && !isSpace(p.Line[p.Pos]) {
			return p.syntax("want white space after the mass of %q, found %s", raw, p.Found())
		}
	}
}

// labelName returns the label name that str returned as raw bytes or as
// name.
func labelName(raw []byte, name string) string {
	if raw != nil {
		return string(raw)
	}
	return name
}

func (p *parser) array(L int) *Error {
	p.Accept('[')
	n := 0
	if !p.Accept(']') {
		for {
			n++
			v, e := p.number(func() string { return fmt.Sprintf("element %d", n) })
			switch {
			case e != nil && e.Err == ErrSyntax:
				return e
			case e != nil:
				p.fail(e)
			case n > L:
			case v < 0:
				p.fail(&Error{Err: ErrNegative, Msg: fmt.Sprintf("element %d (%q): %s", n, p.t.Name(n-1), fmtFloat(v))})
			default:
				p.set(n-1, v)
			}
			p.SkipSpace()
			if p.Accept(',') {
				continue
			}
			if p.Accept(']') {
				break
			}
			return p.syntax("want ',' or ']' after a value, found %s", p.Found())
		}
	}
	if n != L {
		p.fail(&Error{Err: ErrLength, Msg: fmt.Sprintf("the array has %d masses, the tree has %d labels", n, L)})
	}
	return nil
}

// number reads a JSON number at p.Pos. what describes the value in
// messages. A number that overflows float64 is an ErrNonFinite error; a
// value that is not a number is an ErrSyntax error.
func (p *parser) number(what func() string) (float64, *Error) {
	start := p.Pos
	v, e := p.Number()
	if e == nil {
		return v, nil
	}
	switch e.Code {
	case jsonscan.Overflow:
		return 0, &Error{Err: ErrNonFinite, Msg: fmt.Sprintf("%s: %s overflows float64", what(), p.Line[start:p.Pos])}
	case jsonscan.NotNumber:
		switch c := p.Peek(); {
		case c == '"':
			return 0, p.syntax("%s is a string, want a number", what())
		case c == '{':
			return 0, p.syntax("%s is an object, want a number", what())
		case c == '[':
			return 0, p.syntax("%s is an array, want a number", what())
		}
		if w := p.What(); w == "true" || w == "false" || w == "null" {
			return 0, p.syntax("%s is %s, want a number", what(), w)
		}
		return 0, p.syntax("want a number for %s, found %s", what(), p.Word())
	case jsonscan.NoInt, jsonscan.NoFraction, jsonscan.NoExponent:
		return 0, p.syntax("invalid number %s for %s", p.Word(), what())
	}
	// Invalid, not reached: strconv accepts every JSON number.
	return 0, p.syntaxAt(start, "invalid number %q for %s", p.Line[start:p.Pos], what())
}

// str reads the JSON string at p.Pos, which holds '"'. A string without
// escapes and of valid UTF-8 is returned as raw, a subslice of the line;
// any other as its value, with invalid UTF-8 turned into U+FFFD as in
// encoding/json, and a nil raw.
func (p *parser) str() (raw []byte, s string, e *Error) {
	raw, s, je := p.StrRaw()
	if je == nil {
		return raw, s, nil
	}
	switch je.Code {
	case jsonscan.BadUnicode:
		return nil, "", p.syntaxAt(je.Pos, "invalid \\u escape in string, want 4 hexadecimal digits")
	case jsonscan.BadEscape:
		return nil, "", p.syntaxAt(je.Pos, "invalid escape %s in string", strconv.Quote(string(p.Line[je.Pos:min(je.Pos+2, len(p.Line))])))
	case jsonscan.ControlChar:
		return nil, "", p.syntaxAt(je.Pos, "control character %U in string, escape it", rune(p.Line[je.Pos]))
	case jsonscan.Unterminated:
		return nil, "", p.syntaxAt(je.Pos, "unterminated string")
	}
	// Invalid, not reached: StrRaw checks the escapes.
	return nil, "", p.syntaxAt(je.Pos, "invalid string: %v", je.Err)
}

func (p *parser) syntax(format string, args ...any) *Error {
	return p.syntaxAt(p.Pos, format, args...)
}

// syntaxAt returns an ErrSyntax for byte i of the line, with its 1-based
// column on the physical line.
func (p *parser) syntaxAt(i int, format string, args ...any) *Error {
	return &Error{Err: ErrSyntax, Msg: p.Msgf(i, format, args...)}
}
