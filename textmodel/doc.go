// Package textmodel is a trained text classifier as a whole: how text
// becomes the network's inputs (a vocab.Tokenizer and vocab.Vocab), the
// labels of the tree it predicts over, and the network; its file format;
// prediction from raw text; and training from labelled corpora.
//
// # Networks
//
// The network is a Network: the paper's LSTM (package lstm, KindLSTM),
// which reads token IDs, or a bag of n-grams (package bag, KindBag),
// fastText's kind of model, which reads the rows of its table of word and
// n-gram vectors; by default the bag of n-grams is trained beside a bag of
// the same words alone and the model predicts the mean of the two
// (bag.Ensemble, KindBags; BagOptions.Single trains one bag). Options.Model
// chooses the kind to train; the zero Options train the LSTM, 'twl text
// train' the bags.
//
// # Training
//
// Prepare counts the vocabulary on the training documents only, encodes
// the training and validation documents (for the bag: their features, the
// n-gram buckets of the training documents that get a row, and, unless
// BagOptions.TrainingWordsOnly, the words of the word vectors added to the
// vocabulary) and makes
// their target distributions (corpus.Target). Prepared.Fit then draws a
// network from a seed (the word vectors of Options.Emb where it has them,
// embedding.NewTable's seeded random rows for the other words) and trains
// it with package train: Adam on shuffled mini-batches for the LSTM, SGD
// with a linearly decaying learning rate for the bag, the validation loss
// each epoch and the weights of the best epoch kept when there are
// validation documents (the last epoch's when there are none), early
// stopping and resumable checkpoints. Fit does both. An experiment that
// trains several losses on the same data prepares it once.
//
// Load reads the data of a run (Sources: the training documents, the
// validation documents or the fraction held out of the training ones, if
// any, whose defaults in the command line are DefaultBagVal and
// DefaultLSTMVal; the word vectors); Options.OnBatch reports the progress within each epoch and
// Options.OnResume a resumed checkpoint, for a caller to show. Model.Report
// describes how training went.
//
// # Describing and predicting
//
// Describe computes what 'twl text stats' shows of a corpus (corpus.Describe
// and the coverage of word vectors), written by Description.WriteText and
// WriteJSON. Model.PredictStream predicts the documents of a
// corpus.Scanner as they are read, on every core, and writes them in their
// order as JSON Lines (the format of 'twl eval') or in the layout of
// 'fasttext predict-prob', in memory that does not grow with the input;
// Model.WritePredictions does the same for a corpus in memory. Either keeps
// the most probable labels (labelset.Top) or a set consistent with the
// hierarchy (labelset.Decoder.Closed).
//
// # The file format
//
// A model file (version 2 for the LSTM, 3 for the bag) is a first line
// "twl-text-model"; a second line "# " and Model.Summary, for people; a
// third line holding a JSON header (Header: the format version, the kind
// of network and its sizes, the tokenizer's settings, the labels, the
// SHA-256 of the label tree, the source and SHA-256 of the word vectors and
// how many words they covered, the loss and how training went); a fourth
// line holding the vocabulary, a JSON array; and then the parameters as
// the network writes them (for the LSTM float32 little-endian, the tensors
// in the order of lstm.TensorNames), as many bytes as the header says,
// with their SHA-256. `head -2` shows what a model is, `head -3` its
// settings; the numbers are binary because a vocabulary's word vectors run
// to millions of values. Read also reads version 1 (no summary line, the
// vocabulary in the header). Read checks everything (magic line, version, unknown header
// fields, sizes, length, checksum, finite values) and reports a damaged
// file as such; KindOf tells a text model from a model of package model by
// its first bytes.
package textmodel
