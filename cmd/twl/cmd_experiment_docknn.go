package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/experiment/docknn"
)

const docknnAbout = `
Docknn compares the tree-sliced Wasserstein distance (TSW, Le et al. 2019)
with the exact word mover's distance (WMD, Kusner et al. 2015) as distances
between documents: the k-nearest-neighbour classification error of each on
the same documents, and the time of each.

--train and --test are labelled documents as 'twl text train' reads them
(20 Newsgroups' train.jsonl and test.jsonl); a document's class is its one
label. --emb are the word vectors (.vec/.txt, or a fastText .bin, whose
subword vectors then count as vectors). --docs-train and --docs-test
documents are drawn from them by --seed, passing over those left without a
word. Each is a normalized bag of its --words most frequent words:
lower-case tokens, a short English stop list and the words without a vector
dropped. A text that starts with the header block of an e-mail or news post
(From:, Subject:, Organization:, …, up to the first blank line) loses it,
all but the subject, unless --keep-headers.

WMD is the 1-Wasserstein distance with the Euclidean cost between the
words' vectors, solved exactly by the network simplex on the small cost
matrix of each pair. TSW averages the tree-Wasserstein distances on T random
trees built over the vectors of every word of the bags: clustering trees
(recursive k-means, --cluster-k, --cluster-depth) and randomly shifted
quadtrees (--quad-depth); T takes each value of --trees, on the first T of
the trees of each builder. TSW is computed, and timed, two ways: pair by
pair (tsw's SparseDistance), and as the l1 distance between the documents'
tree embeddings, computed once per document; the values are the same. Each test document is classified by the majority
class of its k nearest training documents, for k = 1, 3, …, 19 (--k).

The default sizes (1000 training and 300 test documents, 40 words) take a
few minutes on 2 cores, nearly all of it in WMD, whose time grows with the
number of pairs (--docs-train × --docs-test) and with the square of --words.

Writes to --out, each file atomically: docknn.md (the errors per k and
method, the times and speed-ups, the verdict on the claim that TSW comes
within a few points of WMD's error at 100× less time), docknn.json (every
number) and docknn_errors.png/.svg (error against k). Prints the Markdown
(--format text) or the JSON. Progress on standard error.`

const docknnExamples = `  # 20 Newsgroups with the novels fastText vectors, the default sizes, into ./report-docknn.
  twl experiment docknn --train ../shared/data/text/20ng/train.jsonl --test ../shared/data/text/20ng/test.jsonl \
      --emb ../shared/data/embeddings/novels-fasttext-100d.vec

  # Larger: 3000 training and 1000 test documents, up to 64 trees, clustering trees only.
  twl experiment docknn --train train.jsonl --test test.jsonl --emb vectors.vec \
      --docs-train 3000 --docs-test 1000 --trees 1,4,16,64 --builders cluster --out report-docknn-large`

func runDocKNN(e *env, args []string) error {
	fs := newFlags("experiment docknn", "twl experiment docknn --train FILE --test FILE --emb VEC [flags]", docknnAbout, docknnExamples)
	var cfg docknn.Config
	trainPath := fs.String("train", "", "the training documents `FILE` (required)")
	testPath := fs.String("test", "", "the test documents `FILE` (required)")
	emb := fs.String("emb", "", "word vectors `FILE`: .vec/.txt or fastText .bin (required)")
	fs.IntVar(&cfg.DocsTrain, "docs-train", docknn.DefaultDocsTrain, "draw `N` training documents")
	fs.IntVar(&cfg.DocsTest, "docs-test", docknn.DefaultDocsTest, "draw `N` test documents")
	fs.IntVar(&cfg.Words, "words", docknn.DefaultWords, "keep the `M` most frequent words of each document")
	fs.BoolVar(&cfg.KeepHeaders, "keep-headers", false, "keep the header blocks of e-mail and news posts (default: drop them but for the subject)")
	trees := intList(slices.Clone(docknn.DefaultTrees))
	fs.Var(&trees, "trees", "comma-separated numbers of trees `T`")
	ks := intList(slices.Clone(docknn.DefaultKs))
	fs.Var(&ks, "k", "comma-separated numbers of neighbours `K` (by default those at most --docs-train)")
	builders := fs.String("builders", strings.Join(docknn.Builders, ","), "comma-separated tree `BUILDERS`: cluster, quad")
	fs.IntVar(&cfg.ClusterK, "cluster-k", 4, "clustering trees: split each node into `K` clusters")
	fs.IntVar(&cfg.ClusterDepth, "cluster-depth", 6, "clustering trees: at most `D` levels of clusters")
	fs.IntVar(&cfg.QuadDepth, "quad-depth", 12, "quadtrees: at most `D` levels of cells")
	seed := fs.Uint64("seed", 1, "`S` seeds the documents drawn and the trees")
	fs.IntVar(&cfg.Workers, "workers", 0, "compute `N` test documents' distances at once (default: one per CPU)")
	o := addReportFlags(fs, "report-docknn", "write the report to `DIR` (created if needed; \"\" writes none)", true)
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	if err := noArgs(fs, "docknn", pos); err != nil {
		return err
	}
	switch {
	case *trainPath == "" || *testPath == "" || *emb == "":
		return fs.fail("--train, --test and --emb are required")
	case o.format != "text" && o.format != "json":
		return o.badFormat(fs)
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"docs-train", cfg.DocsTrain}, {"docs-test", cfg.DocsTest}, {"words", cfg.Words}, {"cluster-depth", cfg.ClusterDepth}, {"quad-depth", cfg.QuadDepth}} {
		if f.v < 1 {
			return fs.fail("--%s must be at least 1, got %d", f.name, f.v)
		}
	}
	if cfg.ClusterK < 2 {
		return fs.fail("--cluster-k must be at least 2, got %d", cfg.ClusterK)
	}
	if cfg.Workers < 0 {
		return fs.fail("--workers must not be negative, got %d", cfg.Workers)
	}
	if cfg.Builders = commaList(*builders); len(cfg.Builders) == 0 {
		return fs.fail("--builders names no builder; want some of %s", strings.Join(docknn.Builders, ", "))
	}
	cfg.Trees, cfg.Ks, cfg.Seed = trees, ks, *seed
	if !fs.isSet("k") {
		cfg.Ks = nil // the default k that fit --docs-train
	}
	// The configuration is checked before the data are read.
	cfg.Train, cfg.Test, cfg.Emb = &corpus.Corpus{}, &corpus.Corpus{}, nopSource{}
	if _, err := cfg.Resolve(); err != nil {
		return fs.fail("%v", strings.TrimPrefix(err.Error(), docknn.ErrConfig.Error()+": "))
	}
	read := func(path string) (*corpus.Corpus, error) {
		c, err := corpus.ReadFile(path, nil, nil)
		if err == nil && c.Format == corpus.LabelSets {
			err = fmt.Errorf("%s holds label sets but no text: want documents", path)
		}
		return c, err
	}
	if cfg.Train, err = read(*trainPath); err != nil {
		return err
	}
	if cfg.Test, err = read(*testPath); err != nil {
		return err
	}
	if cfg.Emb, _, err = readEmbeddings(*emb); err != nil {
		return err
	}
	cfg.EmbSource = *emb
	return runReport(e, fs, o, docknn.ErrConfig, func(ctx context.Context, progress io.Writer) (*docknn.Result, error) {
		cfg.Context, cfg.Progress = ctx, progress
		return docknn.Run(cfg)
	})
}

// nopSource stands for the word vectors while the configuration is checked.
type nopSource struct{}

func (nopSource) Dim() int { return 1 }

func (nopSource) Lookup(dst []float32, word string) embedding.Found {
	clear(dst)
	return embedding.Missing
}
