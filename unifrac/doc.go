// Package unifrac computes UniFrac distances between all pairs of samples of
// a table of counts on the nodes of a phylogenetic tree.
//
// For a sample with counts c_i on nodes i, the proportions are
// a_i = c_i / Σc, and the mass of branch e (the edge above node v_e) is
// a_e = a(Γ(v_e)), the proportion of the sample in the subtree below it.
// With branch lengths w_e (the tree's edge weights) the methods are
//
//	WeightedUnnormalized    Σ_e w_e |a_e − b_e|
//	WeightedNormalized      Σ_e w_e |a_e − b_e| / Σ_e w_e (a_e + b_e)
//	Unweighted              Σ_e w_e [a_e>0 ≠ b_e>0] / Σ_e w_e [a_e>0 ∨ b_e>0]
//	UnweightedUnnormalized  Σ_e w_e [a_e>0 ≠ b_e>0]
//	Generalized(α)          Σ_e w_e (a_e+b_e)^α |a_e − b_e|/(a_e+b_e) / Σ_e w_e (a_e+b_e)^α
//
// (Lozupone & Knight 2005; Lozupone et al. 2007; Chen et al. 2012), the
// generalized sums skipping the branches where a_e + b_e = 0. The
// denominator of the weighted normalized form equals
// Σ_i d(root, i)·(a_i + b_i). The weighted unnormalized form is the
// tree-Wasserstein distance of package tw between the two proportion
// vectors. These are the definitions of Striped UniFrac (McDonald et al.
// 2018), whose fp64 output the tests compare against. Options select
// Striped UniFrac's variants: counts as masses (Raw), variance-adjusted
// UniFrac (VarianceAdjusted, Chang et al. 2011) and the approximation that
// leaves out the tips' branches (BypassTips). FaithPD computes Faith's
// phylogenetic diversity (Faith 1992) of every sample in one pass.
//
// # Algorithm
//
// A sample reaches few branches: those on the root paths of its nodes. With
// |x − y| = x + y − 2·min(x, y),
//
//	Σ_e w_e |a_e − b_e| = S_a + S_b − 2·Σ_{e reached by both} min(w_e a_e, w_e b_e)
//
// where S_a = Σ_e w_e a_e, so the work of a pair grows with the branches
// its two samples share, not with the size of the tree. Unweighted UniFrac
// is the same sum over the values w_e·[a_e > 0]: the shared length is
// Σ min, the union S_a + S_b − Σ min. The generalized form splits its two
// sums the same way, into per-sample sums over the branches a sample
// reaches and corrections on the shared ones.
//
// Branches that many samples reach (at least 40 percent of them, by default)
// are dense: their values form an N×D matrix whose pairs of rows are reduced
// by a min-sum kernel (AVX2 assembly on amd64, with a Go reference form
// that gives the same bits; build with -tags purego for the Go form). The
// others are sparse: for blocks of samples, an index from branch to the
// samples of the block that reach it; a tile of the output (a block of rows
// against a block of columns) merges the two blocks' indexes and adds the
// min of each shared pair. Both parts add into the pair's sum in a fixed
// order — dense columns in chunks of a fixed length, each chunk summed in
// four lanes, then the sparse branches in their order — that does not
// depend on the tile, the side of the diagonal or the number of workers:
// results are identical bit for bit whatever the parallelism. An engine
// orders its samples by where their nodes lie in the tree, so that a block
// holds related samples: two blocks of distant clades then share few
// branches, and the pairs of one clade meet long runs of shared ones.
// For the weighted methods the samples keep that order within a block, so
// those that reach a branch tend to lie close together: a tile then takes
// a shared branch by windows of 8 consecutive samples of the block, each
// row's value against a window's eight in one vector operation (AVX-512,
// beside a Go form with the same result), each pair still getting its one
// addition per branch.
// A pair's sum is symmetric in its two samples, so this order changes no
// result.
//
// A block's masses are summed by one sweep of the positions its samples
// reach, children before parents: each position gets the list of the
// block's samples that reach it and their masses, its own counts (as
// proportions) plus its children's lists, from the last child to the
// first. A mass is so added up in an order set by the tree, not by the
// order in which a sample lists its nodes.
//
// Unweighted values are a branch's length or nothing, so a sample's sparse
// branches are sets: the engine numbers them in preorder, so that runs of
// consecutive branches are pieces of root paths, and indexes them by group
// of 32 consecutive ones, each sample's entry a 32-bit mask of the branches
// of the group it reaches. A group adds one term to a pair's shared length:
// the lengths of the branches both reach, summed byte by byte of the mask
// (each byte's branches in increasing order, then the four bytes' sums),
// which a tile reads from per-byte tables of the 256 sums — one look-up
// per pair and group instead of one addition per pair and shared branch,
// several times less work for rich samples (those of a clade
// reach most of its branches). The groups' terms are added in increasing
// group order, again whatever the tile or the number of workers.
//
// # Two tables
//
// NewColumns prepares the samples of one table, the columns, once: their
// sums, the split of the branches they reach into dense and sparse, their
// dense rows and sparse indexes. Columns.Query then computes the distances
// from the samples of any other table to all the columns, row-major: the
// query samples are prepared on the columns' split (a branch no column
// reaches adds only to the query's sum) and their tiles reduced as above.
// A pair's sum is added in an order that depends on its two samples alone,
// so a query's results are the same bits whether its rows come in one call
// or many, and whatever the number of workers; Query is most efficient for
// calls of a multiple of RowBlock() rows. The sums of the samples are
// added in the order of a pair's shared sum, so that a query sample equal
// to a column is at distance exactly 0 for the weighted and unweighted
// methods.
//
// # Variance adjustment, bypassed tips
//
// With Options.VarianceAdjusted each branch's term of a pair is divided by
// √(m_e (m − m_e)), m_e the pair's counts below the branch and m their
// totals (Chang et al. 2011, as ssu's --vaw computes it for each method).
// The divisor depends on both samples, so the terms of a branch that only
// one sample reaches are not a per-sample constant; they depend on the
// other sample's total count only. Each sample's sum of them is computed
// once per distinct total count of the table (an N×D table, D = 1 for a
// rarefied table; per tile when N·D is large), its terms' square roots
// eight at a time (AVX-512, or four with AVX2, beside a Go form giving the
// same bits), and a pair adds the corrections of the branches its two
// samples share (three square roots each): O(N·D·|paths| + shared) work,
// where ssu's is O(N²·L). The sums are added in orders fixed by the two
// samples, so the values do not depend on the number of workers, and two
// samples that reach the same branches (equal samples, at distance 0
// exactly) are summed over their shared branches alone, without the
// cancellation (see vaw.go). Columns computes the same values, bit for
// bit, its one-sided sums per tile. Options.BypassTips gives the branches
// it leaves out length zero.
//
// Options.Raw takes the counts as the masses, as they are, instead of
// proportions: the weighted unnormalized distance is then the
// tree-Wasserstein distance Σ_e w_e |a_e − b_e| between the count vectors
// whatever their totals (package distance computes tw's all pairs so), and
// a sample may have no positive count.
//
// # Accuracy
//
// The subtraction S_a + S_b − 2·Σ min cancels when two samples are nearly
// equal: the error of a weighted unnormalized distance is relative to
// S_a + S_b, not to the distance. It is the rounding of the sums S_a, S_b
// and Σ min, each of one term per branch added in turn, so it grows with
// the number of branches a sample reaches: a few units of rounding of
// S_a + S_b for short root paths, a median of 18 and at most about 160
// units (4e-15 and 3.5e-14 relative) for samples of 20 nodes on a random
// 10⁵-node tree, whose root paths are hundreds of branches long. For the
// normalized form S_a + S_b is the denominator, so its error is the same
// number of units of rounding in absolute terms (the distance lies in
// [0, 1]). Negative results of rounding are returned as 0.
//
// Equal samples are at distance exactly 0, as Striped UniFrac writes it:
// each sample's total is summed in the order in which a pair adds the
// terms its two samples share (dense chunks, then sparse branches in
// increasing order; for Unweighted, its groups' terms), so for two samples with the same values on every
// branch (the same proportions, listed in any order; for Unweighted, the
// same branches reached) S_a + S_b and twice the shared sum are the same
// number.
//
// # Memory
//
// An engine holds 8 bytes per sample and dense branch (the dense rows,
// rounded up to a multiple of 4), 9 bytes per sparse entry (a sample's value
// on a branch and its place in the block; 17 for Generalized; for
// Unweighted, 5 bytes per sample and group of sparse branches it reaches)
// and 8 per sparse branch (group) of each block; Engine.Bytes and
// Columns.Bytes report it. Preparing allocates it and, per worker, 24
// bytes per tree node for a block's counts and lists, 9 bytes per count of
// a block, and twice 9 bytes per entry of the largest level of the block's
// reached subtree, the lists being summed (for Unweighted, 8 bytes per
// tree node for a walk and room for a block's entries, 5 bytes each,
// before they are packed by group); a computation adds one tile's sums per
// worker (BytesPerWorker). Variance adjustment keeps 17 bytes per entry
// (a count and a mass), 8·N·D bytes for the table of one-sided sums, and
// four tiles of sums per worker.
// Options.MaxBytes refuses prepared columns over a limit before allocating
// them.
//
// # Inputs
//
// A Table holds the counts as compressed sparse rows over the tree's user
// node indices; counts may sit on any node, internal nodes included.
// Branches of length zero are ignored. A sample with no positive count, a
// negative or non-finite count, or a node out of range is an error reported
// by New; slices of the wrong length passed to an Engine's methods are
// programmer errors and panic.
package unifrac
