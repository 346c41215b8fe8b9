// Package metric holds the measures that score a predicted label
// distribution against its target in label-distribution learning (LDL): the
// six of Geng (2016), listed in Table 4 of the paper, and the exact
// Wasserstein distance on the label tree.
//
// Every function takes the prediction p first and the target q second,
// vectors of the same length L over the labels. Wasserstein, computed by
// Evaluator.Row (or tw.Workspace.Distance), takes them in the tree's user
// order, as package tw does:
//
//	Wasserstein   W1 on the tree metric = Σ_e w_e |p(Γ(v_e)) − q(Γ(v_e))|   ↓
//	KL            KL(q ‖ p) = Σ_i q_i ln(q_i / p_i)                        ↓
//	Chebyshev     max_i |p_i − q_i|                                        ↓
//	Clark         sqrt(Σ_i (p_i − q_i)² / (p_i + q_i)²)                    ↓
//	Canberra      Σ_i |p_i − q_i| / (p_i + q_i)                            ↓
//	Cosine        Σ_i p_i q_i / (‖p‖₂ ‖q‖₂)                                ↑
//	Intersection  Σ_i min(p_i, q_i)                                        ↑
//
// ↓ marks a distance (lower is better, 0 for p = q), ↑ a similarity (higher
// is better, 1 for p = q). KL puts the target first, as the paper's KL loss
// (Eq. 3, label eq:kl) and Table 4 do: it is the expected log-loss of the
// prediction in excess of the target's entropy. Wasserstein is the tree-Wasserstein distance of
// package tw, which equals the exact 1-Wasserstein distance under the tree's
// shortest-path metric. Names lists the metric names in the column order of
// Table 1 of the paper, and LowerIsBetter tells the two kinds apart.
//
// Each per-row function costs O(L) time and allocates nothing; the
// Evaluator, which scores a whole set of rows, allocates only its result.
//
// # Several trees: the tree-sliced distance
//
// Labels with no single tree (flat labels, points in R^d) are often given
// several trees over the same leaves (package pointtree builds them). For
// them NewSlicedEvaluator takes a tsw.Sliced in place of a tree and puts,
// in the column of wasserstein, the tree-sliced Wasserstein distance
//
//	TSW           (1/T) Σ_t TW_t(p, q), the mean over the T trees of their W1   ↓
//
// under the name "tsw" (SlicedNames, Evaluator.Names, Result.Names); the
// vectors are over the trees' shared points, in the order of the
// tsw.Sliced, and every other measure is the same function of them.
//
// # Conventions
//
// The formulas are evaluated exactly, with these conventions where a term is
// not a number:
//
//   - KL: 0·ln(0/p) = 0, so a label with q_i = 0 counts 0 whatever p_i is;
//     q_i > 0 with p_i = 0 makes KL = +Inf. No epsilon is added behind the
//     caller's back.
//   - Clark and Canberra: a term with p_i = q_i = 0 is 0/0 and counts 0 (the
//     label is absent from both distributions).
//   - Cosine of a zero vector is NaN, 0/0.
//
// Inputs are not validated: NaN in gives NaN out (except in a KL term with
// q_i = 0, which counts 0 whatever p_i is), and negative masses or rows that
// do not sum to 1 give the value of the formula, which is then not the named
// measure. Intersection is Σ min(p_i, q_i), which equals 1 − ½‖p − q‖₁ for
// distributions. Validate inputs once where they enter the program (package
// labeldist does this for files). Vectors of different lengths are a
// programmer error and panic.
//
// # PyLDL's convention
//
// Published LDL tables are mostly computed with PyLDL (Python) or Geng's
// MATLAB toolbox, which avoid infinities by clipping. With Options.Clip the
// Evaluator reproduces PyLDL (pyldl/metrics.py, pyldl/algorithms/utils.py):
// both vectors are clipped to [Eps, 1], Eps = 2.220446049250313e-16 (the
// float64 machine epsilon, numpy's finfo(float).eps), before Clark, Canberra
// and KL, the three metrics PyLDL wraps in its clipping decorator.
// Chebyshev, Cosine and Intersection use the vectors unclipped, as PyLDL
// does (PyLDL computes Intersection as 1 − ½‖p − q‖₁, equal to Σ min for
// distributions), and so does Wasserstein, which PyLDL does not have. Under
// clipping KL is finite: about ln(1/Eps) = 36.04 per unit of target mass
// that the prediction misses. Clip applies the same clipping to one vector,
// for callers of the per-row functions.
//
// # Means and standard deviations
//
// Evaluate reports, per metric, the mean over rows and the sample standard
// deviation, with n − 1 in the denominator (gonum stat.StdDev, pandas'
// DataFrame.std, which PyLDL uses to report folds). It is the spread of the
// per-row scores, not a standard error: the ± of published tables is the
// standard deviation of per-fold (or per-seed) means, which a caller gets by
// applying gonum's stat.MeanStdDev to the Mean of each fold. With one row the
// standard deviation is NaN (undefined); a metric that is +Inf on some row
// has mean +Inf and standard deviation NaN.
//
// # Multi-label measures
//
// For hierarchical multi-label classification (the paper's Table 2,
// BlurbGenreCollection, Section 4.2), MultiLabel scores a predicted
// distribution p over the L labels of a tree, in its user order, against
// the set Y of a document's true labels (user indices, sorted ascending,
// distinct, non-empty), with the names of MultiLabelNames:
//
//	pseudo_recall    |P ∩ Y| / |Y|, P the |Y| labels of highest p             ↑
//	top_k_cost       (1/k) Σ_{j=1..k} min_{ℓ∈Y} d(ℓ_j, ℓ)                     ↓
//	roc_auc          ROC-AUC over all (document, label) pairs pooled (micro)  ↑
//	roc_auc_macro    mean over labels of the ROC-AUC over documents            ↑
//	roc_auc_samples  mean over documents of the ROC-AUC over labels            ↑
//
// ℓ_j is the label of j-th highest p, and d the tree's shortest-path
// distance (tree.Tree.Distance): in a forest, a path between two trees runs
// through the virtual root, whose edges weigh tree.Options.VirtualRootWeight
// (1 by default, as in the paper). k is a parameter, 5 in the paper. The
// paper prints pseudo-recall as |P ∪ Y| / |Y|; that would be at least 1,
// and the intersection is meant (it is the recall of the top |Y| labels,
// also known as R-precision).
//
// Ranking: where scores tie, the smaller user index ranks first. P and ℓ_j
// are then well defined, and a prediction with exact ties (a uniform row,
// say) is scored as if it ranked the tied labels in label order.
//
// ROC-AUC takes p as scores and the labels in Y as positives. Ties count
// one half (the Mann–Whitney statistic, the area under the trapezoidal ROC
// curve; see AUC), which is what scikit-learn's roc_auc_score computes:
// roc_auc equals roc_auc_score(Y, P, average="micro"). A label that every
// document has, or none, has no AUC: it is left out of roc_auc_macro, and
// a document whose Y holds every label is left out of roc_auc_samples.
// MultiLabelResult counts both (SkippedLabels, SkippedRows). scikit-learn
// raises an error instead ("Only one class present in y_true"), so its
// average="macro" and average="samples" equal ours when called on the
// labels and documents kept. roc_auc is NaN only when every pair, or none,
// is positive. The paper does not say which average its AUC column is; all
// three are reported.
//
// The per-row methods (PseudoRecall, TopKCost, SampleAUC) take O(L log m)
// time for the selection of the m = max(k, |Y|) best labels or the sorting
// of the positives, plus O(k·|Y|·log L) for the distances of top-k cost,
// and allocate nothing. Evaluate scores a set of documents and adds the
// two AUCs over documents, O(nL log n) for n documents. A NaN score makes
// the measures it enters NaN; a label set that is empty, out of range, not
// sorted or with a duplicate is a programmer error and panics, as a vector
// of the wrong length does. Means and standard deviations follow the
// section above: the sample standard deviation over documents (over labels
// for roc_auc_macro); roc_auc, a single pooled AUC, has no standard
// deviation.
//
// # Files and tables
//
// Score reads predictions and targets in step from two labeldist.Readers,
// a chunk of rows at a time scored on all cores, and summarizes every
// measure into a Table (Summary's mean and standard deviation, and where
// kl is first infinite), with memory independent of the number of rows.
// ScoreMultiLabel scores predictions held densely against the label sets
// of a corpus.Corpus, with the multi-label measures and the LDL measures
// against the sets' target distributions. Table and MultiLabelReport write
// themselves as 'twl eval' prints them, for people (WriteText) or as one
// line of JSON (WriteJSON, infinities and NaN as strings).
//
// # References
//
// X. Geng, "Label distribution learning", IEEE TKDE 28(7), 2016, for the six
// measures. PyLDL: https://github.com/SpriteMisaka/PyLDL.
//
// A. Toyokuni, S. Yokoi, H. Kashima, M. Yamada, "Computationally efficient
// Wasserstein loss for structured labels", 2021, Section 4.2, for
// pseudo-recall and top-k cost. J. A. Hanley, B. J. McNeil, "The meaning
// and use of the area under a receiver operating characteristic (ROC)
// curve", Radiology 143(1), 1982, and T. Fawcett, "An introduction to ROC
// analysis", Pattern Recognition Letters 27(8), 2006, for ROC-AUC.
// scikit-learn's roc_auc_score: https://scikit-learn.org (sklearn.metrics).
package metric
