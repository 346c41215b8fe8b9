package labeltrees

import (
	"slices"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/experiment/text"
	"github.com/twl-ldl/twl/textmodel"
)

// The conditions, in the order of the report.
const (
	KL    = "kl"          // KL alone
	Given = "kl+tw:given" // KL + λ·TW over the data's hierarchy
	Names = "kl+tw:names" // … over a clustering tree of the label names' vectors
	Docs  = "kl+tw:docs"  // … over a clustering tree of the labels' document centroids
	Star  = "kl+tw:star"  // … over a star
)

// Conditions lists every condition, in the order of the report.
var Conditions = []string{KL, Given, Names, Docs, Star}

// Label names a condition in tables and plots.
func Label(id string) string {
	switch id {
	case KL:
		return "KL"
	case Given:
		return "KL + TW, given tree"
	case Names:
		return "KL + TW, tree of label names"
	case Docs:
		return "KL + TW, tree of label centroids"
	case Star:
		return "KL + TW, star"
	}
	return id
}

// ErrConfig is wrapped by the errors that report an invalid Config.
var ErrConfig = report.ErrConfigOf("labeltrees")

// Config controls Run.
type Config struct {
	// ProtocolOptions: a protocol of the text experiment and the numbers
	// that replace its own.
	text.ProtocolOptions
	// Lambda, when not nil, weighs the TW term, positive; nil means 1.
	Lambda *float64

	// Train and Test hold the documents, read with the data's hierarchy
	// and corpus.Options.AsGiven (the label sets as the files give them).
	// Test may be nil: seed k then draws a random 64/16/20 split of Train.
	Train, Test *corpus.Corpus
	// TreeSource names the hierarchy in the report.
	TreeSource string

	// Emb gives the word vectors of the model (nil: random ones) and of
	// the docs condition; EmbRef names them. LabelEmb gives the vectors of
	// the label names (nil: Emb); LabelEmbRef names them.
	Emb         embedding.Source
	EmbRef      textmodel.EmbeddingRef
	LabelEmb    embedding.Source
	LabelEmbRef textmodel.EmbeddingRef

	// Conditions are the conditions to run, a subset of Conditions; nil
	// means every one that the vectors allow (names needs LabelEmb or Emb,
	// docs needs Emb).
	Conditions []string

	// OutDir, when not empty, receives one JSON file per finished run,
	// the checkpoints of unfinished ones and the trees; runs found there
	// are kept.
	OutDir string

	// RunOptions: progress: a line per run and per epoch; stopped at the
	// next mini-batch, finished runs and the last complete checkpoint
	// staying.
	report.RunOptions
}

// Resolved is what a Result records of its Config.
type Resolved struct {
	Protocol        string        `json:"protocol"`
	Settings        text.Settings `json:"settings"`
	Lambda          float64       `json:"lambda"`
	Conditions      []string      `json:"conditions"`
	Train           string        `json:"train"`
	Test            string        `json:"test,omitempty"`
	Tree            string        `json:"tree"`
	Labels          []string      `json:"labels"`
	SingleLabel     bool          `json:"single_label"` // every document has one label
	Embeddings      text.Vectors  `json:"embeddings"`
	LabelEmbeddings text.Vectors  `json:"label_embeddings"`
	Split           string        `json:"split"`
}

// resolve fills in the defaults of cfg and checks it. Its errors are
// *report.ConfigError, wrapping ErrConfig.
func (cfg *Config) resolve() (Resolved, error) {
	c := report.Checker{Kind: ErrConfig}
	bad := func(setting string, v any, format string, args ...any) (Resolved, error) {
		return Resolved{}, c.Bad(setting, v, format, args...)
	}
	// The protocol's numbers, checked, by the text experiment's rules.
	protocol, s, err := cfg.Settings(c)
	if err != nil {
		return Resolved{}, err
	}
	lambda := 1.0
	if err := c.Positive(&lambda, cfg.Lambda, "Lambda"); err != nil {
		return Resolved{}, err
	}
	switch {
	case cfg.Train == nil || cfg.Train.Tree == nil:
		return bad("Train", nil, "no training documents read with a label tree")
	case cfg.Test != nil && cfg.Test.Tree != cfg.Train.Tree:
		return bad("Test", nil, "%s was read with another tree than %s", cfg.Test.File, cfg.Train.File)
	}
	s.K = min(s.K, cfg.Train.Tree.Len())
	labelEmb, labelRef := cfg.LabelEmb, cfg.LabelEmbRef
	if labelEmb == nil {
		labelEmb, labelRef = cfg.Emb, cfg.EmbRef
	}
	all := Conditions
	if cfg.Conditions == nil {
		all = slices.DeleteFunc(slices.Clone(Conditions), func(id string) bool {
			return id == Names && labelEmb == nil || id == Docs && cfg.Emb == nil
		})
	}
	conds, err := c.Subset("Conditions", cfg.Conditions, all)
	if err != nil {
		return Resolved{}, err
	}
	for _, id := range conds {
		switch {
		case id == Names && labelEmb == nil:
			return bad("Conditions", id, "needs vectors for the label names")
		case id == Docs && cfg.Emb == nil:
			return bad("Conditions", id, "needs word vectors for the documents")
		}
	}
	r := Resolved{Protocol: protocol, Settings: s, Lambda: lambda, Conditions: conds, Train: cfg.Train.File,
		Tree: cfg.TreeSource, Embeddings: text.VectorsOf(cfg.EmbRef), LabelEmbeddings: text.VectorsOf(labelRef)}
	r.Split = "random 64/16/20 split of the training documents by seed"
	if cfg.Test != nil {
		r.Test = cfg.Test.File
		r.Split = "the test file; validation: 20% of the training documents by seed"
	}
	return r, nil
}
