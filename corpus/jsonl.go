package corpus

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/twl-ldl/twl/internal/jsonscan"
)

// jsonlReader reads one document per line:
//
//	{"text": "…", "labels": ["…", …]}          the plain layout
//	{"token": "…" or ["…", …], "label": [...]} the text-classification toolkits' layout
//
// A text given as an array of tokens is joined with single spaces. A label
// set may also be a single string. Other keys are skipped, whatever their
// value.
//
// With sets, each line is a label set alone: ["label", …].
type jsonlReader struct {
	file  string
	lines jsonscan.Lines
	p     jsonlParser
}

func newJSONL(r io.Reader, file string, lb *labeler, opts Options, sets bool) *jsonlReader {
	return &jsonlReader{file: file, lines: jsonscan.NewLines(r),
		p: jsonlParser{lb: lb, unlabeled: opts.Unlabeled, sets: sets, allowEmpty: opts.AllowEmpty}}
}

// read reads the next document; it returns io.EOF after the last.
func (j *jsonlReader) read() (Doc, error) {
	if !j.lines.Next() {
		if err := j.lines.Err(); err != nil {
			return Doc{}, fmt.Errorf("%s:%d: %w", j.file, j.lines.Num(), err)
		}
		return Doc{}, io.EOF
	}
	b, col0 := j.lines.Line()
	if e := checkUTF8(b, col0); e != nil {
		e.File, e.Line = j.file, j.lines.Num()
		return Doc{}, e
	}
	d, e := j.p.parse(b, col0)
	if e != nil {
		e.File, e.Line = j.file, j.lines.Num()
		return Doc{}, e
	}
	d.Line = j.lines.Num()
	return d, nil
}

// checkUTF8 returns an error for the first byte of line b that is not
// UTF-8, col0 bytes from the start of its physical line, or nil.
func checkUTF8(b []byte, col0 int) *Error {
	if utf8.Valid(b) {
		return nil
	}
	i := 0
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		i += size
	}
	return &Error{Err: ErrFormat, Msg: fmt.Sprintf("column %d: byte 0x%02x is not UTF-8 (text in another encoding?)", col0+i+1, b[i])}
}

type jsonlParser struct {
	jsonscan.Scanner
	lb         *labeler
	unlabeled  bool
	sets       bool // lines are label sets
	allowEmpty bool
	text       strings.Builder
	names      []string
	cols       []int // byte position of each name, for messages
}

func (p *jsonlParser) syntax(format string, args ...any) *Error {
	return &Error{Err: ErrSyntax, Msg: p.Msgf(p.Pos, format, args...)}
}

func lexical(e *jsonscan.Error) *Error {
	return &Error{Err: ErrSyntax, Msg: e.Error()}
}

func (p *jsonlParser) parse(b []byte, col0 int) (Doc, *Error) {
	p.Reset(b, col0)
	p.SkipSpace()
	p.names, p.cols = p.names[:0], p.cols[:0]
	if p.sets {
		if p.Peek() != '[' {
			return Doc{}, p.syntax("want a JSON array of label names [\"label\", …], found %s", p.What())
		}
		pos := p.Pos
		if e := p.strings("the label set", func(s string, pos int) {
			p.names = append(p.names, s)
			p.cols = append(p.cols, pos)
		}); e != nil {
			return Doc{}, e
		}
		if p.SkipSpace(); p.Pos < len(p.Line) {
			return Doc{}, p.syntax("data after the end of the JSON array: %s", p.Found())
		}
		return p.labelSet(Doc{}, pos, "")
	}
	if !p.Accept('{') {
		return Doc{}, p.syntax("want a JSON object {\"text\": …, \"labels\": […]}, found %s", p.What())
	}
	var (
		text, labels string // the key each was given under
		textVal      string
		labelsPos    int
	)
	if !p.Accept('}') {
		for {
			if p.Peek() != '"' {
				return Doc{}, p.syntax("want a key in double quotes, found %s", p.Found())
			}
			keyPos := p.Pos
			key, e := p.Str()
			if e != nil {
				return Doc{}, lexical(e)
			}
			if p.SkipSpace(); !p.Accept(':') {
				return Doc{}, p.syntax("want ':' after the key %q, found %s", key, p.Found())
			}
			switch key {
			case "text", "token":
				if text != "" {
					return Doc{}, &Error{Err: ErrSyntax, Msg: p.Msgf(keyPos, "key %q after %q: one text per line", key, text)}
				}
				text = key
				var te *Error
				if textVal, te = p.textValue(key); te != nil {
					return Doc{}, te
				}
			case "labels", "label":
				if labels != "" {
					return Doc{}, &Error{Err: ErrSyntax, Msg: p.Msgf(keyPos, "key %q after %q: one label set per line", key, labels)}
				}
				labels, labelsPos = key, keyPos
				if e := p.labelValue(key); e != nil {
					return Doc{}, e
				}
			default:
				if e := p.skipValue(0); e != nil {
					return Doc{}, e
				}
			}
			p.SkipSpace()
			if p.Accept(',') {
				continue
			}
			if p.Accept('}') {
				break
			}
			return Doc{}, p.syntax("want ',' or '}' after a value, found %s", p.Found())
		}
	}
	if p.SkipSpace(); p.Pos < len(p.Line) {
		return Doc{}, p.syntax("data after the end of the JSON object: %s", p.Found())
	}
	if text == "" {
		return Doc{}, &Error{Err: ErrNoText, Msg: `no "text" (or "token") key`}
	}
	if strings.TrimSpace(textVal) == "" && !p.allowEmpty {
		return Doc{}, &Error{Err: ErrEmptyText, Msg: fmt.Sprintf("the %q is empty", text)}
	}
	d := Doc{Text: textVal}
	if p.unlabeled {
		return d, nil
	}
	if labels == "" {
		return Doc{}, &Error{Err: ErrNoLabels, Msg: `no "labels" (or "label") key`}
	}
	return p.labelSet(d, labelsPos, labels)
}

// labelSet turns p.names into d's label set; pos and key locate the set
// for a message.
func (p *jsonlParser) labelSet(d Doc, pos int, key string) (Doc, *Error) {
	if len(p.names) == 0 {
		if key == "" {
			return Doc{}, &Error{Err: ErrNoLabels, Msg: p.Msgf(pos, "the label set is empty")}
		}
		return Doc{}, &Error{Err: ErrNoLabels, Msg: p.Msgf(pos, "the label set %q is empty", key)}
	}
	p.lb.start()
	for k, name := range p.names {
		if strings.IndexByte(name, 0) >= 0 {
			return Doc{}, &Error{Err: ErrBadLabel, Msg: p.Msgf(p.cols[k], "label %q holds a NUL byte", name)}
		}
		if msg := p.lb.add(name); msg != "" {
			return Doc{}, &Error{Err: ErrUnknownLabel, Msg: p.Msgf(p.cols[k], "%s", msg)}
		}
	}
	d.Labels = p.lb.done()
	return d, nil
}

// textValue reads a string, or an array of strings joined by spaces.
func (p *jsonlParser) textValue(key string) (string, *Error) {
	p.SkipSpace()
	switch p.Peek() {
	case '"':
		s, e := p.Str()
		if e != nil {
			return "", lexical(e)
		}
		return s, nil
	case '[':
		p.text.Reset()
		n := 0
		e := p.strings(key, func(s string, _ int) {
			if n > 0 {
				p.text.WriteByte(' ')
			}
			p.text.WriteString(s)
			n++
		})
		return p.text.String(), e
	}
	return "", p.syntax("the value of %q must be a string or an array of strings, found %s", key, p.What())
}

// labelValue reads an array of label names, or a single one, into p.names.
func (p *jsonlParser) labelValue(key string) *Error {
	p.SkipSpace()
	add := func(s string, pos int) {
		p.names = append(p.names, s)
		p.cols = append(p.cols, pos)
	}
	switch p.Peek() {
	case '"':
		pos := p.Pos
		s, e := p.Str()
		if e != nil {
			return lexical(e)
		}
		add(s, pos)
		return nil
	case '[':
		return p.strings(key, add)
	}
	return p.syntax("the value of %q must be an array of label names, found %s", key, p.What())
}

// strings reads an array of strings, calling fn with each and its position.
func (p *jsonlParser) strings(key string, fn func(s string, pos int)) *Error {
	p.Accept('[')
	if p.Accept(']') {
		return nil
	}
	for {
		if p.Peek() != '"' {
			return p.syntax("the elements of %q must be strings, found %s", key, p.What())
		}
		pos := p.Pos
		s, e := p.Str()
		if e != nil {
			return lexical(e)
		}
		fn(s, pos)
		p.SkipSpace()
		if p.Accept(',') {
			continue
		}
		if p.Accept(']') {
			return nil
		}
		return p.syntax("want ',' or ']' in the array of %q, found %s", key, p.Found())
	}
}

// maxDepth bounds the nesting of skipped values.
const maxDepth = 1000

// skipValue moves past one JSON value of any kind, checking its syntax.
func (p *jsonlParser) skipValue(depth int) *Error {
	if depth > maxDepth {
		return p.syntax("values nested more than %d deep", maxDepth)
	}
	p.SkipSpace()
	switch c := p.Peek(); {
	case c == '"':
		if _, e := p.Str(); e != nil {
			return lexical(e)
		}
	case c == '-' || '0' <= c && c <= '9':
		if _, e := p.Number(); e != nil && e.Code != jsonscan.Overflow {
			return lexical(e)
		}
	case c == '{':
		p.Accept('{')
		if p.Accept('}') {
			return nil
		}
		for {
			if p.Peek() != '"' {
				return p.syntax("want a key in double quotes, found %s", p.Found())
			}
			if _, e := p.Str(); e != nil {
				return lexical(e)
			}
			if p.SkipSpace(); !p.Accept(':') {
				return p.syntax("want ':' after a key, found %s", p.Found())
			}
			if e := p.skipValue(depth + 1); e != nil {
				return e
			}
			p.SkipSpace()
			if p.Accept(',') {
				continue
			}
			if p.Accept('}') {
				return nil
			}
			return p.syntax("want ',' or '}' after a value, found %s", p.Found())
		}
	case c == '[':
		p.Accept('[')
		if p.Accept(']') {
			return nil
		}
		for {
			if e := p.skipValue(depth + 1); e != nil {
				return e
			}
			p.SkipSpace()
			if p.Accept(',') {
				continue
			}
			if p.Accept(']') {
				return nil
			}
			return p.syntax("want ',' or ']' after a value, found %s", p.Found())
		}
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if bytes.HasPrefix(p.Line[p.Pos:], []byte(lit)) {
				p.Pos += len(lit)
				return nil
			}
		}
		return p.syntax("want a JSON value, found %s", p.What())
	}
	return nil
}
