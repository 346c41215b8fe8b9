package jsonscan

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"

	"github.com/twl-ldl/twl/internal/fileerr"
	"github.com/twl-ldl/twl/internal/human"
)

// MaxLine is the longest line that Lines reads unless told otherwise
// (SetMax): 64 MiB, its line ending not counted.
const MaxLine = 64 << 20

// LineError is the error of a line longer than the longest read. It wraps
// fileerr.ErrTooLarge.
type LineError struct{ Max int }

func (e *LineError) Error() string {
	return fmt.Sprintf("line longer than %s (%d bytes), the longest read", human.Bytes(float64(e.Max)), e.Max)
}

func (e *LineError) Unwrap() error { return fileerr.ErrTooLarge }

// BOM is the UTF-8 byte order mark, which Lines removes from the first
// line.
const BOM = "\xef\xbb\xbf"

// Lines reads the lines of JSON Lines input that are not blank (empty or
// only JSON white space), up to MaxLine bytes long (SetMax sets another
// limit); a longer line ends the reading with a *LineError once its first
// bytes past the limit are read, so that it is never held whole. A line ends with "\n" or at the end
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
	max  int // the longest line, 0 for MaxLine
	eof  bool
	err  error
}

// SetMax sets the longest line read to n bytes (n > 0), its line ending not
// counted. Call it before Next.
func (l *Lines) SetMax(n int) {
	if n <= 0 {
		panic("jsonscan: SetMax of a length that is not positive")
	}
	l.max = n
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
	max := l.max
	if max == 0 {
		max = MaxLine
	}
	for !l.eof && l.err == nil {
		b, err := readLine(&l.br, &l.buf, max)
		l.num++
		switch {
		case err == io.EOF:
			l.eof = true
		case err != nil:
			l.err = err
			return false
		}
		l.line, l.col0 = trimLine(b, l.num == 1)
		if len(l.line) > max {
			l.err = &LineError{Max: max}
			return false
		}
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
// is gathered in *buf, which readLine keeps for the next calls, and past
// *buf's capacity in blocks of lineBlock bytes, copied once into a larger
// *buf at the end of the line. A line longer than longest bytes and its
// line ending ends the gathering with a *LineError, the rest unread: it
// has taken about longest bytes, and no copy. Other errors are br's.
func readLine(br *bufio.Reader, buf *[]byte, longest int) ([]byte, error) {
	frag, err := br.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return frag, err
	}
	most := longest + len(BOM) + 2 // the line, its ending and a byte order mark
	if len(frag) > most {
		return nil, &LineError{Max: longest}
	}
	b := append((*buf)[:0], frag...)
	*buf = b
	var blocks [][]byte // the line past cap(b)
	total := len(frag)
	for err == bufio.ErrBufferFull {
		frag, err = br.ReadSlice('\n')
		if total += len(frag); total > most {
			return nil, &LineError{Max: longest}
		}
		if blocks == nil && len(b)+len(frag) <= cap(b) {
			b = append(b, frag...)
			continue
		}
		for len(frag) > 0 {
			if len(blocks) == 0 || len(blocks[len(blocks)-1]) == lineBlock {
				blocks = append(blocks, make([]byte, 0, lineBlock))
			}
			last := &blocks[len(blocks)-1]
			n := min(len(frag), lineBlock-len(*last))
			*last = append(*last, frag[:n]...)
			frag = frag[n:]
		}
	}
	if blocks != nil {
		b = slices.Grow(b, total-len(b))
		for _, blk := range blocks {
			b = append(b, blk...)
		}
	}
	*buf = b
	return b, err
}

// lineBlock is the size of the blocks that gather a line longer than the
// reader's buffer.
const lineBlock = 1 << 20

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
