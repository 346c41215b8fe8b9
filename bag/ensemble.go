package bag

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/twl-ldl/twl/internal/parallel"
	"github.com/twl-ldl/twl/vocab"
)

// Ensemble averages the predicted distributions of bags over one
// vocabulary, such as a bag of words and bigrams and a bag of the words
// alone: with p_k = softmax(z_k) the prediction of member k of K,
//
//	p = (1/K)·Σ_k p_k.
//
// Its logits are log p (computed from the members' log-softmax, so that
// they are finite whenever the members' logits are), which a softmax
// turns back into p. The members are trained independently, each with its
// own loss (EnsembleLearner): averaging lowers the variance of the
// prediction, and a bag of words alone, having fewer features, fits few
// or short documents with less noise than one with n-grams.
type Ensemble struct {
	Members []*Model
}

// EnsembleConfig gives the sizes of an Ensemble: its members'.
type EnsembleConfig struct {
	Members []Config `json:"members"`
}

// MaxMembers bounds the members of an Ensemble.
const MaxMembers = 16

// Check returns an error describing the first size out of range or
// members that do not share a vocabulary and labels.
func (c EnsembleConfig) Check() error {
	if len(c.Members) < 1 || len(c.Members) > MaxMembers {
		return fmt.Errorf("%d members: want 1 to %d", len(c.Members), MaxMembers)
	}
	for k, m := range c.Members {
		if err := m.Check(); err != nil {
			return fmt.Errorf("member %d: %v", k+1, err)
		}
		if m.Words != c.Members[0].Words || m.Labels != c.Members[0].Labels {
			return fmt.Errorf("member %d: %d words and %d labels, member 1 %d and %d", k+1, m.Words, m.Labels, c.Members[0].Words, c.Members[0].Labels)
		}
	}
	return nil
}

// PayloadBytes returns the size of the payload of an ensemble of sizes c:
// the members' payloads, one after the other.
func (c EnsembleConfig) PayloadBytes() int64 {
	var n int64
	for _, m := range c.Members {
		n += m.PayloadBytes()
	}
	return n
}

// NewEnsemble returns the ensemble of members. It panics if there are no
// members, more than MaxMembers, or members of different vocabularies or
// labels.
func NewEnsemble(members ...*Model) *Ensemble {
	e := &Ensemble{Members: members}
	if err := e.Config().Check(); err != nil {
		panic("bag: " + err.Error())
	}
	return e
}

// Config returns the members' sizes.
func (e *Ensemble) Config() EnsembleConfig {
	c := EnsembleConfig{Members: make([]Config, len(e.Members))}
	for k, m := range e.Members {
		c.Members[k] = m.Config
	}
	return c
}

// Kind is "bags", the name of this kind of network in model files.
func (e *Ensemble) Kind() string { return "bags" }

// Outputs returns L.
func (e *Ensemble) Outputs() int { return e.Members[0].Labels }

// Sizes returns the ensemble's EnsembleConfig: what a model file's header
// records.
func (e *Ensemble) Sizes() any { return e.Config() }

// Shape describes the members: "mean of 2 bags: bag of 1–2-grams, …; bag
// of words, …".
func (e *Ensemble) Shape() string {
	s := make([]string, len(e.Members))
	for k, m := range e.Members {
		s[k] = m.Shape()
	}
	return fmt.Sprintf("mean of %d bags: %s", len(e.Members), strings.Join(s, "; "))
}

// Encode appends the features of text to dst for each member in turn: the
// number of the member's features, then its features (Model.Encode).
func (e *Ensemble) Encode(dst []int32, v *vocab.Vocab, tk *vocab.Tokenizer, text string) []int32 {
	for _, m := range e.Members {
		dst = m.Index.EncodeCounted(dst, v, tk, text)
	}
	return dst
}

// errSplit reports an encoded document that is not the members' features.
var errSplit = errors.New("bag: a document is not an ensemble's encoding")

// split stores in parts[k] the features of member k of doc (Encode), as
// subslices of doc. It panics if doc is not such an encoding.
func (e *Ensemble) split(parts [][]int32, doc []int32) {
	for k := range e.Members {
		if len(doc) == 0 || doc[0] < 0 || int(doc[0]) > len(doc)-1 {
			panic(errSplit)
		}
		n := int(doc[0])
		parts[k] = doc[1 : 1+n : 1+n]
		doc = doc[1+n:]
	}
	if len(doc) != 0 {
		panic(errSplit)
	}
}

// NewLogits returns a function that stores in dst (len(docs)×L) the
// logits of docs (from Encode): log of the mean of the members'
// softmax. It allocates nothing once its buffers have grown, and is not
// safe for concurrent use.
func (e *Ensemble) NewLogits() func(dst []float64, docs [][]int32) {
	K, L := len(e.Members), e.Outputs()
	fns := make([]func([]float64, [][]int32), K)
	for k, m := range e.Members {
		fns[k] = m.NewLogits()
	}
	parts := make([][][]int32, K)
	split := make([][]int32, K)
	z := make([][]float64, K)
	var out []float64
	body := func(lo, hi int) {
		for r := lo; r < hi; r++ {
			combine(out[r*L:(r+1)*L], z, r, L)
		}
	}
	return func(dst []float64, docs [][]int32) {
		if len(dst) != len(docs)*L {
			panic("bag: len(dst) != len(docs)·L")
		}
		for k := range parts {
			parts[k] = growDocs(parts[k], len(docs))
			z[k] = growF64(z[k], len(docs)*L)
		}
		for r, d := range docs {
			e.split(split, d)
			for k := range parts {
				parts[k][r] = split[k]
			}
		}
		for k, f := range fns {
			f(z[k], parts[k])
		}
		out = dst
		parallel.For(len(docs), 0, 64, body)
		out = nil
		for k := range parts {
			clear(parts[k]) // keep no reference to the caller's documents
		}
	}
}

// combine stores in dst (L) log((1/K)·Σ_k softmax(z_k)) for row r of the
// members' logits z[k] (rows of L), as
//
//	log p_j = m_j + log Σ_k exp(a_kj − m_j) − log K,
//	a_kj = z_kj − logsumexp(z_k),   m_j = max_k a_kj,
//
// so that the result is finite when the logits are.
func combine(dst []float64, z [][]float64, r, L int) {
	K := len(z)
	if K == 1 {
		copy(dst, z[0][r*L:(r+1)*L])
		return
	}
	var lse [MaxMembers]float64
	for k := range K {
		lse[k] = logSumExp(z[k][r*L : (r+1)*L])
	}
	logK := math.Log(float64(K))
	for j := range dst[:L] {
		m := math.Inf(-1)
		for k := range K {
			m = max(m, z[k][r*L+j]-lse[k])
		}
		var s float64
		for k := range K {
			s += math.Exp(z[k][r*L+j] - lse[k] - m)
		}
		dst[j] = m + math.Log(s) - logK
	}
}

// logSumExp returns log Σ_j exp(z_j), from the largest term.
func logSumExp(z []float64) float64 {
	m := math.Inf(-1)
	for _, v := range z {
		m = max(m, v)
	}
	var s float64
	for _, v := range z {
		s += math.Exp(v - m)
	}
	return m + math.Log(s)
}

// WritePayload writes the members' payloads (Model.WritePayload), one
// after the other.
func (e *Ensemble) WritePayload(w io.Writer) error {
	for _, m := range e.Members {
		if err := m.WritePayload(w); err != nil {
			return err
		}
	}
	return nil
}

// ReadEnsemblePayload returns the ensemble of sizes c whose payload
// WritePayload wrote to r, or an error as ReadPayload's, naming the
// member.
func ReadEnsemblePayload(c EnsembleConfig, r io.Reader) (*Ensemble, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	e := &Ensemble{Members: make([]*Model, len(c.Members))}
	for k, mc := range c.Members {
		m, err := ReadPayload(mc, r)
		if err != nil {
			return nil, fmt.Errorf("member %d: %w", k+1, err)
		}
		e.Members[k] = m
	}
	return e, nil
}

func growDocs(s [][]int32, n int) [][]int32 {
	if cap(s) < n {
		return make([][]int32, n)
	}
	return s[:n]
}

func growF64(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}
