package embedding

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf8"
)

// Vectors is a table of word vectors, as read from a text file by ReadVec:
// row i, Data[i*Dim() : (i+1)*Dim()], is the vector of Words[i]. Words are
// distinct. The fields are exported for reading; a Vectors whose Words are
// changed after it was made no longer finds them with Index and Lookup.
// Its methods may be called concurrently.
type Vectors struct {
	Words []string  // the words, in the order of the input
	Data  []float32 // Len()×Dim() values, row-major

	dim   int
	index map[string]int32
}

var _ Source = (*Vectors)(nil)

// NewVectors returns the Vectors whose row i is data[i*dim : (i+1)*dim],
// the vector of words[i]. It keeps words and data, which the caller must
// not change afterwards. It panics if dim < 1 or len(data) is not
// len(words)·dim, and returns an *Error wrapping ErrDuplicate if a word
// appears twice.
func NewVectors(words []string, dim int, data []float32) (*Vectors, error) {
	if dim < 1 {
		panic("embedding: NewVectors: dim < 1")
	}
	if len(data) != len(words)*dim {
		panic("embedding: NewVectors: len(data) is not len(words)·dim")
	}
	if len(words) > math.MaxInt32 {
		panic("embedding: NewVectors: more than 2³¹−1 words")
	}
	v := &Vectors{Words: words, Data: data, dim: dim, index: make(map[string]int32, len(words))}
	for i, w := range words {
		if j, dup := v.index[w]; dup {
			return nil, &Error{Err: ErrDuplicate, Msg: fmt.Sprintf("%q is words[%d] and words[%d]", w, j, i)}
		}
		v.index[w] = int32(i)
	}
	return v, nil
}

// Dim returns the dimension of the vectors.
func (v *Vectors) Dim() int { return v.dim }

// Len returns the number of words.
func (v *Vectors) Len() int { return len(v.Words) }

// Index returns the row of word, and whether it is there. Words are matched
// exactly, byte for byte.
func (v *Vectors) Index(word string) (int, bool) {
	i, ok := v.index[word]
	return int(i), ok
}

// Row returns the vector of row i, sharing v.Data. It panics if i is out of
// range.
func (v *Vectors) Row(i int) []float32 {
	if i < 0 || i >= len(v.Words) {
		panic("embedding: row index out of range")
	}
	return v.Data[i*v.dim : (i+1)*v.dim : (i+1)*v.dim]
}

// Lookup copies the vector of word into dst and returns InVocab, or sets
// dst to zero and returns Missing if word is not in v. It panics if
// len(dst) != v.Dim().
func (v *Vectors) Lookup(dst []float32, word string) Found {
	if len(dst) != v.dim {
		panic("embedding: Lookup: len(dst) != Dim()")
	}
	i, ok := v.index[word]
	if !ok {
		clear(dst)
		return Missing
	}
	copy(dst, v.Data[int(i)*v.dim:])
	return InVocab
}

// ReadVec reads word vectors in the word2vec/fastText text format (see the
// package documentation) from r, until its end. file names the input in
// error messages, which read "FILE:LINE: what is wrong". Invalid input is
// an *Error wrapping one of the sentinel errors; an I/O error is returned
// wrapped with the "FILE:LINE: " prefix.
func ReadVec(r io.Reader, file string) (*Vectors, error) {
	return readVec(bufio.NewReaderSize(r, bufSize), file, remaining(r))
}

// bufSize is the size of the readers' buffers.
const bufSize = 1 << 16

// maxPrealloc bounds the values allocated up front on the word of a header
// when the size of the input is not known: a header that lies cannot make
// ReadVec allocate more than this before the values arrive.
const maxPrealloc = 1 << 22

// readVec reads a text file from br; size is the number of bytes left in
// the input, or -1 if not known.
func readVec(br *bufio.Reader, file string, size int64) (*Vectors, error) {
	if head, _ := br.Peek(4); len(head) == 4 && binary.LittleEndian.Uint32(head) == binMagic {
		return nil, &Error{File: file, Line: 1, Err: ErrNotText,
			Msg: "this is a fastText .bin model, not a text file of word vectors"}
	}
	p := vecParser{file: file, dim: -1}
	lr := lineReader{r: br}
	for {
		line, err := lr.next()
		if err != nil {
			if err == io.EOF {
				break
			}
			if e, ok := err.(*Error); ok {
				e.File, e.Line = file, lr.num
				return nil, e
			}
			return nil, fmt.Errorf("%s:%d: %w", file, lr.num, err)
		}
		if e := p.line(line, lr.num, size); e != nil {
			e.File, e.Line = file, lr.num
			return nil, e
		}
	}
	return p.finish()
}

// vecParser holds the state of ReadVec between lines.
type vecParser struct {
	file     string
	dim      int // -1 until the header or the first row sets it
	header   int // the line of the header, 0 if there is none
	count    int // the word count of the header
	dimLine  int // the line that set dim
	words    []string
	lines    []int32 // lines[i] is the line of word i, for messages
	data     []float32
	index    map[string]int32
	seenLine bool
}

// line parses one line, number num.
func (p *vecParser) line(b []byte, num int, size int64) *Error {
	if num == 1 {
		b = bytes.TrimPrefix(b, bom)
	}
	// Trailing spaces and a CR are tolerated.
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return notText("a NUL byte")
	}
	if !utf8.Valid(b) {
		return notText("bytes that are not UTF-8")
	}
	if len(b) == 0 {
		return nil
	}
	first := !p.seenLine
	p.seenLine = true
	if first {
		if count, dim, ok, e := parseHeader(b); e != nil {
			return e
		} else if ok {
			if dim == 0 {
				return &Error{Err: ErrDimension, Msg: "the header gives dimension 0"}
			}
			p.header, p.count, p.dim, p.dimLine = num, count, dim, num
			// Allocate the values up front when the header is credible:
			// no more than one value per two bytes of input, and at most
			// maxPrealloc if the size of the input is not known.
			n := maxPrealloc
			if size >= 0 {
				n = int(min(size/2, math.MaxInt32))
			}
			if count <= n/dim {
				n = count * dim
			}
			p.data = make([]float32, 0, n)
			p.words = make([]string, 0, n/dim)
			p.lines = make([]int32, 0, n/dim)
			p.index = make(map[string]int32, n/dim)
			return nil
		}
	}
	if p.index == nil {
		p.index = make(map[string]int32)
	}
	sp := bytes.IndexByte(b, ' ')
	if sp == 0 {
		return &Error{Err: ErrSyntax, Msg: "empty word (the line starts with a space)"}
	}
	var word, rest []byte
	if sp < 0 {
		word = b
	} else {
		word, rest = b[:sp], b[sp+1:]
	}
	start := len(p.data)
	nv := 0
	for rest != nil {
		var f []byte
		if i := bytes.IndexByte(rest, ' '); i >= 0 {
			f, rest = rest[:i], rest[i+1:]
		} else {
			f, rest = rest, nil
		}
		nv++
		if len(f) == 0 {
			return &Error{Err: ErrSyntax, Msg: fmt.Sprintf("%q: value %d is empty (values are separated by single spaces)", word, nv)}
		}
		x, err := strconv.ParseFloat(string(f), 32)
		if err == nil && bytes.ContainsAny(f, "_xXpP") {
			err = strconv.ErrSyntax // Go's syntax, no decimal number: 1_0, 0x1p-2
		}
		if err != nil {
			if errors.Is(err, strconv.ErrRange) {
				return &Error{Err: ErrNonFinite, Msg: fmt.Sprintf("%q: value %d, %s, is too large for a float32", word, nv, quote(f))}
			}
			return &Error{Err: ErrSyntax, Msg: fmt.Sprintf("%q: value %d, %s, is not a number", word, nv, quote(f))}
		}
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return &Error{Err: ErrNonFinite, Msg: fmt.Sprintf("%q: value %d is %s", word, nv, quote(f))}
		}
		p.data = append(p.data, float32(x))
	}
	if p.dim < 0 {
		if nv == 0 {
			return &Error{Err: ErrDimension, Msg: fmt.Sprintf("%q has no values", word)}
		}
		p.dim, p.dimLine = nv, num
	}
	if nv != p.dim {
		p.data = p.data[:start]
		from := fmt.Sprintf("the dimension of the first row, line %d", p.dimLine)
		if p.header > 0 {
			from = fmt.Sprintf("the dimension in the header, line %d", p.header)
		}
		return &Error{Err: ErrDimension, Msg: fmt.Sprintf("%q has %d values, want %d (%s)", word, nv, p.dim, from)}
	}
	if j, dup := p.index[string(word)]; dup {
		return &Error{Err: ErrDuplicate, Msg: fmt.Sprintf("%q is already on line %d", word, p.lines[j])}
	}
	if len(p.words) >= math.MaxInt32 {
		return &Error{Err: ErrCount, Msg: "more than 2³¹−1 words"}
	}
	w := string(word)
	p.index[w] = int32(len(p.words))
	p.words = append(p.words, w)
	p.lines = append(p.lines, int32(min(num, math.MaxInt32)))
	return nil
}

// finish checks the whole file once it has been read.
func (p *vecParser) finish() (*Vectors, error) {
	if len(p.words) == 0 {
		e := &Error{File: p.file, Line: p.header, Err: ErrEmpty}
		if p.header > 0 {
			e.Msg = "the file has a header and no rows"
		} else {
			e.Msg = "the file has no lines"
		}
		return nil, e
	}
	if p.header > 0 && len(p.words) != p.count {
		return nil, &Error{File: p.file, Line: p.header, Err: ErrCount,
			Msg: fmt.Sprintf("the header gives %d words, the file has %d", p.count, len(p.words))}
	}
	return &Vectors{Words: p.words, Data: p.data, dim: p.dim, index: p.index}, nil
}

// parseHeader parses b as a header "count dims": two fields of ASCII digits.
// ok is false if b is not of that form.
func parseHeader(b []byte) (count, dim int, ok bool, e *Error) {
	sp := bytes.IndexByte(b, ' ')
	if sp <= 0 || !digits(b[:sp]) || !digits(b[sp+1:]) {
		return 0, 0, false, nil
	}
	c, err1 := strconv.Atoi(string(b[:sp]))
	d, err2 := strconv.Atoi(string(b[sp+1:]))
	if err1 != nil || err2 != nil || c > math.MaxInt32 || d > math.MaxInt32 {
		return 0, 0, false, &Error{Err: ErrSyntax, Msg: fmt.Sprintf("header %q: the numbers are too large", b)}
	}
	return c, d, true, nil
}

// digits reports whether b is a non-empty string of ASCII digits.
func digits(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func notText(what string) *Error {
	return &Error{Err: ErrNotText, Msg: "the line has " + what +
		": is it a binary file? Word vectors come as text (.vec) or as a fastText model (.bin), which starts with fastText's magic number"}
}

// quote quotes b for a message, shortened if long.
func quote(b []byte) string {
	if len(b) > 40 {
		return strconv.Quote(string(b[:32])) + "…"
	}
	return strconv.Quote(string(b))
}

// bom is the UTF-8 byte order mark, skipped at the start of a text file.
var bom = []byte("\ufeff")

// lineReader splits a bufio.Reader into lines of any length, without
// their '\n', and counts them.
type lineReader struct {
	r    *bufio.Reader
	num  int    // the number of the last line returned
	long []byte // a line longer than the buffer
}

// next returns the next line, valid until the next call; io.EOF at the end.
// A line that is longer than the buffer and holds a NUL byte is reported as
// soon as the NUL is seen, so that a binary file is not read whole as one
// line, and a line longer than MaxLine once that much is read.
func (l *lineReader) next() ([]byte, error) {
	b, err := l.r.ReadSlice('\n')
	if err == nil {
		l.num++
		return b[:len(b)-1], nil
	}
	if err == bufio.ErrBufferFull {
		l.long = append(l.long[:0], b...)
		for err == bufio.ErrBufferFull {
			if bytes.IndexByte(b, 0) >= 0 {
				l.num++
				return nil, notText("a NUL byte")
			}
			if len(l.long) > MaxLine+1 {
				l.num++
				return nil, &Error{Err: ErrTooLarge, Msg: fmt.Sprintf("line longer than %d MiB", MaxLine>>20)}
			}
			b, err = l.r.ReadSlice('\n')
			l.long = append(l.long, b...)
		}
		b = l.long
	}
	if err == nil {
		l.num++
		return b[:len(b)-1], nil
	}
	if err == io.EOF && len(b) > 0 {
		l.num++
		return b, nil // the last line, without a newline
	}
	if err != io.EOF {
		l.num++
	}
	return nil, err
}
