package main

import (
	"context"
	"io"
	"strings"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/experiment/text"
	"github.com/twl-ldl/twl/loss"
)

const textExperimentAbout = `
Text reproduces Table 2 of the paper: the LSTM text classifier of 'twl text
train' trained with five losses,

  kl         KL
  kl+0.5w1   KL + ½W¹   W¹ by Sinkhorn as in the paper: log domain,
  kl+w1      KL + W¹    λ = 50 (POT reg 0.02), 10 iterations, tree cost
  kl+0.5tw   KL + ½TW   TW the exact tree-Wasserstein distance
  kl+tw      KL + TW

each over several seeds, scored on the test documents with the measures of
Table 2 (pseudo-recall, top-5 cost, ROC-AUC) and those of 'twl eval
--multilabel'. The paper used BlurbGenreCollection-EN; the same command runs
on any labelled text that 'twl text' reads, such as 20 Newsgroups and AAPD.

--train, --dev and --test are documents as 'twl text train' reads them
(format detected from the content); --tree their label tree. With --test,
the test documents are those of every seed, and the validation documents
--dev or, without it, 20% of --train drawn by the seed; with --train alone,
seed k draws the paper's random 64/16/20 split. Seed k = 1 … --seeds also
sets the initial weights and the mini-batch order, the same for every loss,
so that losses compare in pairs.

--protocol paper is the paper's: hidden 200, 100 epochs, batch 100, Adam lr
0.001, 10 seeds, documents cut at 200 tokens. --protocol reduced, the
default, is hidden 100, documents cut at 100 tokens, 18 epochs at lr 0.004
and 3 seeds, the rest as the paper's (about 20 minutes on 20 Newsgroups on
2 cores); --hidden, --epochs, --max-len,
--seeds, --batch and --lr override either. The report lists every
difference from the paper's protocol and the time taken, and, for the
reduced protocol, an estimate of the paper's protocol's time on the same
data, from a few training steps of the paper's model timed at the end.

Runs are resumable: each finished (loss, seed) run is written to
DIR/runs/LOSS-seedK.json and kept by later calls with the same settings and
data, and a run in progress saves a checkpoint every epoch, so an
interrupted command run again continues where it stopped.

Writes to --out, each file atomically: text.md (Table 2 with the paper's
values beside twl's, the other measures, paired t-tests of each loss
against KL, the setup), text.json (every run with its training curves and
test measures), and the plots text_curves.png/.svg (validation loss per
epoch) and text_measure_NAME.png/.svg. Prints the Markdown (--format text)
or the JSON. Progress on standard error.`

const textExperimentExamples = `  # 20 Newsgroups, the reduced protocol, into ./report-20ng.
  twl experiment text --train ../shared/data/text/20ng/train.jsonl --test ../shared/data/text/20ng/test.jsonl \
      --tree ../shared/data/text/20ng/20ng.tree --emb ../shared/data/embeddings/novels-fasttext-100d.vec --out report-20ng

  # AAPD (validation and test splits) with its taxonomy.
  twl experiment text --train ../shared/data/text/aapd/val.jsonl --test ../shared/data/text/aapd/test.jsonl \
      --tree ../shared/data/text/aapd/aapd.taxonomy --out report-aapd

  # BlurbGenreCollection-EN, the paper's protocol (resumable; see docs/results/text.md for its time).
  twl experiment text --protocol paper --train BlurbGenreCollection_EN_train.txt \
      --dev BlurbGenreCollection_EN_dev.txt --test BlurbGenreCollection_EN_test.txt \
      --tree hierarchy.txt --emb crawl-300d-2M-subword.bin --out report-bgc`

func runTextExperiment(e *env, args []string) error {
	var cfg text.Config
	f := newExpFlags("text", "twl experiment text --train FILE [--dev FILE] [--test FILE] --tree TREE [flags]", textExperimentAbout,
		textExperimentExamples, "report-text", "write the report and the runs to `DIR` (created if needed)", true, true)
	var paths corpusPaths
	paths.add(f, "Train", "Test", "Dev", "")
	f.set("tree", "TreeSource", &paths.tree, "", "the label `TREE`: an edge-list file or a toolkit taxonomy (FILE.taxonomy or taxonomy:FILE) (required)")
	f.set("emb", "Emb", &paths.emb, "", "pretrained word vectors `FILE`: .vec/.txt or fastText .bin (default: random)")
	f.set("train-emb", "TrainEmb", &cfg.TrainEmb, nil, "train the word vectors with the model")
	target := f.String("target", "uniform", "the target of a label set: `uniform` on its labels, or specific")
	f.set("as-given", "AsGiven", &cfg.AsGiven, nil, "keep label sets as the files give them, instead of adding every ancestor")
	f.set("title", "Title", &paths.title, nil, "BlurbGenreCollection: the text is the title and the body")
	f.textProtocol(&cfg.Protocol, &cfg.Seeds, &cfg.Epochs, &cfg.Batch, &cfg.Hidden, &cfg.MaxLen, &cfg.LR)
	f.set("losses", "Losses", &cfg.Losses, nil, "comma-separated `LOSSES` to run (default "+strings.Join(loss.PaperIDs, ",")+")")
	err := f.parseArgs(e, args)
	if err == nil {
		err = f.required("train", "tree")
	}
	if err == nil && f.isSet("dev") && !f.isSet("test") {
		err = f.fail("--dev needs --test: give both, or --test alone (validation then comes from --train)")
	}
	if err != nil {
		return err
	}
	if cfg.Target, err = corpus.ParseTarget(*target); err != nil {
		return f.fail("--target must be uniform or specific, not %q", *target)
	}
	if err := f.checkOut(true); err != nil {
		return err
	}
	docs, err := paths.read(f, &corpus.Options{AsGiven: cfg.AsGiven, Title: paths.title})
	if err != nil {
		return err
	}
	cfg.Train, cfg.Test, cfg.Dev, cfg.TreeSource = docs[0], docs[1], docs[2], paths.source
	if cfg.Emb, cfg.EmbRef, err = paths.vectors(paths.emb); err != nil {
		return err
	}
	cfg.OutDir, cfg.EstimatePaper = f.out, true
	return runReport(e, f, func(ctx context.Context, progress io.Writer) (*text.Result, error) {
		cfg.Context, cfg.Progress = ctx, progress
		return text.Run(cfg)
	})
}
