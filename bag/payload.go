package bag

import (
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/twl-ldl/twl/internal/f32le"
)

// PayloadBytes returns the size of the payload of a model of sizes c:
// 4·K bytes of buckets and 4 bytes per parameter.
func (c Config) PayloadBytes() int64 { return 4*int64(c.Ngrams) + 4*int64(c.NumParams()) }

// WritePayload writes the model's payload to w, little-endian: the bucket
// of each n-gram row (int32), then Params (float32).
func (m *Model) WritePayload(w io.Writer) error {
	b := make([]byte, 0, 4*len(m.Index.Kept))
	for _, k := range m.Index.Kept {
		b = binary.LittleEndian.AppendUint32(b, uint32(k))
	}
	if _, err := w.Write(b); err != nil {
		return err
	}
	return f32le.Write(w, m.Params)
}

// ReadPayload returns the model of sizes c whose payload WritePayload wrote
// to r, or an error if c fails Check, r ends before the payload does, a
// bucket is out of range or repeated, or a parameter is not finite.
func ReadPayload(c Config, r io.Reader) (*Model, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	b := make([]byte, 4*c.Ngrams)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, f32le.ErrShort
	}
	kept := make([]int32, c.Ngrams)
	for k := range kept {
		v := binary.LittleEndian.Uint32(b[4*k:])
		if v >= uint32(c.Buckets) {
			return nil, fmt.Errorf("n-gram row %d: bucket %d out of range", k, v)
		}
		kept[k] = int32(v)
	}
	x, err := NewIndex(c.Words, c.Features, kept)
	if err != nil {
		return nil, err
	}
	m := New(x, c.Dim, c.Labels)
	bad, err := f32le.Read(r, m.Params)
	switch {
	case err != nil:
		return nil, err
	case bad >= 0:
		return nil, fmt.Errorf("parameter %d is %v", bad, m.Params[bad])
	}
	return m, nil
}

// SetWords copies a V×D table of word vectors (embedding.Table.Data) into
// the word rows. It panics if the size differs.
func (m *Model) SetWords(table []float32) {
	if len(table) != m.Words*m.Dim {
		panic("bag: word table size differs from Words×Dim")
	}
	copy(m.Emb, table)
}

// InitNgrams draws the n-gram rows uniform on [−scale, scale] from src, in
// row order; scale 0 leaves them zero.
func (m *Model) InitNgrams(src rand.Source, scale float64) {
	if scale == 0 {
		return
	}
	rng := rand.New(src)
	for i := m.Words * m.Dim; i < m.Rows()*m.Dim; i++ {
		m.Emb[i] = float32((2*rng.Float64() - 1) * scale)
	}
}
