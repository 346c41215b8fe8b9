// Package loss holds the training losses of label-distribution learning on
// a softmax model, with their gradients with respect to the logits.
//
// For logits z, prediction p = softmax(z) and target distribution y (both
// over L labels), the losses are
//
//	KL          KL(y ‖ p) = Σ_i y_i log(y_i / p_i)          (the paper's Eq. 2, 0·log 0 = 0)
//	KL + λ·TW   KL(y ‖ p) + λ·TW(p, y)                       (the paper's Eq. 1, tree-Wasserstein)
//	KL + λ·W    KL(y ‖ p) + λ·W_λ'(p, y)                     (Frogner et al. 2015, Sinkhorn-W1)
//	KL + λ·TSW  KL(y ‖ p) + λ·TSW(p, y)                      (NewKLTSW: the mean of TW over several
//	                                                          trees, package tsw, for labels
//	                                                          without a hierarchy)
//
// each averaged over the rows of a mini-batch (the paper writes a sum over
// samples; the mean keeps the step size independent of the batch size, and
// Adam is insensitive to the overall scale). The gradient with respect to
// z is, per row, (p − y) + λ·p ⊙ (g − ⟨p, g⟩), where g is the gradient of the
// distance term with respect to p: the tree path sums of package tw (exact
// subgradient), or the centred dual potential of package ot/sinkhorn
// (gradient of the entropic objective). The softmax is computed once per
// row and shared by both terms.
//
// Blocks applies one loss to each of k blocks of L logits of a row, for
// models trained side by side in one loop, each on its own block (package
// bag's Ensemble): the value is the sum of the blocks' losses and each
// block's gradient is its own loss's.
package loss
