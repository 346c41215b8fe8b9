package embedding

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// TableOptions controls NewTable. The zero value (and a nil *TableOptions)
// gives random rows the scale of the vectors found.
type TableOptions struct {
	// Scale is the standard deviation of the components of random rows.
	// Zero means the default: the standard deviation of all components of
	// the vectors found, or 1/√Dim if none was found (or they are all
	// equal). A negative, infinite or NaN Scale panics.
	Scale float64

	// Dim is the dimension of the table when NewTable is given no Source;
	// it is ignored otherwise.
	Dim int
}

// Table holds one vector per word of a vocabulary: row i, Data[i*Dim :
// (i+1)*Dim], is the vector of word i, and Found[i] tells where it came
// from (Missing: a random row).
type Table struct {
	Dim      int
	Data     []float32 // len(words)×Dim values, row-major
	Found    []Found
	Coverage Coverage
}

// Row returns the vector of word i, sharing t.Data. It panics if i is out
// of range.
func (t *Table) Row(i int) []float32 {
	if i < 0 || i >= len(t.Found) {
		panic("embedding: row index out of range")
	}
	return t.Data[i*t.Dim : (i+1)*t.Dim : (i+1)*t.Dim]
}

// Coverage counts the words of a Table by where their vectors came from:
// Words = InVocab + Subword + Random.
type Coverage struct {
	Words   int // the words of the vocabulary (duplicates counted each time)
	InVocab int // found in the source's vocabulary
	Subword int // built from character n-grams
	Random  int // no vector in the source: random rows
}

// String gives the counts and the percentage found, as in
// "1000 words: 900 in vocabulary, 60 from subwords, 40 random (96.0% found)".
func (c Coverage) String() string {
	s := fmt.Sprintf("%d words: %d in vocabulary, %d from subwords, %d random", c.Words, c.InVocab, c.Subword, c.Random)
	if c.Words > 0 {
		s += fmt.Sprintf(" (%.1f%% found)", 100*float64(c.InVocab+c.Subword)/float64(c.Words))
	}
	return s
}

// NewTable returns the table of the vectors of words from src. A word that
// src does not have (or every word, if src is nil) gets a random row,
// normal with mean 0 and standard deviation σ in each component, where σ
// is opts.Scale if set, and otherwise the standard deviation of all the
// components of the vectors found (so that random rows have the scale of
// the real ones), or 1/√Dim if there are none. Random rows are drawn from
// rnd in the order of words, Dim values each, so that the same words, src
// and seed give the same table bit for bit.
//
// The table's dimension is src.Dim(), or opts.Dim if src is nil. NewTable
// panics if rnd is nil, if src is nil and opts.Dim < 1, or if opts.Scale is
// negative, infinite or NaN. It does not change words.
func NewTable(words []string, src Source, rnd rand.Source, opts *TableOptions) *Table {
	if rnd == nil {
		panic("embedding: NewTable: nil rand.Source")
	}
	var o TableOptions
	if opts != nil {
		o = *opts
	}
	if !(o.Scale >= 0) || math.IsInf(o.Scale, 1) {
		panic("embedding: NewTable: negative, infinite or NaN Scale")
	}
	dim := o.Dim
	if src != nil {
		dim = src.Dim()
	}
	if dim < 1 {
		panic("embedding: NewTable: no Source and TableOptions.Dim < 1")
	}
	t := &Table{
		Dim:      dim,
		Data:     make([]float32, len(words)*dim),
		Found:    make([]Found, len(words)),
		Coverage: Coverage{Words: len(words)},
	}
	for i, w := range words {
		f := Missing
		if src != nil {
			f = src.Lookup(t.Row(i), w)
		}
		t.Found[i] = f
		switch f {
		case InVocab:
			t.Coverage.InVocab++
		case Subword:
			t.Coverage.Subword++
		default:
			t.Found[i] = Missing
			t.Coverage.Random++
		}
	}
	if t.Coverage.Random == 0 {
		return t
	}
	sigma := o.Scale
	if sigma == 0 {
		sigma = t.foundStd()
	}
	if !(sigma > 0) || math.IsInf(sigma, 1) {
		sigma = 1 / math.Sqrt(float64(dim))
	}
	rng := rand.New(rnd)
	for i, f := range t.Found {
		if f != Missing {
			continue
		}
		row := t.Row(i)
		for j := range row {
			row[j] = float32(rng.NormFloat64() * sigma)
		}
	}
	return t
}

// foundStd returns the standard deviation (with divisor N) of all the
// components of the rows found, by two passes in float64; 0 if none.
func (t *Table) foundStd() float64 {
	var n int
	var sum float64
	for i, f := range t.Found {
		if f == Missing {
			continue
		}
		for _, x := range t.Row(i) {
			sum += float64(x)
		}
		n += t.Dim
	}
	if n == 0 {
		return 0
	}
	mean := sum / float64(n)
	var ss float64
	for i, f := range t.Found {
		if f == Missing {
			continue
		}
		for _, x := range t.Row(i) {
			d := float64(x) - mean
			ss += d * d
		}
	}
	return math.Sqrt(ss / float64(n))
}
