package report

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/tree"
)

// HashCorpora fingerprints the documents and label sets of the corpora, a
// nil corpus included: 16 hexadecimal digits of a SHA-256, for run keys.
func HashCorpora(cs ...*corpus.Corpus) string {
	h := sha256.New()
	var b [8]byte
	for _, c := range cs {
		if c == nil {
			h.Write([]byte{0})
			continue
		}
		for _, d := range c.Docs {
			binary.LittleEndian.PutUint64(b[:], uint64(len(d.Text)))
			h.Write(b[:])
			io.WriteString(h, d.Text)
			binary.LittleEndian.PutUint64(b[:], uint64(len(d.Labels)))
			h.Write(b[:])
			for _, l := range d.Labels {
				binary.LittleEndian.PutUint64(b[:], uint64(l))
				h.Write(b[:])
			}
		}
		h.Write([]byte{1})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// ReadDocuments reads the labelled documents of path with t and opts
// (corpus.ReadFile), nil for an empty path. A file of label sets without
// text is an error: an experiment on text wants documents.
func ReadDocuments(path string, t *tree.Tree, opts *corpus.Options) (*corpus.Corpus, error) {
	if path == "" {
		return nil, nil
	}
	c, err := corpus.ReadFile(path, t, opts)
	if err == nil && c.Format == corpus.LabelSets {
		err = fmt.Errorf("%s holds label sets but no text: want documents", path)
	}
	return c, err
}
