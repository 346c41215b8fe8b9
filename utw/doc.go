// Package utw computes the unbalanced tree-Wasserstein distance: optimal
// transport on a tree between measures of any total mass, where mass may
// also be destroyed or created at a cost λ per unit.
//
// # Definition
//
// For non-negative masses a and b on the nodes of a tree T (any totals)
// and a mass cost λ > 0, the generalized Kantorovich–Rubinstein distance
// of Sato, Yamada and Kashima (2020) with a uniform cost is
//
//	UTW_λ(a, b) = min_{P ≥ 0, P·1 ≤ a, Pᵀ·1 ≤ b}  Σ_ij d_T(i, j)·P_ij
//	                                     + λ·(Σa − ΣP) + λ·(Σb − ΣP):
//
// P transports part of a onto part of b at the tree's path lengths, and
// every unit of a left over is destroyed at cost λ, every unit of b not
// reached is created at cost λ. (The paper's λ_d and λ_c, the costs of
// destruction and creation, are both λ here: the Kantorovich–Rubinstein
// case.) Moving a unit from i to j is worth it only when d_T(i, j) < 2λ.
// UTW_λ is a metric on measures; with Σa = Σb and λ at least half the
// tree's diameter it equals TW(a, b) (package tw); for any λ it is at
// most TW(a, b) when Σa = Σb, and at most λ·(Σa + Σb).
//
// Its linear-programming dual is
//
//	UTW_λ(a, b) = max { Σ_v f_v·(a_v − b_v) : |f_v| ≤ λ, |f_v − f_u| ≤ w_e for every edge e = (u, v) }:
//
// a potential bounded by λ and 1-Lipschitz along the tree. An optimal f is
// a subgradient of UTW_λ with respect to a, and −f one with respect to b
// (DistanceGrad); it is unique, and UTW_λ differentiable, at almost every
// (a, b).
//
// # Algorithm
//
// The dual is solved exactly by dynamic programming over the tree, on
// concave piecewise-linear functions of one variable. For node v let
// h_v(x) be the largest Σ f·(a − b) over the subtree Γ(v) with f_v = x,
// x ∈ [−λ, λ]. Then
//
//	h_v(x) = (a_v − b_v)·x + Σ_{children c} max_{|y − x| ≤ w_c, |y| ≤ λ} h_c(y).
//
// The window maximum keeps the part of h_c left of its maximizer and moves
// it left by w_c, moves the part right of it right by w_c, and opens a flat
// piece of width 2w_c in between. Each function is held as the slope at
// −λ and a multiset of breakpoints (position, drop of the slope) in a treap
// with subtree sums and pending shifts, so that a window costs a split at
// the maximizer (found by the running sum of drops), two shifts and
// O(log L) joins; the children's treaps are merged by treap union. Every
// node adds at most one breakpoint. After the pass from the leaves up, f
// is read off from the root down: f_root maximizes h_root (the maximizer
// nearest 0 is taken), and f_c is c's maximizer clamped to
// [f_v − w_c, f_v + w_c]. The value is Σ f·(a − b), summed edge by edge as
// f_root·(Σa − Σb) + Σ_v (f_v − f_parent)·(a − b)(Γ(v)).
//
// The time is O(L log L) expected for L nodes (O(L log² L) in the worst
// case of the unions), the memory O(L). Sparse runs the same program on
// the tree spanned by the labels with mass (tree.Span: path lengths summed
// along chains without branching, which composes windows exactly), in time
// independent of the tree's size.
//
// # Inputs and errors
//
// Vectors are in the tree's user order; the virtual root of a forest is a
// node of the program that carries no mass (its edges to the forest's
// roots have their weight, as in package tw). A NaN or infinite mass
// gives NaN (and a gradient of NaNs). Masses are not checked for sign:
// negative masses give the dual's value, which is no transport cost.
// Shape mistakes and a λ that is not positive and finite panic.
//
// # References
//
//   - R. Sato, M. Yamada, H. Kashima. Fast unbalanced optimal transport on
//     a tree. NeurIPS 2020. (The generalized Kantorovich–Rubinstein
//     distance, and its exact computation on trees in quasi-linear time.)
//   - J. Lellmann, D. A. Lorenz, C. Schönlieb, T. Valkonen. Imaging with
//     Kantorovich–Rubinstein discrepancy. SIAM J. Imaging Sciences 7(4),
//     2014.
//   - L. G. Hanin. Kantorovich–Rubinstein norm and its application in the
//     theory of Lipschitz spaces. Proceedings of the AMS 115(2), 1992.
package utw
