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
// Load reads the data of a run (Sources: the training documents, the
// validation documents or the fraction held out of the training ones, the
// word vectors); Options.OnBatch reports the progress within each epoch and
// Options.OnResume a resumed checkpoint, for a caller to show. Model.Report
// describes how training went.
//
// # Describing and predicting
//
// Describe computes what 'twl text stats' shows of a corpus (corpus.Describe
// and the coverage of word vectors), written by Description.WriteText and
// WriteJSON. Model.WritePredictions writes the predicted distributions of a
// corpus as JSON Lines, the format of 'twl eval'.
//
// # The file format
//
// A model file (version 2) is a first line "twl-text-model"; a second line
// "# " and Model.Summary, for people; a third line holding a JSON header
// (Header: the format version, the network's sizes, the tokenizer's
// settings, the labels, the SHA-256 of the label tree, the source and
// SHA-256 of the word vectors and how many words they covered, the loss and
// how training went); a fourth line holding the vocabulary, a JSON array;
// and then the parameters: float32 little-endian, the tensors in the order
// of lstm.TensorNames, as many bytes as the header says, with their
// SHA-256. `head -2` shows what a model is, `head -3` its settings; the
// numbers are binary because a vocabulary's word vectors run to millions
// of values. Read also reads version 1 (no summary line, the vocabulary in
// the header). Read checks everything (magic line, version, unknown header
// fields, sizes, length, checksum, finite values) and reports a damaged
// file as such; KindOf tells a text model from a model of package model by
// its first bytes.
package textmodel
