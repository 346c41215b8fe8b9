package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/experiment/labeltrees"
	"github.com/twl-ldl/twl/experiment/text"
)

const labelTreesAbout = `
Labeltrees asks which tree to train with when the labels come without one.
The documents' labels are taken as flat labels (the label sets as the files
give them, no ancestors added); the LSTM text classifier of 'twl text
train' predicts a distribution over them and is trained with

  kl           KL alone
  kl+tw:given  KL + λ·TW over the data's hierarchy (--tree): the reference
  kl+tw:names  … over a binary clustering tree of the label names, each
               name the mean of its words' vectors (--label-emb, or --emb)
  kl+tw:docs   … over a binary clustering tree of the labels' centroids:
               the mean word vector (--emb) of their training documents
  kl+tw:star   … over a star, TW = Σ|p − q|: a tree that knows nothing

Every tree is scaled so that the mean distance between two distinct labels
is 2 (the star's), so λ weighs the same average price of a confusion for
every tree. Every model is scored the same way, on the hierarchy: its
prediction placed on the hierarchy's nodes (the others at zero) and
measured with the measures of 'twl experiment text' (pseudo-recall, top-k
cost by the hierarchy's path lengths, ROC-AUC over the labels, and the LDL
measures with the exact TW on the hierarchy), over several seeds, each
condition compared with KL by a paired t-test.

--train and --test are documents as 'twl text train' reads them, --tree
their hierarchy; without --test, seed k draws a random 64/16/20 split of
--train. The protocol flags are those of 'twl experiment text' (the reduced
protocol by default: hidden 100, 18 epochs at lr 0.004, documents cut at
100 tokens, 3 seeds; a minute or two a run on 20 Newsgroups).
names is left out when no vectors are given, docs without --emb.

Runs are resumable as in 'twl experiment text': finished runs are kept in
DIR/runs, a run in progress checkpoints every epoch. Writes to --out, each
file atomically: labeltrees.md (the trees' agreement with the hierarchy,
the measures, the t-tests), labeltrees.json, the plots
labeltrees_MEASURE.png/.svg and the trees of every seed in DIR/trees.
Prints the Markdown (--format text) or the JSON. Progress on standard
error.`

const labelTreesExamples = `  # 20 Newsgroups: the LSTM on the novels' vectors, the label names by GloVe (which covers them).
  twl experiment labeltrees --train ../shared/data/text/20ng/train.jsonl --test ../shared/data/text/20ng/test.jsonl \
      --tree ../shared/data/text/20ng/20ng.tree --emb ../shared/data/embeddings/novels-fasttext-100d.vec \
      --label-emb ../shared/data/embeddings/glove-twitter-25d-12k.txt --out report-labeltrees`

func runLabelTrees(e *env, args []string) error {
	fs := newFlags("experiment labeltrees", "twl experiment labeltrees --train FILE [--test FILE] --tree TREE [flags]", labelTreesAbout, labelTreesExamples)
	var cfg labeltrees.Config
	trainPath := fs.String("train", "", "the training documents `FILE` (required)")
	testPath := fs.String("test", "", "test documents `FILE` (default: a split of --train)")
	treeSpec := fs.String("tree", "", "the data's hierarchy `TREE`: an edge-list file or a toolkit taxonomy (required)")
	emb := fs.String("emb", "", "word vectors `FILE` of the model and of the docs tree (default: random; no docs tree)")
	labelEmb := fs.String("label-emb", "", "word vectors `FILE` of the label names (default: --emb)")
	fs.StringVar(&cfg.Protocol, "protocol", text.ProtocolReduced, "the `PROTOCOL`: reduced or paper")
	fs.IntVar(&cfg.Seeds, "seeds", 0, "run seeds 1 … `N` (default: the protocol's, 3 or 10)")
	fs.IntVar(&cfg.Epochs, "epochs", 0, "`N` training epochs (default: the protocol's, 18 or 100)")
	fs.IntVar(&cfg.Hidden, "hidden", 0, "the LSTM's hidden size `H` (default: the protocol's, 100 or 200)")
	fs.IntVar(&cfg.MaxLen, "max-len", 0, "cut documents at `N` tokens (default: the protocol's, 100 or 200)")
	fs.IntVar(&cfg.Batch, "batch", 0, "`N` documents per mini-batch (default 100)")
	fs.Float64Var(&cfg.LR, "lr", 0, "Adam's learning `RATE` (default: the protocol's, 0.004 or 0.001)")
	fs.Float64Var(&cfg.Lambda, "lambda", 1, "the weight `λ` of the TW term")
	conds := fs.String("conditions", "", "comma-separated `CONDITIONS` to run (default: every one the vectors allow)")
	title := fs.Bool("title", false, "BlurbGenreCollection: the text is the title and the body")
	o := addReportFlags(fs, "report-labeltrees", "write the report, the runs and the trees to `DIR` (created if needed)", true)
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	if err := noArgs(fs, "labeltrees", pos); err != nil {
		return err
	}
	switch {
	case *trainPath == "" || *treeSpec == "":
		return fs.fail("--train and --tree are required")
	case o.format != "text" && o.format != "json":
		return o.badFormat(fs)
	case o.out == "":
		return fs.fail("--out is required: the runs are kept there")
	case !(cfg.Lambda > 0):
		return fs.fail("--lambda must be positive, not %v", cfg.Lambda)
	}
	if fs.isSet("conditions") {
		if cfg.Conditions = commaList(*conds); len(cfg.Conditions) == 0 {
			return fs.fail("--conditions names no condition; want some of %s", strings.Join(labeltrees.Conditions, ", "))
		}
	}
	t, treeSrc, err := resolveTree(fs, *treeSpec, 0)
	if err != nil {
		return err
	}
	opts := &corpus.Options{AsGiven: true, Title: *title}
	read := func(path string) (*corpus.Corpus, error) {
		if path == "" {
			return nil, nil
		}
		c, err := corpus.ReadFile(path, t, opts)
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
	cfg.TreeSource = treeSrc
	if *emb != "" {
		if cfg.Emb, cfg.EmbRef, err = readEmbeddings(*emb); err != nil {
			return err
		}
	}
	if *labelEmb != "" {
		if cfg.LabelEmb, cfg.LabelEmbRef, err = readEmbeddings(*labelEmb); err != nil {
			return err
		}
	}
	cfg.OutDir = o.out
	return runReport(e, fs, o, labeltrees.ErrConfig, func(ctx context.Context, progress io.Writer) (*labeltrees.Result, error) {
		cfg.Context, cfg.Progress = ctx, progress
		return labeltrees.Run(cfg)
	})
}
