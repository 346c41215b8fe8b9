package docknn

import (
	"math"
	"slices"

	"github.com/twl-ldl/twl/tree"
)

// sparseVec is a sparse vector: increasing indices and their values.
type sparseVec struct {
	idx []int32
	val []float64
}

// embedder computes the tree-sliced ℓ₁ embedding of bags in sparse form:
// for the trees t = 1 … T, with node v of tree t at index off[t] + v,
//
//	Φ(a)[off[t] + v] = w_v · a(Γ_t(v)) / T
//
// for every node v below the root whose subtree Γ_t(v) holds mass of a
// (w_v the weight of the edge above v), so that TSW_T(a, b) =
// ‖Φ(a) − Φ(b)‖₁ (Le et al. 2019, Sec. 4; tsw.Sliced.Embed is the dense
// form). A bag of k words costs O(T·k·depth), independent of the size of
// the trees. Not safe for concurrent use.
type embedder struct {
	trees []*tree.Tree
	node  [][]int32 // node[t][i]: point i's node in tree t
	off   []int32   // off[t]: tree t's first index
	acc   []float64 // scratch: the mass below each node of one tree
	seen  []bool    // scratch: nodes holding mass
	nodes []int32   // scratch: the nodes holding mass
}

// newEmbedder returns an embedder on trees, whose nodes named after the
// points are found by name. It panics if a tree lacks a point.
func newEmbedder(trees []*tree.Tree, names []string) *embedder {
	e := &embedder{trees: trees, off: make([]int32, len(trees)+1)}
	maxLen := 0
	for t, tr := range trees {
		node := make([]int32, len(names))
		for i, name := range names {
			v, ok := tr.Index(name)
			if !ok {
				panic("docknn: a tree lacks point " + name)
			}
			node[i] = int32(v)
		}
		e.node = append(e.node, node)
		e.off[t+1] = e.off[t] + int32(tr.Len())
		maxLen = max(maxLen, tr.Len())
	}
	e.acc, e.seen = make([]float64, maxLen), make([]bool, maxLen)
	return e
}

// len returns the length of the embeddings, Σ_t L_t.
func (e *embedder) len() int { return int(e.off[len(e.trees)]) }

// embed returns Φ(b).
func (e *embedder) embed(b Bag) sparseVec {
	var out sparseVec
	scale := 1 / float64(len(e.trees))
	for t, tr := range e.trees {
		e.nodes = e.nodes[:0]
		for k, i := range b.Words {
			for v := int(e.node[t][i]); v >= 0; v = tr.Parent(v) {
				if !e.seen[v] {
					e.seen[v] = true
					e.nodes = append(e.nodes, int32(v))
				}
				e.acc[v] += b.Mass[k]
			}
		}
		slices.Sort(e.nodes)
		for _, v := range e.nodes {
			if w := tr.Weight(int(v)); w != 0 {
				out.idx = append(out.idx, e.off[t]+v)
				out.val = append(out.val, w*e.acc[v]*scale)
			}
			e.acc[v], e.seen[v] = 0, false
		}
	}
	return out
}

// l1Dense returns ‖x − y‖₁ for x dense, of ℓ₁ norm xNorm, and y sparse,
// as xNorm + Σ_{i ∈ supp y} (|x_i − y_i| − |x_i|): O(nnz(y)), with no
// branch on the indices. The sum cancels where y is close to x: the result
// is then within a few ulps of xNorm of the true distance, not relative to
// it.
func l1Dense(x []float64, xNorm float64, y sparseVec) float64 {
	s := xNorm
	for k, i := range y.idx {
		xi := x[i]
		s += math.Abs(xi-y.val[k]) - math.Abs(xi)
	}
	return s
}
