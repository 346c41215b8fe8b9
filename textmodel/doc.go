// Package textmodel is a trained text classifier as a whole: how text
// becomes token IDs (a vocab.Tokenizer and vocab.Vocab), the labels of the
// tree it predicts over, and the network (package lstm); its file format;
// prediction from raw text; and training from labelled corpora.
//
// # Training
//
// Prepare counts the vocabulary on the training documents only, encodes
// the training and validation documents and makes their target
// distributions (corpus.Target). Prepared.Fit then draws a network from a
// seed (lstm.Model.Init, then the word vectors of Options.Emb where it has
// them, embedding.NewTable's seeded random rows for the other words) and
// trains it with package train: Adam on shuffled mini-batches, the
// validation loss each epoch, the weights of the best epoch kept, early
// stopping and resumable checkpoints. Fit does both. An experiment that
// trains several losses on the same data prepares it once.
//
// # The file format
//
// A model file is a first line "twl-text-model", a second line holding a
// JSON header (Header: the format version, the network's sizes, the
// tokenizer's settings, the vocabulary, the labels, the SHA-256 of the
// label tree, the source and SHA-256 of the word vectors and how many words
// they covered, the loss and how training went), and then the parameters:
// float32 little-endian, the tensors in the order of lstm.TensorNames, as
// many bytes as the header says, with their SHA-256. `head -2` shows what a
// model is; the numbers are binary because a vocabulary's word vectors run
// to millions of values. Read checks everything (magic line, version,
// unknown header fields, sizes, length, checksum, finite values) and
// reports a damaged file as such.
package textmodel
