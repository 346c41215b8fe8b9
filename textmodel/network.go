package textmodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/twl-ldl/twl/bag"
	"github.com/twl-ldl/twl/lstm"
	"github.com/twl-ldl/twl/vocab"
)

// Network is the part of a text model that depends on its kind: the LSTM of
// package lstm (*lstm.Model, the paper's), the bag of n-grams of package
// bag (*bag.Model), or bags whose predictions are averaged (*bag.Ensemble).
// A model file names the kind in its header ("model") and holds the
// network's sizes ("config") and parameters (the payload).
type Network interface {
	// Kind names the kind in model files: KindLSTM, KindBag or KindBags.
	Kind() string
	// Outputs returns L, the number of logits of a document.
	Outputs() int
	// Shape describes the network's sizes for people.
	Shape() string
	// Sizes returns the sizes a model file's header records (JSON).
	Sizes() any
	// Encode appends the network's inputs for text, as v and tk read it,
	// to dst.
	Encode(dst []int32, v *vocab.Vocab, tk *vocab.Tokenizer, text string) []int32
	// NewLogits returns a function that stores in dst (len(docs)×L) the
	// logits of docs (from Encode), with a workspace of its own; it is not
	// safe for concurrent use.
	NewLogits() func(dst []float64, docs [][]int32)
	// WritePayload writes the parameters as a model file holds them.
	WritePayload(w io.Writer) error
}

var (
	_ Network = (*lstm.Model)(nil)
	_ Network = (*bag.Model)(nil)
	_ Network = (*bag.Ensemble)(nil)
)

// The kinds of network.
const (
	KindLSTM = "lstm" // package lstm: the paper's model
	KindBag  = "bag"  // package bag: a bag of n-grams, as fastText
	// KindBags is the kind of model files that hold several bags whose
	// predictions are averaged (bag.Ensemble): what 'twl text train
	// --model bag' writes by default, a bag of n-grams and a bag of the
	// same words alone. It is not a --model of its own.
	KindBags = "bags"
)

// Kinds lists the kinds of network, the default of 'twl text train' first.
var Kinds = []string{KindBag, KindLSTM}

// payloadSize returns the payload bytes that the sizes raw (the header's
// "config") of a network of kind give, or an error if raw is not such
// sizes (unknown fields included) or they are out of range.
func payloadSize(kind string, raw json.RawMessage) (int64, error) {
	switch kind {
	case KindLSTM:
		var c lstm.Config
		if err := strictJSON(raw, &c); err != nil {
			return 0, err
		}
		if c.Vocab < 1 || c.Dim < 1 || c.Hidden < 1 || c.Labels < 1 || c.Vocab > 1<<28 || c.Dim > 1<<16 || c.Hidden > 1<<16 || c.Labels > 1<<24 {
			return 0, fmt.Errorf("sizes out of range: vocabulary %d, word vectors %d, hidden %d, labels %d", c.Vocab, c.Dim, c.Hidden, c.Labels)
		}
		return 4 * int64(c.NumParams()), nil
	case KindBag:
		var c bag.Config
		if err := strictJSON(raw, &c); err != nil {
			return 0, err
		}
		if err := c.Check(); err != nil {
			return 0, fmt.Errorf("sizes out of range: %v", err)
		}
		return c.PayloadBytes(), nil
	case KindBags:
		var c bag.EnsembleConfig
		if err := strictJSON(raw, &c); err != nil {
			return 0, err
		}
		if err := c.Check(); err != nil {
			return 0, fmt.Errorf("sizes out of range: %v", err)
		}
		return c.PayloadBytes(), nil
	}
	return 0, fmt.Errorf("model %q", kind)
}

// readPayload returns the network of kind and sizes raw (checked by
// payloadSize) whose parameters r holds.
func readPayload(kind string, raw json.RawMessage, r io.Reader) (Network, error) {
	switch kind {
	case KindLSTM:
		var c lstm.Config
		if err := strictJSON(raw, &c); err != nil {
			return nil, err
		}
		return lstm.ReadPayload(c, r)
	case KindBag:
		var c bag.Config
		if err := strictJSON(raw, &c); err != nil {
			return nil, err
		}
		return bag.ReadPayload(c, r)
	case KindBags:
		var c bag.EnsembleConfig
		if err := strictJSON(raw, &c); err != nil {
			return nil, err
		}
		return bag.ReadEnsemblePayload(c, r)
	}
	return nil, fmt.Errorf("model %q", kind)
}

// strictJSON decodes raw into v, refusing unknown fields.
func strictJSON(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("config: %v", err)
	}
	return nil
}

// labelsOf returns the "labels" of the sizes raw of a network of kind.
func labelsOf(kind string, raw json.RawMessage) int {
	var c struct {
		Labels int `json:"labels"`
	}
	if kind == KindBags {
		var e bag.EnsembleConfig
		json.Unmarshal(raw, &e)
		if len(e.Members) > 0 {
			return e.Members[0].Labels
		}
	}
	json.Unmarshal(raw, &c)
	return c.Labels
}

// vocabOf returns the vocabulary size that the sizes raw of a network of
// kind give.
func vocabOf(kind string, raw json.RawMessage) int {
	var c struct {
		Vocab int `json:"vocab"`
		Words int `json:"words"`
	}
	json.Unmarshal(raw, &c)
	if kind == KindBags {
		var e bag.EnsembleConfig
		json.Unmarshal(raw, &e)
		if len(e.Members) > 0 {
			return e.Members[0].Words
		}
	}
	if kind == KindBag {
		return c.Words
	}
	return c.Vocab
}
