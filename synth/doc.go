// Package synth generates the synthetic label-distribution data set of the
// tree-Wasserstein paper (Toyokuni et al., Algorithm 1): feature vectors
// paired with distributions on the nodes of a random tree.
//
// # Algorithm
//
// A random tree G = (V, E) with l nodes s_1 … s_l (uniform over labelled
// trees, as networkx's random_tree; unit edge weights), a random n×m matrix
// W₁ and a random m×(l+1) matrix W₂ are drawn once. Then, per sample,
//
//	x ← random n-vector
//	h ← sigmoid(W₁ᵀx)            (m values)
//	z ← W₂ᵀh, o ← sigmoid(z)      (l+1 values)
//	σ ← Scale·o_{l+1}             (Scale = 10 in the paper)
//	v ← s_j, j = argmax_{j ≤ l} o_j;   u ← s_k, k = argmin_{k ≤ l} o_k
//	p(s) ← F_vuσ(s) for every s ∈ V
//
// with the two-centre kernel on the tree's shortest-path metric d
//
//	F_vuσ(s) = (exp(±d(v,s)/σ²) + exp(±d(u,s)/σ²)) / C,
//
// C normalizing over V. The sample is (x, p).
//
// # Choices the paper leaves open
//
// Every choice is a field of Config, whose zero value gives the defaults:
//
//   - Distributions of x, W₁ and W₂ (Config.X, W1, W2): standard normal by
//     default. With U[0, 1) (numpy.random.rand, torch.rand) every
//     pre-activation of the first layer is positive with mean n/4, so h ≈ 1
//     for every sample, z is nearly the same vector for every sample, and
//     almost every sample gets the same (v, u, σ): a degenerate data set.
//     Standard normal draws give each sample its own v, u and σ.
//   - n and m (Features, Hidden): n = 100, the feature count of the paper's
//     efficiency-of-training setting (REFERENCE.md); m = 100, a square first
//     layer, for lack of any value in the paper.
//   - The model's input (Input): Algorithm 1 as printed overwrites x_i with
//     the transformed vector and returns it, so the features would be the
//     (l+1)-vector o, whose arg-max and arg-min name v and u and whose last
//     entry is σ/Scale: the target is then almost a closed-form function of
//     the input. The default returns the raw x (Raw); Hidden returns h, and
//     Output returns o, the algorithm as printed.
//   - The sign in exp(±d/σ²) (Sign): the formula as printed has +, which
//     puts the most mass on the nodes FARTHEST from v and u; a kernel that
//     decays with distance, with its mass around v and u, has −. The default
//     is − (Decay); Grow gives the printed +.
//
// The arg-max and arg-min are taken over the pre-activations z, which the
// sigmoid maps monotonically to o: in exact arithmetic the same nodes, but
// without the ties that a sigmoid saturated to exactly 1 or 0 in float64
// would create. Ties among the z are broken by the first index, as
// numpy.argmax does.
//
// # Numerics
//
// σ = Scale·sigmoid(z) lies in (0, Scale) and can be as small as float64
// allows, or underflow to 0, so d/σ² can be astronomically large. F is
// computed in log space: with a = ±d(v,s), b = ±d(u,s), hi = max(a, b) and
// M = max_s hi(s),
//
//	log(exp(βa) + exp(βb)) − βM = β(hi − M) + log1p(exp(−β|a − b|)),  β = 1/σ²,
//
// which is at most log 2, equals at least 0 where hi = M, and cannot be NaN
// (β is capped at the largest float64, so β·0 = 0). The normalizing sum is
// therefore in [1, 2l] and the distribution is exact to rounding for every
// σ, tending to the point masses on {v, u} (Decay) or on the farthest nodes
// (Grow) as σ → 0. Each sample costs O(n·m + m·l) for the layers and O(l)
// for the distances (a breadth-first search from v and from u).
//
// # Randomness
//
// Everything follows an explicit seed through math/rand/v2's PCG, with a
// separate stream for the tree, W₁, W₂, the training samples and the test
// samples: the same Config and seed give the same data bit for bit, and the
// test set does not change with the number of training samples.
//
// Invalid configurations (negative sizes, unknown enumerations) are
// returned as errors wrapping ErrConfig; shape mistakes in calls to F panic.
package synth
