package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"os"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/internal/atomicfile"
	"github.com/twl-ldl/twl/ldl"
	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/textmodel"
	"github.com/twl-ldl/twl/train"
	"github.com/twl-ldl/twl/tree"
)

const textTrainAbout = `
Train fits the paper's text model to labelled documents and writes it to
MODEL, which 'twl text predict' reads: word vectors (from --emb, or random),
one LSTM layer with hidden size --hidden, the hidden state at each
document's last token, a fully connected layer with ReLU, and an output
layer whose softmax is the predicted distribution over the labels of TREE.

The documents of --train are BlurbGenreCollection records or JSON Lines
({"text": …, "labels": […]} or the toolkits' {"token": …, "label": […]});
their label sets, closed under ancestors unless --as-given, become target
distributions: uniform on every label of the set, or with --target specific
on its most specific labels. The model is trained on the loss
  kl            KL(y ‖ p)
  kl+tw         KL(y ‖ p) + λ·TW(p, y), TW the tree-Wasserstein distance
  kl+sinkhorn   KL(y ‖ p) + λ·W(p, y), W by Sinkhorn on the tree metric
with Adam on shuffled mini-batches. Each epoch the loss on the validation
documents (--dev FILE, or else --val FRAC of --train drawn by --seed) is
printed and the weights of the best epoch are kept.

Text becomes tokens as 'twl text stats' shows: lower-cased words, the first
--max-len of each document; the vocabulary is the words seen --min-count
times in the training documents (never in --dev), the others being <unk>.
The word vectors of --emb (.vec text or fastText .bin, whose n-grams give
vectors to words outside its vocabulary) stay fixed unless --train-emb;
words without a vector get random ones.

The defaults are the paper's (hidden 200, 100 epochs, batch 100, Adam's lr
0.001), with documents cut at 200 tokens. Everything random follows --seed:
the same command gives the same model bit for bit, on any number of cores.
--checkpoint FILE saves the state of training after every epoch; the file
stays after training. After an interruption (Ctrl-C, a kill, a crash), run
the same command again: training resumes after the last epoch saved. Ctrl-C
(SIGINT) or SIGTERM stops at once, with exit status 130 (143): MODEL is not
written, the checkpoint keeps the last complete epoch. The locations of
MODEL and the checkpoint are checked to be writable before anything is read.
Progress (epoch, losses, tokens/s, remaining time) goes to standard error, a
summary to standard output.`

const textTrainExamples = `  # 20 Newsgroups with its tree, fastText vectors and KL + TW; a few epochs.
  twl text train --train ../shared/data/text/20ng/train.jsonl --tree ../shared/data/text/20ng/20ng.tree \
      --emb ../shared/data/embeddings/novels-fasttext-100d.vec --loss kl+tw --epochs 5 --out 20ng.model

  # BlurbGenreCollection with its own dev split, resumable.
  twl text train --train BlurbGenreCollection_EN_train.txt --dev BlurbGenreCollection_EN_dev.txt \
      --tree hierarchy.txt --emb cc.en.300.bin --loss kl+tw --checkpoint bgc.ckpt --out bgc.model`

// maxTextHidden bounds --hidden and --emb-dim: at 4096 the LSTM alone holds
// 4H·(D+H) ≈ 134 M weights, 2 GB with their gradient and Adam's moments.
const maxTextHidden = 4096

func runTextTrain(e *env, args []string) error {
	fs := newFlags("text train", "twl text train --train FILE [--dev FILE] --tree TREE --out MODEL [flags]", textTrainAbout, textTrainExamples)
	trainPath := fs.String("train", "", "the training documents `FILE` (required)")
	devPath := fs.String("dev", "", "validation documents `FILE` (default: --val of --train)")
	tf := addTextFlags(fs, true, 200)
	emb := fs.String("emb", "", "initial word vectors `FILE`: .vec/.txt or fastText .bin (default: random)")
	embDim := fs.Int("emb-dim", 100, "the dimension `D` of random word vectors, without --emb")
	trainEmb := fs.Bool("train-emb", false, "train the word vectors with the model (default: fixed)")
	hidden := fs.Int("hidden", 200, "the LSTM's hidden size `H`")
	lossName := fs.String("loss", "kl", "the training `LOSS`: kl, kl+tw or kl+sinkhorn")
	lambda := fs.Float64("lambda", defLambda, "the weight `λ` of the transport term of kl+tw and kl+sinkhorn")
	reg := fs.Float64("reg", defSinkhornReg, "kl+sinkhorn: the kernel parameter `λs` of exp(−λs·C)")
	iters := fs.Int("iters", 10, "kl+sinkhorn: Sinkhorn `iterations`")
	target := fs.String("target", "uniform", "the target of a label set: `uniform` on its labels, or specific")
	epochs := fs.Int("epochs", 100, "training `epochs`")
	batch := fs.Int("batch", 100, "documents per mini-`batch`")
	lr := fs.Float64("lr", 1e-3, "Adam's step size `α`")
	val := fs.Float64("val", 0.2, "without --dev, the `FRAC`tion of --train held out for validation")
	patience := fs.Int("patience", 0, "stop after `N` epochs without a better validation loss (0: never)")
	seed := fs.Uint64("seed", 0, "the `SEED` of the initial weights, the validation split and the shuffling")
	checkpoint := fs.String("checkpoint", "", "save the state of training to `FILE` after every epoch, and resume from it")
	quiet := fs.Bool("quiet", false, "no progress on standard error")
	out := fs.String("out", "", "write the model to `FILE`, all or nothing (required)")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	mode, terr := corpus.ParseTarget(*target)
	switch {
	case len(pos) > 0:
		return fs.fail("takes no arguments; the documents are --train FILE")
	case *trainPath == "":
		return fs.fail("--train is required")
	case *tf.tree == "":
		return fs.fail("--tree is required")
	case *out == "":
		return fs.fail("--out is required")
	case terr != nil:
		return fs.fail("--target must be uniform or specific, not %q", *target)
	case *hidden < 1 || *hidden > maxTextHidden || *embDim < 1 || *embDim > maxTextHidden:
		return fs.fail("--hidden and --emb-dim must be between 1 and %d", maxTextHidden)
	case *epochs < 1 || *batch < 1 || *patience < 0:
		return fs.fail("--epochs and --batch must be positive, --patience not negative")
	case *devPath == "" && !(*val > 0 && *val < 1):
		return fs.fail("--val must be between 0 and 1 (or give --dev)")
	case *checkpoint != "" && *checkpoint == *out:
		return fs.fail("--checkpoint and --out must be different files")
	}
	if err := checkLossFlags(fs, *lossName, *lambda, *reg, *iters, *lr); err != nil {
		return err
	}
	if err := checkLossPairs(fs, *lossName); err != nil {
		return err
	}
	if n, _ := parseLoss(*lossName); n.Term == loss.TermTSW {
		return fs.fail("--loss kl+tsw is for twl train and twl cv (with --trees); the text model takes kl, kl+tw or kl+sinkhorn")
	}
	tk, vopts, err := tf.tokenizer(fs)
	if err != nil {
		return err
	}
	inputs := map[string]string{"--train": *trainPath, "--dev": *devPath, "--tree": *tf.tree, "--emb": *emb}
	if err := checkNotInput(fs, map[string]string{"out": *out, "checkpoint": *checkpoint}, inputs); err != nil {
		return err
	}
	for _, path := range []string{*out, *checkpoint} {
		if err := checkOutDir(path); err != nil {
			return err
		}
	}
	t, treeSrc, err := resolveTree(fs, *tf.tree, 0)
	if err != nil {
		return err
	}
	trainSet, err := readCorpus(*trainPath, t, tf, false)
	if err != nil {
		return err
	}
	var valSet *corpus.Corpus
	if *devPath != "" {
		if valSet, err = readCorpus(*devPath, t, tf, false); err != nil {
			return err
		}
	} else {
		fit, held := dataset.Split(trainSet.Len(), 1-*val, rand.NewPCG(*seed, 0x76616c)) // "val"
		if len(fit) == 0 || len(held) == 0 {
			return fmt.Errorf("%s: %s are too few to hold out --val %g of them", *trainPath, plural(trainSet.Len(), "document"), *val)
		}
		trainSet, valSet = trainSet.Subset(fit), trainSet.Subset(held)
	}
	opts := textmodel.Options{
		Tokenizer: *tk, Vocab: *vopts, Hidden: *hidden, EmbDim: *embDim, TrainEmb: *trainEmb,
		Target: mode, AsGiven: *tf.asGiven, Epochs: *epochs, Batch: *batch, LR: *lr, Patience: *patience, Seed: *seed,
		Checkpoint: *checkpoint, Tree: tree.RefOf(t, treeSrc), Data: *trainPath,
	}
	if !*quiet {
		opts.Progress = e.stderr
	}
	if *emb != "" {
		src, ref, err := readEmbeddings(*emb)
		if err != nil {
			return err
		}
		opts.Emb, opts.EmbRef = src, ref
	}
	lopts := ldl.Options{Loss: *lossName, SinkhornReg: *reg, SinkhornIters: *iters}
	if fs.isSet("lambda") {
		lopts.Lambda = *lambda
		if lopts.Lambda == 0 {
			lopts.Lambda = -1 // λ = 0
		}
	}
	if opts.Loss, err = ldl.NewLoss(t, &lopts); err != nil {
		return fitError(err, *lr, "")
	}
	var (
		m *textmodel.Model
		h train.History
	)
	if err := e.stopped(); err != nil {
		return err
	}
	opts.Context = e.ctx
	m, h, err = textmodel.Fit(trainSet, valSet, opts)
	if err != nil {
		if e.stopped() != nil && *checkpoint != "" {
			if _, serr := os.Stat(*checkpoint); serr == nil {
				fmt.Fprintf(e.stderr, "twl text train: %s keeps the last complete epoch saved; run the same command again to resume\n", *checkpoint)
			}
		}
		return err
	}
	var mb bytes.Buffer
	if err := textmodel.Write(&mb, m); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(*out, mb.Bytes(), 0o644); err != nil {
		return err
	}
	info := m.Train
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "wrote %s: LSTM %d→%d, %s, %s, loss %s\n", *out, m.Net.Dim, m.Net.Hidden, plural(m.Net.Vocab, "word"), plural(m.Net.Labels, "label"), m.Loss)
	fmt.Fprintf(&buf, "%s on %s", plural(info.EpochsRun, "epoch"), plural(info.Docs, "document"))
	if h.Resumed > 0 {
		fmt.Fprintf(&buf, " (resumed after epoch %d)", h.Resumed)
	}
	fmt.Fprintf(&buf, ", final training loss %.6g", info.TrainLoss)
	if info.ValLoss != nil {
		fmt.Fprintf(&buf, "; best validation loss %.6g on %s at epoch %d", *info.ValLoss, plural(info.ValDocs, "document"), info.BestEpoch)
		if h.Stopped {
			buf.WriteString(", stopped early")
		}
	}
	fmt.Fprintf(&buf, "; %s\n", formatSeconds(info.Seconds))
	return e.output("", buf.Bytes())
}

// readEmbeddings reads word vectors and the reference to them that a model
// file records: the file and its SHA-256.
func readEmbeddings(path string) (embedding.Source, textmodel.EmbeddingRef, error) {
	src, err := embedding.ReadFile(path)
	if err != nil {
		return nil, textmodel.EmbeddingRef{}, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, textmodel.EmbeddingRef{}, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, textmodel.EmbeddingRef{}, fmt.Errorf("%s: %w", path, err)
	}
	return src, textmodel.EmbeddingRef{Source: path, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}
