// Package tw computes the tree-Wasserstein distance, its gradient and its
// embedding, exactly and in linear time.
//
// For distributions a and b on the nodes of a rooted tree T with edge weights
// w_e, the 1-Wasserstein distance under the tree's shortest-path metric d_T
// has the closed form (Evans & Matsen 2012; Le et al. 2019)
//
//	TW(a, b) = Σ_e w_e · |a(Γ(v_e)) − b(Γ(v_e))|
//
// where v_e is the deeper endpoint of edge e and Γ(v) the set of nodes in the
// subtree rooted at v. Mass may sit on any node, internal nodes included.
// One reverse sweep over the tree's parent-before-child order accumulates the
// subtree differences, so a distance costs O(L) time and no allocation with a
// reusable Workspace.
//
// # Gradient
//
// TW is piecewise linear in a. Its (sub)gradient with respect to a is, for
// node v, the sum of w_e·sign(a(Γ(v_e)) − b(Γ(v_e))) over the edges e on the
// path from the root to v; one forward sweep computes all of it in O(L). At a
// kink, where a subtree difference is exactly zero, twl takes sign(0) = 0:
// the resulting vector is still a valid subgradient (|x| has subdifferential
// [−1, 1] at 0), it is the one of least norm edge by edge, and it makes the
// gradient vanish at a = b, where TW attains its minimum. The sign is that
// of the computed floating-point difference: a difference that is zero in
// exact arithmetic but rounds to ±1e-16 (say 0.3 + 0.4 + 0.3 against
// 0.8 + 0.2) gives ±w_e instead of 0 — still a valid subgradient, since any
// value in [−w_e, w_e] is, but not the least-norm one. The gradient is
// taken in R^L, ignoring the constraint Σa = 1; adding a constant to it does
// not change a step that stays on the simplex.
//
// When the prediction is a = softmax(z), LogitGrad returns the gradient with
// respect to the logits, J(z)ᵀg = a ⊙ (g − ⟨a, g⟩), computed stably.
//
// # Embedding
//
// With Φ(a)_e = w_e · a(Γ(v_e)), TW(a, b) = ‖Φ(a) − Φ(b)‖₁: the tree metric
// embeds isometrically into ℓ₁. Embed computes Φ; Batch.Pairwise builds the
// matrix of distances between two sets of distributions on top of it.
//
// # Transport plans
//
// Planner returns an optimal coupling P of a and b (equal total masses),
// a list of moves (from, to, mass) with Σ_to P = a, Σ_from P = b and
// Σ mass·d_T(from, to) = TW(a, b). Mass that a and b share on a node stays
// there (a move from the node to itself); the rest is matched bottom-up:
// in reverse depth-first preorder the unmatched supplies and demands of a
// subtree are the tops of two stacks, and at each node they are paired
// until one side is used up, the remainder going up the edge above. A pair
// matched at node v comes from two different children of v (or v itself),
// so its path passes through v, and the flow on every edge is exactly
// |a(Γ_e) − b(Γ_e)|: the plan's cost is the closed form. Every match uses
// up at least one pending mass, so the plan has at most
// |supp a| + |supp b| − 1 moves. Plan takes O(L) time on dense vectors;
// SparsePlan runs on the tree spanned by the labels with mass (tree.Span),
// in O(k log k + k log L) time for k labels, whatever L.
//
// # Inputs and errors
//
// Vectors are indexed in the tree's user order (see package tree) and have
// length t.Len(); the virtual root of a forest never carries mass. A length
// mismatch is a programmer error and panics. Values are not validated on the
// hot path, but NaN in gives NaN out: a NaN or an infinity anywhere in a or
// b, the root's mass included, makes the distance NaN, and the gradient or
// embedding all NaN (as do finite masses so large that Σa − Σb overflows).
// One test of the total difference, which every mass enters, catches them
// all. If a and b have different total mass the result is the closed form
// above, which is then not a transport distance. Validate inputs once where
// they enter the program (package labeldist does this for files).
//
// # Kernels
//
// On amd64 the two sweeps of breadth-first trees (Order().Identity) run as
// AVX2 or SSE2 assembly, chosen by the processor and the tree's shape; Go
// reference forms (sweep.go) define the arithmetic, and every form returns
// the same bits. The sum of the weighted absolute differences is always
// added in four lanes over blocks of four positions, then (lane0 + lane2) +
// (lane1 + lane3), then the positions left over: a fixed association, not
// the left-to-right one.
//
// # Concurrency
//
// A Workspace is not safe for concurrent use; Batch runs rows in parallel on
// up to Workers goroutines, each with its own Workspace, and gives results
// identical bit for bit to the serial path.
package tw
