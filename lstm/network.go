package lstm

import (
	"fmt"
	"io"

	"github.com/twl-ldl/twl/internal/f32le"
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

// WritePayload writes Params to w, float32 little-endian: the tensors in
// the order of TensorNames, each row-major.
func (m *Model) WritePayload(w io.Writer) error { return f32le.Write(w, m.Params) }

// ReadPayload returns the model of sizes c whose parameters WritePayload
// wrote to r, or an error if r ends before them or a parameter is not
// finite. It panics if c is out of range (Config's sizes must be
// positive).
func ReadPayload(c Config, r io.Reader) (*Model, error) {
	m := NewModel(c)
	bad, err := f32le.Read(r, m.Params)
	switch {
	case err != nil:
		return nil, err
	case bad >= 0:
		return nil, fmt.Errorf("parameter %d is %v", bad, m.Params[bad])
	}
	return m, nil
}

// NewLogits returns a function that stores in dst (len(docs)×L) the logits
// of docs, with a Workspace of its own: Workspace.Forward.
func (m *Model) NewLogits() func(dst []float64, docs [][]int32) { return m.NewWorkspace().Forward }
