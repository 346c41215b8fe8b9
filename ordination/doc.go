// Package ordination computes principal coordinates analysis (PCoA, also
// called classical or metric multidimensional scaling; Gower 1966) of a
// distance matrix, such as the UniFrac distances of package unifrac, writes
// the coordinates as a table and draws the samples on the first two axes.
//
// # Method
//
// For an n×n distance matrix D, PCoA forms the Gower-centred matrix
//
//	B = −½·J·D⁽²⁾·J,   J = I − 11ᵀ/n,   D⁽²⁾ the squared distances,
//
// that is b_ij = −½(d²_ij − r_i − r_j + g) with r_i the mean of row i of
// D⁽²⁾ and g the mean of all of it. If the distances are Euclidean, B is
// the Gram matrix of the centred points. With B = V·Λ·Vᵀ (eigenvalues
// λ₁ ≥ λ₂ ≥ … ≥ λₙ, unit eigenvectors vₖ), sample i's coordinate on axis k
// is vₖ[i]·√λₖ: the distances between the coordinates of all axes with
// positive eigenvalue reproduce D exactly when D is Euclidean.
//
// Distances that are not Euclidean (UniFrac is a metric but not in general
// Euclidean) give negative eigenvalues. They are reported in
// Result.Eigenvalues, not hidden and not corrected, and Result.Negative
// measures them; their axes have no real coordinates and are written as 0,
// as scikit-bio does. Eigenvalues within rounding of zero (|λ| ≤ n·ε·max|λ|)
// are set to 0.
//
// The proportion explained by axis k is λₖ / Result.Total for λₖ > 0, and
// 0 otherwise. On the exact path Total = Σ_{λ>0} λ: the definition of
// scikit-bio's pcoa (skbio.stats.ordination, method "eigh"), which sets
// negative eigenvalues to zero before dividing by their sum, and of QIIME 2
// and Emperor, which show its values. On the Krylov path (below) only the
// top k eigenvalues are known, and Total is the trace of B, the sum of all
// n eigenvalues, Σ d²_ij / 2n: what scikit-bio's method "fsvd" divides by.
// It equals Σ_{λ>0} λ when there is no negative eigenvalue; otherwise it
// is smaller by Σ|λ⁻|, so the proportions are larger than the exact ones
// by the factor 1/(1 − r), r the ratio of Result.Negative (a few percent
// for typical UniFrac distances).
//
// # Sign
//
// An eigenvector is defined up to its sign. PCoA makes the component of
// largest magnitude positive (the first of equal ones), so the same input
// gives the same output. Axes with equal eigenvalues (a symmetric
// configuration) span a subspace in which any rotation is as valid; the
// coordinates are then one valid choice.
//
// # Paths and cost
//
// PCoA needs the n×n centred matrix (8n² bytes, kept in the Result and
// reused by later calls of the same size). Check and the centring each
// read the lower triangle of D tile by tile (64×64 blocks beside their
// transposes), O(n²) and allocation-free but for one n-vector of row
// means. Then:
//
//   - Krylov path, by default for k ≥ 1 axes with 4k ≤ n and n ≥
//     KrylovMin (500): block Krylov iteration (block Lanczos with full
//     reorthogonalization, Rayleigh–Ritz and thick restarts) on blocks of
//     k + max(6, k/2) vectors from a seeded random start (Options.Seed).
//     Each step is one product of B with a block, 2n²·(block) flops,
//     shared among goroutines by rows; every entry is one dot product, so
//     the result depends on the seed alone, not on the number of
//     goroutines. It stops when every one of the k Ritz pairs has a
//     residual ‖Bv − λv‖ ≤ 10⁻¹¹·|λ₁| (checked, not a fixed count of
//     steps), so eigenvalues and vectors agree with the exact path to
//     about 10⁻⁹ relative even for clustered or repeated eigenvalues. If
//     that takes more products than the tridiagonalization would cost
//     (as for distances with no gap after the top eigenvalues, such as
//     independent random numbers), PCoA takes the exact path instead.
//     Result.Exact is false, Eigenvalues and Proportion hold k values, and
//     Negative returns −1, NaN: the negative eigenvalues are unknown.
//   - Exact path (Options.Exact, or the cases above not covered), for n ≥
//     64 and k ≤ n/4: Householder tridiagonalization (LAPACK dsytrd,
//     4n³/3 flops), all n eigenvalues of the tridiagonal matrix (dsterf,
//     O(n²)), its k top eigenvectors by inverse iteration (O(nk), vectors
//     of close eigenvalues reorthogonalized) and their back-transformation
//     (dormqr, 2n²k flops). All eigenvalues are exact, so proportions and
//     negative eigenvalues are too;
//   - otherwise the full symmetric eigendecomposition of gonum's
//     mat.EigenSym: about 9n³ flops and two more n×n matrices.
//
// On the development machine (2 shared cores) k = 10 axes of n = 3000
// samples take well under a second by the Krylov path and 17–28 s by the
// exact one; see docs/ordination.md for measured figures.
//
// # Output
//
// WriteTSV writes a table that pandas, R and QIIME 2 read as it is, with
// the eigenvalues and proportions in comment lines above it; Scatter draws
// PC1 against PC2 as PNG or SVG, coloured by a category per sample (a
// column of sample metadata, read by package metadata).
//
// # Errors
//
// Invalid distances (NaN, infinite, negative, a non-zero diagonal, an
// asymmetric pair) are a *DataError naming the entry; slices of the wrong
// length are programmer errors and panic. The input matrix is never
// modified.
package ordination
