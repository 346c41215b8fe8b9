package dataset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"

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
	br := bufio.NewReaderSize(r, 1<<16)
	var (
		buf      []byte
		xs, ys   []float64
		lines    []int
		d, dLine int // feature dimension and the line that set it
	)
	fail := func(e *Error, line int) (*Dataset, Report, error) {
		e.File, e.Line = file, line
		return nil, Report{}, e
	}
	for line := 1; ; line++ {
		b, err := readLine(br, buf[:0])
		buf = b
		if err != nil && err != io.EOF {
			return nil, Report{}, fmt.Errorf("%s: %w", file, err)
		}
		if len(b) == 0 && err == io.EOF {
			break
		}
		b = bytes.TrimSuffix(b, []byte{'\n'})
		b = bytes.TrimSuffix(b, []byte{'\r'})
		if line == 1 {
			b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
		}
		if skipSpace(b, 0) == len(b) {
			if err == io.EOF {
				break
			}
			continue
		}
		n := len(lines)
		ys = append(ys, make([]float64, L)...)
		y := ys[n*L:]
		p.row = n + 1
		if e := p.parse(b, y); e != nil {
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
		if err == io.EOF {
			break
		}
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

// readLine appends the next line of br, with its '\n' if any, to buf.
func readLine(br *bufio.Reader, buf []byte) ([]byte, error) {
	for {
		chunk, err := br.ReadSlice('\n')
		buf = append(buf, chunk...)
		if err != bufio.ErrBufferFull {
			return buf, err
		}
	}
}

// skipSpace returns the index of the first byte of b at or after i that is
// not JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// parser reads one line: a JSON object with the keys "x" (an array of
// numbers) and "y" (an object of numbers), with JSON's grammar for strings,
// numbers and white space (RFC 8259).
type parser struct {
	index map[string]int // label name → user index
	names []string       // user index → label name
	seen  []int          // seen[j] == row when label j was set in the current row
	row   int            // 1-based number of the row being parsed

	b []byte    // the line
	i int       // read position in b
	x []float64 // the features of the line
}

// parse reads line b, storing the features in p.x and the masses in y,
// which is zero and of length t.Len(). The returned *Error has no File or
// Line yet.
func (p *parser) parse(b []byte, y []float64) *Error {
	p.b, p.i, p.x = b, skipSpace(b, 0), p.x[:0]
	if p.peek() != '{' {
		return p.syntax(`want a JSON object {"x": [...], "y": {...}}, found %s`, p.found())
	}
	p.i = skipSpace(p.b, p.i+1)
	var haveX, haveY bool
	if p.peek() == '}' {
		p.i++
	} else {
		for {
			if p.peek() != '"' {
				return p.syntax(`want "x" or "y" in double quotes, found %s`, p.found())
			}
			at := p.i
			key, e := p.str()
			if e != nil {
				return e
			}
			if e := p.colon(); e != nil {
				return e
			}
			switch key {
			case "x":
				if haveX {
					return &Error{Err: ErrDuplicateKey, Msg: fmt.Sprintf(`"x" again at column %d`, at+1)}
				}
				haveX = true
				e = p.features()
			case "y":
				if haveY {
					return &Error{Err: ErrDuplicateKey, Msg: fmt.Sprintf(`"y" again at column %d`, at+1)}
				}
				haveY = true
				e = p.masses(y)
			default:
				return p.syntaxAt(at, `unknown key %s; want "x" and "y"`, strconv.Quote(key))
			}
			if e != nil {
				return e
			}
			p.i = skipSpace(p.b, p.i)
			if c := p.peek(); c == ',' {
				p.i = skipSpace(p.b, p.i+1)
				continue
			} else if c == '}' {
				p.i++
				break
			}
			return p.syntax("want ',' or '}' after the value of %q, found %s", key, p.found())
		}
	}
	if p.i = skipSpace(p.b, p.i); p.i < len(p.b) {
		return p.syntax("data after the end of the JSON object: %s", p.found())
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
	p.i = skipSpace(p.b, p.i)
	if p.peek() != ':' {
		return p.syntax("want ':' after the key, found %s", p.found())
	}
	p.i = skipSpace(p.b, p.i+1)
	return nil
}

// features reads the array of "x" into p.x.
func (p *parser) features() *Error {
	if p.peek() != '[' {
		return p.syntax(`want the features of "x" as an array [...], found %s`, p.found())
	}
	p.i = skipSpace(p.b, p.i+1)
	if p.peek() == ']' {
		p.i++
		return nil
	}
	for {
		at := p.i
		v, e := p.number()
		if e != nil {
			return e
		}
		if math.IsInf(v, 0) {
			return &Error{Err: ErrNonFinite, Msg: fmt.Sprintf("feature %d (column %d) overflows float64: %s", len(p.x)+1, at+1, p.b[at:p.i])}
		}
		p.x = append(p.x, v)
		p.i = skipSpace(p.b, p.i)
		switch p.peek() {
		case ',':
			p.i = skipSpace(p.b, p.i+1)
		case ']':
			p.i++
			return nil
		default:
			return p.syntax(`want ',' or ']' in "x", found %s`, p.found())
		}
	}
}

// masses reads the object of "y" into y.
func (p *parser) masses(y []float64) *Error {
	if p.peek() != '{' {
		return p.syntax(`want the label distribution "y" as an object {"label": mass, ...}, found %s`, p.found())
	}
	p.i = skipSpace(p.b, p.i+1)
	if p.peek() == '}' {
		p.i++
		return nil
	}
	next := 0 // the label after the last one, often the next in the line
	for {
		if p.peek() != '"' {
			return p.syntax("want a label in double quotes, found %s", p.found())
		}
		raw, name, e := p.key()
		if e != nil {
			return e
		}
		if e := p.colon(); e != nil {
			return e
		}
		at := p.i
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
			return &Error{Err: ErrNonFinite, Msg: fmt.Sprintf("the mass of %q overflows float64: %s", name, p.b[at:p.i])}
		case v < 0:
			return &Error{Err: ErrNegative, Msg: fmt.Sprintf("%q has mass %s", name, p.b[at:p.i])}
		}
		p.seen[j] = p.row
		y[j] = v
		next = j + 1
		p.i = skipSpace(p.b, p.i)
		switch p.peek() {
		case ',':
			p.i = skipSpace(p.b, p.i+1)
		case '}':
			p.i++
			return nil
		default:
			return p.syntax(`want ',' or '}' in "y", found %s`, p.found())
		}
	}
}

// key reads a JSON string at p.i. If it has no escapes it returns its
// bytes as raw (a subslice of the line) and an empty s, otherwise its value
// as s and a nil raw.
func (p *parser) key() (raw []byte, s string, e *Error) {
	start := p.i
	for i := start + 1; i < len(p.b); i++ {
		switch c := p.b[i]; {
		case c == '"':
			if !utf8.Valid(p.b[start+1 : i]) {
				return nil, "", p.syntaxAt(start, "invalid UTF-8 in string")
			}
			p.i = i + 1
			return p.b[start+1 : i], "", nil
		case c == '\\' || c < 0x20:
			s, e = p.str()
			return nil, s, e
		}
	}
	s, e = p.str()
	return nil, s, e
}

// str reads a JSON string at p.i.
func (p *parser) str() (string, *Error) {
	start := p.i
	p.i++ // '"'
	escaped := false
	for {
		if p.i >= len(p.b) {
			return "", p.syntaxAt(start, "unterminated string")
		}
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			raw := p.b[start:p.i]
			if !escaped {
				if !utf8.Valid(raw) {
					return "", p.syntaxAt(start, "invalid UTF-8 in string")
				}
				return string(raw[1 : len(raw)-1]), nil
			}
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return "", p.syntaxAt(start, "invalid string %s: %v", raw, err)
			}
			if !utf8.Valid(raw) {
				return "", p.syntaxAt(start, "invalid UTF-8 in string")
			}
			return s, nil
		case c == '\\':
			escaped = true
			p.i += 2
		case c < 0x20:
			return "", p.syntaxAt(p.i, "control character %#02x in string", c)
		default:
			p.i++
		}
	}
}

// number reads a JSON number at p.i. A number that overflows float64 is
// returned as ±Inf, for the caller to report.
func (p *parser) number() (float64, *Error) {
	start := p.i
	digits := func() bool {
		k := p.i
		for p.i < len(p.b) && '0' <= p.b[p.i] && p.b[p.i] <= '9' {
			p.i++
		}
		return p.i > k
	}
	if p.peek() == '-' {
		p.i++
	}
	switch c := p.peek(); {
	case c == '0':
		p.i++
	case '1' <= c && c <= '9':
		digits()
	default:
		p.i = start
		return 0, p.syntax("want a number, found %s", p.found())
	}
	if p.peek() == '.' {
		p.i++
		if !digits() {
			return 0, p.syntax("want a digit after the decimal point, found %s", p.found())
		}
	}
	if c := p.peek(); c == 'e' || c == 'E' {
		p.i++
		if c := p.peek(); c == '+' || c == '-' {
			p.i++
		}
		if !digits() {
			return 0, p.syntax("want a digit in the exponent, found %s", p.found())
		}
	}
	v, err := strconv.ParseFloat(string(p.b[start:p.i]), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, p.syntaxAt(start, "%v", err) // not reached: the grammar is checked above
	}
	return v, nil
}

// peek returns the byte at p.i, or 0 at the end of the line.
func (p *parser) peek() byte {
	if p.i < len(p.b) {
		return p.b[p.i]
	}
	return 0
}

// found describes the input at p.i for a message.
func (p *parser) found() string {
	if p.i >= len(p.b) {
		return "the end of the line"
	}
	end := p.i
	for end < len(p.b) && end-p.i < 16 {
		_, size := utf8.DecodeRune(p.b[end:])
		end += size
	}
	s := strconv.Quote(string(p.b[p.i:end]))
	if end < len(p.b) {
		s = s[:len(s)-1] + `…"`
	}
	return s
}

func (p *parser) syntax(format string, args ...any) *Error {
	return p.syntaxAt(p.i, format, args...)
}

// syntaxAt reports a syntax error at byte i (shown as a 1-based column).
func (p *parser) syntaxAt(i int, format string, args ...any) *Error {
	return &Error{Err: ErrSyntax, Msg: fmt.Sprintf("column %d: ", i+1) + fmt.Sprintf(format, args...)}
}
