package dataset

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"

	"github.com/twl-ldl/twl/internal/jsonscan"
	"github.com/twl-ldl/twl/tree"
)

// ReadJSONL reads a data set in the JSON Lines format of the package
// documentation. Label names are the node names of t, and column j of Y is
// t's user index j. The name file is used in messages only.
//
// Invalid data is reported as an *Error ("FILE:LINE: ..."); I/O errors are
// returned as they are, prefixed by the file name. Label rows that do not sum
// to 1 within the tolerance are rescaled and counted in the Report, unless
// opts.Strict makes them errors. ReadJSONL panics if t is nil.
func ReadJSONL(r io.Reader, file string, t *tree.Tree, opts *Options) (*Dataset, Report, error) {
	if t == nil {
		panic("dataset: ReadJSONL with a nil tree")
	}
	L := t.Len()
	chk := newChecker(file, opts)
	p := parser{index: make(map[string]int, L), names: make([]string, L), seen: make([]int, L)}
	for j := range L {
		p.names[j] = t.Name(j)
		p.index[p.names[j]] = j
	}
	var (
		xs, ys   []float64
		lines    []int
		d, dLine int // feature dimension and the line that set it
	)
	fail := func(e *Error, line int) (*Dataset, Report, error) {
		e.File, e.Line = file, line
		return nil, Report{}, e
	}
	in := jsonscan.NewLines(r)
	for in.Next() {
		// Columns in messages count the bytes of a byte order mark, as
		// an editor that shows the file's bytes would (col0).
		b, col0 := in.Line()
		line := in.Num()
		n := len(lines)
		ys = append(ys, make([]float64, L)...)
		y := ys[n*L:]
		p.row = n + 1
		if e := p.parse(b, col0, y); e != nil {
			return fail(e, line)
		}
		switch {
		case len(p.x) == 0:
			return fail(&Error{Err: ErrDimension, Msg: `"x" holds no features`}, line)
		case n == 0:
			d, dLine = len(p.x), line
		case len(p.x) != d:
			return fail(&Error{Err: ErrDimension, Msg: fmt.Sprintf("%d features, want %d as on line %d", len(p.x), d, dLine)}, line)
		}
		if e := chk.check(y, n, line); e != nil {
			return fail(e, line)
		}
		xs = append(xs, p.x...)
		lines = append(lines, line)
	}
	if err := in.Err(); err != nil {
		return nil, Report{}, fmt.Errorf("%s: %w", file, err)
	}
	if len(lines) == 0 {
		return nil, Report{}, &Error{File: file, Err: ErrEmpty}
	}
	chk.rep.Rows = len(lines)
	names := make([]string, L)
	for j := range names {
		names[j] = t.Name(j)
	}
	ds := &Dataset{
		X:      mat.NewDense(len(lines), d, xs),
		Y:      mat.NewDense(len(lines), L, ys),
		Labels: names,
		Lines:  lines,
	}
	return ds, chk.rep, nil
}

// parser reads one line: a JSON object with the keys "x" (an array of
// numbers) and "y" (an object of numbers), with JSON's grammar for strings,
// numbers and white space (RFC 8259).
type parser struct {
	jsonscan.Scanner // the line and the read position

	index map[string]int // label name → user index
	names []string       // user index → label name
	seen  []int          // seen[j] == row when label j was set in the current row
	row   int            // 1-based number of the row being parsed

	x []float64 // the features of the line
}

// parse reads line b, storing the features in p.x and the masses in y,
// which is zero and of length t.Len(). The returned *Error has no File or
// Line yet.
func (p *parser) parse(b []byte, col0 int, y []float64) *Error {
	p.Reset(b, col0)
	p.SkipSpace()
	p.x = p.x[:0]
	if !p.Accept('{') {
		return p.syntax(`want a JSON object {"x": [...], "y": {...}}, found %s`, p.Snippet())
	}
	var haveX, haveY bool
	if !p.Accept('}') {
		for {
			if p.Peek() != '"' {
				return p.syntax(`want "x" or "y" in double quotes, found %s`, p.Snippet())
			}
			at := p.Pos
			raw, key, e := p.str()
			if e != nil {
				return e
			}
			if raw != nil {
				key = string(raw)
			}
			if e := p.colon(); e != nil {
				return e
			}
			switch key {
			case "x":
				if haveX {
					return &Error{Err: ErrDuplicateKey, Msg: fmt.Sprintf(`"x" again at column %d`, p.Col(at))}
				}
				haveX = true
				e = p.features()
			case "y":
				if haveY {
					return &Error{Err: ErrDuplicateKey, Msg: fmt.Sprintf(`"y" again at column %d`, p.Col(at))}
				}
				haveY = true
				e = p.masses(y)
			default:
				return p.syntaxAt(at, `unknown key %s; want "x" and "y"`, strconv.Quote(key))
			}
			if e != nil {
				return e
			}
			p.SkipSpace()
			if p.Accept(',') {
				continue
			}
			if p.Accept('}') {
				break
			}
			return p.syntax("want ',' or '}' after the value of %q, found %s", key, p.Snippet())
		}
	}
	if p.SkipSpace(); p.Pos < len(p.Line) {
		return p.syntax("data after the end of the JSON object: %s", p.Snippet())
	}
	switch {
	case !haveX:
		return &Error{Err: ErrSyntax, Msg: `no "x" (features)`}
	case !haveY:
		return &Error{Err: ErrSyntax, Msg: `no "y" (label distribution)`}
	}
	return nil
}

// colon reads the ':' after a key and the white space around it.
func (p *parser) colon() *Error {
	if p.SkipSpace(); !p.Accept(':') {
		return p.syntax("want ':' after the key, found %s", p.Snippet())
	}
	return nil
}

// features reads the array of "x" into p.x.
func (p *parser) features() *Error {
	if !p.Accept('[') {
		return p.syntax(`want the features of "x" as an array [...], found %s`, p.Snippet())
	}
	if p.Accept(']') {
		return nil
	}
	for {
		at := p.Pos
		v, e := p.number()
		if e != nil {
			return e
		}
		if math.IsInf(v, 0) {
			return &Error{Err: ErrNonFinite, Msg: fmt.Sprintf("feature %d (column %d) overflows float64: %s", len(p.x)+1, p.Col(at), p.Line[at:p.Pos])}
		}
		p.x = append(p.x, v)
		p.SkipSpace()
		switch {
		case p.Accept(','):
		case p.Accept(']'):
			return nil
		default:
			return p.syntax(`want ',' or ']' in "x", found %s`, p.Snippet())
		}
	}
}

// masses reads the object of "y" into y.
func (p *parser) masses(y []float64) *Error {
	if !p.Accept('{') {
		return p.syntax(`want the label distribution "y" as an object {"label": mass, ...}, found %s`, p.Snippet())
	}
	if p.Accept('}') {
		return nil
	}
	next := 0 // the label after the last one, often the next in the line
	for {
		if p.Peek() != '"' {
			return p.syntax("want a label in double quotes, found %s", p.Snippet())
		}
		raw, name, e := p.str()
		if e != nil {
			return e
		}
		if e := p.colon(); e != nil {
			return e
		}
		at := p.Pos
		v, e := p.number()
		if e != nil {
			return e
		}
		var j int
		var ok bool
		switch {
		case raw != nil && next < len(p.names) && p.names[next] == string(raw):
			j, ok = next, true // no hashing; no allocation either
		case raw != nil:
			j, ok = p.index[string(raw)] // no allocation
		default:
			j, ok = p.index[name]
		}
		if !ok || p.seen[j] == p.row || math.IsInf(v, 0) || v < 0 {
			if raw != nil {
				name = string(raw)
			}
		}
		switch {
		case !ok:
			return &Error{Err: ErrUnknownLabel, Msg: strconv.Quote(name) + " is not a node of the tree"}
		case p.seen[j] == p.row:
			return &Error{Err: ErrDuplicateKey, Msg: "label " + strconv.Quote(name) + " appears more than once"}
		case math.IsInf(v, 0):
			return &Error{Err: ErrNonFinite, Msg: fmt.Sprintf("the mass of %q overflows float64: %s", name, p.Line[at:p.Pos])}
		case v < 0:
			return &Error{Err: ErrNegative, Msg: fmt.Sprintf("%q has mass %s", name, p.Line[at:p.Pos])}
		}
		p.seen[j] = p.row
		y[j] = v
		next = j + 1
		p.SkipSpace()
		switch {
		case p.Accept(','):
		case p.Accept('}'):
			return nil
		default:
			return p.syntax(`want ',' or '}' in "y", found %s`, p.Snippet())
		}
	}
}

// str reads the JSON string at p.Pos, which holds '"'. If it has no
// escapes it returns its bytes as raw (a subslice of the line) and an empty
// s, otherwise its value as s and a nil raw. Invalid UTF-8 is an error.
func (p *parser) str() (raw []byte, s string, e *Error) {
	start := p.Pos
	tok, escaped, le := p.RawStr()
	switch {
	case le != nil && le.Code == jsonscan.ControlChar:
		return nil, "", p.syntaxAt(le.Pos, "control character %#02x in string", p.Line[le.Pos])
	case le != nil: // Unterminated
		return nil, "", p.syntaxAt(le.Pos, "unterminated string")
	case escaped:
		var err error
		if s, err = jsonscan.Unquote(tok); err != nil {
			return nil, "", p.syntaxAt(start, "invalid string %s: %v", tok, err)
		}
	default:
		raw = tok[1 : len(tok)-1]
	}
	if !utf8.Valid(tok) {
		return nil, "", p.syntaxAt(start, "invalid UTF-8 in string")
	}
	return raw, s, nil
}

// number reads a JSON number at p.Pos. A number that overflows float64 is
// returned as ±Inf, for the caller to report.
func (p *parser) number() (float64, *Error) {
	v, e := p.Number()
	if e == nil {
		return v, nil
	}
	switch e.Code {
	case jsonscan.Overflow:
		return v, nil
	case jsonscan.NotNumber, jsonscan.NoInt:
		return 0, p.syntax("want a number, found %s", p.Snippet())
	case jsonscan.NoFraction:
		p.Pos = e.Pos
		return 0, p.syntax("want a digit after the decimal point, found %s", p.Snippet())
	case jsonscan.NoExponent:
		p.Pos = e.Pos
		return 0, p.syntax("want a digit in the exponent, found %s", p.Snippet())
	}
	// Invalid, not reached: strconv accepts every JSON number.
	return 0, p.syntaxAt(e.Pos, "%v", e.Err)
}

func (p *parser) syntax(format string, args ...any) *Error {
	return p.syntaxAt(p.Pos, format, args...)
}

// syntaxAt reports a syntax error at byte i (shown as a 1-based column).
func (p *parser) syntaxAt(i int, format string, args ...any) *Error {
	return &Error{Err: ErrSyntax, Msg: p.Msgf(i, format, args...)}
}
