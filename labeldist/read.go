package labeldist

import (
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"slices"
	"strconv"

	"github.com/twl-ldl/twl/internal/jsonscan"
	"github.com/twl-ldl/twl/tree"
)

// DefaultTol is the tolerance on |Σ mass − 1| used when Options.Tol is zero.
const DefaultTol = 1e-6

// Options controls how distributions are read. The zero value (and a nil
// *Options) reads rows that sum to 1 within DefaultTol, as written.
type Options struct {
	// Normalize rescales every row to sum 1 instead of checking its sum.
	// Rows must still be non-negative, finite and not all zero.
	Normalize bool

	// Tol is the largest allowed |Σ mass − 1| when Normalize is false.
	// Zero means DefaultTol (1e-6); +Inf accepts any positive sum. A
	// negative or NaN Tol is a programmer error and panics.
	Tol float64

	// MaxLine is the longest line read, in bytes, its line ending not
	// counted. Zero means jsonscan's 64 MiB. A longer line is an error
	// wrapping ErrTooLarge, found once its first MaxLine bytes are read:
	// it is never held whole.
	MaxLine int
}

func (o *Options) tol() float64 {
	if o == nil || o.Tol == 0 {
		return DefaultTol
	}
	if !(o.Tol > 0) {
		panic("labeldist: negative or NaN Options.Tol")
	}
	return o.Tol
}

// Set is a list of distributions read from one input, stored as a row-major
// Rows×L matrix: row r is Data[r*L : (r+1)*L], in the tree's user order.
// This is the layout of the matrices of package tw (tw.Batch).
type Set struct {
	File  string    // the name the input was read under, for messages
	Rows  int       // number of distributions
	L     int       // number of labels: the tree's Len()
	Data  []float64 // Rows×L masses, row-major
	Lines []int     // Lines[r] is the 1-based physical line of row r
}

// Row returns row r of s, sharing s.Data. It panics if r is out of range.
func (s *Set) Row(r int) []float64 {
	if r < 0 || r >= s.Rows {
		panic("labeldist: row index out of range")
	}
	return s.Data[r*s.L : (r+1)*s.L : (r+1)*s.L]
}

// At returns "FILE:LINE" locating row r in the input, for messages about
// that row.
func (s *Set) At(r int) string {
	return s.File + ":" + strconv.Itoa(s.Lines[r])
}

// ReadFile reads the distributions over the labels of t from the named file.
// See Read.
func ReadFile(path string, t *tree.Tree, opts *Options) (*Set, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path, t, opts)
}

// bom is the UTF-8 byte order mark, which Read skips at the start of the
// input.
var bom = []byte(jsonscan.BOM)

// Read reads distributions over the labels of t, one per line (see the
// package documentation for the format), until the end of r. file names the
// input in error messages, which read "FILE:LINE: what is wrong". Invalid
// input is an *Error wrapping one of the sentinel errors; an input with no
// distributions at all is not an error and gives a Set with no rows.
//
// Read holds every row densely, 8·L bytes each; a Reader reads one sparse
// row at a time instead, in memory independent of L and of the number of
// rows.
func Read(r io.Reader, file string, t *tree.Tree, opts *Options) (*Set, error) {
	return NewReader(r, file, t, opts).ReadAll(math.MaxInt64)
}

// ReadAll reads the remaining rows of rd into a dense Set, as Read does,
// and stops with a *SizeError at the first row that would take the Set's
// Data past limit bytes (8 per row and label).
func (rd *Reader) ReadAll(limit int64) (*Set, error) {
	L := rd.p.t.Len()
	s := &Set{File: rd.file, L: L}
	for rd.Next() {
		if need := 8 * float64(s.Rows+1) * float64(L); need > float64(limit) {
			return nil, &SizeError{At: rd.At(), Rows: s.Rows + 1, L: L, Need: need, Limit: limit}
		}
		n := len(s.Data)
		s.Data = append(s.Data, make([]float64, L)...)
		rd.row.Dense(s.Data[n:])
		s.Rows++
		s.Lines = append(s.Lines, rd.Line())
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	return s, nil
}

// SizeError is the error of Reader.ReadAll when the rows would take more
// than its limit.
type SizeError struct {
	At    string  // "FILE:LINE" of the row that passes the limit
	Rows  int     // the rows up to it, and it
	L     int     // labels per row
	Need  float64 // bytes of those rows, 8·Rows·L
	Limit int64
}

func (e *SizeError) Error() string {
	return fmt.Sprintf("%s: %d rows of %d labels need %.0f bytes, more than the limit of %d", e.At, e.Rows, e.L, e.Need, e.Limit)
}

// Sparse is a distribution held by its non-zero masses: Mass[k] > 0 is the
// mass of the label with user index Index[k], and Index is increasing.
// Labels not listed have mass 0. The zero value is the empty distribution.
// Package dataset holds training targets in the same type.
type Sparse struct {
	Index []int
	Mass  []float64
}

// Len returns the number of labels listed.
func (v Sparse) Len() int { return len(v.Index) }

// Dense stores the distribution in dst, a vector over all the labels
// (zeroed first), and returns dst. It panics if an index is out of range of
// dst or Index and Mass differ in length.
func (v Sparse) Dense(dst []float64) []float64 {
	if len(v.Index) != len(v.Mass) {
		panic("labeldist: Sparse with len(Index) != len(Mass)")
	}
	clear(dst)
	for k, i := range v.Index {
		dst[i] = v.Mass[k]
	}
	return dst
}

// Reader reads distributions one line at a time, each as a Sparse row, in
// memory that depends only on the longest line and the number of labels
// (one int per label, to find duplicate labels): the way to read files of
// any number of rows over trees of 10⁶ labels. It checks each row as Read
// does, and stops at the first error.
//
//	rd := labeldist.NewReader(f, "pred.jsonl", t, nil)
//	for rd.Next() {
//		row := rd.Row() // valid until the next call of Next
//		...
//	}
//	if err := rd.Err(); err != nil { ... }
type Reader struct {
	p         parser
	in        jsonscan.Lines
	file      string
	tol       float64
	normalize bool
	line      int
	rows      int
	row       Sparse
	order     []uint64 // keys sorting the entries of an object by label (sortRow)
	tmp       []uint64 // radixSort's other buffer
	err       error
}

// NewReader returns a Reader of the distributions over the labels of t in r;
// file names the input in error messages.
func NewReader(r io.Reader, file string, t *tree.Tree, opts *Options) *Reader {
	rd := &Reader{
		p:         parser{t: t, seen: make([]int, t.Len())},
		in:        jsonscan.NewLines(r),
		file:      file,
		tol:       opts.tol(),
		normalize: opts != nil && opts.Normalize,
	}
	if opts != nil && opts.MaxLine > 0 {
		rd.in.SetMax(opts.MaxLine)
	}
	return rd
}

// Next reads the next distribution, skipping blank lines. It returns false
// at the end of the input or at the first error, which Err then returns.
func (rd *Reader) Next() bool {
	if rd.err != nil {
		return false
	}
	if !rd.in.Next() {
		if err := rd.in.Err(); err != nil {
			rd.err = fmt.Errorf("%s:%d: %w", rd.file, rd.in.Num(), err)
		}
		return false
	}
	b, col0 := rd.in.Line()
	rd.line = rd.in.Num()
	p := &rd.p
	p.row++
	if e := p.parse(b, col0); e != nil {
		e.File, e.Line = rd.file, rd.line
		rd.err = e
		return false
	}
	rd.sortRow()
	if e := finish(rd.row.Mass, rd.normalize, rd.tol); e != nil {
		e.File, e.Line = rd.file, rd.line
		rd.err = e
		return false
	}
	rd.rows++
	return true
}

// sortRow puts the parsed entries in rd.row in increasing label order.
func (rd *Reader) sortRow() {
	idx, val := rd.p.idx, rd.p.val
	sorted := true
	for k := 1; k < len(idx); k++ {
		if idx[k] < idx[k-1] {
			sorted = false
			break
		}
	}
	if sorted {
		rd.row = Sparse{Index: idx, Mass: val}
		return
	}
	// The entries are sorted by keys holding the label above the entry's
	// place: labels are distinct within a row, so the order is that of
	// the labels alone.
	n := len(idx)
	o := rd.order[:0]
	for k, i := range idx {
		o = append(o, uint64(i)<<32|uint64(k))
	}
	o, rd.tmp = radixSort(o, rd.tmp, rd.p.t.Len())
	rd.order = o
	// The sorted copies go after the parsed entries, in the same slices.
	idx, val = slices.Grow(idx, n), slices.Grow(val, n)
	for _, key := range o {
		k := int(uint32(key))
		idx = append(idx, idx[k])
		val = append(val, val[k])
	}
	rd.p.idx, rd.p.val = idx, val
	rd.row = Sparse{Index: idx[n:], Mass: val[n:]}
}

// radixSort sorts the keys o, whose labels (high 32 bits) are below L, by
// label, a byte at a time from the lowest through tmp, and returns them
// and the other buffer; short lists go to slices.Sort.
func radixSort(o, tmp []uint64, L int) (sorted, other []uint64) {
	if len(o) < 64 {
		slices.Sort(o)
		return o, tmp
	}
	tmp = slices.Grow(tmp[:0], len(o))[:len(o)]
	for shift := 32; shift < 32+bits.Len(uint(L)); shift += 8 {
		var count [256]int
		for _, x := range o {
			count[x>>shift&0xff]++
		}
		sum := 0
		for b, c := range count {
			count[b] = sum
			sum += c
		}
		for _, x := range o {
			b := x >> shift & 0xff
			tmp[count[b]] = x
			count[b]++
		}
		o, tmp = tmp, o
	}
	return o, tmp
}

// Row returns the distribution Next read. Its slices are reused by the next
// call of Next.
func (rd *Reader) Row() Sparse { return rd.row }

// Line returns the 1-based physical line of the row Next read.
func (rd *Reader) Line() int { return rd.line }

// At returns "FILE:LINE" locating the row Next read, for messages.
func (rd *Reader) At() string { return rd.file + ":" + strconv.Itoa(rd.line) }

// Rows returns the number of rows read so far.
func (rd *Reader) Rows() int { return rd.rows }

// File returns the name of the input, as given to NewReader.
func (rd *Reader) File() string { return rd.file }

// Err returns the first error met, nil at a clean end of the input.
func (rd *Reader) Err() error { return rd.err }

// finish checks the non-zero masses of a parsed row, which are finite and
// positive, and rescales them to sum 1 if normalize is set. The sum is taken
// in label order, so it equals the sum over the dense row bit for bit.
func finish(row []float64, normalize bool, tol float64) *Error {
	var sum float64
	for _, v := range row {
		sum += v
	}
	if sum == 0 {
		return &Error{Err: ErrZeroRow}
	}
	if !normalize {
		if !(math.Abs(sum-1) <= tol) {
			return &Error{Err: ErrSum, Msg: fmt.Sprintf("sum is %s (tolerance %s)", fmtFloat(sum), fmtFloat(tol))}
		}
		return nil
	}
	if sum < smallestNormal {
		return &Error{Err: ErrUnderflow, Msg: fmt.Sprintf("they sum to %s, below 2.2e-308, the smallest normal float64 (scale them up)", fmtFloat(sum))}
	}
	if math.IsInf(sum, 1) {
		// Finite masses whose sum overflows: scale by the largest first.
		var m float64
		for _, v := range row {
			m = max(m, v)
		}
		sum = 0
		for i := range row {
			row[i] /= m
			sum += row[i]
		}
	}
	for i := range row {
		row[i] /= sum
	}
	return nil
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// smallestNormal is the smallest positive normal float64, 2⁻¹⁰²²: below
// it a float64 holds fewer than 53 bits.
const smallestNormal = 0x1p-1022
