package textmodel

import (
	"math"

	"github.com/twl-ldl/twl/lstm"
)

// Encode returns the token IDs of text under the model's tokenizer and
// vocabulary.
func (m *Model) Encode(text string) []int32 {
	return m.Vocab.Encode(nil, &m.Tokenizer, text)
}

// Predictor computes the label distributions of texts in batches, reusing
// its memory. It is not safe for concurrent use.
type Predictor struct {
	m    *Model
	ws   *lstm.Workspace
	docs [][]int32
	z    []float64
}

// NewPredictor returns a Predictor for m.
func (m *Model) NewPredictor() *Predictor { return &Predictor{m: m, ws: m.Net.NewWorkspace()} }

// Predict stores in dst (len(texts)×L) the predicted distribution,
// softmax of the logits, of each text.
func (p *Predictor) Predict(dst []float64, texts []string) {
	p.docs = p.docs[:0]
	for _, t := range texts {
		p.docs = append(p.docs, p.m.Encode(t))
	}
	p.PredictIDs(dst, p.docs)
}

// PredictIDs is Predict for documents already encoded.
func (p *Predictor) PredictIDs(dst []float64, docs [][]int32) {
	p.ws.Forward(dst, docs)
	L := p.m.Net.Labels
	for r := range docs {
		softmax(dst[r*L : (r+1)*L])
	}
}

// softmax replaces z by softmax(z).
func softmax(z []float64) {
	mx := math.Inf(-1)
	for _, v := range z {
		mx = max(mx, v)
	}
	var s float64
	for i, v := range z {
		z[i] = math.Exp(v - mx)
		s += z[i]
	}
	for i := range z {
		z[i] /= s
	}
}
