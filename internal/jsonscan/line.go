package jsonscan

import (
	"bufio"
	"bytes"
	"io"
)

// BOM is the UTF-8 byte order mark, which Lines removes from the first
// line.
const BOM = "\xef\xbb\xbf"

// Lines reads the lines of JSON Lines input that are not blank (empty or
// only JSON white space), of any length. A line ends with "\n" or at the end
// of the input, and a '\r' before its end is removed with it (CRLF line
// endings), as is a byte order mark at the start of the input. Its use is
// that of bufio.Scanner:
//
//	lines := NewLines(r)
//	for lines.Next() {
//		b, col0 := lines.Line()
//		...
//	}
//	if err := lines.Err(); err != nil { ... }
type Lines struct {
	br   bufio.Reader // by value: see NewLines
	buf  []byte       // holds lines longer than br's buffer
	line []byte
	col0 int
	num  int
	eof  bool
	err  error
}

// NewLines returns a Lines that reads from r through a 64 KiB buffer. It
// returns the Lines by value, so that it can live on the caller's stack;
// do not copy it once Next has been called.
func NewLines(r io.Reader) Lines {
	// A new bufio.Reader of that size, copied before anything refers to it.
	l := Lines{br: *bufio.NewReaderSize(nil, 64<<10)}
	l.br.Reset(r)
	return l
}

// Next advances to the next line that is not blank and reports whether
// there is one. It returns false at the end of the input or on a read
// error, which Err returns.
func (l *Lines) Next() bool {
	for !l.eof && l.err == nil {
		b, err := readLine(&l.br, &l.buf)
		l.num++
		switch {
		case err == io.EOF:
			l.eof = true
		case err != nil:
			l.err = err
			return false
		}
		l.line, l.col0 = trimLine(b, l.num == 1)
		if !blank(l.line) {
			return true
		}
	}
	return false
}

// Line returns the current line without its line ending, valid until the
// next call to Next, and col0, the number of bytes before it on its
// physical line (those of a byte order mark), for Scanner.Reset.
func (l *Lines) Line() (b []byte, col0 int) { return l.line, l.col0 }

// Num returns the 1-based number of the current physical line, blank lines
// included; after a read error, that of the line being read.
func (l *Lines) Num() int { return l.num }

// Err returns the read error that stopped Next, or nil at the end of the
// input.
func (l *Lines) Err() error { return l.err }

// readLine returns the next line of br, with its '\n' if it has one, and
// io.EOF at the end of the input. A line that fits in br's buffer is
// returned without a copy, valid until the next read from br; a longer one
// is gathered in *buf, which readLine grows and keeps for the next calls.
// Other errors are br's.
func readLine(br *bufio.Reader, buf *[]byte) ([]byte, error) {
	frag, err := br.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return frag, err
	}
	b := append((*buf)[:0], frag...)
	for err == bufio.ErrBufferFull {
		frag, err = br.ReadSlice('\n')
		b = append(b, frag...)
	}
	*buf = b
	return b, err
}

// trimLine removes a final '\n', then a final '\r', from line b and, if
// first is set, a byte order mark at its start. It returns what is left and
// the number of bytes removed at the start (0 or len(BOM)).
func trimLine(b []byte, first bool) (line []byte, col0 int) {
	if first && bytes.HasPrefix(b, []byte(BOM)) {
		b = b[len(BOM):]
		col0 = len(BOM)
	}
	b = bytes.TrimSuffix(b, []byte{'\n'})
	b = bytes.TrimSuffix(b, []byte{'\r'})
	return b, col0
}

// blank reports whether b holds nothing but JSON white space.
func blank(b []byte) bool { return skipSpace(b, 0) == len(b) }

// skipSpace returns the index of the first byte of b at or after i that is
// not JSON white space (space, tab, CR, LF).
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
