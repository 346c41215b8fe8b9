package docknn

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/embedding"
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
var ErrConfig = errors.New("docknn: invalid configuration")

// ErrData is wrapped by the errors about the documents: too few with
// words, a document without a class.
var ErrData = errors.New("docknn: unusable documents")

// Config controls Run. Train, Test and Emb are required; the zero value of
// every other field means its default.
type Config struct {
	// Train and Test are the documents the training and test documents are
	// drawn from (see the package documentation for their classes).
	Train, Test *corpus.Corpus
	// Emb gives the word vectors; EmbSource names them in the report.
	Emb       embedding.Source
	EmbSource string

	// DocsTrain and DocsTest are the numbers of documents drawn; 0 means
	// DefaultDocsTrain (1000) and DefaultDocsTest (300).
	DocsTrain, DocsTest int
	// Words is M, the most frequent words kept per document; 0 means
	// DefaultWords (40).
	Words int
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
	// ClusterK and ClusterDepth are the branching and depth of the
	// clustering trees, QuadDepth the depth of the quadtrees; 0 means
	// pointtree's defaults (4, 6 and 12).
	ClusterK, ClusterDepth, QuadDepth int
	// Seed seeds the drawing of the documents and the trees.
	Seed uint64
	// Workers is the number of test documents processed at once; 0 means
	// runtime.GOMAXPROCS(0).
	Workers int

	// Progress receives a line per step; nil means none.
	Progress io.Writer
	// Context, when not nil, stops Run within a test document's distances
	// once it is done; Run then returns its error.
	Context context.Context
}

// Resolved is what a Result records of its Config.
type Resolved struct {
	Files        Files    `json:"files"`
	DocsTrain    int      `json:"docs_train"`
	DocsTest     int      `json:"docs_test"`
	Words        int      `json:"words"`
	KeepHeaders  bool     `json:"keep_headers"`
	Trees        []int    `json:"trees"`
	Builders     []string `json:"builders"`
	Ks           []int    `json:"ks"`
	ClusterK     int      `json:"cluster_k"`
	ClusterDepth int      `json:"cluster_depth"`
	ClusterIters int      `json:"cluster_iters"`
	QuadDepth    int      `json:"quad_depth"`
	Seed         uint64   `json:"seed"`
	Workers      int      `json:"workers"`
	StopWords    int      `json:"stop_words"` // the size of StopWords
}

// Files names the data.
type Files struct {
	Train      string `json:"train"`
	Test       string `json:"test"`
	Embeddings string `json:"embeddings"`
}

// maxDocs bounds DocsTrain and DocsTest.
const maxDocs = 1 << 20

// Resolve fills in the defaults of cfg and checks it. Errors wrap
// ErrConfig.
func (cfg Config) Resolve() (Resolved, error) {
	bad := func(format string, args ...any) (Resolved, error) {
		return Resolved{}, fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, args...))
	}
	switch {
	case cfg.Train == nil || cfg.Test == nil:
		return bad("training and test documents are required")
	case cfg.Emb == nil:
		return bad("word vectors are required")
	}
	r := Resolved{
		Files:     Files{Train: cfg.Train.File, Test: cfg.Test.File, Embeddings: cfg.EmbSource},
		DocsTrain: cfg.DocsTrain, DocsTest: cfg.DocsTest, Words: cfg.Words, KeepHeaders: cfg.KeepHeaders,
		ClusterK: cfg.ClusterK, ClusterDepth: cfg.ClusterDepth, ClusterIters: 10, QuadDepth: cfg.QuadDepth,
		Seed: cfg.Seed, Workers: cfg.Workers, StopWords: len(StopWords),
	}
	for _, f := range []struct {
		dst      *int
		def      int
		name     string
		min, max int
	}{{&r.DocsTrain, DefaultDocsTrain, "DocsTrain", 1, maxDocs}, {&r.DocsTest, DefaultDocsTest, "DocsTest", 1, maxDocs},
		{&r.Words, DefaultWords, "Words", 1, 1 << 16}, {&r.ClusterK, 4, "ClusterK", 2, 1000},
		{&r.ClusterDepth, 6, "ClusterDepth", 1, 64}, {&r.QuadDepth, 12, "QuadDepth", 1, 50},
		{&r.Workers, runtime.GOMAXPROCS(0), "Workers", 1, 1024}} {
		if *f.dst == 0 {
			*f.dst = f.def
		}
		if *f.dst < f.min || *f.dst > f.max {
			return bad("%s must be 0 (the default, %d) or from %d to %d, got %d", f.name, f.def, f.min, f.max, *f.dst)
		}
	}
	for _, f := range []struct {
		dst  *[]int
		v    []int
		def  []int
		name string
		max  int
	}{{&r.Trees, cfg.Trees, DefaultTrees, "Trees", 1 << 12}, {&r.Ks, cfg.Ks, DefaultKs, "Ks", r.DocsTrain}} {
		if f.v != nil {
			*f.dst = slices.Clone(f.v)
		} else {
			// The defaults that fit: fewer k when there are few documents.
			*f.dst = slices.DeleteFunc(slices.Clone(f.def), func(v int) bool { return v > f.max })
		}
		if len(*f.dst) == 0 {
			return bad("%s is empty", f.name)
		}
		for _, v := range *f.dst {
			if v < 1 || v > f.max {
				return bad("%s holds %d: each must be from 1 to %d", f.name, v, f.max)
			}
		}
		slices.Sort(*f.dst)
		*f.dst = slices.Compact(*f.dst)
	}
	if cfg.Builders == nil {
		r.Builders = slices.Clone(Builders)
	} else {
		if len(cfg.Builders) == 0 {
			return bad("no builders")
		}
		for _, b := range cfg.Builders {
			if !slices.Contains(Builders, b) {
				return bad("unknown builder %q (want %s or %s)", b, BuilderCluster, BuilderQuad)
			}
			if slices.Contains(r.Builders, b) {
				return bad("builder %q named twice", b)
			}
			r.Builders = append(r.Builders, b)
		}
	}
	return r, nil
}
