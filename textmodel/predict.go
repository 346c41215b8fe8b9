package textmodel

import (
	"math"
)

// Encode returns the network's inputs for text under the model's tokenizer
// and vocabulary (Network.Encode).
func (m *Model) Encode(text string) []int32 {
	return m.Net.Encode(nil, m.Vocab, &m.Tokenizer, text)
}

// Predictor computes the label distributions of texts in batches, reusing
// its memory. It is not safe for concurrent use.
type Predictor struct {
	m      *Model
	logits func(dst []float64, docs [][]int32)
	docs   [][]int32
}

// NewPredictor returns a Predictor for m.
func (m *Model) NewPredictor() *Predictor { return &Predictor{m: m, logits: m.Net.NewLogits()} }

// Predict stores in dst (len(texts)×L) the predicted distribution,
// softmax of the logits, of each text.
func (p *Predictor) Predict(dst []float64, texts []string) {
	for len(p.docs) < len(texts) {
		p.docs = append(p.docs, nil)
	}
	docs := p.docs[:len(texts)]
	for i, t := range texts {
		docs[i] = p.m.Net.Encode(docs[i][:0], p.m.Vocab, &p.m.Tokenizer, t)
	}
	p.PredictIDs(dst, docs)
}

// PredictIDs is Predict for documents already encoded (Model.Encode).
func (p *Predictor) PredictIDs(dst []float64, docs [][]int32) {
	p.logits(dst, docs)
	L := p.m.Net.Outputs()
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
