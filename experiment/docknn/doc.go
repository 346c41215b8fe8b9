// Package docknn compares the tree-sliced Wasserstein distance with the
// exact word mover's distance as document distances, by k-nearest-neighbour
// classification: the error of each on the same documents, and the time of
// each.
//
// # Documents
//
// A document is a normalized bag of words (nBOW, Kusner, Sun, Kolkin &
// Weinberger, "From Word Embeddings To Document Distances", ICML 2015): its
// text is split by vocab.Tokenizer (lower-case, punctuation dropped), the
// words of StopWords and the words without a vector in the embeddings are
// dropped, and each remaining distinct word w gets the mass
//
//	a(w) = count(w) / Σ_{w' kept} count(w')
//
// over the Words most frequent words of the document (ties: the word that
// comes first in the text), the others dropped. Both distances see the same
// bags. A text that starts with a header block, as e-mail and news posts
// do (20 Newsgroups: From:, Subject:, Organization:, Lines: …), loses it
// first, all but the subject (StripHeaders), unless Config.KeepHeaders:
// the headers name the sender and their site, which would make the task
// partly one of recognizing authors, and the ties of the truncation, which
// go to the words met first, would fill short posts' bags with them.
// A document's class is its label: the one label the file gives it, or,
// for a corpus read with a label tree, its most specific label (20
// Newsgroups: the newsgroup). A document with several most specific labels
// is an error.
//
// The documents are drawn without replacement from the training and test
// files, in the order of a permutation seeded by Config.Seed (one stream per
// file); documents whose bag is empty are passed over (and counted). The
// points are the union vocabulary of the drawn bags: every word of some bag,
// with its vector.
//
// # Distances
//
// The exact distance between bags a and b, of m and m' words, is the word
// mover's distance, the 1-Wasserstein distance with the Euclidean cost
// between the word vectors x_w:
//
//	WMD(a, b) = min_{P ≥ 0, P1 = a, Pᵀ1 = b} Σ_ij P_ij ‖x_i − x_j‖₂,
//
// solved by the network simplex of package ot/emd on the m×m' cost matrix
// (built for each pair: O(m·m'·d); the solve is in practice O(m·m') to
// O((m+m')·m·m')). The tree-sliced distance (Le, Yamada, Fukumizu & Cuturi,
// "Tree-Sliced Variants of Wasserstein Distances", NeurIPS 2019) is
//
//	TSW_T(a, b) = (1/T) Σ_{t=1..T} TW_t(a, b),
//
// the mean of the tree-Wasserstein distances on T random trees built over
// the points by package pointtree: clustering trees (Cluster: recursive
// k-means, K = 4, depth 6 by default) or randomly shifted quadtrees (Quad,
// depth 12), whose tree metrics approximate the Euclidean one from above.
// It is computed by tsw.Sliced.SparseDistance, and by the ℓ₁ distance of
// tree embeddings (see Times).
// For each builder max(Trees) trees are built, tree t seeded by
// TreeSeed(Seed, builder, t), and TSW_T uses the first T of them, so that
// the values for growing T are nested averages.
//
// # Classification
//
// For every test document the training documents are ranked by distance
// (ties by index); the k nearest vote, the most frequent class wins, and a
// tie between classes goes to the class of the nearest of the tied
// documents. The error at k is the fraction of test documents whose vote is
// not their class; it is reported for every k of Ks (default 1, 3, 5, …,
// 19, the range of Kusner et al.), with the best k. The best k is chosen on
// the test documents themselves, for every method alike: an optimistic
// figure, which compares the distances but is no held-out error. With n
// test documents an error p has a binomial standard error of
// √(p(1−p)/n), which the report gives: at n = 300 and p = 0.5, about 2.9
// points.
//
// # Times
//
// The test-by-training distance matrix of each method is computed in
// parallel over the test documents (internal/parallel.Each, Workers at
// once, one emd.Solver or tsw.Sliced clone each). Times are CPU times of
// the process (user and system, getrusage), which a machine busy with
// other work inflates far less than wall-clock times; the wall-clock time
// of each matrix is reported beside them, and where there is no CPU clock
// (not Unix) every time is wall-clock. The time per pair is the matrix's
// CPU time over the number of pairs, and a speed-up is WMD's time per pair
// over another's. WMD's includes its cost matrices (their share is
// reported).
//
// TSW is computed two ways, which give the same values to rounding (the
// report gives the largest difference): pair by pair by
// tsw.Sliced.SparseDistance, which sorts and merges the two bags' nodes on
// every tree for every pair; and as the ℓ₁ distance between the documents'
// tree embeddings (Le et al. 2019, Sec. 4),
//
//	Φ(a)[t, v] = w_v · a(Γ_t(v)) / T,    TSW_T(a, b) = ‖Φ(a) − Φ(b)‖₁,
//
// over the nodes v below the roots whose subtrees hold mass: sparse
// vectors computed once per document by tsw.Sliced.SparseEmbed, in
// O(T·m·depth·log(m·depth)). A test document's
// is then scattered into a dense vector x, and each pair costs one pass
// over the training document's nonzeros y: ‖x − y‖₁ = ‖x‖₁ + Σ_{i ∈ supp
// y} (|x_i − y_i| − |x_i|). This is how TSW is meant to serve
// many pairs, as in a kNN search. Building the trees and embedding the
// documents are timed apart, and the report gives the speed-up of the
// whole (trees, embeddings and distances) too.
//
// # The claim
//
// The claim this experiment tests: TSW comes "within a few points of
// the exact error at 100× or more less time". The report states, for each
// TSW, the difference of its best error from WMD's in points and its
// speed-ups per pair, both ways, and says whether the claim holds, with "a
// few points" read as at most ClaimPoints and the time as a speed-up of at
// least ClaimSpeedup by either way.
//
// # Determinism
//
// The documents, the trees and the distances depend on the Seed and the
// configuration alone, not on Workers nor on the scheduling: every
// distance is computed by one goroutine, each into its own place. Only the
// times vary between runs.
package docknn
