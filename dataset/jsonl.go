package dataset

import (
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"

	"github.com/twl-ldl/twl/internal/jsonscan"
	"github.com/twl-ldl/twl/tree"
)

// ReadJSONL reads a data set in the JSON Lines format of the package
// documentation. Label names are the node names of t, and column j of Y is
// t's user index j. The name file is used in messages only. It reads with a
// Reader (TargetsRequired) and gathers the samples into dense matrices.
//
// Invalid data is reported as an *Error ("FILE:LINE: ..."); I/O errors are
// returned as they are, prefixed by the file name. Label rows that do not sum
// to 1 within the tolerance are rescaled and counted in the Report, unless
// opts.Strict makes them errors. ReadJSONL panics if t is nil.
func ReadJSONL(r io.Reader, file string, t *tree.Tree, opts *Options) (*Dataset, Report, error) {
	if t == nil {
		panic("dataset: ReadJSONL with a nil tree")
	}
	var ro ReaderOptions
	if opts != nil {
		ro.Options = *opts
	}
	rd := NewReader(r, file, t, &ro)
	L := t.Len()
	var (
		xs, ys []float64
		lines  []int
	)
	for rd.Next() {
		s := rd.Sample()
		xs = append(xs, s.X...)
		n := len(ys)
		ys = slices.Grow(ys, L)[:n+L]
		s.Y.Dense(ys[n:])
		lines = append(lines, s.Line)
	}
	if err := rd.Err(); err != nil {
		return nil, Report{}, err
	}
	names := make([]string, L)
	for j := range names {
		names[j] = t.Name(j)
	}
	ds := &Dataset{
		X:      mat.NewDense(len(lines), len(xs)/len(lines), xs),
		Y:      mat.NewDense(len(lines), L, ys),
		Labels: names,
		Lines:  lines,
	}
	return ds, rd.Report(), nil
}

// ReadJSONLFile reads the data set in the JSON Lines file at path, named
// path in messages; see ReadJSONL.
func ReadJSONLFile(path string, t *tree.Tree, opts *Options) (*Dataset, Report, error) {
	if t == nil {
		panic("dataset: ReadJSONLFile with a nil tree")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, Report{}, err
	}
	defer f.Close()
	return ReadJSONL(f, path, t, opts)
}

// parser reads one line: a JSON object with the keys "x" (an array of
// numbers) and "y" (an object of numbers), and any other keys, whose values
// are skipped, with JSON's grammar for strings, numbers, literals and white
// space (RFC 8259).
type parser struct {
	jsonscan.Scanner // the line and the read position

	targets Targets        // what to do with "y"
	index   map[string]int // label name → user index; nil with TargetsIgnored
	names   []string       // user index → label name
	seen    []int          // seen[j] == row when label j was set in the current row
	row     int            // 1-based number of the row being parsed

	x    []float64 // the features of the line
	y    Sparse    // its label distribution, in the order of the line
	hasY bool      // whether the line has "y"

	stack []byte // the closing brackets of the containers skipValue is in
}

// newParser returns a parser for the labels of t, which may be nil only
// when "y" is ignored.
func newParser(t *tree.Tree, targets Targets) *parser {
	p := &parser{targets: targets}
	if targets == TargetsIgnored {
		return p
	}
	L := t.Len()
	p.index, p.names, p.seen = make(map[string]int, L), make([]string, L), make([]int, L)
	for j := range L {
		p.names[j] = t.Name(j)
		p.index[p.names[j]] = j
	}
	return p
}

// parse reads line b, storing the features in p.x and the non-zero masses
// of "y" in p.y, in the order of the line. The returned *Error has no File
// or Line yet.
func (p *parser) parse(b []byte, col0 int) *Error {
	p.Reset(b, col0)
	p.SkipSpace()
	p.row++
	p.x = p.x[:0]
	p.y.Index, p.y.Mass = p.y.Index[:0], p.y.Mass[:0]
	p.hasY = false
	if !p.Accept('{') {
		return p.syntax(`want a JSON object {"x": [...], "y": {...}}, found %s`, p.Snippet())
	}
	var haveX, haveY bool
	if !p.Accept('}') {
		for {
			if p.Peek() != '"' {
				return p.syntax(`want a key such as "x" or "y" in double quotes, found %s`, p.Snippet())
			}
			at := p.Pos
			raw, key, e := p.str()
			if e != nil {
				return e
			}
			if e := p.colon(); e != nil {
				return e
			}
			if raw != nil {
				// No allocation for the key when it is compared only.
				switch string(raw) {
				case "x", "y":
					key = string(raw)
				default:
					key = ""
				}
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
				if p.targets == TargetsIgnored {
					e = p.skipValue()
				} else {
					e = p.masses()
				}
			default:
				e = p.skipValue()
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
			if raw != nil {
				key = string(raw)
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
	case !haveY && p.targets == TargetsRequired:
		return &Error{Err: ErrSyntax, Msg: `no "y" (label distribution)`}
	}
	p.hasY = haveY && p.targets != TargetsIgnored
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

// masses reads the object of "y" into p.y, leaving out zero masses.
func (p *parser) masses() *Error {
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
		if v != 0 {
			p.y.Index = append(p.y.Index, j)
			p.y.Mass = append(p.y.Mass, v)
		}
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

// skipValue moves past the JSON value at p.Pos (an object, an array, a
// string, a number, true, false or null), checking its syntax. It keeps its
// own stack of open containers, so that deep nesting cannot exhaust the
// goroutine's stack.
func (p *parser) skipValue() *Error {
	p.stack = p.stack[:0]
	for {
		// A value.
		switch c := p.Peek(); {
		case c == '{':
			p.Accept('{')
			if p.Accept('}') {
				break
			}
			p.stack = append(p.stack, '}')
			if e := p.member(); e != nil {
				return e
			}
			continue // the member's value
		case c == '[':
			p.Accept('[')
			if p.Accept(']') {
				break
			}
			p.stack = append(p.stack, ']')
			continue // the first element
		case c == '"':
			if _, _, e := p.str(); e != nil {
				return e
			}
		case c == '-' || '0' <= c && c <= '9':
			if _, e := p.number(); e != nil {
				return e // an overflow is no error: the value is not used
			}
		case p.literal("true") || p.literal("false") || p.literal("null"):
		default:
			return p.syntax("want a JSON value, found %s", p.Snippet())
		}
		// After a value: close the containers that end here, then go on
		// to the next element or member, or return.
		for {
			p.SkipSpace()
			if len(p.stack) == 0 {
				return nil
			}
			end := p.stack[len(p.stack)-1]
			if p.Accept(end) {
				p.stack = p.stack[:len(p.stack)-1]
				continue
			}
			if !p.Accept(',') {
				return p.syntax("want ',' or '%c', found %s", end, p.Snippet())
			}
			if end == '}' {
				if e := p.member(); e != nil {
					return e
				}
			}
			break
		}
	}
}

// literal moves past lit and reports true if the line holds lit at p.Pos.
func (p *parser) literal(lit string) bool {
	b := p.Line[p.Pos:]
	if len(b) >= len(lit) && string(b[:len(lit)]) == lit {
		p.Pos += len(lit)
		return true
	}
	return false
}

// member reads the key of an object member that skipValue skips, and the
// colon after it.
func (p *parser) member() *Error {
	if p.Peek() != '"' {
		return p.syntax("want a key in double quotes, found %s", p.Snippet())
	}
	if _, _, e := p.str(); e != nil {
		return e
	}
	return p.colon()
}

// str reads the JSON string at p.Pos, which holds '"'. If it has no
// escapes it returns its bytes as raw (a subslice of the line) and an empty
// s, otherwise its value as s and a nil raw. Invalid UTF-8 is an error.
func (p *parser) str() (raw []byte, s string, e *Error) {
	start := p.Pos
	tok, escaped, ascii, le := p.RawStr()
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
	if !ascii && !utf8.Valid(tok) {
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
