// Package labelset turns a predicted distribution p over the labels of a
// hierarchy (the nodes of a label tree) into a set of labels, as a
// hierarchical multi-label classifier reports its prediction.
//
// # The rules
//
// Top keeps the K labels of highest mass among those of mass at least a
// threshold m (all of them for K = 0), by decreasing mass. Its set need not
// be consistent with the hierarchy: a label may be kept without its parent.
//
// Decoder.Closed keeps a set consistent with the hierarchy, closed under
// ancestors (the parent of every label of the set is in the set, up to the
// top-level labels): of all such sets S with
//
//	|S| ≤ K (no bound for K = 0) and p_v ≥ m for every v ∈ S,
//
// the one of highest total mass Σ_{v∈S} p_v (ties go to a larger set; for
// probabilities, which are never negative, |S| = K when there are K labels
// to keep). Without the bound on |S| this is the set of the labels whose
// mass, and the mass of every ancestor, is at least m: a label below the
// threshold takes its descendants out with it, as a classifier that
// descends the hierarchy from the top stops at a label it rejects. With the
// bound it is the problem of Bi & Kwok (2011), a closed set of K labels of
// highest total score, which Closed solves exactly: a label of high mass
// under an ancestor of low mass can be worth the ancestor, and the best set
// is not the K labels of highest mass closed under ancestors (which has
// more than K labels), nor found by taking labels greedily from the top.
// For a distribution that a model trained on closed label sets predicts,
// an ancestor's mass is typically at least its descendant's, and the
// rules then differ little; they differ where the model is unsure.
//
// # Complexity
//
// Top takes O(L log K) time for L labels. Closed takes O(L) time without a
// bound, or when the bound keeps every label the threshold leaves, and
// otherwise O(n·K) time and space for the n labels the threshold leaves
// (dynamic programming over the tree, the knapsack of each label's
// subtree merged child by child with sizes capped at K). A Decoder reuses
// its memory: after the first calls it allocates nothing.
//
// # Reference
//
// W. Bi and J. T. Kwok, Multi-label classification on tree- and
// DAG-structured hierarchies, ICML 2011 (the decision problem; they solve
// it approximately, by a greedy algorithm).
package labelset
