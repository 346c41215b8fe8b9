// Package pointtree builds label trees from points in R^d (word vectors,
// point clouds) for the tree-Wasserstein distance, and fits their edge
// weights to the Euclidean distances.
//
// Without a hierarchy over the labels, the tree-Wasserstein literature
// builds one from the points themselves: a tree whose shortest-path
// metric, restricted to the points, approximates the Euclidean one, so
// that TW on it approximates the Euclidean 1-Wasserstein distance (Le,
// Yamada, Fukumizu & Cuturi 2019 average TW over several such random
// trees: the tree-sliced Wasserstein distance). Cluster builds a
// clustering tree, Quad a randomly shifted quadtree, and FitWeights refits
// the weights of any tree to sampled distances (Yamada et al. 2022).
//
// # Trees
//
// The result is an ordinary *tree.Tree, so that packages tw and loss work
// on it unchanged. Point i is node i (user index i), a leaf named
// names[i] ("0" … "n−1" when names is nil); the internal nodes follow,
// breadth-first, the root first, at user indices n, n+1, …. A
// distribution over the points is therefore a vector over the tree's
// nodes with zeros past n (or a sparse one, for tw.Sparse).
// t.BreadthFirst() renumbers the tree for the fastest sweeps of package
// tw; code that addresses labels by name loses nothing.
//
// The internal nodes are named by their path: the root is P, its internal
// children P/0, P/1, … in order, their internal children P/0/0, …. P is
// ClusterPrefix ("·c") or QuadPrefix ("·q"), or that base followed by
// "#2", "#3", …: the first for which no point is named P or has a name
// beginning with P + "/". Internal names thus never collide with the
// points'. Children are ordered by the smallest index of a point below
// them, which makes the trees independent of the order of the work.
//
// # Clustering tree
//
// Cluster partitions the points recursively by k-means, as Le et al.
// (2019) do. The root holds every point. A node at depth Depth, or holding
// fewer than K points, is not split: its points hang below it as leaves.
// Any other node is split into at most K clusters:
//
//   - k-means++ seeding (Arthur & Vassilvitskii 2007): the first seed is a
//     point drawn uniformly, each next one a point drawn with probability
//     proportional to its squared distance to the nearest seed. When every
//     point coincides with a seed (duplicates), fewer than K seeds are
//     drawn; with one seed the node is not split.
//   - Lloyd's iterations: assign every point to its nearest seed (the
//     first on ties), move every seed to the mean of its points (a seed
//     left without points stays), up to Iters assignments or until one
//     changes nothing. Clusters still empty at the end are dropped; if one
//     cluster is left, the node is not split.
//   - A cluster of one point is that point's leaf, directly below the
//     node; a cluster of two or more is a child node, split in turn.
//
// The weight of the edge above a cluster node is the Euclidean distance
// between its centre (the mean of its points) and its parent's centre;
// the weight of the edge above a point is its distance to its parent's
// centre. (A point alone in its cluster would have a child node at its
// own position and an edge of weight 0 below it; that node is left out,
// which changes no distance.) The centres are computed in floating point:
// the mean of coinciding points may differ from them in the last bits,
// giving edges of about 1e-16 instead of 0.
//
// Every split draws from its own generator, math/rand/v2's PCG seeded
// with Seed and a key derived from the node's path, so the tree depends
// on Seed alone: not on Workers, nor on the order in which the nodes are
// split. Nodes of a level are split concurrently; the largest (points ×
// K × d ≥ 2²⁰) run their loops in parallel instead, over fixed blocks of
// points whose partial sums are added in block order, so every bit of
// the tree is the same whatever Workers. Squared distances are summed in
// four lanes with every product rounded on its own (no fused multiply-add
// on any architecture). Points all below 2^−400 in magnitude, whose
// squared distances would underflow, are clustered scaled by a power of
// two, which changes no bit but the exponents.
//
// Cost: each level of the tree costs O(n·d·K·(Iters+1)) time (seeding
// and Lloyd over every point), so the tree O(n·d·K·(Iters+1)·(Depth+1));
// memory is O(n + n_nodes·d) beside the points.
//
// # Quadtree
//
// Quad builds the quadtree of Indyk & Thaper (2003), randomly shifted, as
// Le et al. (2019) use it. Let s be the largest coordinate range, s =
// max_j (max_i x_ij − min_i x_ij), and u a shift drawn uniformly from
// [0, s)^d (QuadOptions.Shift fixes it). The shifted points x − min + u
// lie in the cube [0, 2s)^d, the root cell, of level 0. A cell of level ℓ
// has side 2s/2^ℓ: the cube is cut into 2^ℓ slabs along every axis. Only
// non-empty cells exist: a cell holding two or more points below level
// Depth is cut into the cells of the next level that hold points. A
// point's child cell is given by one bit per coordinate (the ℓ-th binary
// digit of (x_j − min_j + u_j)/(2s)); the bits are packed in ⌈d/64⌉
// words and grouped in a hash table, so d of several hundred costs no
// more than d per point and level.
//
// The edge above a cell of level ℓ weighs its diameter, √d·2s/2^ℓ. A
// point hangs below the deepest cell that holds it together with another
// point (or the cell of level Depth), with an edge of the diameter of the
// next level, √d·2s/2^(ℓ+1): the diameter of the cell it would have on
// its own. Chains of cells with one child cell and no point of their own
// are collapsed: the deepest cell of the chain stands for the whole chain,
// below the chain's parent, with the sum of its diameters as weight (the
// root stands for the deepest cell that holds every point). This changes
// no distance between points (points are leaves only), and bounds the
// tree's size by 2n nodes.
//
// Why the diameter: two points whose deepest common cell C has level ℓ
// lie in C, so their Euclidean distance is at most its diameter √d·2s/2^ℓ;
// each of them lies below a different child of C (or, at level Depth,
// hangs from C), whose edge alone weighs at least √d·2s/2^(ℓ+1). Their
// tree distance is therefore at least their Euclidean distance: the tree
// metric dominates the Euclidean one, and TW on the quadtree bounds W1
// from above. Any other constant multiplies every distance by the same
// factor (the side length alone, Indyk & Thaper's weight, divides them by
// √d). In expectation over the shift, the tree distance exceeds the
// Euclidean one by a factor of order log Δ, Δ the ratio of the largest to
// the smallest distance, with a constant that grows with d (Indyk &
// Thaper 2003); TW inherits the bound. Points that
// coincide (or whose range s is below 2.8·10⁻³⁰⁹) all hang from the root
// with edges of weight 0.
//
// In both trees a positive edge weight below 2.2·10⁻³⁰⁸, the smallest
// normal float64, is rounded up to it: package tree refuses subnormal
// weights, and rounding up keeps tree distances at least the Euclidean
// ones.
//
// The cells nest exactly (the scaled coordinate is computed the same way
// at every level and scaling by a power of two is exact), and the tree
// depends only on the points, Depth and the shift (Seed, or Shift). Cost:
// O(n·d) time per level a point goes down, O(n·d·Depth) at most, and
// O(n·⌈d/64⌉) words of memory beside the points.
//
// # Fitted weights
//
// FitWeights keeps a tree's topology and fits its edge weights w ≥ 0 so
// that the tree distance between two points approximates their Euclidean
// distance, as Yamada et al. (2022) do. It samples P pairs (i, j) and
// minimizes
//
//	F(w) = (1/2P)·Σ_(i,j) (‖x_i − x_j‖ − Σ_{e ∈ path(i,j)} w_e)² + λ·Σ_e w_e,
//
// non-negative least squares (NNLS, λ = 0) or the non-negative Lasso of
// Yamada et al., whose code solves it with scikit-learn's Lasso
// (positive=True): coordinate descent. The design matrix has a row per
// pair and a column per edge, and a row's nonzeros are the edges on its
// path: a few tens at most for the trees of this package, so it is stored
// sparse, by column. The normal equations of Lawson & Hanson's active-set
// method would be dense, E×E for E edges (about n + n/2): 10¹⁰ numbers for
// 10⁵ points, and O(E³) time. Coordinate descent needs only the sparse
// columns and the residuals, and handles the constraint and the ℓ₁ term in
// its closed-form one-variable step.
//
// Plain coordinate descent crawls on these problems: a node's edge and its
// children's edges lie on nearly the same paths. So each sweep first makes
// a subtree move at every internal node v: add δ to the edge above v and
// take δ from each child edge. A path through v's edge goes through
// exactly one of v's child edges, so the move changes only the pairs whose
// lowest common ancestor is v, by −2δ: its best δ is one sum over those
// pairs, and the moves together cost O(P) a sweep. They are coordinate
// descent on the distances from the root, where the problem is far better
// conditioned. When a child edge at 0 stops the move, it goes on with the
// other children (the pairs through v's edge and that child then change by
// +δ). The sweep then steps every edge's own coordinate. A sweep costs
// O(nnz + P + E), nnz the total length of the sampled paths.
//
// Every step lowers F; the coordinate steps alone are the coordinate
// descent that converges to a minimizer (Tseng 2001), and the subtree
// moves speed it up. With the default Tol it stops early.
// On 10⁴ clustered points of dimension 100 (the benchmark's "blobs") and
// their clustering tree, the mean relative error of the tree distances on
// held-out pairs goes from 2.05 unfitted to 0.046 after 5 sweeps (0.18 s),
// 0.0437 at Tol 10⁻³ (0.55 s), 0.0424 at the default 10⁻⁴ (1.5 s) and
// 0.0420 at 10⁻⁶ (5.4 s); Gaussian points and quadtrees converge within a
// few tens of sweeps (0.04–0.2 s). The weights are unique only up to
// directions that no sampled distance sees (the split of weight between
// the two edges below a root with two children, edges on no sampled path),
// where they keep the trace of the starting weights.
//
// # Points from word vectors
//
// WordPoints takes the words of a vectors file (package embedding) as
// points, LabelPoints places label names at the mean vector of their
// words, and Build makes a tree of either kind over Points, refitting its
// weights on request: the steps of 'twl tree build'.
//
// # Errors
//
// Shape mistakes by the programmer panic with a "pointtree: " message:
// negative n or d, len(points) != n·d, len(names) != n, len(Shift) != d,
// a nil tree. Everything that depends on the data returns an *Error (the
// type of package tree) wrapping a sentinel: ErrEmpty (n = 0), ErrNoDims
// (d = 0), ErrCoordinate (NaN, infinite, or beyond ±MaxCoordinate, with
// Line the point's 1-based index), ErrOption; bad or repeated names wrap
// tree.ErrBadName, and names FitWeights cannot find tree.ErrUnknownNode.
// Inputs are never modified.
//
// # Costs
//
// On this project's 2-core AMD EPYC, Go 1.26, points of dimension 100,
// default options, ranges over three to five runs of go test -bench .
// ./pointtree. The machine was shared with other jobs, which often kept
// one core busy: the two cores then ran as one, and in one run Cluster at
// n = 10⁵ took 2.7–3.0 s.
//
//	                              n = 10⁴     n = 10⁵      allocations      bytes
//	Cluster, Gaussian             78–105 ms   1.0–1.6 s    27 000 / 130 000  11 / 42 MB
//	Cluster, 100 blobs            78–95 ms    1.0–1.5 s    23 000 / 127 000  10 / 41 MB
//	Quad, Gaussian                6–9 ms      63–105 ms    10 000 / 102 000  2.8 / 28 MB
//	Quad, 100 blobs               5–10 ms     66–112 ms    10 000 / 107 000  2.8 / 29 MB
//	FitWeights, 20·n pairs:
//	  clustering tree, Gaussian   150–165 ms               10 000            21 MB
//	  clustering tree, blobs      1.6–1.8 s                10 000            21 MB
//	  quadtree                    47–64 ms                 10 000            12 MB
//
// The allocations are mostly the tree's names and index (one string a
// node); Cluster's work is the distance computations, about 0.4 ns per
// coordinate and centre on one core.
//
// # References
//
// T. Le, M. Yamada, K. Fukumizu, M. Cuturi. Tree-Sliced Variants of
// Wasserstein Distances. NeurIPS 2019.
//
// P. Indyk, N. Thaper. Fast Image Retrieval via Embeddings. 3rd
// International Workshop on Statistical and Computational Theories of
// Vision, 2003.
//
// M. Yamada, Y. Takezawa, R. Sato, H. Bao, Z. Kozareva, S. Ravi.
// Approximating 1-Wasserstein Distance with Trees. TMLR, 2022.
//
// D. Arthur, S. Vassilvitskii. k-means++: The Advantages of Careful
// Seeding. SODA 2007.
//
// C. L. Lawson, R. J. Hanson. Solving Least Squares Problems. Prentice
// Hall, 1974 (chapter 23, NNLS).
//
// P. Tseng. Convergence of a Block Coordinate Descent Method for
// Nondifferentiable Minimization. JOTA 109(3), 2001.
package pointtree
