package textmodel

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/tree"
)

// ErrTooFew reports a corpus too small to hold some of it out.
var ErrTooFew = errors.New("too few documents")

// ReadCorpus reads the documents of the file at path (corpus.ReadFile) and
// refuses a file of label sets alone, which holds no text.
func ReadCorpus(path string, t *tree.Tree, opts *corpus.Options) (*corpus.Corpus, error) {
	c, err := corpus.ReadFile(path, t, opts)
	if err != nil {
		return nil, err
	}
	if c.Format == corpus.LabelSets {
		return nil, fmt.Errorf("%s holds label sets ([\"label\", …] per line) but no text: want documents", path)
	}
	return c, nil
}

// HoldOut splits c into the documents to train on and the fraction frac
// of them held out for validation, drawn from seed (dataset.Split). It
// returns an error wrapping ErrTooFew when either part would be empty.
func HoldOut(c *corpus.Corpus, frac float64, seed uint64) (fit, held *corpus.Corpus, err error) {
	a, b := dataset.Split(c.Len(), 1-frac, rand.NewPCG(seed, 0x76616c)) // "val"
	if len(a) == 0 || len(b) == 0 {
		return nil, nil, fmt.Errorf("%s: %w: %d cannot be split %g : %g", c.File, ErrTooFew, c.Len(), 1-frac, frac)
	}
	return c.Subset(a), c.Subset(b), nil
}

// ReadEmbeddings reads the word vectors of the file at path
// (embedding.ReadFile) and the reference to them that a model file
// records: the file and its SHA-256.
func ReadEmbeddings(path string) (embedding.Source, EmbeddingRef, error) {
	src, err := embedding.ReadFile(path)
	if err != nil {
		return nil, EmbeddingRef{}, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, EmbeddingRef{}, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, EmbeddingRef{}, fmt.Errorf("%s: %w", path, err)
	}
	return src, EmbeddingRef{Source: path, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// Sources names the data of a training run.
type Sources struct {
	Train string // the training documents
	// Dev, when not empty, holds the validation documents; otherwise the
	// fraction Val of Train is held out, drawn from Seed (HoldOut), or,
	// when Val is 0, no document is (Data.Val is nil).
	Dev  string
	Val  float64
	Seed uint64
	Tree *tree.Tree     // the label tree of both
	Read corpus.Options // how both are read
	Emb  string         // the initial word vectors (ReadEmbeddings); "" for none
}

// Data is the data of a training run, read: Fit's corpora and Options.Emb
// and Options.EmbRef.
type Data struct {
	Train, Val *corpus.Corpus
	Emb        embedding.Source // nil without Sources.Emb
	EmbRef     EmbeddingRef
}

// Load reads the data that s names.
func Load(s Sources) (*Data, error) {
	d := &Data{}
	var err error
	if d.Train, err = ReadCorpus(s.Train, s.Tree, &s.Read); err != nil {
		return nil, err
	}
	if s.Dev != "" {
		d.Val, err = ReadCorpus(s.Dev, s.Tree, &s.Read)
	} else if s.Val != 0 {
		d.Train, d.Val, err = HoldOut(d.Train, s.Val, s.Seed)
	}
	if err != nil {
		return nil, err
	}
	if s.Emb != "" {
		if d.Emb, d.EmbRef, err = ReadEmbeddings(s.Emb); err != nil {
			return nil, err
		}
	}
	return d, nil
}
