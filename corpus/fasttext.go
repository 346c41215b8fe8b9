package corpus

import (
	"bytes"
	"fmt"
	"io"
	"iter"

	"github.com/twl-ldl/twl/internal/jsonscan"
)

// fastTextReader reads fastText's supervised format, one document per
// line, as fastText reads it (Dictionary::getLine): the line is split into
// words at white space (space, tab, vertical tab, form feed, CR and NUL),
// and every word that starts with the label prefix is a label, wherever it
// is on the line; the other words, joined by single spaces, are the text.
//
//	__label__sports __label__sports.football The match ended 2 - 1 .
//
// Lines without a word are skipped.
type fastTextReader struct {
	file   string
	lines  jsonscan.Lines
	lb     *labeler
	opts   Options
	prefix []byte
	text   []byte
}

func newFastText(r io.Reader, file string, lb *labeler, opts Options) *fastTextReader {
	return &fastTextReader{file: file, lines: jsonscan.NewLines(r), lb: lb, opts: opts, prefix: []byte(opts.LabelPrefix)}
}

// isSpace reports whether c separates words for fastText
// (Dictionary::readWord).
func isSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\v', '\f', '\r', '\n', 0:
		return true
	}
	return false
}

// words yields the start and end of each word of b.
func words(b []byte) iter.Seq[[2]int] {
	return func(yield func([2]int) bool) {
		for i := 0; i < len(b); {
			for i < len(b) && isSpace(b[i]) {
				i++
			}
			j := i
			for j < len(b) && !isSpace(b[j]) {
				j++
			}
			if j > i && !yield([2]int{i, j}) {
				return
			}
			i = j
		}
	}
}

// read reads the next document; it returns io.EOF after the last.
func (p *fastTextReader) read() (Doc, error) {
	for p.lines.Next() {
		b, col0 := p.lines.Line()
		line := p.lines.Num()
		fail := func(e *Error) (Doc, error) {
			e.File, e.Line = p.file, line
			return Doc{}, e
		}
		if e := checkUTF8(b, col0); e != nil {
			return fail(e)
		}
		p.text = p.text[:0]
		p.lb.start()
		nw, nl := 0, 0
		for w := range words(b) {
			word := b[w[0]:w[1]]
			nw++
			if !bytes.HasPrefix(word, p.prefix) {
				if len(p.text) > 0 {
					p.text = append(p.text, ' ')
				}
				p.text = append(p.text, word...)
				continue
			}
			nl++
			if p.opts.Unlabeled {
				continue
			}
			name := word[len(p.prefix):]
			col := col0 + w[0] + 1
			if len(name) == 0 {
				return fail(&Error{Err: ErrSyntax, Msg: fmt.Sprintf("column %d: %q names no label", col, word)})
			}
			if msg := p.lb.add(string(name)); msg != "" {
				return fail(&Error{Err: ErrUnknownLabel, Msg: fmt.Sprintf("column %d: %s", col, msg)})
			}
		}
		if nw == 0 {
			continue // white space alone
		}
		if len(p.text) == 0 && !p.opts.AllowEmpty {
			return fail(&Error{Err: ErrEmptyText, Msg: "the line has labels but no text"})
		}
		d := Doc{Text: string(p.text), Line: line}
		if p.opts.Unlabeled {
			return d, nil
		}
		if nl == 0 {
			return fail(&Error{Err: ErrNoLabels, Msg: fmt.Sprintf("no label (a word %sNAME) on the line", p.prefix)})
		}
		d.Labels = p.lb.done()
		return d, nil
	}
	if err := p.lines.Err(); err != nil {
		return Doc{}, fmt.Errorf("%s:%d: %w", p.file, p.lines.Num(), err)
	}
	return Doc{}, io.EOF
}
