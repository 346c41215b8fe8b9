// Package ldl is linear label-distribution learning with the
// tree-Wasserstein distance: the whole pipeline of 'twl train', 'twl cv'
// and 'twl predict' as library calls, the linear counterpart of package
// textmodel.
//
// Each sample is a feature vector x ∈ ℝᵈ and a distribution y over the L
// labels, the nodes of a label tree. The model is softmax regression,
//
//	p(x) = softmax(W·x + b),  W ∈ ℝ^{L×d}, b ∈ ℝ^L,
//
// trained with Adam on shuffled mini-batches on KL(y ‖ p), optionally plus
// λ times a transport distance between p and y: the exact tree-Wasserstein
// distance TW on the label tree (kl+tw), Sinkhorn's entropic Wasserstein
// distance on the tree metric (kl+sinkhorn, the paper's W¹), or the
// tree-sliced distance over several trees (kl+tsw). One TW evaluation and
// its gradient cost O(L) (package tw), Sinkhorn O(L²) per iteration.
//
// The steps, each a function:
//
//   - Load reads a data set, JSON Lines or a MATLAB .mat file of the LDL
//     benchmarks, with its label tree (OpenTree: chain, star, chain:N,
//     star:N, taxonomy:FILE, edges:FILE or a file), into a Data: dense
//     features, sparse targets.
//   - Fit standardizes the features, holds out a validation split, trains
//     with early stopping and checkpoints, refuses runs that diverge, and
//     returns a model.File, which model.Save writes and model.File.Predict
//     uses.
//   - CrossValidate runs repeated k-fold cross-validation, the protocol of
//     the LDL literature, and reports every measure of package metric.
//   - Predictor writes the predictions of a model as JSON Lines a batch at
//     a time, optionally only the top labels (SelectLabels).
//
// Options' zero value holds the defaults tuned on SJAFFE (see the
// Default constants). Everything random follows Options.Seed: the same
// call gives the same model bit for bit, and 'twl train' with the same
// settings writes the same model file.
//
// Predictor.PredictJSONL and PredictMAT predict the samples of a data file
// (writing their targets beside the predictions on request), and
// CVResult.WriteText, WriteJSON, WriteFitText and WriteFitJSON write the
// summaries of 'twl cv' and 'twl train'.
//
// Errors: data and I/O problems are errors (dataset.Error with the file
// and line), as are invalid Options; the conditions callers test for have
// sentinels and types: ErrDiverged (and train.ErrDiverged), ErrLabelCount,
// tree.ErrSpec, *SplitError, *LabelLimitError, *TreeSizeError and
// *FoldError. Shape mistakes by the programmer (a feature vector of the
// wrong length) panic. No function modifies its inputs, and only the
// Write functions write, to the writer they are given.
//
// Reference: A. Toyokuni, S. Yokoi, H. Kashima, M. Yamada,
// "Computationally efficient Wasserstein loss for structured labels", 2021:
// the model, the losses and the synthetic setting.
package ldl
