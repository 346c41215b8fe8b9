package tree

import (
	"gonum.org/v1/gonum/mat"
)

// lca returns the position of the lowest common ancestor of positions u and v,
// walking up heavy paths: O(log L) steps.
func (t *Tree) lca(u, v int32) int32 {
	for t.head[u] != t.head[v] {
		if t.depth[t.head[u]] > t.depth[t.head[v]] {
			u = t.parent[t.head[u]]
		} else {
			v = t.parent[t.head[v]]
		}
	}
	// On one heavy path, breadth-first positions increase with depth.
	return min(u, v)
}

// LCA returns the user index of the lowest common ancestor of user nodes u
// and v, or -1 if it is the virtual root. It takes O(log L) time.
func (t *Tree) LCA(u, v int) int {
	return int(t.label[t.lca(t.pos[u], t.pos[v])])
}

// Distance returns the shortest-path distance d_T(u, v) between user nodes u
// and v: the sum of the weights on the path between them. It takes O(log L)
// time, as root distances minus twice the root distance of the lowest common
// ancestor; each difference is taken separately, so the result is never
// negative and is exact for integer weights.
func (t *Tree) Distance(u, v int) float64 {
	pu, pv := t.pos[u], t.pos[v]
	a := t.rootDist[t.lca(pu, pv)]
	return (t.rootDist[pu] - a) + (t.rootDist[pv] - a)
}

// DistanceMatrix stores the dense matrix of shortest-path distances,
// D[i][j] = d_T(i, j) in user order, in dst and returns it. dst must be empty
// (it is then allocated) or Len()×Len(); otherwise DistanceMatrix panics.
//
// It takes O(L²) time by one sweep per source node, summing edge weights
// along each path, and 8·L² bytes, so it is meant for small trees (L up to a
// few thousand).
func (t *Tree) DistanceMatrix(dst *mat.Dense) *mat.Dense {
	n := t.Len()
	if dst == nil {
		dst = &mat.Dense{}
	}
	if dst.IsEmpty() {
		dst.ReuseAs(n, n)
	} else if r, c := dst.Dims(); r != n || c != n {
		panic("tree: DistanceMatrix destination has the wrong shape")
	}
	d := make([]float64, len(t.parent))
	row := make([]float64, n)
	for i := 0; i < n; i++ {
		t.distancesFrom(d, t.pos[i])
		for j := range row {
			row[j] = d[t.pos[j]]
		}
		dst.SetRow(i, row)
	}
	return dst
}

// distancesFrom fills d (indexed by position) with the distances from
// position s. Off the path from the root to s, a node is reached through its
// parent; on that path, through its child towards s.
func (t *Tree) distancesFrom(d []float64, s int32) {
	d[s] = 0
	for v := s; t.parent[v] >= 0; v = t.parent[v] {
		d[t.parent[v]] = d[v] + t.weight[v]
	}
	for k := int32(1); k < int32(len(d)); k++ {
		if t.pre[k] <= t.pre[s] && t.pre[s] < t.preEnd[k] {
			continue // k is s or an ancestor of s
		}
		d[k] = d[t.parent[k]] + t.weight[k]
	}
}

// Reweight returns a copy of the tree in which the edge above each user node
// i has weight weight[i]; for a forest this includes the edges joining the
// forest's roots to the virtual root. The entry of a real root is ignored.
// A weight slice whose length is not Len() panics; a negative, NaN or
// infinite weight is an *Error whose Line is the node's 1-based index.
func (t *Tree) Reweight(weight []float64) (*Tree, error) {
	if len(weight) != t.Len() {
		panic("tree: Reweight: len(weight) != Len()")
	}
	u := *t
	u.weight = make([]float64, len(t.weight))
	u.rootDist = make([]float64, len(t.rootDist))
	for k := 1; k < len(u.weight); k++ {
		i := t.label[k]
		w := weight[i]
		if msg := checkWeight(w); msg != "" {
			return nil, &Error{Line: int(i) + 1, Err: ErrBadWeight, Msg: t.names[i] + ": " + msg}
		}
		u.weight[k] = w
		u.rootDist[k] = u.rootDist[t.parent[k]] + w
	}
	if err := u.checkPathLengths(); err != nil {
		return nil, err
	}
	return &u, nil
}
