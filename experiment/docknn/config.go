package docknn

import (
	"errors"
	"runtime"
	"slices"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/experiment/report"
)

// Builders of the trees (Config.Builders).
const (
	BuilderCluster = "cluster" // pointtree.Cluster
	BuilderQuad    = "quad"    // pointtree.Quad
)

// Builders lists every builder, in the order of the report.
var Builders = []string{BuilderCluster, BuilderQuad}

// The defaults of Config: the reduced protocol, a few minutes on 2 cores.
const (
	DefaultDocsTrain = 1000
	DefaultDocsTest  = 300
	DefaultWords     = 40
)

// DefaultTrees are the numbers of trees T of the default protocol.
var DefaultTrees = []int{1, 4, 16}

// DefaultKs are the k of the k-nearest-neighbour votes: 1, 3, …, 19.
var DefaultKs = []int{1, 3, 5, 7, 9, 11, 13, 15, 17, 19}

// ClaimPoints is the largest difference of the best errors, in points (1
// point = 0.01), that the report counts as "within a few points", and
// ClaimSpeedup the least speed-up per pair it counts as "100× or more".
const (
	ClaimPoints  = 3.0
	ClaimSpeedup = 100.0
)

// ErrConfig is wrapped by the errors that report an invalid Config.
var ErrConfig = report.ErrConfigOf("docknn")

// ErrData is wrapped by the errors about the documents: too few with
// words, a document without a class.
var ErrData = errors.New("docknn: unusable documents")

// Config controls Run. Train, Test and Emb are required; the zero value
// (nil) of every other field means its default.
type Config struct {
	// Train and Test are the documents the training and test documents are
	// drawn from (see the package documentation for their classes).
	Train, Test *corpus.Corpus
	// Emb gives the word vectors; EmbSource names them in the report.
	Emb       embedding.Source
	EmbSource string

	// DocsTrain and DocsTest are the numbers of documents drawn; nil means
	// DefaultDocsTrain (1000) and DefaultDocsTest (300).
	DocsTrain, DocsTest *int
	// Words is M, the most frequent words kept per document; nil means
	// DefaultWords (40).
	Words *int
	// KeepHeaders keeps the header block of texts that start with one
	// (e-mail and news posts); by default StripHeaders removes it, keeping
	// the subject.
	KeepHeaders bool
	// Trees are the numbers of trees T, each at least 1; nil means
	// DefaultTrees (1, 4, 16). Sorted, duplicates dropped.
	Trees []int
	// Builders are the tree builders run, a subset of Builders; nil means
	// both.
	Builders []string
	// Ks are the k of the votes, each at least 1 and at most DocsTrain;
	// nil means DefaultKs (1, 3, …, 19), those at most DocsTrain. Sorted,
	// duplicates dropped.
	Ks []int
	// TreeOptions choose the clustering trees and the quadtrees.
	report.TreeOptions
	// Seed seeds the drawing of the documents and the trees.
	Seed uint64
	// Workers is the number of test documents processed at once; nil
	// means runtime.GOMAXPROCS(0).
	Workers *int

	// RunOptions: progress: a line per step; stopped within a test
	// document's distances.
	report.RunOptions
}

// Resolved is what a Result records of its Config.
type Resolved struct {
	Files       Files    `json:"files"`
	DocsTrain   int      `json:"docs_train"`
	DocsTest    int      `json:"docs_test"`
	Words       int      `json:"words"`
	KeepHeaders bool     `json:"keep_headers"`
	Trees       []int    `json:"trees"`
	Builders    []string `json:"builders"`
	Ks          []int    `json:"ks"`
	report.TreeSettings
	Seed      uint64 `json:"seed"`
	Workers   int    `json:"workers"`
	StopWords int    `json:"stop_words"` // the size of StopWords
}

// Files names the data.
type Files struct {
	Train      string `json:"train"`
	Test       string `json:"test"`
	Embeddings string `json:"embeddings"`
}

// maxDocs bounds DocsTrain and DocsTest.
const maxDocs = 1 << 20

// Resolve fills in the defaults of cfg and checks it. Its errors are
// *report.ConfigError, wrapping ErrConfig.
func (cfg Config) Resolve() (Resolved, error) {
	c := report.Checker{Kind: ErrConfig}
	switch {
	case cfg.Train == nil || cfg.Test == nil:
		return Resolved{}, c.Bad("Train", nil, "training and test documents are required")
	case cfg.Emb == nil:
		return Resolved{}, c.Bad("Emb", nil, "word vectors are required")
	}
	r := Resolved{
		Files:     Files{Train: cfg.Train.File, Test: cfg.Test.File, Embeddings: cfg.EmbSource},
		DocsTrain: DefaultDocsTrain, DocsTest: DefaultDocsTest, Words: DefaultWords, KeepHeaders: cfg.KeepHeaders,
		Trees: slices.Clone(DefaultTrees), Seed: cfg.Seed, Workers: runtime.GOMAXPROCS(0), StopWords: len(StopWords),
	}
	var err error
	if r.TreeSettings, err = cfg.TreeOptions.Resolve(c); err != nil {
		return Resolved{}, err
	}
	for _, err := range []error{
		c.Int(&r.DocsTrain, cfg.DocsTrain, "DocsTrain", 1, maxDocs), c.Int(&r.DocsTest, cfg.DocsTest, "DocsTest", 1, maxDocs),
		c.Int(&r.Words, cfg.Words, "Words", 1, 1<<16), c.Int(&r.Workers, cfg.Workers, "Workers", 1, 1024), c.Ints(&r.Trees, cfg.Trees, "Trees", 1, 1<<12),
	} {
		if err != nil {
			return Resolved{}, err
		}
	}
	// The default k that fit: fewer when there are few documents.
	r.Ks = slices.DeleteFunc(slices.Clone(DefaultKs), func(k int) bool { return k > r.DocsTrain })
	if err := c.Ints(&r.Ks, cfg.Ks, "Ks", 1, r.DocsTrain); err != nil {
		return Resolved{}, err
	}
	if r.Builders, err = c.Subset("Builders", cfg.Builders, Builders); err != nil {
		return Resolved{}, err
	}
	if cfg.Builders != nil {
		r.Builders = slices.Clone(cfg.Builders) // in the order given
	}
	return r, nil
}

// CheckSettings checks the settings of cfg, every field but Train, Test
// and Emb, before the data are read: its errors are those Resolve would
// return.
func (cfg Config) CheckSettings() error {
	cfg.Train, cfg.Test, cfg.Emb = &corpus.Corpus{}, &corpus.Corpus{}, noVectors{}
	_, err := cfg.Resolve()
	return err
}

// noVectors stands for the word vectors while the settings are checked.
type noVectors struct{}

func (noVectors) Dim() int { return 1 }

func (noVectors) Lookup(dst []float32, word string) embedding.Found {
	clear(dst)
	return embedding.Missing
}
