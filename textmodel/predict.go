package textmodel

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/twl-ldl/twl/corpus"
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

// PredictOptions control WritePredictions.
type PredictOptions struct {
	Top     int     // write the Top most probable labels only; 0: all
	MinMass float64 // leave out the labels of mass below MinMass
}

// WritePredictions writes the predicted distribution of every document of
// c, in order, as JSON Lines: one object {"label": mass, …} per document,
// the labels by decreasing mass (ties in the model's order), the masses in
// the shortest form that reads back to the same float64. A prediction that
// is not finite (the weights of a diverged training) is an error naming
// the document.
func (m *Model) WritePredictions(w io.Writer, c *corpus.Corpus, o PredictOptions) error {
	L := len(m.Labels)
	p := m.NewPredictor()
	const batch = 100
	dst := make([]float64, batch*L)
	texts := make([]string, 0, batch)
	order := make([]int, L)
	n := L
	if o.Top > 0 {
		n = min(o.Top, L)
	}
	var line []byte
	for s := 0; s < c.Len(); s += batch {
		texts = texts[:0]
		for _, d := range c.Docs[s:min(s+batch, c.Len())] {
			texts = append(texts, d.Text)
		}
		p.Predict(dst[:len(texts)*L], texts)
		for r := range texts {
			row := dst[r*L : (r+1)*L]
			for _, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("the model predicts %v for the document of %s: its weights are broken (a diverged training?)", v, c.At(s+r))
				}
			}
			for j := range order {
				order[j] = j
			}
			slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(row[b], row[a]) })
			line = append(line[:0], '{')
			for k, j := range order[:n] {
				if row[j] < o.MinMass {
					break
				}
				if k > 0 {
					line = append(line, ", "...)
				}
				line = strconv.AppendQuote(line, m.Labels[j])
				line = append(line, ": "...)
				line = strconv.AppendFloat(line, row[j], 'g', -1, 64)
			}
			line = append(line, "}\n"...)
			if _, err := w.Write(line); err != nil {
				return err
			}
		}
	}
	return nil
}
