package main

import (
	"context"
	"io"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/experiment/labeltrees"
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
100 tokens, 3 seeds; about 1.5 minutes a run on 20 Newsgroups on 2 cores).
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
	var cfg labeltrees.Config
	f := newExpFlags("labeltrees", "twl experiment labeltrees --train FILE [--test FILE] --tree TREE [flags]", labelTreesAbout,
		labelTreesExamples, "report-labeltrees", "write the report, the runs and the trees to `DIR` (created if needed)", true, true)
	var paths corpusPaths
	paths.add(f, "Train", "Test", "", "")
	f.set("tree", "TreeSource", &paths.tree, "", "the data's hierarchy `TREE`: an edge-list file or a toolkit taxonomy (required)")
	f.set("emb", "Emb", &paths.emb, "", "word vectors `FILE` of the model and of the docs tree (default: random; no docs tree)")
	labelEmb := f.String("label-emb", "", "word vectors `FILE` of the label names (default: --emb)")
	f.setting["LabelEmb"] = "label-emb"
	f.textProtocol(&cfg.Protocol, &cfg.Seeds, &cfg.Epochs, &cfg.Batch, &cfg.Hidden, &cfg.MaxLen, &cfg.LR)
	f.set("lambda", "Lambda", &cfg.Lambda, nil, "the weight `λ` of the TW term (default 1)")
	f.set("conditions", "Conditions", &cfg.Conditions, nil, "comma-separated `CONDITIONS` to run (default: every one the vectors allow)")
	f.set("title", "Title", &paths.title, nil, "BlurbGenreCollection: the text is the title and the body")
	err := f.parseArgs(e, args)
	if err == nil {
		err = f.required("train", "tree")
	}
	if err == nil {
		err = f.checkOut(true)
	}
	if err != nil {
		return err
	}
	docs, err := paths.read(f, &corpus.Options{AsGiven: true, Title: paths.title})
	if err != nil {
		return err
	}
	cfg.Train, cfg.Test, cfg.TreeSource = docs[0], docs[1], paths.source
	if cfg.Emb, cfg.EmbRef, err = paths.vectors(paths.emb); err != nil {
		return err
	}
	if cfg.LabelEmb, cfg.LabelEmbRef, err = paths.vectors(*labelEmb); err != nil {
		return err
	}
	cfg.OutDir = f.out
	return runReport(e, f, func(ctx context.Context, progress io.Writer) (*labeltrees.Result, error) {
		cfg.Context, cfg.Progress = ctx, progress
		return labeltrees.Run(cfg)
	})
}
