// Package model holds the prediction models of twl's label-distribution
// learning: maps from a feature vector x ∈ R^d to a distribution over L
// labels.
//
// Linear is the softmax-linear model of the paper's synthetic experiment,
//
//	h(x) = softmax(W·x + b),  W ∈ R^{L×d}, b ∈ R^L,
//
// which is also the model of SA-BFGS (Geng 2016) in the LDL literature. Its
// parameters live in one flat slice (W row-major, then b) so that optimizers
// update them in one pass. Mini-batches are row-major matrices: X is B×d,
// logits and their gradients B×L. Forward and backward passes are blocked
// matrix products split over the labels across cores (kernel.go): AVX2 + FMA
// or SSE2 assembly on amd64, chosen at run time, each equal bit for bit to a
// Go reference form, so results never depend on the number of cores.
//
// File and Load/Save give the versioned, self-describing model file of the
// command line: format name and version, the labels, the feature dimension,
// the optional feature standardization, and a reference to the label tree
// (its file name and a SHA-256 of its canonical edge list).
package model
