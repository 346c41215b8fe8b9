package lstm

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/twl-ldl/twl/vocab"
)

// What a text model (package textmodel) asks of its network.

// Kind is "lstm", the name of this kind of network in model files.
func (m *Model) Kind() string { return "lstm" }

// Outputs returns L.
func (m *Model) Outputs() int { return m.Labels }

// Sizes returns the model's Config: what a model file's header records.
func (m *Model) Sizes() any { return m.Config }

// Shape describes the model: "LSTM 100→200, 30000 words".
func (m *Model) Shape() string {
	words := fmt.Sprintf("%d words", m.Vocab)
	if m.Vocab == 1 {
		words = "1 word"
	}
	return fmt.Sprintf("LSTM %d→%d, %s", m.Dim, m.Hidden, words)
}

// Encode appends the token IDs of text, as tk splits and truncates it, to
// dst: the model's input.
func (m *Model) Encode(dst []int32, v *vocab.Vocab, tk *vocab.Tokenizer, text string) []int32 {
	return v.Encode(dst, tk, text)
}

// AppendPayload appends Params to b, float32 little-endian: the tensors in
// the order of TensorNames, each row-major.
func (m *Model) AppendPayload(b []byte) []byte { return appendFloat32s(b, m.Params) }

// FromPayload returns the model of sizes c whose parameters are b
// (AppendPayload), or an error if b has another size or a parameter is not
// finite. It panics if c is out of range (Config's sizes must be
// positive).
func FromPayload(c Config, b []byte) (*Model, error) {
	if len(b) != 4*c.NumParams() {
		return nil, fmt.Errorf("payload of %d bytes; the sizes need %d", len(b), 4*c.NumParams())
	}
	m := NewModel(c)
	for i := range m.Params {
		x := math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, fmt.Errorf("parameter %d is %v", i, x)
		}
		m.Params[i] = x
	}
	return m, nil
}

// NewLogits returns a function that stores in dst (len(docs)×L) the logits
// of docs, with a Workspace of its own: Workspace.Forward.
func (m *Model) NewLogits() func(dst []float64, docs [][]int32) { return m.NewWorkspace().Forward }
