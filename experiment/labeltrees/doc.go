// Package labeltrees measures what a label tree buys when the labels come
// without one: the documents of a labelled corpus are taken as flat labels
// (the label sets as the files give them, no ancestors), the LSTM text
// classifier of package textmodel predicts a distribution over those labels
// only, and it is trained with KL alone and with KL + λ·TW over trees that
// hold the labels (the built trees and the star as their leaves):
//
//	given  the data's own hierarchy, its nodes that no document uses
//	       carrying no mass: the tree a user with a hierarchy would use (the
//	       reference). Where the label sets list ancestors (AAPD), those are
//	       flat labels too, at the hierarchy's internal nodes
//	names  a clustering tree (pointtree.Cluster, K = 2) of the labels' names,
//	       each name the mean of its words' vectors (embedding.Mean)
//	docs   a clustering tree of the labels' centroids: the mean, over the
//	       seed's training documents having the label, of the document's
//	       mean word vector, for labels whose names have no vectors
//	star   every label a child of one root, so that TW = Σ_i |p_i − q_i|:
//	       a tree that knows nothing
//
// Every model is scored the same way on the same test documents: its
// prediction over the flat labels is placed on the data's hierarchy (its
// other nodes at zero) and measured there with the measures of the text
// experiment (package metric: pseudo-recall, top-k cost, ROC-AUC, and the
// LDL measures against the one-hot or uniform targets, the Wasserstein
// among them on the hierarchy). Pseudo-recall and top-k cost rank the
// labels only (k at most their number), the cost measured by the
// hierarchy's path lengths; the ROC-AUCs are over the labels, as the
// hierarchy's other nodes, never a document's label and at zero, would
// only add negatives ranked below every positive. A tree that groups the
// labels as the hierarchy does should lower the top-k cost and the
// Wasserstein distance (mistakes fall near the true label) at little or no
// cost in pseudo-recall; the star should not.
//
// # Choices
//
// The paper this project implements trains with a given tree; for trees
// built from points the TW term's size depends on the points' scale. So
// that λ means the same for every tree, each tree is rescaled (all its
// edges by one factor) so that the mean distance between two distinct
// labels is 2, the star's with unit edges: the loss sees the same average
// price for confusing two labels and differs only in which confusions cost
// more. λ defaults to 1, the paper's KL + TW. Clustering trees use K = 2
// (a binary dendrogram, the closest to a hierarchy of a few levels) and the
// seed of the run, so every seed draws its own tree; the trees of every
// seed are written with the report. The docs tree is built on the seed's
// training documents only.
//
// Splits, protocol and seeds are those of package text (experiment/text):
// the reduced protocol by default, validation 20 % of the training
// documents drawn by the seed when a test set is given, the random
// 64/16/20 split otherwise; for a seed every condition starts from the
// same weights and sees the same mini-batches, and each condition is
// compared with KL by a paired t-test across seeds.
//
// # Resuming
//
// With Config.OutDir set, each finished (condition, seed) run is written
// atomically to OutDir/runs/CONDITION-seedK.json and kept by later calls
// with the same settings, data, trees and way of scoring (RunKey, Scoring);
// a run in progress checkpoints its training every epoch and resumes bit
// for bit. Every seed's trees are built, and the run files found checked,
// before any training or writing: a tree that cannot be built (a label
// with no training document on some seed, for docs) or a run file of
// another experiment stops the call at once. The trees are written to
// OutDir/trees; a forest (a hierarchy of several roots) rescaled is written
// with its virtual root as a node, so that the file gives the distances the
// loss used.
package labeltrees
