package tree

import "slices"

// Span is the tree spanned by a set of nodes: those nodes, the root, and
// the lowest common ancestors of any two of them, each linked to its
// nearest ancestor in the set by one edge whose length is the weighted
// length of the path it stands for. (Algorithm texts call it the auxiliary
// or virtual tree.) Along such a path no node branches towards another
// node of the set, so a quantity that is constant on it, such as the mass
// of the subtree below, is summed over the path as one edge.
//
// For k given nodes a Span has at most 2k+1 nodes, whatever the size of
// the tree: algorithms on a few nodes of a large tree (package tw's sparse
// forms, package utw) run on it in time independent of L.
type Span struct {
	// Pos[j] is the internal position (Order) of span node j. Nodes are
	// in depth-first preorder: Pos[0] is the root (position 0), and every
	// node comes after its parent.
	Pos []int32
	// Parent[j] is the span index of j's nearest ancestor in the span;
	// Parent[0] = -1.
	Parent []int32
	// Len[j] is the weighted length of the path from Parent[j] to j
	// (RootDist[Pos[j]] − RootDist[Pos[Parent[j]]]); Len[0] = 0.
	Len []float64
	// Of[k] is the span index of the k-th position given to Order.Span.
	Of []int32

	keys []spanKey
	stk  []int32
}

// spanKey is a node of the span being built: its preorder number, its
// position, and for a given position its index in the input (−1 for an
// added common ancestor or the root).
type spanKey struct {
	pre, pos, in int32
}

// Span stores in s the tree spanned by the nodes at the given internal
// positions (which may repeat, in any order), reusing s's memory: after s
// has grown to the largest input, Span allocates nothing. It takes
// O(k log k) time for the sorts and O(k log L) for the lowest common
// ancestors, k = len(pos). It panics if a position is out of range.
func (o Order) Span(s *Span, pos []int32) {
	n := int32(len(o.Parent))
	keys := s.keys[:0]
	for k, p := range pos {
		if uint32(p) >= uint32(n) {
			panic("tree: Span position out of range")
		}
		keys = append(keys, spanKey{pre: o.Pre[p], pos: p, in: int32(k)})
	}
	byPre := func(x, y spanKey) int { return int(x.pre) - int(y.pre) }
	slices.SortFunc(keys, byPre)
	m := len(keys)
	for k := 0; k+1 < m; k++ {
		if keys[k].pos != keys[k+1].pos {
			l := o.LCA(keys[k].pos, keys[k+1].pos)
			keys = append(keys, spanKey{pre: o.Pre[l], pos: l, in: -1})
		}
	}
	keys = append(keys, spanKey{pre: 0, pos: 0, in: -1})
	slices.SortFunc(keys, byPre)
	s.keys = keys

	s.Of = grow(s.Of, len(pos))
	s.Pos, s.Parent, s.Len = s.Pos[:0], s.Parent[:0], s.Len[:0]
	for _, k := range keys {
		j := int32(len(s.Pos)) - 1
		if j < 0 || s.Pos[j] != k.pos {
			s.Pos = append(s.Pos, k.pos)
			j++
		}
		if k.in >= 0 {
			s.Of[k.in] = j
		}
	}
	s.Parent = grow(s.Parent, len(s.Pos))
	s.Len = growF(s.Len, len(s.Pos))
	// Link every node to its nearest ancestor in the span: the stack holds
	// the path from the root to the last node, in preorder.
	end, rd := o.PreEnd, o.RootDist
	stack := append(s.stk[:0], 0)
	s.Parent[0], s.Len[0] = -1, 0
	for j := 1; j < len(s.Pos); j++ {
		pre := o.Pre[s.Pos[j]]
		for pre >= end[s.Pos[stack[len(stack)-1]]] {
			stack = stack[:len(stack)-1]
		}
		p := stack[len(stack)-1]
		s.Parent[j] = p
		s.Len[j] = rd[s.Pos[j]] - rd[s.Pos[p]]
		stack = append(stack, int32(j))
	}
	s.stk = stack
}

// Nodes returns the number of nodes of the span.
func (s *Span) Nodes() int { return len(s.Pos) }

func grow(x []int32, n int) []int32 {
	if cap(x) < n {
		return make([]int32, n)
	}
	return x[:n]
}

func growF(x []float64, n int) []float64 {
	if cap(x) < n {
		return make([]float64, n)
	}
	return x[:n]
}
