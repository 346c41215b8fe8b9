package report

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"io"

	"github.com/twl-ldl/twl/corpus"
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
