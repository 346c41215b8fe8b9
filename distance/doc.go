// Package distance computes distances between sparse label distributions
// (labeldist.Rows) on a tree, row by row or all pairs, in parallel, by one
// of five methods behind one interface, Method:
//
//   - tw, the tree-Wasserstein distance (Le et al., NeurIPS 2019; Evans and
//     Matsen 2012), in closed form: W₁(a, b) = Σ_v w_v |a(T_v) − b(T_v)|,
//     the sum over the edges (parent(v), v) of the edge's weight times the
//     difference of the masses below it. tw.Sparse computes it in
//     O(k log k) time for the k non-zero labels of a pair, independent of
//     the tree's size.
//   - emd, exact optimal transport by the network simplex (package ot/emd)
//     on the dense L×L matrix of the tree's path lengths: the same value to
//     rounding, in about O(L³) time and 8·L² bytes, as a cross-check.
//   - sinkhorn, entropic optimal transport (Cuturi 2013, package
//     ot/sinkhorn) on the same matrix: the transport cost ⟨C, P⟩ of the
//     entropic plan P, above the exact distance and approaching it as the
//     regularization λ grows. A plan whose marginals miss by more than twice
//     the tolerance is no transport plan, and its pair fails with a
//     *ConvergenceError rather than returning a number that is no
//     approximation of the distance.
//   - utw, the unbalanced tree-Wasserstein distance (package utw): the
//     generalized Kantorovich–Rubinstein distance of Sato et al. (NeurIPS
//     2020), transport at the tree's path lengths plus λ per unit of mass
//     destroyed or created, between measures of any total mass, exact, in
//     O(k log k) time for the k labels of a pair.
//   - tsw, the tree-sliced Wasserstein distance (package tsw): the mean of
//     the tree-Wasserstein distances over several trees with the same
//     leaves. All pairs go through the trees' sparse embeddings
//     (tsw.Sliced.SparseEmbed), each distance the ℓ₁ distance of two of
//     them (tsw.L1), in time linear in the embeddings' lengths.
//
// Method.Rows computes the distance of row i of A to row i of B;
// Method.Columns prepares the rows of B once (for tsw, their embeddings;
// for tw, package unifrac's all-pairs engine) and Method.Pairwise
// computes, for each row of A, its distance to every prepared row of B,
// row-major. The pairs are cut into contiguous parts, one per worker
// (internal/parallel), and every distance is computed by one worker alone
// from its two rows: the results are the same bits for any number of
// workers, and for Pairwise whatever the cut of A into calls.
//
// # tw's all pairs
//
// The tree-Wasserstein distance between two rows is the weighted
// unnormalized UniFrac of their masses, taken as they are (rows need not
// sum to 1): tw's Columns and Pairwise compute it with package unifrac's
// engine (unifrac.Columns with Options.Raw), Σ_e w_e a_e + Σ_e w_e b_e −
// 2·Σ_e min(w_e a_e, w_e b_e) over the branches both rows reach, by tiles
// of rows of A against rows of B. Its values agree with tw.Sparse's (which
// Rows uses) to rounding relative to the two rows' weighted masses
// S = Σ_e w_e a_e + Σ_e w_e b_e, not to the distance: a few units of
// rounding of S on shallow trees, growing with the length of the rows'
// root paths (a median of 4e-15·S and at most 3.5e-14·S for rows of 20
// labels on a random 10⁵-label tree, whose paths are hundreds of branches
// long, where tw.Sparse is within a unit of rounding of the exact value);
// equal rows are at exactly 0. Pairwise is fastest with PairwiseBlock() rows of A or more a
// call. Rows the engine does not take (a negative or non-finite mass, a
// label out of range) go to tw.Sparse pair by pair, with its results.
//
// tw's Pairwise of the Columns' own rows is symmetric, bit for bit (the
// engine adds the terms of (i, j) and (j, i) in the same order, each term
// symmetric in the two rows): NewSelf computes each pair of such rows once,
// into a condensed matrix of SelfBytes(n) bytes, and Self.Rows writes any
// rows of the full matrix from it, the bits Pairwise writes, in about half
// the time. Columns.Symmetric reports the methods that allow it.
//
// # Memory
//
// emd and sinkhorn hold the L×L cost matrix, CostBytes(L), and sinkhorn
// its kernel as well, SinkhornBytes; NewEMD and NewSinkhorn refuse more
// than Options.MaxBytes with a *MemoryError before allocating. Columns
// holds the rows of B as given (B.Bytes()); for tsw their embeddings,
// 12 bytes per stored entry and 48 per row, refused as they grow past
// Options.MaxBytes; for tw the engine's prepared rows (see package unifrac:
// about 9 bytes per branch a row reaches below the dense ones, 8 per row
// and dense branch), refused before they are allocated. tw's Pairwise
// prepares the rows of A the same way for the length of a call. NewSelf
// refuses a matrix that does not fit beside the Columns.
//
// # Files
//
// WriteRows streams the distances between the rows of two
// labeldist.Readers, paired line by line, to a writer as 'twl distance'
// writes them: one number per line, or one JSON object. An error of a pair
// is then a *LineError naming the files and lines (Locate does the same
// for the errors of Rows and Pairwise over rows read from files).
//
// # Errors
//
// Shape mistakes (dst of the wrong length, A and B with different numbers
// of rows in Rows, Columns of another Method) panic. A pair the method
// cannot compute (emd's or sinkhorn's errors on the masses, sinkhorn's
// non-convergence) is returned as a *PairError naming the pair, the first
// in row-major order whatever the number of workers; a cancelled context
// as the context's error.
//
// A Method holds one workspace per worker: it is not safe for concurrent
// use, and its Rows, Columns and Pairwise allocate nothing per pair.
package distance
