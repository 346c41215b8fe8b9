package main

// The help of twl text and its commands.

const textAbout = `
Text works with labelled text for hierarchical multi-label classification:
documents whose labels are nodes of a label tree, read from
BlurbGenreCollection files, the JSON Lines of the hierarchical
text-classification toolkits ({"token": …, "label": […]}) or plain JSON
Lines ({"text": …, "labels": […]}); the format is detected from the
content. The tree is an edge list (parent<TAB>child) or a toolkit taxonomy
(parent<TAB>child<TAB>child…, with a Root line; named FILE.taxonomy or given
as taxonomy:FILE).`

const textExamples = `  # What is in 20 Newsgroups, and how much of its vocabulary the word vectors cover.
  twl text stats --data ../shared/data/text/20ng/train.jsonl --tree ../shared/data/text/20ng/20ng.tree \
      --emb ../shared/data/embeddings/novels-fasttext-100d.vec

  # Train the text model a few epochs, predict the test posts and score them.
  twl text train --train ../shared/data/text/20ng/train.jsonl --tree ../shared/data/text/20ng/20ng.tree \
      --loss kl+tw --epochs 5 --out 20ng.model
  twl text predict --model 20ng.model --data ../shared/data/text/20ng/test.jsonl --out pred.jsonl
  twl eval --multilabel --tree ../shared/data/text/20ng/20ng.tree pred.jsonl ../shared/data/text/20ng/test.jsonl`

const textStatsAbout = `
Stats describes a corpus: the first thing to run on a new data set. It
prints the number of documents; tokens per document (mean, median, 90th
percentile, maximum) as the tokenizer splits them, and how many documents
--max-len would truncate; the vocabulary (distinct tokens, the words kept
with --min-count and --max-vocab, and the share of tokens they cover, the
rest being <unk>); the labels (per document, per depth of the tree, the
most and least frequent); and with --emb, how many vocabulary words the
word vectors cover, and what share of the tokens.

The tokenizer lower-cases, splits on anything but letters, digits and
apostrophes within words (don't) or points and commas within numbers
(3.14), and drops punctuation unless --punct; see docs/formats.md.

--format json writes one JSON object with every count, including the
number of documents of each label ("label_documents", in the order of
"labels").`

const textStatsExamples = `  # 20 Newsgroups with its tree.
  twl text stats --data ../shared/data/text/20ng/train.jsonl --tree ../shared/data/text/20ng/20ng.tree

  # AAPD with its taxonomy and fastText vectors, as JSON.
  twl text stats --data ../shared/data/text/aapd/val.jsonl --tree ../shared/data/text/aapd/aapd.taxonomy \
      --emb ../shared/data/embeddings/novels-fasttext-100d.vec --format json

  # BlurbGenreCollection: the blurbs (BlurbGenreCollection_EN_*.txt) are downloaded from
  # https://www.inf.uni-hamburg.de/en/inst/ab/lt/resources/data/blurb-genre-collection.html;
  # its genre hierarchy, hierarchy.txt in the same download, is also ../shared/data/blurb/hierarchy.txt.
  twl text stats --data BlurbGenreCollection_EN_train.txt --tree ../shared/data/blurb/hierarchy.txt`

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
the same command again: training resumes after the last epoch saved, and
says so first. Ctrl-C (SIGINT) or SIGTERM stops at once, with exit status
130 (143): MODEL is not written, the checkpoint keeps the last complete
epoch. The locations of MODEL and the checkpoint are checked to be writable
before anything is read.
Progress goes to standard error: a line per epoch (losses, tokens/s,
remaining time) and, when standard error is a terminal (or with
--progress), a line rewritten within each epoch (documents done, documents/s,
the time to the end of the epoch); a summary goes to standard output, with
the time of every epoch trained, those before a resume included.`

const textTrainExamples = `  # 20 Newsgroups with its tree, fastText vectors and KL + TW; a few epochs.
  twl text train --train ../shared/data/text/20ng/train.jsonl --tree ../shared/data/text/20ng/20ng.tree \
      --emb ../shared/data/embeddings/novels-fasttext-100d.vec --loss kl+tw --epochs 5 --out 20ng.model

  # BlurbGenreCollection with its own dev split, resumable: the blurbs as downloaded
  # (see 'twl text stats --help'), the hierarchy from ../shared/data/blurb.
  twl text train --train BlurbGenreCollection_EN_train.txt --dev BlurbGenreCollection_EN_dev.txt \
      --tree ../shared/data/blurb/hierarchy.txt --emb cc.en.300.bin --loss kl+tw --checkpoint bgc.ckpt --out bgc.model`

const textPredictAbout = `
Predict writes, for each document of --data, the distribution over the
labels that the text model MODEL ('twl text train') predicts: one JSON
object per line, {"label": mass, …}, in the order of the documents, the
labels by decreasing mass. That is the format of 'twl eval' and 'twl
distance', so the predictions can be scored at once:

  twl eval --multilabel --tree TREE predictions.jsonl test.jsonl

--data is read as 'twl text train' reads its documents; labels are not
needed, and ignored if present. --top K writes the K most probable labels
only, and --min-mass P drops labels below mass P (both change the sums;
'twl eval' then needs --normalize, and ranks labels that are left out
last).`

const textPredictExamples = `  # Predict the test posts of 20 Newsgroups and score them.
  twl text predict --model 20ng.model --data ../shared/data/text/20ng/test.jsonl --out pred.jsonl
  twl eval --multilabel --tree ../shared/data/text/20ng/20ng.tree pred.jsonl ../shared/data/text/20ng/test.jsonl

  # The three most probable genres of each blurb.
  twl text predict --model bgc.model --data blurbs.jsonl --top 3`
