package tsw_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
	"github.com/twl-ldl/twl/tw"
)

// pointTree is a random tree over named points, kept with its parent array,
// weights and the node of every point as they were generated, for the
// reference computations: they never ask package tree where a point is.
type pointTree struct {
	t      *tree.Tree
	parent []int     // user order of t
	weight []float64 // user order of t
	node   []int     // node[i]: the user index of point i's node
}

// treeSpec says how to draw a pointTree.
type treeSpec struct {
	internal int  // internal nodes of the tree's own (at least 1)
	roots    int  // roots among them: a forest when > 1
	onNodes  int  // points placed on internal nodes instead of new leaves
	dyadic   bool // dyadic weights (exact sums), else uniform in [0.25, 2.25)
}

// newPointTree draws a tree over the points names: spec.internal internal
// nodes form a random forest (each non-root hangs from an earlier one: a
// random recursive tree, of logarithmic depth like a clustering tree), the
// first spec.onNodes points rename internal nodes, and the others are
// leaves hanging from random internal nodes. The user order is a random
// permutation, neither breadth-first nor the points' order.
func newPointTree(tb testing.TB, rng *rand.Rand, names []string, spec treeSpec) pointTree {
	tb.Helper()
	m := spec.internal
	roots := max(1, spec.roots)
	n := len(names)
	on := min(spec.onNodes, n, m)
	N := m + n - on
	// Generation order: internal nodes 0..m-1, then the leaves.
	gpar := make([]int, N)
	gname := make([]string, N)
	for j := range m {
		if j < roots {
			gpar[j] = -1
		} else {
			gpar[j] = rng.IntN(j)
		}
		gname[j] = fmt.Sprintf("n%d", j)
	}
	gnode := make([]int, n) // point → generation index
	for i := range on {
		j := rng.IntN(m)
		for gname[j][0] != 'n' { // not yet a point
			j = (j + 1) % m
		}
		gname[j] = names[i]
		gnode[i] = j
	}
	for i := on; i < n; i++ {
		j := m + i - on
		gpar[j] = rng.IntN(m)
		gname[j] = names[i]
		gnode[i] = j
	}
	var w []float64
	if spec.dyadic {
		w = testutil.DyadicWeights(rng, N)
	} else {
		w = testutil.UniformWeights(rng, N)
		for i := range w {
			w[i] += 0.25
		}
	}
	// Renumber by a random permutation: generation index g → user index perm[g].
	perm := rng.Perm(N)
	pt := pointTree{parent: make([]int, N), weight: make([]float64, N), node: make([]int, n)}
	uname := make([]string, N)
	for g, u := range perm {
		if gpar[g] < 0 {
			pt.parent[u] = -1
		} else {
			pt.parent[u] = perm[gpar[g]]
		}
		pt.weight[u] = w[g]
		uname[u] = gname[g]
	}
	for i, g := range gnode {
		pt.node[i] = perm[g]
	}
	t, err := tree.FromParents(pt.parent, pt.weight, uname, nil)
	if err != nil {
		tb.Fatal(err)
	}
	pt.t = t
	return pt
}

// pointNames returns "p0" … "p{n-1}".
func pointNames(n int) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = fmt.Sprintf("p%d", i)
	}
	return s
}

// newSliced draws T point trees and the Sliced on them.
func newSliced(tb testing.TB, rng *rand.Rand, n, T int, spec treeSpec) (*tsw.Sliced, []pointTree) {
	tb.Helper()
	names := pointNames(n)
	pts := make([]pointTree, T)
	trees := make([]*tree.Tree, T)
	for k := range pts {
		pts[k] = newPointTree(tb, rng, names, spec)
		trees[k] = pts[k].t
	}
	s, err := tsw.New(trees, names)
	if err != nil {
		tb.Fatal(err)
	}
	return s, pts
}

// scatter returns the vector over pt's nodes holding x[i] at point i's node.
func (pt pointTree) scatter(x []float64) []float64 {
	v := make([]float64, len(pt.parent))
	for i, k := range pt.node {
		v[k] = x[i]
	}
	return v
}

// subtreeDiff returns the subtree differences of a − b at every node of pt,
// walking up from every point's node: O(n·depth), no code of package tw.
func (pt pointTree) subtreeDiff(a, b []float64) []float64 {
	d := make([]float64, len(pt.parent))
	for i, k := range pt.node {
		for v := k; v >= 0; v = pt.parent[v] {
			d[v] += a[i] - b[i]
		}
	}
	return d
}

// kinkDist returns, for every point i, the smallest |subtree difference|
// over the edges on the path from i's node to the root (the virtual edge of
// a forest's root included): how far a_i may move before TW_t changes
// slope in it.
func (pt pointTree) kinkDist(a, b []float64) []float64 {
	d := pt.subtreeDiff(a, b)
	forest := pt.t.Virtual()
	out := make([]float64, len(pt.node))
	for i, k := range pt.node {
		m := math.Inf(1)
		for v := k; v >= 0; v = pt.parent[v] {
			if pt.parent[v] >= 0 || forest {
				m = min(m, math.Abs(d[v]))
			}
		}
		out[i] = m
	}
	return out
}

// meanTW is the reference TSW: the mean of tw.Workspace distances on the
// trees as generated (not renumbered), on vectors scattered by hand.
func meanTW(pts []pointTree, a, b []float64) float64 {
	var s float64
	for _, pt := range pts {
		s += tw.NewWorkspace(pt.t).Distance(pt.scatter(a), pt.scatter(b))
	}
	return s / float64(len(pts))
}

// meanGrad is the reference gradient: the mean over the trees of tw's
// gradient on the hand-scattered vectors, read at the points' nodes.
func meanGrad(pts []pointTree, a, b []float64) []float64 {
	g := make([]float64, len(a))
	for _, pt := range pts {
		gt := make([]float64, len(pt.parent))
		tw.NewWorkspace(pt.t).DistanceGrad(gt, pt.scatter(a), pt.scatter(b))
		for i, k := range pt.node {
			g[i] += gt[k]
		}
	}
	for i := range g {
		g[i] /= float64(len(pts))
	}
	return g
}

// sparseOf returns the non-zero entries of x in a random order, with a few
// explicit zeros listed too.
func sparseOf(rng *rand.Rand, x []float64) ([]int, []float64) {
	var idx []int
	var m []float64
	for _, i := range rng.Perm(len(x)) {
		if x[i] != 0 || rng.IntN(8) == 0 {
			idx = append(idx, i)
			m = append(m, x[i])
		}
	}
	return idx, m
}

// relClose reports whether got is within tol of want, relative to
// max(1, |want|).
func relClose(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}
