// Package sinkhorn computes entropy-regularized optimal transport between
// histograms by Sinkhorn's scaling algorithm, with gradients for use as a
// loss ("Wasserstein loss", Frogner et al. 2015), the baseline of the
// tree-Wasserstein paper.
//
// # Problem
//
// Given a cost matrix C ∈ ℝ₊^{n×m} (row-major, finite) and histograms
// a ∈ ℝ₊ⁿ, b ∈ ℝ₊ᵐ of equal mass, the entropic problem is
//
//	W_λ(a, b) = min { ⟨C, P⟩ − H(P)/λ : P ≥ 0, P1 = a, Pᵀ1 = b },
//	H(P) = −Σ_ij P_ij log P_ij                            (Cuturi 2013)
//
// whose solution is P = diag(u) K diag(v) with the kernel K = exp(−λC)
// (elementwise), found by alternating v = b ⊘ (Kᵀ u) and u = a ⊘ (K v)
// from u = 1 — the order of Frogner et al.'s Algorithm 1 and of POT, so that
// after a fixed number of iterations the row marginal is exact and the
// iterates equal POT's (tests compare with POT 0.8.2 to 1e−12). One
// difference: rows and columns with zero mass are treated as absent from
// the start, while POT keeps zero-mass rows (with u = 1) in its first
// v-update; so with a fixed, small number of iterations and zeros in a the
// iterates differ from POT's (by a few percent after 10 iterations at
// λ = 50 on random data), while converged results agree. In
// terms of the dual potentials f = log(u)/λ, g = log(v)/λ,
// P_ij = exp(λ(f_i + g_j − C_ij)) and W_λ = ⟨f, a⟩ + ⟨g, b⟩ at convergence.
//
// # Parameterization: λ and ε
//
// λ follows Frogner et al. (2015): K = exp(−λC), larger λ = less
// regularization, W_λ → the exact transport cost as λ → ∞. Peyré & Cuturi
// (2019) and POT write K = exp(−C/ε); the two are related by ε = 1/λ, and
// POT's reg argument is ε. The paper sets "the regularization parameter to
// 50" for 10 Sinkhorn iterations in the log domain; we read that as λ = 50
// in exp(−λC), i.e. POT reg = ε = 1/50 = 0.02 (as in REFERENCE.md), since
// reg = 50 would make the plan nearly the independent coupling abᵀ for
// costs of order one. The paper's baseline is
//
//	Settings{Lambda: 50, Iters: 10, Tol: -1}
//
// # Methods
//
// Plain is the textbook iteration on K. It fails with ErrUnstable as soon
// as some (K v)_i or (Kᵀu)_j underflows to 0 or a scaling overflows, which
// happens once λ·C is above about 600 on a whole row or column (the
// kernel floor below) or the scalings outgrow float64.
//
// Log, the default, computes the same iterates as log-domain Sinkhorn
// (f_i = (log a_i − log Σ_j exp(λ(g_j − C_ij)))/λ and symmetrically for g)
// without a log-sum-exp per entry per iteration, by the absorption
// stabilization of Schmitzer (2019): potentials are split as
// f = α + log(ũ)/λ, g = β + log(ṽ)/λ with a stabilized kernel
// K̃_ij = exp(λ(α_i + β_j − C_ij)), and the iteration runs on (ũ, ṽ, K̃).
// Absorption is done per row and per column: when ũ_i leaves [1/τ, τ]
// (which includes K̃ṽ underflowing to 0), row i gets an exact log-sum-exp
// u-update that moves it into α_i, and its kernel row is recomputed; the
// same for columns. Exponentials are thus needed only to build exp(−λC)
// once per cost matrix and for the rows and columns that are absorbed. The
// default τ = 1e50 keeps absorptions rare while no product of kernel entry
// and scalings can overflow. This is what makes the iteration stable at
// any λ (tests use λ up to 10⁴, and λ = 1000 with costs up to 10, where
// exp(−λC) underflows to 0 almost everywhere). Kernel entries below
// τ·2⁻¹⁰²² are stored as 0, so that no product of a kernel entry and a
// scaling is subnormal (subnormal arithmetic is ~100× slower); such an
// entry carries at most τ²·2⁻¹⁰²² ≈ 1e−158 of mass.
//
// # Loss value and gradients
//
// Result.Value is the transport cost ⟨C, P⟩ of the entropic plan P: the
// quantity Frogner et al. call the Wasserstein loss and POT's sinkhorn2
// returns. Result.Entropic is the entropic objective ⟨C, P⟩ − H(P)/λ.
//
// Grad returns the gradient of the entropic objective W_λ with respect to
// a: by the envelope theorem it is the multiplier of P1 = a, i.e. the
// potential f (Frogner et al. 2015, Alg. 1: α = log(u)/λ), defined up to an
// additive constant because a moves on the simplex; the returned gradient
// is centred, f − mean(f), so that it sums to zero. It is not the gradient
// of ⟨C, P⟩ (which Frogner et al. approximate by it), and with a fixed
// small number of iterations it is the potential of the last iterate. Tests
// check it against finite differences of the converged entropic objective
// along e_i − e_j. For a = softmax(z), LogitGrad returns
// ∂W_λ/∂z = a ⊙ (f − ⟨a, f⟩).
//
// # Zero mass
//
// Points with a_i = 0 or b_j = 0 are absent: their scalings are 0, they
// are skipped by the iteration, and nothing becomes NaN or Inf. Their
// potentials are reported as the soft c-transform of the other side,
// f_i = −(1/λ) log Σ_{j: b_j>0} exp(λ(g_j − C_ij)), the limit of
// f_i − log(a_i)/λ as a_i → 0 (the entropic objective itself has slope −∞
// there). The logit gradient is 0 at such points.
//
// # Complexity and memory
//
// One iteration is a single pass over the n×m kernel that computes (K̃ṽ)_i,
// updates ũ_i and accumulates ũ_i·K̃_i into Kᵀũ while the row is in cache:
// 2nm multiply-adds, 8nm bytes read. The kernel costs nm exponentials once
// per cost matrix (New, SetCost); runs of equal costs share one exponential.
// When at most m/8 entries of b are positive (sparse targets), the passes
// visit only those columns: 2n·nnz(b) multiply-adds per iteration. An
// absorbed row costs m exponentials, an absorbed column n. ⟨C, P⟩ is
// accumulated during the last pass (which then also reads C); when the
// tolerance stops the iteration earlier it costs one more pass. Memory is
// the kernel (8nm bytes) next to the
// caller's cost matrix, plus a private kernel per lane allocated only when
// absorption rewrites the kernel; Bytes reports the worst case, and New
// refuses (ErrTooLarge) what exceeds Settings.MaxBytes, so that L = 10⁵
// (80 GB per dense matrix) is reported rather than attempted.
//
// Work is split into fixed row blocks and column sums are reduced block by
// block in order, so results are bit-for-bit independent of Workers, and
// the batch methods return exactly what the single-pair methods return.
//
// # Errors and panics
//
// Slices of the wrong length panic with a "sinkhorn: " message.
// Data-dependent problems return errors wrapping ErrCost, ErrMass,
// ErrMassMismatch, ErrSettings, ErrTooLarge or ErrUnstable. Inputs are never
// modified.
//
// # References
//
//   - M. Cuturi. Sinkhorn distances: lightspeed computation of optimal
//     transport. NeurIPS 2013.
//   - C. Frogner, C. Zhang, H. Mobahi, M. Araya-Polo, T. Poggio. Learning
//     with a Wasserstein loss. NeurIPS 2015.
//   - B. Schmitzer. Stabilized sparse scaling algorithms for entropy
//     regularized transport problems. SIAM J. Sci. Comput. 41(3), 2019.
//   - G. Peyré, M. Cuturi. Computational optimal transport. Foundations and
//     Trends in Machine Learning 11(5–6), 2019.
package sinkhorn
