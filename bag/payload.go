package bag

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"

	"github.com/twl-ldl/twl/internal/parallel"
)

// PayloadBytes returns the size of the payload of a model of sizes c:
// 4·K bytes of buckets and 4 bytes per parameter.
func (c Config) PayloadBytes() int64 { return 4*int64(c.Ngrams) + 4*int64(c.NumParams()) }

// AppendPayload appends the model's payload to b, little-endian: the
// bucket of each n-gram row (int32), then Params (float32).
func (m *Model) AppendPayload(b []byte) []byte {
	for _, k := range m.Index.Kept {
		b = binary.LittleEndian.AppendUint32(b, uint32(k))
	}
	for _, v := range m.Params {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	return b
}

// FromPayload returns the model of sizes c whose payload (AppendPayload)
// is b, or an error if c fails Check, b has another size, a bucket is out
// of range or repeated, or a parameter is not finite.
func FromPayload(c Config, b []byte) (*Model, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	if int64(len(b)) != c.PayloadBytes() {
		return nil, fmt.Errorf("payload of %d bytes; the sizes need %d", len(b), c.PayloadBytes())
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
	b = b[4*c.Ngrams:]
	// The parameters in parts on every core, each noting its first value
	// that is not finite.
	P := m.Params
	workers := runtime.GOMAXPROCS(0)
	bad := make([]int, parallel.Parts(len(P), workers, 1<<16))
	parallel.ForParts(len(P), workers, 1<<16, func(p, lo, hi int) {
		bad[p] = -1
		for i := lo; i < hi; i++ {
			u := binary.LittleEndian.Uint32(b[4*i:])
			if u&0x7f800000 == 0x7f800000 && bad[p] < 0 {
				bad[p] = i
			}
			P[i] = math.Float32frombits(u)
		}
	})
	for _, i := range bad {
		if i >= 0 {
			return nil, fmt.Errorf("parameter %d is %v", i, P[i])
		}
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
