// Package treesliced measures how well the tree-sliced Wasserstein
// distance approximates the exact 1-Wasserstein distance between point
// clouds, and at what cost.
//
// For two clouds A and B of n points in R^d with masses a and b, the exact
// distance is
//
//	W1(a, b) = min_{P ≥ 0, P1 = a, Pᵀ1 = b} Σ_ij P_ij ‖x_i − y_j‖₂,
//
// solved here by the network simplex of package ot/emd on the n×n cost
// matrix (O(n²d) to build, and in practice O(n²)–O(n³) to solve). The
// tree-sliced distance (Le, Yamada, Fukumizu & Cuturi, "Tree-Sliced
// Variants of Wasserstein Distances", NeurIPS 2019) is
//
//	TSW_T(a, b) = (1/T) Σ_{t=1..T} TW_t(a, b),
//
// the mean of the closed-form tree-Wasserstein distances (package tsw) on
// T random trees built on the 2n points of A ∪ B (package pointtree): O(L)
// per tree of L nodes once the trees are built.
//
// # Protocol
//
// A cell is a dimension d and a size n. For each cell, Pairs pairs of
// clouds are drawn (NewPair): C = Components mixture components with means
// μ_c whose coordinates are standard normal; A has mixture weights from
// Dirichlet(1, …, 1) and n points μ_c + Spread·N(0, I_d); B has its own
// Dirichlet weights and the means μ_c + s·ξ_c, ξ_c ~ N(0, I_d), with the
// shift s uniform on [0, 1) per pair. Across the pairs W1 thus ranges from
// the sampling noise between two clouds of one mixture (s near 0, weights
// alike) to a displacement of the clusters, which is what a correlation
// across pairs needs. Masses are 1/n (MassesUniform, the default) or drawn
// from Dirichlet(1, …, 1) per cloud (MassesRandom). Pair k of cell (d, n)
// comes from a PCG seeded by (Seed, a key of d, n and k): the same seed
// gives the same clouds whatever else the configuration holds.
//
// For every pair: the exact W1; then, for each builder, max(Trees) trees
// on A ∪ B (point i < n is A's i-th point, n + i is B's i-th), tree t of
// pair k seeded by TreeSeed(Seed, d, n, k, t, builder); and TSW on the
// first T trees for each T in Trees, so that the values for growing T are
// nested averages. The builders:
//
//	cluster       pointtree.Cluster: recursive k-means (K = 4, depth 6,
//	              10 Lloyd steps), edges the distances between centres
//	quad          pointtree.Quad: randomly shifted quadtree (depth 12),
//	              edges the diameters of the cells below them
//	cluster+fit   the clustering trees, weights refitted by
//	              pointtree.FitWeights (NNLS on FitPairs·2n sampled pairs)
//
// Both cluster and quad trees dominate the Euclidean distance (a path in a
// clustering tree is a polygonal line through cluster centres; a quadtree
// edge is at least as long as any segment inside its cell), so TSW ≥ W1 on
// every pair for them; the fitted weights approximate the distances and
// may fall below. The report checks this.
//
// # Measures
//
// Per cell, builder and T (Row): Pearson's correlation of TSW with W1
// across the pairs; the mean, standard deviation, minimum and maximum of
// the ratio TSW/W1; the mean time to build one tree; the mean time of one
// TSW evaluation on T trees already built; and the speed-ups of TSW over
// the exact W1 (cost matrix plus network simplex) with the trees reused
// and with the T trees built for the pair.
//
// # Timing
//
// Everything of one pair runs on one goroutine (pointtree.ClusterOptions
// Workers = 1), and by default one pair at a time (Config.Workers), so
// the times are those of one core, comparable with single-threaded
// solvers. The cost matrix and the simplex are timed once per pair, each
// tree once, and TSW as the fastest of 3 blocks of back-to-back calls,
// each lasting at least half a millisecond, after an untimed first call
// (which allocates the workspaces). The values depend on the seed alone; the times on the
// machine and its load. POT's emd2 and sinkhorn2, timed on the same clouds
// at development time, are recorded in REFERENCE_POT.md beside this file;
// Run does not call POT.
//
// # Protocols
//
// ProtocolReduced (the default): d ∈ {2, 10, 100, 300}, n ∈ {100, 1000},
// 20 pairs, T ∈ {1, 4, 16}, FitPairs 4; 70–80 s on one core of a
// 2-core AMD EPYC, most of it building the 16 clustering trees per pair at
// d = 300, n = 1000 and the exact solves at n = 1000 (Workers = 2 runs two
// pairs at once, at the price of timings taken beside another busy core).
// ProtocolLarge: the same dimensions, n ∈ {100, 1000, 3000}, 50 pairs,
// T ∈ {1, 4, 16, 64}, FitPairs 20 (FitWeights' default); by estimate about
// an hour and a quarter on one core of the same machine, over half of it
// in the cell d = 300, n = 3000, where one pair took 33 s: 64 clustering
// trees of 0.19 s, their fits 0.28 s each, and the exact W1 1.8 s (cost
// matrix 1.1 s, 72 MB). Every list and count can be overridden.
//
// # Output
//
// Result.Markdown is the report: a summary at the largest T, the check of
// the dominance, a table per cell and the setup; Result.WriteJSON writes
// every measurement of every pair; Result.Figures plots the correlation
// against T per n; Result.WriteFiles writes them all.
package treesliced
