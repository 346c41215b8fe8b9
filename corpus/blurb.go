package corpus

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The BlurbGenreCollection files are XML-like but not XML: no root element,
// bare '&' in the text, HTML entities. The reader is lenient where the data
// is, and strict where a mistake would lose data. It reads records
//
//	<book …> <title>…</title> <body>…</body> <copyright>…</copyright>
//	<metadata> <topics> <d0>…</d0> <d1>…</d1> … </topics> <author>…</author> … </metadata> </book>
//
// with their elements in any order. book, metadata and topics hold
// elements; every other element holds text, which runs to its closing tag
// whatever it holds (a bare '<' or '&' is text) and has its entities
// decoded. Elements other than title, body and the genres dN (under topics)
// are read and ignored.

// containers are the elements that hold elements rather than text.
var containers = map[string]bool{"book": true, "metadata": true, "topics": true}

// blurbReader parses one file held in memory.
type blurbReader struct {
	file       string
	data       []byte
	pos        int
	line, lpos int // byte lpos is on line line (1-based); see lineOf
	lb         *labeler
	opts       Options
	doc        Doc // the record read last

	// The record being read.
	next        int // where the next record starts, or len(data)
	title, body string
	hasTitle    bool
	hasBody     bool
	genres      int // number of genre elements read
	recLine     int // line of the record's opening tag

	c  *Corpus // the corpus read, for its depth conflicts
	d0 int     // the depth in the tree of a <d0> genre; -1 before the first genre
}

// newBlurb reads the whole of r (up to MaxBlurb bytes), which the records
// are then read from one by one; c receives the depth conflicts.
func newBlurb(r io.Reader, file string, lb *labeler, opts Options, c *Corpus) (*blurbReader, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxBlurb+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(data) > MaxBlurb {
		return nil, &Error{File: file, Err: ErrTooLarge, Msg: fmt.Sprintf("BlurbGenreCollection records are read whole, up to %d MiB", MaxBlurb>>20)}
	}
	p := &blurbReader{file: file, data: data, line: 1, lb: lb, opts: opts, c: c, d0: -1}
	if err := p.checkText(); err != nil {
		return nil, err
	}
	if p.has(bom) {
		p.pos += len(bom)
	}
	return p, nil
}

// lineOf returns the 1-based line of byte pos.
func (p *blurbReader) lineOf(pos int) int {
	if pos < p.lpos {
		p.line, p.lpos = 1, 0
	}
	p.line += bytes.Count(p.data[p.lpos:pos], []byte{'\n'})
	p.lpos = pos
	return p.line
}

func (p *blurbReader) errAt(pos int, err error, format string, args ...any) *Error {
	return &Error{File: p.file, Line: p.lineOf(pos), Err: err, Msg: fmt.Sprintf(format, args...)}
}

// checkText refuses a file with a NUL byte or bytes that are not UTF-8: a
// binary file, or text in another encoding.
func (p *blurbReader) checkText() error {
	if i := bytes.IndexByte(p.data, 0); i >= 0 {
		return p.errAt(i, ErrFormat, "NUL byte: not a text file")
	}
	if utf8.Valid(p.data) {
		return nil
	}
	for i := 0; i < len(p.data); {
		r, size := utf8.DecodeRune(p.data[i:])
		if r == utf8.RuneError && size == 1 {
			return p.errAt(i, ErrFormat, "byte 0x%02x is not UTF-8 (text in another encoding?)", p.data[i])
		}
		i += size
	}
	return nil
}

func (p *blurbReader) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\r', '\n':
			p.pos++
		default:
			return
		}
	}
}

func (p *blurbReader) has(s string) bool { return bytes.HasPrefix(p.data[p.pos:], []byte(s)) }

// read reads the next record of the file; it returns io.EOF after the
// last.
func (p *blurbReader) read() (Doc, error) {
	for {
		p.skipSpace()
		if p.pos >= len(p.data) {
			return Doc{}, io.EOF
		}
		switch {
		case p.has("<?"): // an XML declaration
			if err := p.skipPast("?>", "<?"); err != nil {
				return Doc{}, err
			}
			continue
		case p.has("<!--"):
			if err := p.skipPast("-->", "<!--"); err != nil {
				return Doc{}, err
			}
			continue
		}
		start := p.pos
		name, self, ok := p.openTag()
		if !ok || name != "book" {
			if p.cutTag(start) {
				return Doc{}, p.errAt(start, ErrSyntax, "the file ends inside the tag %s (a file cut short?)", p.snippet(start))
			}
			return Doc{}, p.errAt(start, ErrSyntax, "want a record <book …>, found %s", p.snippet(start))
		}
		if err := p.book(start, self); err != nil {
			return Doc{}, err
		}
		return p.doc, nil
	}
}

// skipPast moves past the next end, or reports what was opened at pos.
func (p *blurbReader) skipPast(end, what string) error {
	i := bytes.Index(p.data[p.pos:], []byte(end))
	if i < 0 {
		return p.errAt(p.pos, ErrSyntax, "%s… is not closed by %s", what, end)
	}
	p.pos += i + len(end)
	return nil
}

// cutTag reports whether pos holds a '<' with no '>' after it: a tag cut
// off by the end of the file.
func (p *blurbReader) cutTag(pos int) bool {
	return pos < len(p.data) && p.data[pos] == '<' && bytes.IndexByte(p.data[pos:], '>') < 0
}

// snippet quotes the text at pos for a message.
func (p *blurbReader) snippet(pos int) string {
	b := p.data[pos:]
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	if len(b) > 24 {
		n := 24
		for n < len(b) && !utf8.RuneStart(b[n]) {
			n++
		}
		return fmt.Sprintf("%q…", bytes.TrimRight(b[:n], "\r"))
	}
	if len(b) == 0 {
		return "the end of the line"
	}
	return fmt.Sprintf("%q", bytes.TrimRight(b, "\r"))
}

// openTag reads the tag <name …> or <name …/> at pos and moves past it. ok
// is false, and pos unchanged, if pos holds no opening tag.
func (p *blurbReader) openTag() (name string, selfClosing, ok bool) {
	b := p.data[p.pos:]
	if len(b) < 2 || b[0] != '<' || !isNameByte(b[1]) {
		return "", false, false
	}
	j := 1
	for j < len(b) && isNameByte(b[j]) {
		j++
	}
	if j < len(b) && b[j] != '>' && b[j] != '/' && b[j] != ' ' && b[j] != '\t' && b[j] != '\r' && b[j] != '\n' {
		return "", false, false
	}
	gt := bytes.IndexByte(b[j:], '>')
	if gt < 0 || bytes.IndexByte(b[j:j+gt], '<') >= 0 {
		return "", false, false
	}
	gt += j
	p.pos += gt + 1
	return string(b[1:j]), b[gt-1] == '/', true
}

func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == ':' || c == '.'
}

// nextRecord returns the position of the next "<book" tag at or after pos,
// or len(data).
func (p *blurbReader) nextRecord(pos int) int {
	for {
		i := bytes.Index(p.data[pos:], []byte("<book"))
		if i < 0 {
			return len(p.data)
		}
		pos += i
		if k := pos + len("<book"); k >= len(p.data) || p.data[k] == '>' || p.data[k] == ' ' || p.data[k] == '\t' || p.data[k] == '\r' || p.data[k] == '\n' || p.data[k] == '/' {
			return pos
		}
		pos++
	}
}

// book reads a record whose opening tag started at start.
func (p *blurbReader) book(start int, self bool) error {
	p.recLine = p.lineOf(start)
	p.next = p.nextRecord(p.pos)
	p.title, p.body, p.hasTitle, p.hasBody, p.genres = "", "", false, false, 0
	p.lb.start()
	if !self {
		if err := p.children("book", start); err != nil {
			return err
		}
	}
	if !p.hasBody {
		return &Error{File: p.file, Line: p.recLine, Err: ErrNoText, Msg: "the record has no <body>"}
	}
	if p.body == "" && !p.opts.AllowEmpty {
		return &Error{File: p.file, Line: p.recLine, Err: ErrEmptyText, Msg: "the record's <body> is empty"}
	}
	d := Doc{Text: p.body, Line: p.recLine}
	if p.opts.Title && p.title != "" {
		d.Text = p.title + "\n" + p.body
	}
	if !p.opts.Unlabeled {
		if p.genres == 0 {
			return &Error{File: p.file, Line: p.recLine, Err: ErrNoLabels, Msg: "the record has no genres (<topics><d0>…</d0>…</topics>)"}
		}
		d.Labels = p.lb.done()
	}
	p.doc = d
	return nil
}

// children reads the elements of the container parent, opened at start, up
// to its closing tag.
func (p *blurbReader) children(parent string, start int) error {
	closing := "</" + parent + ">"
	for {
		p.skipSpace()
		if p.pos >= p.next {
			if parent == "book" {
				return p.errAt(start, ErrSyntax, "the record is not closed: no </book> before %s", p.where(p.next))
			}
			return p.errAt(start, ErrSyntax, "<%s> is not closed before %s", parent, p.where(p.next))
		}
		if p.has(closing) {
			p.pos += len(closing)
			return nil
		}
		at := p.pos
		if p.cutTag(at) {
			return p.errAt(at, ErrSyntax, "the file ends inside the tag %s (a file cut short?)", p.snippet(at))
		}
		if p.has("</") {
			return p.errAt(at, ErrSyntax, "%s closes no open element (in <%s>)", p.snippet(at), parent)
		}
		if p.has("<!--") {
			if err := p.skipPast("-->", "<!--"); err != nil {
				return err
			}
			continue
		}
		name, self, ok := p.openTag()
		if !ok {
			return p.errAt(at, ErrSyntax, "text outside an element in <%s>: %s", parent, p.snippet(at))
		}
		if name == "book" {
			return p.errAt(start, ErrSyntax, "the record is not closed: no </book> before the next record at line %d (a record cut short?)", p.lineOf(at))
		}
		if containers[name] {
			if !self {
				if err := p.children(name, at); err != nil {
					return err
				}
			}
			continue
		}
		text := ""
		if !self {
			var err error
			if text, err = p.leaf(name, at); err != nil {
				return err
			}
		}
		if err := p.element(parent, name, text, at); err != nil {
			return err
		}
	}
}

// where names position pos for a message: the next record's line, or the
// end of the file.
func (p *blurbReader) where(pos int) string {
	if pos >= len(p.data) {
		return "the end of the file (a file cut short?)"
	}
	return fmt.Sprintf("the next record at line %d", p.lineOf(pos))
}

// leaf returns the raw text of the element name, opened at start, up to its
// closing tag, and moves past that tag. The tag must come before the next
// record.
func (p *blurbReader) leaf(name string, start int) (string, error) {
	closing := "</" + name + ">"
	i := bytes.Index(p.data[p.pos:p.next], []byte(closing))
	if i < 0 {
		return "", p.errAt(start, ErrSyntax, "<%s> is not closed: no %s before %s", name, closing, p.where(p.next))
	}
	text := string(p.data[p.pos : p.pos+i])
	p.pos += i + len(closing)
	return text, nil
}

// element takes in the text element name of parent, opened at start.
func (p *blurbReader) element(parent, name, text string, start int) error {
	switch {
	case parent == "book" && name == "body":
		if p.hasBody {
			return p.errAt(start, ErrSyntax, "a second <body> in the record")
		}
		p.body, p.hasBody = clean(text), true
	case parent == "book" && name == "title":
		if p.hasTitle {
			return p.errAt(start, ErrSyntax, "a second <title> in the record")
		}
		p.title, p.hasTitle = clean(text), true
	case parent == "topics" && !isGenre(name):
		return p.errAt(start, ErrSyntax, "<%s> in <topics>, which holds genres <d0>, <d1>, …", name)
	case parent != "topics" && isGenre(name):
		return p.errAt(start, ErrSyntax, "genre <%s> outside <topics>", name)
	case parent == "topics":
		if p.opts.Unlabeled {
			return nil
		}
		g := clean(text)
		if g == "" {
			return p.errAt(start, ErrNoLabels, "empty genre <%s></%s>", name, name)
		}
		if msg := p.lb.add(g); msg != "" {
			return p.errAt(start, ErrUnknownLabel, "genre %s", msg)
		}
		p.genres++
		p.checkDepth(g, name, start)
	}
	return nil
}

// checkDepth compares the level of genre g, element name (dN), with its
// depth in the tree: the first genre fixes the depth of <d0>.
func (p *blurbReader) checkDepth(g, name string, start int) {
	t := p.lb.t
	if t == nil {
		return
	}
	i, _ := t.Index(g)
	level, err := strconv.Atoi(name[1:])
	if err != nil {
		return // not reached for a level of fewer than 19 digits
	}
	dep := t.Depth(i)
	if p.d0 < 0 {
		p.d0 = dep - level
		return
	}
	if dep == p.d0+level {
		return
	}
	if p.c.DepthConflicts == 0 {
		p.c.FirstDepthConflict = fmt.Sprintf("%s:%d: genre %q is <%s>, but at depth %d of the tree, where <d%d> genres are at depth %d",
			p.file, p.lineOf(start), g, name, dep, level, p.d0+level)
	}
	p.c.DepthConflicts++
}

// isGenre reports whether name is d0, d1, …
func isGenre(name string) bool {
	if len(name) < 2 || name[0] != 'd' {
		return false
	}
	for _, c := range name[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// clean decodes the entities of text, turns CRLF into LF and trims white
// space at both ends.
func clean(text string) string {
	if strings.IndexByte(text, '&') >= 0 {
		text = unescape(text)
	}
	if strings.IndexByte(text, '\r') >= 0 {
		text = strings.ReplaceAll(text, "\r\n", "\n")
	}
	return strings.TrimSpace(text)
}

// unescape decodes the character references of text that end with a
// semicolon: named ones (HTML's, which include XML's: &amp; &quot; &shy;)
// and numeric ones (&#39; &#x2019;). Anything else stays as it is: a bare
// '&', and the legacy HTML references without a semicolon that a browser
// would decode ("Salt &not" is not "Salt ¬").
func unescape(text string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(text); i++ {
		if text[i] != '&' {
			continue
		}
		j := i + 1
		for j < len(text) && j-i <= 32 && (isNameByte(text[j]) || text[j] == '#') {
			j++
		}
		if j >= len(text) || text[j] != ';' || j == i+1 {
			continue
		}
		ref := text[i : j+1]
		dec := html.UnescapeString(ref)
		if dec == ref || dec != ";" && strings.HasSuffix(dec, ";") {
			// Not a reference HTML knows; or, like "&notanentity;", a
			// longer name that begins with a legacy one.
			continue
		}
		b.WriteString(text[last:i])
		b.WriteString(dec)
		last = j + 1
		i = j
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}
