package main

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"os"

	"github.com/twl-ldl/twl/bag"
	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/ldl"
	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/textmodel"
	"github.com/twl-ldl/twl/tree"
)

// maxTextHidden bounds --hidden and --emb-dim: at 4096 the LSTM alone holds
// 4H·(D+H) ≈ 134 M weights, 2 GB with their gradient and Adam's moments.
const maxTextHidden = 4096

func runTextTrain(e *env, args []string) error {
	fs := newFlags("text train", "twl text train --train FILE [--dev FILE] --tree TREE --out MODEL [flags]")
	model := fs.String("model", textmodel.KindBag, "the `MODEL`: bag (a bag of n-grams, as fastText's) or lstm (the paper's)")
	trainPath := fs.String("train", "", "the training documents `FILE` (required)")
	devPath := fs.String("dev", "", "validation documents `FILE` (default: --val of --train)")
	tf := addTextFlags(fs, true, 0)
	fs.Lookup("max-len").Usage = "truncate documents to `N` tokens (0: no limit; default: no limit, 200 with --model lstm)"
	emb := fs.String("emb", "", "initial word vectors `FILE`: .vec/.txt or fastText .bin (default: random)")
	embDim := fs.Int("emb-dim", 100, "the dimension `D` of random word vectors, without --emb")
	trainEmb := fs.Bool("train-emb", false, "lstm: train the word vectors with the model (default: fixed)")
	hidden := fs.Int("hidden", 200, "lstm: the hidden size `H`")
	db := textmodel.DefaultBag
	ngrams := fs.Int("ngrams", db.Features.WordNgrams, "bag: word n-grams of 1 to `N` words")
	maxn := fs.Int("maxn", 0, "bag: character n-grams of words up to `N` characters (0: none)")
	minn := fs.Int("minn", db.Features.MinN, "bag: character n-grams of at least `N` characters, with --maxn")
	buckets := fs.Int("buckets", db.Features.Buckets, "bag: the hash `buckets` of the n-grams")
	minNgram := fs.Int("min-ngram-count", db.MinCount, "bag: an n-gram's bucket gets a vector when seen `N` times in training")
	schedule := fs.String("lr-schedule", "linear", "bag: the learning rate, `linear`ly decaying to 0 over --epochs, or constant")
	wordsBag := fs.Bool("words-bag", true, "bag: with n-grams, also train a bag of the words alone and predict the mean of the two bags' distributions (--words-bag=false: one bag)")
	trainingWords := fs.Bool("training-words-only", false, "bag: the vocabulary is the training documents' words alone, without those of --emb")
	lossName := fs.String("loss", "kl", "the training `LOSS`: kl, kl+tw, kl+sinkhorn or kl+utw; a weight in the name (kl+0.5tw) takes the place of --lambda")
	lambda := fs.Float64("lambda", 0, fmt.Sprintf("the weight `λ` > 0 of the transport term of kl+tw, kl+sinkhorn and kl+utw (default %d; %d with --model lstm)", textmodel.DefaultBagLambda, ldl.DefaultLambda))
	reg := fs.Float64("reg", ldl.DefaultSinkhornReg, "kl+sinkhorn: the kernel parameter `λs` of exp(−λs·C)")
	iters := fs.Int("iters", 10, "kl+sinkhorn: Sinkhorn `iterations`")
	massCost := fs.Float64("mass-cost", ldl.DefaultMassCost, "kl+utw: the cost `μ` of a unit of mass created or destroyed")
	utwSets := fs.Bool("utw-sets", false, "kl+utw: compare each label set as it is, one unit per label, with the prediction times the training documents' mean set size")
	target := fs.String("target", "uniform", "the target of a label set: `uniform` on its labels, or specific")
	epochs := fs.Int("epochs", 0, fmt.Sprintf("training `epochs` (default %d; 100 with --model lstm)", db.Epochs))
	batch := fs.Int("batch", 0, fmt.Sprintf("documents per mini-`batch` (default %d; 100 with --model lstm)", db.Batch))
	lr := fs.Float64("lr", 0, fmt.Sprintf("the learning rate `α`: SGD's initial one (default %g), or with --model lstm Adam's step size (default 0.001)", db.LR))
	val := fs.Float64("val", textmodel.DefaultBagVal, fmt.Sprintf("without --dev, the `FRAC`tion of --train held out for validation (default %g: none, the last epoch's model kept; %g with --model lstm)", textmodel.DefaultBagVal, textmodel.DefaultLSTMVal))
	patience := fs.Int("patience", 0, "stop after `N` epochs without a better validation loss (0: never)")
	seed := fs.Uint64("seed", 0, "the `SEED` of the initial weights, the validation split and the shuffling")
	checkpoint := fs.OutFile("checkpoint", "save the state of training to `FILE` after every epoch, and resume from it")
	quiet := fs.Bool("quiet", false, "no progress on standard error")
	progress := fs.Bool("progress", false, "show progress within epochs even when standard error is not a terminal")
	out := fs.OutFile("out", "write the model to `FILE`, all or nothing (required)")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	isBag := *model == textmodel.KindBag
	if *model != textmodel.KindBag && *model != textmodel.KindLSTM {
		return fs.fail("--model %q: must be bag or lstm", *model)
	}
	for _, f := range []string{"hidden", "train-emb"} {
		if isBag && fs.isSet(f) {
			return fs.fail("--%s is a setting of the LSTM: give it with --model lstm", f)
		}
	}
	for _, f := range []string{"ngrams", "maxn", "minn", "buckets", "min-ngram-count", "lr-schedule", "training-words-only", "words-bag"} {
		if !isBag && fs.isSet(f) {
			return fs.fail("--%s is a setting of the bag of n-grams (--model bag), not of the LSTM", f)
		}
	}
	// The defaults that depend on the model.
	if !isBag {
		if !fs.isSet("max-len") {
			*tf.maxLen = 200
		}
		for _, d := range []struct {
			name string
			v    *int
			def  int
		}{{"epochs", epochs, 100}, {"batch", batch, 100}} {
			if !fs.isSet(d.name) {
				*d.v = d.def
			}
		}
		if !fs.isSet("lr") {
			*lr = 1e-3
		}
		if !fs.isSet("val") {
			*val = textmodel.DefaultLSTMVal
		}
	} else {
		for _, d := range []struct {
			name string
			v    *int
			def  int
		}{{"epochs", epochs, db.Epochs}, {"batch", batch, db.Batch}} {
			if !fs.isSet(d.name) {
				*d.v = d.def
			}
		}
		if !fs.isSet("lr") {
			*lr = db.LR
		}
	}
	mode, terr := corpus.ParseTarget(*target)
	feats := bag.Features{WordNgrams: *ngrams, MinN: *minn, MaxN: *maxn, Buckets: *buckets}
	if *ngrams == 1 && *maxn == 0 && !fs.isSet("buckets") {
		feats.Buckets = 1
	}
	ferr := feats.Check()
	for _, c := range []struct {
		bad bool
		msg string
	}{
		{len(pos) > 0, "takes no arguments; the documents are --train FILE"},
		{*trainPath == "", "--train is required"},
		{*tf.tree == "", "--tree is required"},
		{*out == "", "--out is required"},
		{terr != nil, fmt.Sprintf("--target %q: must be uniform or specific", *target)},
		{*hidden < 1 || *hidden > maxTextHidden, fmt.Sprintf("--hidden %d: must be between 1 and 4096", *hidden)},
		{*embDim < 1 || *embDim > maxTextHidden, fmt.Sprintf("--emb-dim %d: must be between 1 and 4096", *embDim)},
		{*epochs < 1, fmt.Sprintf("--epochs %d: must be at least 1", *epochs)},
		{*batch < 1, fmt.Sprintf("--batch %d: must be at least 1", *batch)},
		{*patience < 0, fmt.Sprintf("--patience %d: must be 0 (never stop early) or positive", *patience)},
		{isBag && ferr != nil, fmt.Sprintf("--ngrams %d, --minn %d, --maxn %d, --buckets %d: %v", *ngrams, *minn, *maxn, *buckets, ferr)},
		{isBag && *minNgram < 1, fmt.Sprintf("--min-ngram-count %d: must be at least 1", *minNgram)},
		{isBag && *schedule != "linear" && *schedule != "constant", fmt.Sprintf("--lr-schedule %q: must be linear or constant", *schedule)},
		{*devPath == "" && !(*val >= 0 && *val < 1), fmt.Sprintf("--val %g: must be at least 0 and less than 1 (or give --dev)", *val)},
		{*devPath == "" && *val == 0 && *patience > 0, fmt.Sprintf("--patience %d needs validation documents: give --val FRAC or --dev FILE", *patience)},
	} {
		if c.bad {
			return fs.fail("%s", c.msg)
		}
	}
	if !fs.isSet("lambda") {
		*lambda = ldl.DefaultLambda
		if isBag {
			*lambda = textmodel.DefaultBagLambda
		}
	}
	if err := checkLossFlags(fs, *lossName, *lambda, *reg, *iters, *lr); err != nil {
		return err
	}
	if err := checkLossPairs(fs, *lossName); err != nil {
		return err
	}
	n, _ := parseLoss(*lossName)
	switch {
	case n.Term == loss.TermTSW:
		return fs.fail("--loss kl+tsw is for twl train and twl cv (with --trees); the text model takes kl, kl+tw, kl+sinkhorn or kl+utw")
	case *utwSets && n.Term != loss.TermUTW:
		return fs.fail("--utw-sets applies only with --loss kl+utw")
	case !(*massCost > 0) || math.IsInf(*massCost, 1):
		return fs.fail("--mass-cost must be a finite number > 0, not %v", *massCost)
	}
	tk, vopts, err := tf.tokenizer(fs)
	if err != nil {
		return err
	}
	files := fs.files()
	files.Input("--train", *trainPath)
	files.Input("--dev", *devPath)
	inputTree(files, "--tree", *tf.tree)
	files.Input("--emb", *emb)
	if err := fs.checkFiles(files); err != nil {
		return err
	}
	if *devPath != "" && fs.isSet("val") {
		return fs.fail("--val applies only without --dev: --dev %s gives the validation documents", *devPath)
	}
	t, treeSrc, err := resolveTree(fs, *tf.tree, 0)
	if err != nil {
		return err
	}
	d, err := textmodel.Load(textmodel.Sources{Train: *trainPath, Dev: *devPath, Val: *val, Seed: *seed, Tree: t, Read: tf.options(false), Emb: *emb})
	if errors.Is(err, textmodel.ErrTooFew) {
		err = fmt.Errorf("--val %g: %s holds too few documents to hold out that fraction of them", *val, *trainPath)
	}
	if err != nil {
		return corpusError(err)
	}
	warnCorpus(fs, d.Train, *tf.tree)
	if *devPath != "" {
		warnCorpus(fs, d.Val, *tf.tree)
	}
	warnTrailing(fs, *emb, d.Emb)
	opts := textmodel.Options{
		Tokenizer: *tk, Vocab: *vopts, Hidden: *hidden, EmbDim: *embDim, TrainEmb: *trainEmb, Emb: d.Emb, EmbRef: d.EmbRef,
		Target: mode, AsGiven: *tf.asGiven, Epochs: *epochs, Batch: *batch, LR: *lr, Patience: *patience, Seed: *seed,
		Tree: tree.RefOf(t, treeSrc), Data: *trainPath,
	}
	if isBag {
		opts.Model = textmodel.KindBag
		opts.Bag = textmodel.BagOptions{Features: feats, MinCount: *minNgram, ConstantLR: *schedule == "constant", TrainingWordsOnly: *trainingWords, Single: !*wordsBag}
		if *patience == 0 {
			opts.Patience = -1 // never
		}
	}
	lopts := ldl.Options{Loss: *lossName, SinkhornReg: *reg, SinkhornIters: *iters, MassCost: *massCost, UTWSets: *utwSets}
	if *utwSets {
		lopts.UTWScale = meanSetSize(d.Train.Targets(mode), t.Len())
	}
	if fs.isSet("lambda") {
		lopts.Lambda = cmp.Or(*lambda, -1) // -1: λ = 0
	} else if n, _ := parseLoss(*lossName); isBag && !n.Weighted {
		lopts.Lambda = textmodel.DefaultBagLambda
	}
	if opts.Loss, err = ldl.NewLoss(t, &lopts); err != nil {
		return fitError(err, *lr, "")
	}
	prep, err := textmodel.Prepare(d.Train, d.Val, opts)
	if err != nil {
		return err
	}
	warnVocab(fs, prep.Vocab, prep.Types, *tf.minCount)
	if err := e.stopped(); err != nil {
		return err
	}
	run := textmodel.Run{Seed: *seed, Loss: opts.Loss, Checkpoint: *checkpoint, Context: e.ctx}
	var pl *progressLine
	if !*quiet {
		pl = newProgressLine(e.stderr, *progress || isTerminal(e.stderr))
		run.Progress = pl
		run.OnBatch = func(b textmodel.BatchProgress) { pl.step(b.Epoch, b.Epochs, b.Docs, b.EpochDocs, "documents") }
		run.OnResume = func(ep, n int) { fmt.Fprintf(e.stderr, "resuming after epoch %d of %d (%s)\n", ep, n, *checkpoint) }
	}
	m, h, err := prep.Fit(run)
	pl.clear()
	if err != nil {
		if _, serr := os.Stat(*checkpoint); e.stopped() != nil && *checkpoint != "" && serr == nil {
			fmt.Fprintf(e.stderr, "twl text train: %s keeps the last complete epoch saved; run the same command again to resume\n", *checkpoint)
		}
		return err
	}
	if err := textmodel.WriteFile(*out, m); err != nil {
		return err
	}
	return e.output("", fmt.Appendf(nil, "wrote %s: %s\n%s\n", *out, m.Shape(), m.Report(h)))
}

// meanSetSize returns the mean number of labels with mass in the rows of
// Y (rows×L): the expected size of a label set, by which kl+utw with
// --utw-sets scales the prediction.
func meanSetSize(Y []float64, L int) float64 {
	rows := len(Y) / L
	if rows == 0 {
		return 1
	}
	n := 0
	for _, v := range Y {
		if v > 0 {
			n++
		}
	}
	return float64(n) / float64(rows)
}
