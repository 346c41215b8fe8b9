// Package permanova tests whether groups of samples differ, given the
// distances between the samples: permutational multivariate analysis of
// variance (PERMANOVA; Anderson 2001), as scikit-bio's
// skbio.stats.distance.permanova computes it. It is what a microbiome
// study runs on a beta-diversity matrix (UniFrac, package unifrac) to ask
// whether, say, body sites differ in their communities.
//
// # Statistic
//
// For N samples in G groups, group g of n_g samples, and distances d_ij,
//
//	SS_T = (1/N)·Σ_{i<j} d²_ij                    total sum of squares
//	SS_W = Σ_g (1/n_g)·Σ_{i<j, both in g} d²_ij    within groups
//	SS_A = SS_T − SS_W                            among groups
//	F    = (SS_A/(G − 1)) / (SS_W/(N − G))         the pseudo-F statistic
//
// (Anderson 2001, eqs. 1–4; for Euclidean distances it is the F ratio of
// a one-way ANOVA of the points). Groups of one sample add nothing to
// SS_W and count in G, as in scikit-bio. A grouping with one group, or
// with every sample in a group of its own, has no F: Test returns
// ErrOneGroup or ErrAllUnique, where scikit-bio raises a ValueError. If
// every group's samples are all at distance 0 from one another, SS_W = 0
// and F is +Inf (NaN if SS_A = 0 too), as NumPy's division gives in
// scikit-bio.
//
// # p-value
//
// The grouping is permuted P times (P = 999 by default); the p-value is
// (1 + #{permutations with F ≥ the observed F}) / (1 + P), scikit-bio's
// estimate of the exact permutation p-value, the share of all N!
// orderings of the labels whose F reaches the observed one. Permutation k
// (1 … P) is a Fisher–Yates shuffle drawn from the PCG generator seeded
// with (Options.Seed, k): the result depends on the seed, not on the
// number of workers, and a test with P permutations draws the first P of
// a test with more. scikit-bio draws from NumPy's global generator, so
// its p-values differ from these by the noise of the estimate (a
// standard error of √(p(1−p)/P)), never by more on average.
//
// # Errors
//
// New refuses a matrix that scikit-bio's DistanceMatrix refuses, not
// symmetric exactly or with a non-zero diagonal, and one with a negative,
// NaN or infinite entry, with a *DataError naming the first such entry in
// row-major order. Labels of the wrong length are programmer errors and
// panic.
//
// # Method and cost
//
// New keeps the squared distances above the diagonal, row i from column
// 8⌊(i+1)/8⌋ (zeros before i+1 and after N) so that its chunks of 8 align
// with the bytes of a bitset of the samples: N²/2 values, 4N² bytes. SS_T
// is summed once (compensated summation). A test then needs, for each
// permutation, SS_W alone. Row i contributes the sum of its squared
// distances to the later samples of its group, divided by the group's
// size; that sum is a masked sum of the row under the bitset of i's group
// in that permutation. The permutations go in batches (up to 256, their
// bitsets within 2 MiB); each block of rows is swept once per batch, and
// a row, at most 8N bytes, stays in the processor's first-level cache
// while it is summed for every permutation of the batch, the bitsets
// streaming past it (N/8 bytes each). A sum takes N/8 merge-masked vector
// additions of 8 lanes (AVX-512; the assembly shares each load of the row
// among 4 permutations), so a test costs about (P+1)·N²/16 of them, for any
// number and sizes of groups, plus O(P·N) to draw the permutations. The
// blocks are shared among Options.Workers goroutines; each block's share
// of each permutation's SS_W is kept apart and the shares are added in
// block order, so the statistics are the same bits for any number of
// workers. Without AVX-512, an AVX2 kernel masks the lanes by comparisons
// (two permutations a call); a Go form of the kernel, the reference both
// assembly kernels are tested against bit for bit, serves other
// processors and the purego build.
//
// The order of the additions depends on the partition of the samples into
// groups only, not on the names of the groups or their order, so a
// permutation that reproduces the observed partition gives the observed F
// exactly and counts as reaching it, as it must for the p-value to be
// exact in expectation.
//
// On the development machine (2 shared cores, AVX-512), a test of 999
// permutations of 3,000 samples takes a fraction of a second; see
// docs/permanova.md for measured figures against scikit-bio.
//
// # References
//
// M. J. Anderson (2001), A new method for non-parametric multivariate
// analysis of variance, Austral Ecology 26:32–46.
// scikit-bio 0.5.8, skbio.stats.distance.permanova, whose statistic and
// p-value this package computes, and whose test cases its tests reproduce.
package permanova
