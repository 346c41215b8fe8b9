// Package barycenter computes tree-Wasserstein barycenters exactly.
//
// # Definition
//
// Given distributions μ_1 … μ_n on the nodes of a tree T and weights
// λ_i ≥ 0, a barycenter is a distribution
//
//	ν* ∈ argmin_ν Σ_i λ_i·TW(μ_i, ν)
//
// over the distributions on all of T's nodes (or, with Options.Leaves, on
// its leaves only). With x_v = ν(Γ(v)) the mass of the subtree below node
// v and the closed form of TW (package tw) the objective is
//
//	Σ_v w_v Σ_i λ_i·|μ_i(Γ(v)) − x_v|,
//
// separable over the edges (on each edge a weighted median of the
// μ_i(Γ(v)) would do) but tied by the constraints that make x the subtree
// masses of a distribution: x_root = 1, x_v ≥ Σ_{children c} x_c (ν(v) ≥ 0),
// and with Options.Leaves x_v = Σ_c x_c at every internal node. It is a
// linear program; the barycenter need not be unique (two points at equal
// weight: anywhere on the path between them), and Solve returns one.
//
// # Algorithm
//
// Dynamic programming over convex piecewise-linear functions of a
// subtree's mass, from the leaves up. For node v let F_v(x) be the least
// cost of the edges in and above Γ(v) when x = ν(Γ(v)), x ∈ [0, 1]:
//
//	F_v(x) = w_v Σ_i λ_i |μ_i(Γ(v)) − x| + G_v(x),
//	G_v(x) = min { ν(v)·0 + Σ_c F_c(x_c) : ν(v) + Σ_c x_c = x, ν(v), x_c ≥ 0 }
//
// (ν(v) = 0 forced with Options.Leaves at internal nodes, and at the
// virtual root of a forest, which is no label; G ≡ 0 at a leaf). A convex
// function is held as the sequence of its segments, slope and length,
// sorted by slope, in a treap with subtree lengths and pending slope
// additions. Then
//
//   - Σ_c F_c(x_c) minimized over Σ x_c = s (infimal convolution) is the
//     union of the children's segments sorted by slope: a treap union;
//   - allowing ν(v) > 0 keeps the segments of slope ≤ 0 and appends one of
//     slope 0 that stands for mass kept at v;
//   - adding w_v λ_i |m − x| splits the function at length m and adds
//     2 w_v λ_i to the slopes beyond it, after a common −w_v λ_i: a split
//     and a pending addition, O(log) each. All the kinks of a node are
//     added in one descent of its treap: they are partitioned at each
//     node met (before, inside, after its segment), and those inside one
//     segment are sorted and cut it into pieces, so that the nodes on the
//     paths of several kinks are visited once.
//
// The segments that the truncations drop are recycled, so that the
// workspace holds the live functions rather than every segment ever cut.
//
// Every segment remembers the node it came from (where its mass is kept),
// and a segment keeps its place among its own node's segments through
// every union above it. The first unit of length of the root's function
// is therefore the optimal allocation: ν*(u) is the length of the root's
// segments from node u within that first unit. The optimal value is then
// evaluated from ν* by the closed form.
//
// Only the nodes whose subtree holds some input mass are visited when
// mass may sit anywhere (an empty subtree only adds cost); with
// Options.Leaves every node is. For each input, μ_i(Γ(v)) is needed only
// below the lowest common ancestor of its support (above it, it is 1, and
// those inputs are counted per node in O(L)). With E the number of pairs
// (i, v) with v strictly below that ancestor and holding part of μ_i, the
// time is O(E log E + L log L) and the memory O(E + L) (12 bytes per
// pair, grouped by node in two passes over the inputs without sorting):
// for sparse inputs E is about the inputs' total support times the tree's
// depth, some 10⁷ for 1,000 inputs of 30 labels on a uniformly random
// tree of 10⁵ nodes (some 400 deep).
//
// # Inputs
//
// The inputs are rows of a labeldist.Rows (user indices); each row is
// divided by its sum, so that rows of masses summing to 1 up to rounding
// are taken as they are. Weights nil means λ_i = 1/n (the objective is
// then the mean distance). Invalid data (negative, NaN or infinite masses
// or weights, an empty row, no rows) are errors; shape mistakes panic.
//
// # References
//
//   - M. Agueh, G. Carlier. Barycenters in the Wasserstein space. SIAM J.
//     Mathematical Analysis 43(2), 2011 (barycenters in optimal transport).
//   - Y. Takezawa, R. Sato, Z. Kozareva, S. Ravi, M. Yamada. Fixed support
//     tree-sliced Wasserstein barycenter. AISTATS 2022 (the same problem
//     on trees, by projected subgradient descent).
//   - The representation of convex piecewise-linear functions by sorted
//     slope changes in mergeable structures is the "slope trick" of
//     competitive programming; infimal convolution of convex functions as
//     the merge of their slope sequences is classical (Rockafellar, Convex
//     Analysis, 1970, §5 and §16).
package barycenter
