package bag

import (
	"fmt"
	"math"
	"slices"

	"github.com/twl-ldl/twl/internal/parallel"
)

// Features says which features a document has: its words, the n-grams of
// consecutive words up to WordNgrams, and, when MaxN > 0, the character
// n-grams of MinN to MaxN characters of each word; n-grams are hashed into
// Buckets buckets.
type Features struct {
	WordNgrams int `json:"word_ngrams"` // longest word n-gram; 1: words alone
	MinN       int `json:"minn"`        // shortest character n-gram
	MaxN       int `json:"maxn"`        // longest character n-gram; 0: none
	Buckets    int `json:"buckets"`     // hash buckets of the n-grams
}

// MaxWordNgrams bounds Features.WordNgrams, MaxCharNgram MaxN, and
// MaxBuckets Buckets (an Index holds 4 bytes per bucket).
const (
	MaxWordNgrams = 8
	MaxCharNgram  = 16
	MaxBuckets    = 1 << 25
)

// Check returns an error describing the first setting out of range.
func (f Features) Check() error {
	switch {
	case f.WordNgrams < 1 || f.WordNgrams > MaxWordNgrams:
		return fmt.Errorf("word n-grams %d: must be from 1 to %d", f.WordNgrams, MaxWordNgrams)
	case f.MaxN < 0 || f.MaxN > MaxCharNgram:
		return fmt.Errorf("longest character n-gram %d: must be from 0 (none) to %d", f.MaxN, MaxCharNgram)
	case f.MaxN > 0 && (f.MinN < 1 || f.MinN > f.MaxN):
		return fmt.Errorf("shortest character n-gram %d: must be from 1 to the longest, %d", f.MinN, f.MaxN)
	case f.Buckets < 1 || f.Buckets > MaxBuckets:
		return fmt.Errorf("buckets %d: must be from 1 to %d", f.Buckets, MaxBuckets)
	case f.WordNgrams == 1 && f.MaxN == 0 && f.Buckets != 1:
		return fmt.Errorf("buckets %d without n-grams: must be 1", f.Buckets)
	}
	return nil
}

// Config gives the sizes of a model.
type Config struct {
	Features
	Words  int `json:"words"`  // V: the vocabulary's words, <unk> included (its row is never used)
	Ngrams int `json:"ngrams"` // K: the buckets that have a row
	Dim    int `json:"dim"`    // D: the dimension of the vectors
	Labels int `json:"labels"` // L: the number of logits
}

// Rows returns V + K, the rows of the vector table.
func (c Config) Rows() int { return c.Words + c.Ngrams }

// NumParams returns the number of parameters: (V+K)·D + L·D + L.
func (c Config) NumParams() int { return c.Rows()*c.Dim + c.Labels*c.Dim + c.Labels }

// Check returns an error describing the first size out of range.
func (c Config) Check() error {
	if err := c.Features.Check(); err != nil {
		return err
	}
	switch {
	case c.Words < 1 || c.Dim < 1 || c.Labels < 1 || c.Ngrams < 0:
		return fmt.Errorf("sizes must be positive: %d words, %d n-gram rows, dimension %d, %d labels", c.Words, c.Ngrams, c.Dim, c.Labels)
	case c.Ngrams > c.Buckets:
		return fmt.Errorf("%d n-gram rows for %d buckets", c.Ngrams, c.Buckets)
	case int64(c.Words)+int64(c.Buckets) > math.MaxInt32:
		return fmt.Errorf("%d words and %d buckets: more than 2³¹−1 features", c.Words, c.Buckets)
	case int64(c.Rows())*int64(c.Dim)+int64(c.Labels)*int64(c.Dim+1) > 1<<36:
		return fmt.Errorf("%d rows of dimension %d and %d labels: more than 2³⁶ parameters", c.Rows(), c.Dim, c.Labels)
	}
	return nil
}

// Index says which rows of a model's table a document's features are: the
// words of the vocabulary are rows 0 … Words−1, and the kept n-gram
// buckets, Kept[k] being row Words+k; the other buckets have no row. An
// Index is not changed after New and may be shared.
type Index struct {
	Words    int
	Features Features
	Kept     []int32
	slot     []int32 // the row of each bucket, −1 for none
}

// NewIndex returns the Index of a vocabulary of words words (<unk>
// included) and features f whose n-gram rows are those of kept, or an
// error if f fails Check or a bucket of kept is out of range or repeated.
// It does not change kept.
func NewIndex(words int, f Features, kept []int32) (*Index, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	if words < 1 || int64(words)+int64(f.Buckets) > math.MaxInt32 {
		return nil, fmt.Errorf("%d words and %d buckets: want 1 to 2³¹−1 features in all", words, f.Buckets)
	}
	x := &Index{Words: words, Features: f, Kept: slices.Clone(kept), slot: make([]int32, f.Buckets)}
	for i := range x.slot {
		x.slot[i] = -1
	}
	for k, b := range kept {
		if b < 0 || int(b) >= f.Buckets || x.slot[b] >= 0 {
			return nil, fmt.Errorf("n-gram row %d: bucket %d out of range or repeated", k, b)
		}
		x.slot[b] = int32(words + k)
	}
	return x, nil
}

// Rows returns the number of rows of the table: Words + len(Kept).
func (x *Index) Rows() int { return x.Words + len(x.Kept) }

// Model is a bag-of-n-grams classifier: a table of vectors, one row per
// word of the vocabulary and one per kept n-gram bucket (Index), and a
// linear output layer. Its parameters live in one float32 slab, Params:
// the table Emb (Rows×Dim, row-major), then the output weights W
// (Labels×Dim) and biases B (Labels); the views share it.
type Model struct {
	Config
	Params []float32
	Emb    []float32
	W      []float32
	B      []float32
	Index  *Index
}

// ConfigOf returns the sizes of a model of index x, dimension dim and
// labels labels.
func ConfigOf(x *Index, dim, labels int) Config {
	return Config{Features: x.Features, Words: x.Words, Ngrams: len(x.Kept), Dim: dim, Labels: labels}
}

// New returns a model of index x, dimension dim and labels labels, with
// zero parameters. It panics if the sizes fail Config.Check.
func New(x *Index, dim, labels int) *Model {
	c := ConfigOf(x, dim, labels)
	if err := c.Check(); err != nil {
		panic("bag: " + err.Error())
	}
	m := &Model{Config: c, Params: make([]float32, c.NumParams()), Index: x}
	n := c.Rows() * c.Dim
	m.Emb = m.Params[:n:n]
	m.W = m.Params[n : n+c.Labels*c.Dim : n+c.Labels*c.Dim]
	m.B = m.Params[n+c.Labels*c.Dim:]
	return m
}

// Row returns the vector of row i, sharing Params.
func (m *Model) Row(i int) []float32 { return m.Emb[i*m.Dim : (i+1)*m.Dim : (i+1)*m.Dim] }

// Kind is "bag", the name of this kind of network in model files.
func (m *Model) Kind() string { return "bag" }

// Outputs returns L.
func (m *Model) Outputs() int { return m.Labels }

// Shape describes the model: "bag of 1–2-grams, 100 dimensions, 30,000
// words and 400,000 n-gram rows"; "bag of words, 100 dimensions, 30,000
// words" without n-grams.
func (m *Model) Shape() string {
	s := "bag of words"
	if m.WordNgrams > 1 {
		s = fmt.Sprintf("bag of 1–%d-grams", m.WordNgrams)
	}
	if m.MaxN > 0 {
		s += fmt.Sprintf(" and character %d–%d-grams", m.MinN, m.MaxN)
	}
	if m.WordNgrams == 1 && m.MaxN == 0 {
		return fmt.Sprintf("%s, %d dimensions, %d words", s, m.Dim, m.Words)
	}
	return fmt.Sprintf("%s, %d dimensions, %d words and %d n-gram rows", s, m.Dim, m.Words, m.Ngrams)
}

// Sizes returns the model's Config: what a model file's header records.
func (m *Model) Sizes() any { return m.Config }

// NewLogits returns a function that stores in dst (len(docs)×L) the logits
// of docs (rows of the table, from Encode), the documents shared among
// GOMAXPROCS goroutines, with workspace of its own: it allocates nothing
// once its buffers have grown, and is not safe for concurrent use.
func (m *Model) NewLogits() func(dst []float64, docs [][]int32) {
	var h []float32
	var z []float64
	var batch [][]int32
	D, L := m.Dim, m.Labels
	body := func(lo, hi int) {
		for k := lo; k < hi; k++ {
			hk := h[k*D : (k+1)*D]
			meanForward(hk, m.Emb, batch[k], D)
			linearForward(z[k*L:(k+1)*L], hk, m.W, m.B, L, D)
		}
	}
	return func(dst []float64, docs [][]int32) {
		if len(dst) != len(docs)*L {
			panic("bag: len(dst) != len(docs)·L")
		}
		h = grow(h, len(docs)*D)
		z, batch = dst, docs
		parallel.For(len(docs), 0, 8, body)
		z, batch = nil, nil
	}
}
