package tsw

import (
	"math"
	"slices"
)

// SparseVec is a sparse vector: strictly increasing indices and the values
// at them, Index and Value of equal length. Its length, the dimension, is
// left implicit: for embeddings it is EmbedLen.
type SparseVec struct {
	Index []int32
	Value []float64
}

// Len returns the number of stored entries.
func (x SparseVec) Len() int { return len(x.Index) }

// sparseScratch is SparseEmbed's workspace: the subtree masses of one tree
// by internal position (zero between calls), the positions holding them,
// and a mark per position.
type sparseScratch struct {
	acc   []float64
	seen  []bool
	nodes []int32
}

// SparseEmbed stores in dst the embedding Φ(a) of the distribution a given
// by point indices ai with masses am, and returns it: the vector of Embed
// on a's dense form, restricted to its non-zero entries. On tree t these
// are, for the nodes v on the paths from a's points to the root,
//
//	Φ(a)[Σ_{u<t} L_u + v] = w_v · a(Γ_t(v)) / T
//
// where the edge above v has a non-zero weight and Γ_t(v) a non-zero mass,
// with the same coordinates as Embed. The values are Embed's bit for bit:
// the subtree masses are summed in the order of package tw (children into
// parents, deepest breadth-first positions first), over the nodes that hold
// mass. Then TSW(a, b) = L1(Φ(a), Φ(b)), which agrees with Distance and
// SparseDistance to rounding.
//
// The indices are in [0, n), in any order (an index listed twice counts
// with the sum of its masses); zero masses may be listed or left out. A
// NaN or an infinite mass (or masses whose total overflows) makes every
// entry on the paths of the tree concerned NaN, the root's included, so
// that L1 with the embedding is NaN (Embed is then NaN everywhere).
//
// dst's slices are reused (truncated and appended to): SparseEmbed
// allocates only to grow them and, on its first call or on longer paths
// than before, its scratch. It costs O(Σ_t m_t log m_t) for m_t the nodes
// on the paths in tree t, at most the points listed times the depth,
// independent of the size of the trees. It panics if len(ai) != len(am),
// an index is out of range, or EmbedLen exceeds math.MaxInt32. The inputs
// are not modified; dst's slices must not overlap them.
func (s *Sliced) SparseEmbed(dst SparseVec, ai []int, am []float64) SparseVec {
	if len(ai) != len(am) {
		panic("tsw: sparse indices and masses differ in length")
	}
	n := len(s.names)
	for _, i := range ai {
		if uint(i) >= uint(n) {
			panic("tsw: point index out of range")
		}
	}
	if s.EmbedLen() > math.MaxInt32 {
		panic("tsw: EmbedLen exceeds the int32 indices of SparseVec")
	}
	if s.se == nil {
		// One more position than the largest tree: a forest's virtual
		// root.
		s.se = &sparseScratch{acc: make([]float64, s.maxLen+1), seen: make([]bool, s.maxLen+1)}
	}
	sc := s.se
	acc, seen := sc.acc, sc.seen
	idx, val := dst.Index[:0], dst.Value[:0]
	inv := 1 / float64(len(s.trees))
	for k, t := range s.trees {
		ord := t.Order()
		par, wt := ord.Parent, ord.Weight
		// Breadth-first trees have user index = position, less one below
		// a virtual root (tree.Order.Identity).
		var shift int32
		if ord.Virtual {
			shift = 1
		}
		nodes := sc.nodes[:0]
		for j, i := range ai {
			p := s.node[k*n+i] + shift
			acc[p] += am[j]
			for !seen[p] {
				seen[p] = true
				nodes = append(nodes, p)
				if p == 0 {
					break
				}
				p = par[p]
			}
		}
		sc.nodes = nodes
		if len(nodes) == 0 {
			continue
		}
		slices.Sort(nodes)
		// The order of tw.Workspace.Embed: every position after its
		// children, into its parent.
		for j := len(nodes) - 1; j > 0; j-- {
			p := nodes[j]
			acc[par[p]] += acc[p]
		}
		bad := !finite(acc[0]) // the total mass, as package tw checks it
		off := int32(s.off[k]) - shift
		for _, p := range nodes {
			if p >= shift { // not the virtual root
				switch v := wt[p] * acc[p]; {
				case bad:
					idx, val = append(idx, off+p), append(val, math.NaN())
				case v != 0:
					if inv != 1 {
						v *= inv
					}
					idx, val = append(idx, off+p), append(val, v)
				}
			}
			acc[p], seen[p] = 0, false
		}
	}
	return SparseVec{Index: idx, Value: val}
}

// finite reports whether x is neither NaN nor infinite.
func finite(x float64) bool { return x-x == 0 }

// L1 returns ‖x − y‖₁ for sparse vectors x and y, by a merge of their
// indices in O(x.Len() + y.Len()). With embeddings of SparseEmbed,
// L1(Φ(a), Φ(b)) = TSW(a, b). A NaN or an infinity in a value gives NaN or
// +Inf, as the sum does. It panics if Index and Value differ in length;
// the indices are not checked to increase.
func L1(x, y SparseVec) float64 {
	if len(x.Index) != len(x.Value) || len(y.Index) != len(y.Value) {
		panic("tsw: SparseVec with Index and Value of different lengths")
	}
	xi, xv, yi, yv := x.Index, x.Value, y.Index, y.Value
	var s float64
	i, j := 0, 0
	for i < len(xi) && j < len(yi) {
		switch a, b := xi[i], yi[j]; {
		case a < b:
			s += math.Abs(xv[i])
			i++
		case a > b:
			s += math.Abs(yv[j])
			j++
		default:
			s += math.Abs(xv[i] - yv[j])
			i++
			j++
		}
	}
	for _, v := range xv[i:] {
		s += math.Abs(v)
	}
	for _, v := range yv[j:] {
		s += math.Abs(v)
	}
	return s
}
