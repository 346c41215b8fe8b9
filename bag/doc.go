// Package bag is a bag-of-n-grams text classifier, of the family of
// fastText's supervised model (Joulin, Grave, Bojanowski & Mikolov 2017,
// "Bag of Tricks for Efficient Text Classification", EACL), written out by
// hand in float32: a document is the mean of the vectors of its features,
// and a linear layer turns that mean into logits, which feed the losses of
// package loss (softmax and KL, with or without a transport term).
//
// # Features
//
// The features of a document are its words (those of the vocabulary), the
// n-grams of 2 to WordNgrams consecutive words, and, as an option, the
// character n-grams of MinN to MaxN characters of each word, "<" and ">"
// marking its ends (Bojanowski, Grave, Joulin & Mikolov 2017, "Enriching
// Word Vectors with Subword Information", TACL), so that a word outside the
// vocabulary still has features. N-grams are hashed into Buckets buckets
// (the hashing trick; a word n-gram's hash combines its words' FNV-1a
// hashes, a character n-gram's is its FNV-1a hash, package embedding's).
// Of the buckets, only those seen in the training documents (at least
// MinCount times) get a row of the table, listed in an Index; an n-gram of
// another bucket is left out of a document, as an unknown word is. So the
// table has V + K rows, K at most the distinct n-grams of the training
// documents, however many buckets there are.
//
// # The model
//
// For a document with features f₁ … f_n (rows of the table E, V+K by D),
//
//	h = (1/n)·Σ_i E[f_i]     (h = 0 when n = 0)
//	z = W·h + b              (W: L×D, b: L)
//
// and the prediction is softmax(z). The word rows start from pretrained
// word vectors where there are some (package embedding), the n-gram rows
// and the output layer from zero (or small uniform values).
//
// # Training
//
// Learner trains by stochastic gradient descent on mini-batches, as a
// train.Learner: with g_r = ∂ℓ_r/∂z_r the gradient of document r's loss,
//
//	W −= η·Σ_r g_r h_rᵀ,   b −= η·Σ_r g_r,   E[f] −= (η/n_r)·Wᵀg_r for each feature f of r
//
// the learning rate η decaying linearly from LR to zero over the planned
// steps (fastText's schedule). A step touches the output layer and the rows
// of the batch's features only. The forward and backward passes of the two
// layers are plain paired functions (layers.go), which the tests check by
// finite differences.
//
// # Cores and determinism
//
// A step shares the documents of its batch among the workers for the
// forward pass and for Wᵀg_r, then shares the labels and the rows of the
// table (the rows spread among the workers by a hash of their index) for
// the update, each worker applying its
// rows' updates in the order of the documents and their features. So a
// seed gives the same model bit for bit whatever the number of workers
// (TestLearnerWorkers); the price is that every worker reads the feature
// lists of the whole batch to find its rows, and that the workers meet
// three times per step. fastText's threads instead update shared rows
// without locks (Hogwild), so that its results vary from run to run.
//
// # Ensembles
//
// An Ensemble predicts the mean of the distributions of several bags over
// one vocabulary; 'twl text train' trains a bag of n-grams and a bag of the
// same words alone this way. EnsembleLearner trains the members side by
// side, each on its own block of the logits with its own loss
// (loss.Blocks), so that each moves exactly as it would alone on the same
// mini-batches (TestEnsembleLearner); its Mean view scores what the
// ensemble predicts, for validation.
//
// # Cost
//
// A document of n features costs n·D additions for h and L·D
// multiply-adds for z; a training step adds L·D for Wᵀg, L·D for the
// update of W and n·D for the rows, per document. Memory: (V+K+L)·D + L
// float32 parameters, and the feature lists of the training documents.
package bag
