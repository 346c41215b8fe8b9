// Package tsw computes the tree-sliced Wasserstein distance: the mean of
// tree-Wasserstein distances over several trees that share a set of named
// points.
//
// Given T trees, each with a node named after every one of n points (the
// points are typically leaves; a tree may have internal nodes of its own),
// and distributions a and b over the points, placed on each tree at the
// points' nodes,
//
//	TSW(a, b) = (1/T) Σ_t TW_t(a, b),    TW_t(a, b) = Σ_{e ∈ t} w_e · |a(Γ(v_e)) − b(Γ(v_e))|
//
// (Le, Yamada, Fukumizu & Cuturi, "Tree-Sliced Variants of Wasserstein
// Distances", NeurIPS 2019), with TW_t the closed form of package tw on tree
// t. Each TW_t is the 1-Wasserstein distance under the tree metric d_t
// restricted to the points, so TSW is a pseudo-metric on distributions; a
// metric when one tree separates every pair of points by a positive
// distance. It is at most W1 under the mean tree metric (1/T) Σ_t d_t (the
// optimal plan of that problem is feasible for every tree). When the trees
// are random partitions of points in R^d (clustering trees, quadtrees), TSW
// approximates the Euclidean W1 at a fraction of its cost, with a variance
// that falls as T grows; the trees themselves are built elsewhere.
//
// # Costs
//
// With L_t the number of nodes of tree t and E = Σ_t L_t:
//
//	Distance, DistanceGrad, Embed   O(E) time, no allocation after the first call
//	SparseDistance                  O(Σ_t (k log k + k log L_t)) for k listed points (tw.Sparse)
//	SparseEmbed                     O(Σ_t m_t log m_t), m_t ≤ k·depth_t the nodes on the points' paths
//	L1 of two sparse embeddings     O(nnz(x) + nnz(y)), no allocation
//	Pairwise (nA × nB)              O((nA+nB)·E) to embed, O(nA·nB·E) for the ℓ₁ distances
//
// A Sliced holds the point-to-node maps (T·n int32), shared with its
// clones, and per tree a tw.Workspace (about 2·L_t floats) once a dense
// method has run and a tw.Sparse once SparseDistance has. New renumbers
// every tree breadth-first (tree.Tree.BreadthFirst, O(L_t) memory for a
// tree not already so numbered), so that package tw reads the scattered
// vectors in place.
//
// # Gradient and embedding
//
// TSW is piecewise linear in a; DistanceGrad returns the mean over the trees
// of each tree's subgradient (package tw, sign(0) = 0 at kinks) taken at the
// points' nodes. Embed concatenates the ℓ₁ embeddings of package tw over the
// trees, scaled by 1/T, so that TSW(a, b) = ‖Φ(a) − Φ(b)‖₁; Pairwise builds
// distance matrices on it.
//
// For sparse distributions compared many times (a k-nearest-neighbour
// search over documents), SparseEmbed gives Φ(a) as a SparseVec, its
// non-zero entries only: those of the nodes on the paths from a's points
// to the roots, with the values of Embed bit for bit. Each distribution is
// embedded once and each pair costs one merge, L1(Φ(a), Φ(b)), which
// agrees with SparseDistance to rounding: on 4 trees of 10⁴ nodes and bags
// of 70 points (BenchmarkSparseEmbedL1), about 3 µs a pair against 70 to
// 90 µs for SparseDistance, for 25 to 35 µs an embedding.
//
// # Inputs and errors
//
// Distributions are vectors of length n indexed by point (the order of the
// names given to New), or sparse lists of point indices and masses. New
// reports a tree lacking a point, and a point named twice, as errors
// (ErrMissingPoint, ErrDuplicatePoint); a length mismatch or an index out
// of range is a programmer error and panics with a "tsw: " message. Masses
// are not validated: as in package tw, a NaN or an infinity anywhere gives
// NaN (the distance, and every element of a gradient or embedding; every
// stored entry on the affected trees of a sparse embedding, so that L1
// with it is NaN). Inputs are never modified.
//
// NewOverLeaves builds the distance over the leaves that several trees
// share (trees built by package pointtree over the same points, say), with
// a flat tree of those leaves to read distributions over (package
// labeldist); a leaf of one tree that is not a leaf of another is an error
// naming both.
//
// # Concurrency
//
// A Sliced is not safe for concurrent use; Clone gives another goroutine
// its own for the cost of its scratch memory. Batch runs rows in parallel,
// each block on a clone, with results identical bit for bit to the serial
// methods.
package tsw
