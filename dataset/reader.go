package dataset

import (
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/twl-ldl/twl/internal/jsonscan"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/tree"
)

// Sparse is a label distribution held sparsely, the type of package
// labeldist: Mass[k] is the mass of the label of user index Index[k];
// labels not listed have mass 0. The readers give the indices in increasing
// order, without repeats, and positive masses.
type Sparse = labeldist.Sparse

// Targets says what a Reader does with the label distribution "y" of a
// line.
type Targets int

const (
	// TargetsRequired: every line has "y", read and checked as by
	// ReadJSONL. The default, for training data.
	TargetsRequired Targets = iota
	// TargetsOptional: a line may lack "y" (Sample.HasY is then false);
	// a "y" that is there is read and checked.
	TargetsOptional
	// TargetsIgnored: "y" is skipped like any other key, whatever JSON
	// value it holds (new data to predict). Sample.HasY is false.
	TargetsIgnored
)

// ReaderOptions control a Reader. The zero value (or a nil *ReaderOptions)
// gives the defaults: targets required, and the label rows checked as by
// ReadJSONL with the zero Options.
type ReaderOptions struct {
	Options         // how label rows are checked (Tol, Strict)
	Targets Targets // whether lines must have "y"; default TargetsRequired
}

// Sample is one sample read by a Reader. Its slices belong to the Reader
// and are overwritten by the next call to Next: copy what must be kept.
type Sample struct {
	X    []float64 // the d features
	Y    Sparse    // the label distribution, summing to 1 (rescaled if need be); empty if !HasY
	HasY bool      // whether Y was read from the line
	Line int       // the 1-based physical line of the sample
}

// A Reader reads the samples of a data set in the JSON Lines format of the
// package documentation one at a time, holding one line and one sample in
// memory whatever the number of samples: the streaming form of ReadJSONL.
// Label distributions are held sparsely. Its use is that of bufio.Scanner:
//
//	rd := dataset.NewReader(r, "data.jsonl", t, nil)
//	for rd.Next() {
//		s := rd.Sample()
//		...
//	}
//	if err := rd.Err(); err != nil { ... }
//
// Every sample is checked as ReadJSONL checks it (every sample has the
// first sample's number of features, label rows are rescaled or refused as
// Options say), and reading stops at the first error: invalid data is an
// *Error ("FILE:LINE: ..."), an I/O error is returned prefixed by the file
// name, and input without samples is an *Error wrapping ErrEmpty.
type Reader struct {
	file    string
	in      jsonscan.Lines
	p       *parser
	chk     checker
	s       Sample
	sorter  sparseSorter
	n       int // samples read
	d       int // the feature dimension, set by the first sample
	dLine   int // the line of the first sample
	err     error
	stopped bool
}

// NewReader returns a Reader of the samples in r, whose labels are the
// node names of t (label j of a Sample's Y is t's user index j). The name
// file is used in messages only. t may be nil with TargetsIgnored; with
// other Targets a nil t panics, as does an invalid Options.Tol.
func NewReader(r io.Reader, file string, t *tree.Tree, opts *ReaderOptions) *Reader {
	var o ReaderOptions
	if opts != nil {
		o = *opts
	}
	switch {
	case o.Targets < TargetsRequired || o.Targets > TargetsIgnored:
		panic(fmt.Sprintf("dataset: unknown ReaderOptions.Targets %d", o.Targets))
	case t == nil && o.Targets != TargetsIgnored:
		panic("dataset: NewReader with a nil tree")
	}
	rd := &Reader{file: file, in: jsonscan.NewLines(r), p: newParser(t, o.Targets), chk: newChecker(file, &o.Options)}
	return rd
}

// Next reads the next sample and reports whether there is one. It returns
// false at the end of the input or at the first error, which Err returns.
func (rd *Reader) Next() bool {
	if rd.stopped {
		return false
	}
	if !rd.in.Next() {
		rd.stopped = true
		switch err := rd.in.Err(); {
		case err != nil:
			rd.err = fmt.Errorf("%s: %w", rd.file, err)
		case rd.n == 0:
			rd.err = &Error{File: rd.file, Err: ErrEmpty}
		}
		return false
	}
	// Columns in messages count the bytes of a byte order mark, as an
	// editor that shows the file's bytes would (col0).
	b, col0 := rd.in.Line()
	line := rd.in.Num()
	if e := rd.parse(b, col0, line); e != nil {
		e.File, e.Line = rd.file, line
		rd.err, rd.stopped = e, true
		return false
	}
	rd.n++
	rd.chk.rep.Rows = rd.n
	return true
}

// parse reads line b into rd.s and checks it. The returned *Error has no
// File or Line yet.
func (rd *Reader) parse(b []byte, col0, line int) *Error {
	p := rd.p
	if e := p.parse(b, col0); e != nil {
		return e
	}
	switch {
	case len(p.x) == 0:
		return &Error{Err: ErrDimension, Msg: `"x" holds no features`}
	case rd.n == 0:
		rd.d, rd.dLine = len(p.x), line
	case len(p.x) != rd.d:
		return &Error{Err: ErrDimension, Msg: fmt.Sprintf("%d features, want %d as on line %d", len(p.x), rd.d, rd.dLine)}
	}
	if p.hasY {
		// In index order, the masses sum as the dense row would (zeros
		// add nothing), so rescaling gives the same bits as ReadJSONL's
		// dense rows always did.
		if !slices.IsSorted(p.y.Index) {
			rd.sorter.Sparse = p.y
			sort.Sort(&rd.sorter)
		}
		if e := rd.chk.check(p.y.Mass, rd.n, line); e != nil {
			return e
		}
	}
	rd.s = Sample{X: p.x, Y: p.y, HasY: p.hasY, Line: line}
	return nil
}

// Sample returns the sample that the last call to Next read. It is valid
// until the next call to Next.
func (rd *Reader) Sample() *Sample { return &rd.s }

// Err returns the error that stopped Next, or nil at the end of an input
// that held samples.
func (rd *Reader) Err() error { return rd.err }

// Report returns what the Reader changed in the label rows read so far: the
// rows rescaled to sum 1. Its Rows counts the samples read.
func (rd *Reader) Report() Report { return rd.chk.rep }

// Dim returns the number of features of every sample, 0 before the first.
func (rd *Reader) Dim() int { return rd.d }

// sparseSorter sorts the entries of a Sparse by label index.
type sparseSorter struct{ Sparse }

func (s *sparseSorter) Len() int           { return len(s.Index) }
func (s *sparseSorter) Less(i, j int) bool { return s.Index[i] < s.Index[j] }
func (s *sparseSorter) Swap(i, j int) {
	s.Index[i], s.Index[j] = s.Index[j], s.Index[i]
	s.Mass[i], s.Mass[j] = s.Mass[j], s.Mass[i]
}
