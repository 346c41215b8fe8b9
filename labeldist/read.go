package labeldist

import (
	"fmt"
	"io"
	"math"
	"os"
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
func Read(r io.Reader, file string, t *tree.Tree, opts *Options) (*Set, error) {
	tol := opts.tol()
	normalize := opts != nil && opts.Normalize
	L := t.Len()
	s := &Set{File: file, L: L}
	p := parser{t: t, seen: make([]int, L)}
	in := jsonscan.NewLines(r)
	for in.Next() {
		b, col0 := in.Line()
		line := in.Num()
		n := len(s.Data)
		s.Data = append(s.Data, make([]float64, L)...)
		row := s.Data[n:]
		p.row++
		if e := p.parse(row, b, col0); e != nil {
			e.File, e.Line = file, line
			return nil, e
		}
		if e := finish(row, normalize, tol); e != nil {
			e.File, e.Line = file, line
			return nil, e
		}
		s.Rows++
		s.Lines = append(s.Lines, line)
	}
	if err := in.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", file, in.Num(), err)
	}
	return s, nil
}

// finish checks the masses of a parsed row, which are finite and
// non-negative, and rescales them to sum 1 if normalize is set.
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
