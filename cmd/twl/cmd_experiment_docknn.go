package main

import (
	"context"
	"io"

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
	var cfg docknn.Config
	f := newExpFlags("docknn", "twl experiment docknn --train FILE --test FILE --emb VEC [flags]", docknnAbout, docknnExamples,
		"report-docknn", "write the report to `DIR` (created if needed; \"\" writes none)", true, true)
	paths := corpusPaths{treeless: true}
	paths.add(f, "Train", "Test", "", " (required)")
	f.set("emb", "Emb", &paths.emb, "", "word vectors `FILE`: .vec/.txt or fastText .bin (required)")
	f.set("docs-train", "DocsTrain", &cfg.DocsTrain, nil, "draw `N` training documents (default 1000)")
	f.set("docs-test", "DocsTest", &cfg.DocsTest, nil, "draw `N` test documents (default 300)")
	f.set("words", "Words", &cfg.Words, nil, "keep the `M` most frequent words of each document (default 40)")
	f.set("keep-headers", "KeepHeaders", &cfg.KeepHeaders, nil, "keep the header blocks of e-mail and news posts (default: drop them but for the subject)")
	f.set("trees", "Trees", &cfg.Trees, nil, "comma-separated numbers of trees `T` (default 1,4,16)")
	f.set("k", "Ks", &cfg.Ks, nil, "comma-separated numbers of neighbours `K` (default: those of 1,3,…,19 at most --docs-train)")
	f.set("builders", "Builders", &cfg.Builders, nil, "comma-separated tree `BUILDERS`: cluster, quad (default both)")
	f.set("cluster-k", "ClusterK", &cfg.ClusterK, nil, "clustering trees: split each node into `K` clusters (default 4)")
	f.set("cluster-depth", "ClusterDepth", &cfg.ClusterDepth, nil, "clustering trees: at most `D` levels of clusters (default 6)")
	f.set("quad-depth", "QuadDepth", &cfg.QuadDepth, nil, "quadtrees: at most `D` levels of cells (default 12)")
	f.set("seed", "Seed", &cfg.Seed, uint64(1), "`S` seeds the documents drawn and the trees")
	f.set("workers", "Workers", &cfg.Workers, nil, "compute `N` test documents' distances at once (default: one per CPU)")
	err := f.parseArgs(e, args)
	if err == nil {
		err = f.required("train", "test", "emb")
	}
	if err != nil {
		return err
	}
	// The configuration is checked before the data are read.
	cfg.Train, cfg.Test, cfg.Emb = &corpus.Corpus{}, &corpus.Corpus{}, nopSource{}
	if _, err := cfg.Resolve(); err != nil {
		return f.configError(err)
	}
	if err := f.checkOut(false); err != nil {
		return err
	}
	docs, err := paths.read(f, nil)
	if err != nil {
		return err
	}
	cfg.Train, cfg.Test, cfg.EmbSource = docs[0], docs[1], paths.emb
	if cfg.Emb, _, err = paths.vectors(paths.emb); err != nil {
		return err
	}
	return runReport(e, f, func(ctx context.Context, progress io.Writer) (*docknn.Result, error) {
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
