package distmat

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/twl-ldl/twl/internal/fileerr"
	"github.com/twl-ldl/twl/internal/hugepage"
)

// ErrInvalid is wrapped by the errors of a matrix file that cannot be read
// (a *fileerr.Error naming the file and, in a TSV file, the line).
var ErrInvalid = errors.New("invalid matrix file")

// Matrix is a square matrix of distances between named samples, read from
// a file.
type Matrix struct {
	IDs []string
	// D holds the N×N values row after row: D[i*N+j] is the value in row
	// IDs[i], column IDs[j].
	D []float64
	// Lines[i] is the 1-based line of row i in a TSV file (nil for NPY),
	// for messages about the values.
	Lines []int
}

// ReadFile reads the matrix file name: NPY, with its ids from the sidecar
// file IDsPath(name), for a name ending in .npy; TSV otherwise.
func ReadFile(name string, opts *Options) (*Matrix, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if FormatOf(name) != NPY {
		return Read(f, name, opts)
	}
	idsName := IDsPath(name)
	g, err := os.Open(idsName)
	if err != nil {
		return nil, fmt.Errorf("%w (the sample ids of %s)", err, name)
	}
	defer g.Close()
	ids, err := ReadIDs(g, idsName)
	if err != nil {
		return nil, err
	}
	return ReadNPY(f, name, ids)
}

// sizeOf returns the number of bytes left in r when r can tell (a regular
// file, a bytes.Reader or strings.Reader), or −1.
func sizeOf(r io.Reader) int64 {
	switch v := r.(type) {
	case interface{ Len() int }:
		return int64(v.Len())
	case *os.File:
		st, err := v.Stat()
		if err != nil || !st.Mode().IsRegular() {
			return -1
		}
		pos, err := v.Seek(0, io.SeekCurrent)
		if err != nil {
			return -1
		}
		return st.Size() - pos
	}
	return -1
}

// Read reads a matrix in the TSV layout (see the package documentation) from
// r, as scikit-bio's DistanceMatrix.read (format "lsmat") and QIIME 2 read
// it: lines before the header that are blank or start with '#' are
// skipped; the header is a tab, then the ids, tab-separated; then a line a
// row, its id (the header's ids in order) and N values separated by tabs;
// blank lines are skipped; spaces around cells and at the end of a line
// are ignored. The values must be finite numbers. name is the file name
// used in errors, which are *fileerr.Error values wrapping ErrInvalid,
// with the 1-based line.
//
// Read parses the rows on Options.Workers goroutines (≤ 0: all cores); the
// result does not depend on their number, nor does the error reported,
// which is the one of the earliest line at fault. Its memory is the matrix,
// 8·N² bytes, and a few blocks of text, allocated once the header is read;
// the header's N is checked against the size of the input first when r
// tells it (a file, a bytes.Reader), and otherwise r is read whole before
// it is parsed.
func Read(r io.Reader, name string, opts *Options) (*Matrix, error) {
	size := sizeOf(r)
	if size < 0 {
		b, err := io.ReadAll(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		r, size = bytes.NewReader(b), int64(len(b))
	}
	workers := 0
	if opts != nil {
		workers = opts.Workers
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	p := &tsvReader{r: r, name: name, size: size, workers: workers}
	return p.read()
}

// readBlock is the size of the blocks of text read at a time (a variable
// for the tests); a block grows to hold at least two lines.
var readBlock = 4 << 20

// tsvReader reads a TSV matrix: one goroutine reads blocks of whole lines
// and checks each row's id, workers parse the values.
type tsvReader struct {
	r       io.Reader
	name    string
	size    int64
	workers int

	ids   []string
	d     []float64
	lines []int

	free chan []byte // blocks whose lines are all parsed
	made int         // blocks allocated

	mu      sync.Mutex
	errLine int // the earliest line at fault so far (0: none)
	err     error
	failed  atomic.Bool
}

// fail records err for line, keeping the earliest line's.
func (p *tsvReader) fail(line int, format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.errLine == 0 || line < p.errLine {
		p.errLine = line
		p.err = &fileerr.Error{File: p.name, Line: line, Err: ErrInvalid, Msg: fmt.Sprintf(format, args...)}
	}
	p.failed.Store(true)
}

// job is one row to parse: the text after its id.
type job struct {
	text       []byte
	row, line  int
	blockLeft  *atomic.Int32
	blockBytes []byte
}

func (p *tsvReader) read() (*Matrix, error) {
	p.free = make(chan []byte, p.workers+2)
	jobs := make(chan job, 64)
	var wg sync.WaitGroup
	for range p.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				p.parseRow(j)
				if j.blockLeft.Add(-1) == 0 {
					p.free <- j.blockBytes
				}
			}
		}()
	}
	rows, lastLine, err := p.split(jobs)
	close(jobs)
	wg.Wait()
	if p.err != nil {
		return nil, p.err
	}
	if err != nil {
		return nil, err
	}
	if p.ids == nil {
		return nil, &fileerr.Error{File: p.name, Err: ErrInvalid, Msg: "no header line of sample ids (the file is empty, or holds only comments)"}
	}
	if rows != len(p.ids) {
		return nil, &fileerr.Error{File: p.name, Line: lastLine, Err: ErrInvalid,
			Msg: fmt.Sprintf("the file ends after %d rows; the header names %d samples", rows, len(p.ids))}
	}
	return &Matrix{IDs: p.ids, D: p.d, Lines: p.lines}, nil
}

// block returns an empty block of at least n bytes.
func (p *tsvReader) block(n int) []byte {
	for {
		select {
		case b := <-p.free:
			if cap(b) >= n {
				return b[:cap(b)]
			}
			p.made-- // too small: dropped
			continue
		default:
		}
		if p.made < p.workers+2 {
			p.made++
			return make([]byte, max(n, readBlock))
		}
		b := <-p.free
		if cap(b) >= n {
			return b[:cap(b)]
		}
		p.made--
	}
}

// split reads r block by block, finds the header and the rows, checks each
// row's id and sends the rows to jobs. It returns the number of rows and
// the number of lines read, or an error of its own (one of the input).
func (p *tsvReader) split(jobs chan<- job) (rows, line int, err error) {
	var carry []byte // the start of a line the last block cut
	eof := false
	for !eof && !p.failed.Load() {
		buf := p.block(2 * len(carry))
		n := copy(buf, carry)
		for n < len(buf) {
			m, rerr := p.r.Read(buf[n:])
			n += m
			if rerr == io.EOF {
				eof = true
				break
			}
			if rerr != nil {
				return rows, line, fmt.Errorf("%s: %w", p.name, rerr)
			}
		}
		text := buf[:n]
		end := bytes.LastIndexByte(text, '\n') + 1
		if eof {
			end = n
		}
		if end == 0 { // a line longer than the block: a larger one
			carry = append(carry[:0], text...)
			p.free <- buf
			continue
		}
		carry = append(carry[:0], text[end:]...)
		left := new(atomic.Int32)
		left.Store(1) // held until every row of the block is sent
		for s := text[:end]; len(s) > 0; {
			i := bytes.IndexByte(s, '\n')
			var ln []byte
			if i < 0 {
				ln, s = s, nil
			} else {
				ln, s = s[:i], s[i+1:]
			}
			line++
			if p.ids == nil {
				if err := p.header(ln, line); err != nil {
					return rows, line, err
				}
				continue
			}
			ln = trimRight(ln)
			if len(trimLeft(ln)) == 0 {
				continue
			}
			if rows == len(p.ids) {
				p.fail(line, "a row beyond the %d the header names", rows)
				break
			}
			idText, rest, _ := bytes.Cut(ln, []byte{'\t'})
			if id := string(trimLeft(trimRight(idText))); id != p.ids[rows] {
				p.fail(line, "row %d is %q, but the header's sample %d is %q (rows must follow the header's order)", rows+1, trunc(id), rows+1, p.ids[rows])
				break
			}
			p.lines[rows] = line
			left.Add(1)
			jobs <- job{text: rest, row: rows, line: line, blockLeft: left, blockBytes: buf}
			rows++
		}
		if left.Add(-1) == 0 {
			p.free <- buf
		}
	}
	return rows, line, nil
}

// header reads line ln, number line, as the header if it is one: not blank
// and not a comment.
func (p *tsvReader) header(ln []byte, line int) error {
	fail := func(format string, args ...any) error {
		return &fileerr.Error{File: p.name, Line: line, Err: ErrInvalid, Msg: fmt.Sprintf(format, args...)}
	}
	if line == 1 {
		ln = bytes.TrimPrefix(ln, []byte("\ufeff"))
	}
	ln = trimRight(ln)
	if t := trimLeft(ln); len(t) == 0 || t[0] == '#' {
		return nil
	}
	if ln[0] != '\t' {
		return fail("the header must start with a tab, then the sample ids (the layout of ssu and scikit-bio)")
	}
	cells := strings.Split(string(ln[1:]), "\t")
	seen := make(map[string]bool, len(cells))
	for k, c := range cells {
		c = string(trimLeft(trimRight([]byte(c))))
		switch {
		case c == "":
			return fail("sample id %d is empty", k+1)
		case strings.IndexByte(c, 0) >= 0:
			return fail("sample id %d holds a NUL byte", k+1)
		case seen[c]:
			return fail("sample id %q appears twice", trunc(c))
		}
		seen[c] = true
		cells[k] = c
	}
	n := len(cells)
	// A row holds at least an id, n tabs and n digits: an input of size
	// bytes holds at most about √(size/2) rows of them.
	if need := 2 * float64(n) * float64(n); need > float64(p.size) {
		return fail("the header names %d samples, but the input (%d bytes) is too short for their %d×%d matrix", n, p.size, n, n)
	}
	p.ids = cells
	p.d = make([]float64, n*n)
	// Written once, soon: huge pages spare a page fault every 4 KiB.
	hugepage.Advise(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(p.d))), 8*len(p.d)))
	p.lines = make([]int, n)
	return nil
}

// parseRow parses the values of row j.row.
func (p *tsvReader) parseRow(j job) {
	if p.failed.Load() && j.line > p.firstBad() {
		return
	}
	n := len(p.ids)
	row := p.d[j.row*n : (j.row+1)*n]
	s := j.text
	k := 0
	for len(s) > 0 {
		if k == n {
			p.fail(j.line, "row %q has more than the %d values the header names", trunc(p.ids[j.row]), n)
			return
		}
		v, used, ok := fastFloat(s)
		if !ok {
			used = bytes.IndexByte(s, '\t')
			if used < 0 {
				used = len(s)
			}
			cell := s[:used]
			if v, ok = parseFloat(cell); !ok {
				t := string(trimLeft(trimRight(cell)))
				if _, err := strconv.ParseFloat(t, 64); err == nil || errors.Is(err, strconv.ErrRange) {
					p.fail(j.line, "row %q, column %d (%q): %s is not a finite number", trunc(p.ids[j.row]), k+1, trunc(p.ids[k]), trunc(t))
				} else {
					p.fail(j.line, "row %q, column %d (%q): %q is not a number", trunc(p.ids[j.row]), k+1, trunc(p.ids[k]), trunc(t))
				}
				return
			}
		}
		row[k] = v
		k++
		if used == len(s) {
			break
		}
		s = s[used+1:] // after the tab
	}
	if k < n {
		p.fail(j.line, "row %q has %d values; the header names %d samples", trunc(p.ids[j.row]), k, n)
	}
}

// firstBad returns the earliest line at fault so far.
func (p *tsvReader) firstBad() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.errLine
}

// exact10 holds the powers of ten that float64 represents exactly.
var exact10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// fastFloat parses a plain decimal number, [+-]digits[.digits][e[+-]digits],
// at the start of s and ending at a tab or the end of s, of at most 19
// digits and a power of ten of at most 27 either way: the values of ssu's,
// scikit-bio's and twl's TSV output. A significand of at most 2⁵³ and a
// power of at most 22 take one correctly rounded multiplication or
// division (Clinger 1990); the others are divided or multiplied by 5^k in
// 128-bit integers and rounded from the exact bits. It reports how many
// bytes it read, and false for anything else (more digits, spaces, inf,
// nan, hex), which strconv.ParseFloat then reads: the value is strconv's,
// the correctly rounded one, bit for bit, either way. Eight digits of a fraction at a
// time are checked and converted in one 64-bit word (the SWAR method of
// simdjson, Lemire and Langdale 2019).
func fastFloat(s []byte) (float64, int, bool) {
	i := 0
	neg := false
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		i++
	}
	var m uint64
	digits, exp := 0, 0
	for ; i < len(s); i++ {
		c := s[i] - '0'
		if c > 9 {
			break
		}
		m = m*10 + uint64(c)
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for ; i+8 <= len(s); i += 8 {
			v := binary.LittleEndian.Uint64(s[i:])
			if !eightDigits(v) {
				break
			}
			m = m*100000000 + uint64(eightValue(v))
			digits += 8
			exp -= 8
		}
		for ; i < len(s); i++ {
			c := s[i] - '0'
			if c > 9 {
				break
			}
			m = m*10 + uint64(c)
			digits++
			exp--
		}
	}
	if digits == 0 || digits > 19 { // more than 19 digits may have wrapped m
		return 0, 0, false
	}
	if i < len(s) && s[i]|0x20 == 'e' {
		i++
		eneg := false
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			eneg = s[i] == '-'
			i++
		}
		e, ed := 0, 0
		for ; i < len(s); i++ {
			c := s[i] - '0'
			if c > 9 {
				break
			}
			if e < 1e4 {
				e = e*10 + int(c)
			}
			ed++
		}
		if ed == 0 {
			return 0, 0, false
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if i < len(s) && s[i] != '\t' || exp < -27 || exp > 27 {
		return 0, 0, false
	}
	var f float64
	switch {
	case m == 0:
	case m <= 1<<53 && exp < 0 && exp >= -22:
		f = float64(m) / exact10[-exp]
	case m <= 1<<53 && exp >= 0 && exp <= 22:
		f = float64(m) * exact10[exp]
	case exp < 0:
		f = quotient(m, -exp)
	default:
		f = product(m, exp)
	}
	if neg {
		f = -f
	}
	return f, i, true
}

// pow5 holds 5⁰ … 5²⁷, the powers of five below 2⁶⁴.
var pow5 = func() (p [28]uint64) {
	p[0] = 1
	for k := 1; k < len(p); k++ {
		p[k] = 5 * p[k-1]
	}
	return p
}()

// quotient returns m/10^k correctly rounded (to nearest, ties to even),
// for m > 0 and 0 < k ≤ 27: m/10^k = (m/5^k)·2^−k, and m·2^s/5^k is
// divided in 128-bit integers with s chosen for a quotient of 54 to 56
// bits, its remainder kept as a sticky bit.
func quotient(m uint64, k int) float64 {
	d := pow5[k]
	s := max(0, 55-bits.Len64(m)+bits.Len64(d))
	hi, lo := shl128(m, s)
	q, r := bits.Div64(hi, lo, d) // hi < d: the quotient is below 2⁵⁶, or m/d when s = 0
	return round54(q, r != 0, -s-k)
}

// product returns m·10^k correctly rounded, for m > 0 and 0 ≤ k ≤ 27:
// m·5^k in 128-bit integers, then scaled by 2^k.
func product(m uint64, k int) float64 {
	hi, lo := bits.Mul64(m, pow5[k])
	if hi == 0 {
		return round54(lo, false, k)
	}
	shift := bits.Len64(hi) // drop the low shift bits into the sticky bit
	sticky := lo&(1<<shift-1) != 0
	return round54(hi<<(64-shift)|lo>>shift, sticky, k+shift)
}

// round54 returns (q + δ)·2^e correctly rounded, where 0 ≤ δ < 1 is not 0
// exactly when sticky is set: q is cut to 54 bits (53 and a rounding bit),
// the bits cut going into sticky, then rounded half to even. The result
// must be a normal float64 (it is, for the numbers fastFloat passes).
func round54(q uint64, sticky bool, e int) float64 {
	if l := bits.Len64(q); l > 54 {
		cut := l - 54
		sticky = sticky || q&(1<<cut-1) != 0
		q >>= cut
		e += cut
	} else if l <= 53 && !sticky {
		return math.Ldexp(float64(q), e) // exact
	} else if l < 54 {
		q <<= 54 - l
		e -= 54 - l
	}
	mant := q >> 1
	if q&1 == 1 && (sticky || mant&1 == 1) {
		mant++
	}
	return math.Ldexp(float64(mant), e+1)
}

// shl128 returns m·2^s as a 128-bit number, for 0 ≤ s < 128.
func shl128(m uint64, s int) (hi, lo uint64) {
	switch {
	case s == 0:
		return 0, m
	case s < 64:
		return m >> (64 - s), m << s
	}
	return m << (s - 64), 0
}

// eightDigits reports whether the 8 bytes of v (little-endian) are all
// ASCII digits.
func eightDigits(v uint64) bool {
	return (v&0xF0F0F0F0F0F0F0F0)|((v+0x0606060606060606)&0xF0F0F0F0F0F0F0F0)>>4 == 0x3333333333333333
}

// eightValue returns the number the 8 ASCII digits of v (little-endian, the
// first digit in the low byte) write.
func eightValue(v uint64) uint32 {
	const mask = 0x000000FF000000FF
	const mul1 = 100 + 1000000<<32
	const mul2 = 1 + 10000<<32
	v -= 0x3030303030303030
	v = v*10 + v>>8
	return uint32(((v&mask)*mul1 + (v>>16&mask)*mul2) >> 32)
}

// parseFloat parses a cell (spaces around it allowed) as a finite float64.
func parseFloat(b []byte) (float64, bool) {
	if len(b) > 0 && (b[0] == ' ' || b[len(b)-1] == ' ' || b[len(b)-1] == '\r') {
		b = trimLeft(trimRight(b))
	}
	if len(b) == 0 {
		return 0, false
	}
	v, err := strconv.ParseFloat(unsafe.String(&b[0], len(b)), 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	return v, true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

func trimRight(b []byte) []byte {
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func trimLeft(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	return b
}

// ReadIDs reads the sidecar file of an NPY matrix: one sample id a line
// (spaces around it and blank lines at the end ignored).
func ReadIDs(r io.Reader, name string) ([]string, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	text := strings.TrimRight(string(b), " \t\r\n")
	if text == "" {
		return nil, &fileerr.Error{File: name, Err: ErrInvalid, Msg: "no sample ids"}
	}
	ids := strings.Split(text, "\n")
	seen := make(map[string]int, len(ids))
	for i, id := range ids {
		id = strings.TrimSpace(id)
		fail := func(msg string) error { return &fileerr.Error{File: name, Line: i + 1, Err: ErrInvalid, Msg: msg} }
		switch {
		case id == "":
			return nil, fail("an empty sample id")
		case strings.ContainsAny(id, "\t\x00"):
			return nil, fail(fmt.Sprintf("sample id %q holds a tab or a NUL byte", trunc(id)))
		}
		if l, ok := seen[id]; ok {
			return nil, fail(fmt.Sprintf("sample id %q appears twice (first on line %d)", trunc(id), l))
		}
		seen[id] = i + 1
		ids[i] = id
	}
	return ids, nil
}

// ReadNPY reads a matrix in NumPy's .npy format (version 1, 2 or 3): an
// N×N array of little-endian float64 ('<f8') or float32 ('<f4') values, in
// C or Fortran order; ids are its N sample ids. The values must be finite.
func ReadNPY(r io.Reader, name string, ids []string) (*Matrix, error) {
	if sizeOf(r) < 0 { // a pipe: read whole, so that its size bounds the matrix
		b, err := io.ReadAll(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		r = bytes.NewReader(b)
	}
	fail := func(format string, args ...any) error {
		return &fileerr.Error{File: name, Err: ErrInvalid, Msg: fmt.Sprintf(format, args...)}
	}
	var pre [10]byte
	if _, err := io.ReadFull(r, pre[:8]); err != nil {
		return nil, fail("not an NPY file (too short)")
	}
	if string(pre[:6]) != "\x93NUMPY" {
		return nil, fail("not an NPY file (no \\x93NUMPY at the start)")
	}
	var hlen int
	switch pre[6] {
	case 1:
		if _, err := io.ReadFull(r, pre[8:10]); err != nil {
			return nil, fail("the header is cut short")
		}
		hlen = int(binary.LittleEndian.Uint16(pre[8:10]))
	case 2, 3:
		var l [4]byte
		if _, err := io.ReadFull(r, l[:]); err != nil {
			return nil, fail("the header is cut short")
		}
		hlen = int(binary.LittleEndian.Uint32(l[:]))
		if hlen > 1<<20 {
			return nil, fail("a header of %d bytes", hlen)
		}
	default:
		return nil, fail("NPY version %d.%d, not 1, 2 or 3", pre[6], pre[7])
	}
	head := make([]byte, hlen)
	if _, err := io.ReadFull(r, head); err != nil {
		return nil, fail("the header is cut short")
	}
	descr, fortran, shape, err := npyDict(string(head))
	if err != nil {
		return nil, fail("header %s: %v", trunc(strings.TrimSpace(string(head))), err)
	}
	var width int
	switch descr {
	case "<f8":
		width = 8
	case "<f4":
		width = 4
	default:
		return nil, fail("values of type %q; a matrix is read as little-endian float64 ('<f8') or float32 ('<f4')", descr)
	}
	if len(shape) != 2 || shape[0] != shape[1] {
		return nil, fail("an array of shape %v, not a square matrix", shape)
	}
	n := shape[0]
	if n != len(ids) {
		return nil, fail("a %d×%d matrix for %d sample ids", n, n, len(ids))
	}
	if size := sizeOf(r); size < int64(width)*int64(n)*int64(n) {
		return nil, fail("the values are cut short: %d bytes for %d×%d values of %d bytes", size, n, n, width)
	}
	d := make([]float64, n*n)
	buf := make([]byte, 1<<16)
	for k := 0; k < len(d); {
		m := min(len(buf)/width, len(d)-k)
		if _, err := io.ReadFull(r, buf[:m*width]); err != nil {
			return nil, fail("the values are cut short after %d of %d", k, len(d))
		}
		for t := range m {
			if width == 8 {
				d[k+t] = math.Float64frombits(binary.LittleEndian.Uint64(buf[8*t:]))
			} else {
				d[k+t] = float64(math.Float32frombits(binary.LittleEndian.Uint32(buf[4*t:])))
			}
		}
		k += m
	}
	if fortran { // column-major: transpose in place
		for i := range n {
			for j := range i {
				d[i*n+j], d[j*n+i] = d[j*n+i], d[i*n+j]
			}
		}
	}
	for k, v := range d {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fail("row %q, column %d (%q): %v is not a finite number", trunc(ids[k/n]), k%n+1, trunc(ids[k%n]), v)
		}
	}
	return &Matrix{IDs: ids, D: d}, nil
}

// npyDict reads the header dict of an NPY file, such as {'descr': '<f8',
// 'fortran_order': False, 'shape': (3, 3), }.
func npyDict(h string) (descr string, fortran bool, shape []int, err error) {
	s := strings.TrimSpace(h)
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return "", false, nil, errors.New("not a dict")
	}
	s = s[1 : len(s)-1]
	seen := map[string]bool{}
	for {
		s = strings.TrimLeft(s, " ,")
		if s == "" {
			break
		}
		key, rest, ok := quoted(s)
		if !ok {
			return "", false, nil, errors.New("a key is not a quoted string")
		}
		rest = strings.TrimLeft(rest, " ")
		if !strings.HasPrefix(rest, ":") {
			return "", false, nil, fmt.Errorf("no ':' after %q", key)
		}
		rest = strings.TrimLeft(rest[1:], " ")
		if seen[key] {
			return "", false, nil, fmt.Errorf("%q twice", key)
		}
		seen[key] = true
		switch key {
		case "descr":
			descr, rest, ok = quoted(rest)
			if !ok {
				return "", false, nil, errors.New("'descr' is not a quoted string")
			}
		case "fortran_order":
			switch {
			case strings.HasPrefix(rest, "False"):
				fortran, rest = false, rest[5:]
			case strings.HasPrefix(rest, "True"):
				fortran, rest = true, rest[4:]
			default:
				return "", false, nil, errors.New("'fortran_order' is neither True nor False")
			}
		case "shape":
			end := strings.IndexByte(rest, ')')
			if !strings.HasPrefix(rest, "(") || end < 0 {
				return "", false, nil, errors.New("'shape' is not a tuple")
			}
			for f := range strings.SplitSeq(rest[1:end], ",") {
				f = strings.TrimSpace(f)
				if f == "" {
					continue
				}
				v, perr := strconv.Atoi(f)
				if perr != nil || v < 0 || v > 1<<31 {
					return "", false, nil, fmt.Errorf("shape entry %q", trunc(f))
				}
				shape = append(shape, v)
			}
			rest = rest[end+1:]
		default:
			return "", false, nil, fmt.Errorf("unknown key %q", trunc(key))
		}
		s = rest
	}
	if !seen["descr"] || !seen["fortran_order"] || !seen["shape"] {
		return "", false, nil, errors.New("'descr', 'fortran_order' or 'shape' is missing")
	}
	return descr, fortran, shape, nil
}

// quoted reads a string in single or double quotes at the start of s.
func quoted(s string) (string, string, bool) {
	if s == "" || s[0] != '\'' && s[0] != '"' {
		return "", s, false
	}
	end := strings.IndexByte(s[1:], s[0])
	if end < 0 {
		return "", s, false
	}
	return s[1 : 1+end], s[2+end:], true
}
