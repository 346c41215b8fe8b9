package emd

import "math"

// This file holds the network simplex proper: the spanning-tree data
// structure and the pivot (leaving-arc choice by Cunningham's rule, flow
// change, tree and potential update). pricing.go chooses the entering arcs
// and init.go builds the starting tree.
//
// The network has one node per row (supply node, index 0..n-1), one node per
// column (demand node, index n..n+m-1) and an artificial root (index n+m).
// Arc e = i*m + j goes from row i to column j with cost C[i,j] and unbounded
// capacity; every node also has an artificial arc u → root of cost 0 that
// carries no flow. The tree is stored as a preorder "thread" (circular,
// through the root), so that the subtree of u is the contiguous run of
// size[u] nodes that starts at u and ends at last[u].
//
// Potentials follow the convention reduced cost = c(u→v) + pi[u] − pi[v],
// zero on tree arcs. The flow on the tree arc between u and parent[u] is
// stored at u (flow[u]), so no array of length n·m is needed besides the cost.

// network is the solver state for one reduced problem. All slices are owned
// by a Solver and reused between calls.
type network struct {
	n, m int   // rows and columns of the reduced problem
	root int32 // n + m

	cost   []float64 // cost of arc (i, j) is cost[rowOff[i]+j]
	rowOff []int

	parent []int32   // parent in the tree, -1 for the root
	pred   []int     // arc to the parent: i*m+j, or -1 for the artificial arc
	flow   []float64 // flow on the arc to the parent, always ≥ 0
	pi     []float64 // node potentials
	thread []int32   // next node in preorder (circular)
	rev    []int32   // previous node in preorder
	size   []int32   // number of nodes in the subtree
	last   []int32   // last node of the subtree in preorder

	// Scratch for re-rooting the subtree that moves in a pivot.
	stem, aEnd, bStart, bEnd []int32

	eps     float64 // arcs enter when their reduced cost is below −eps
	piBound float64 // renormalize potentials when |pi[root]| exceeds it

	// Pricing (pricing.go).
	short   []sarc    // shortlist of candidate arcs
	block   int       // block size of the search over the shortlist
	next    int       // where the next block starts in the shortlist
	passRow int       // where the next pricing pass starts
	topD    []float64 // per-row selection buffers
	topJ    []int32
	sample  []float64 // scratch for pruning the shortlist
}

// up reports whether the tree arc between u and its parent is directed
// towards the parent. Arcs always go from rows to columns, and artificial
// arcs from nodes to the root, so this is a function of the tree shape.
func (w *network) up(u int32) bool {
	return int(u) < w.n || w.parent[u] == w.root
}

// pivot brings the arc from row i to column j, of cost c, into the tree.
func (w *network) pivot(i, j int, c float64) {
	e := i*w.m + j
	p, q := int32(i), int32(w.n+j)
	parent, flow := w.parent, w.flow
	rc := c + w.pi[p] - w.pi[q]

	// Apex of the cycle: the lowest common ancestor of p and q. An ancestor
	// has a larger subtree than any of its descendants.
	u, v := p, q
	for u != v {
		if w.size[u] < w.size[v] {
			u = parent[u]
		} else {
			v = parent[v]
		}
	}
	join := u

	// Flow is pushed along p → q, then up from q to the apex and down from
	// the apex to p. Blocking arcs are those traversed against their
	// direction. Cunningham's rule takes the last blocking arc met when the
	// cycle is traversed from the apex: ties on the p side go to the arc
	// nearest p, ties on the q side (met later) to the arc nearest the apex,
	// and the q side wins ties with the p side.
	delta := inf
	uOut := int32(-1)
	for u := p; u != join; u = parent[u] {
		if w.up(u) && flow[u] < delta {
			delta, uOut = flow[u], u
		}
	}
	outOnP := uOut >= 0
	for u := q; u != join; u = parent[u] {
		if !w.up(u) && flow[u] <= delta {
			delta, uOut = flow[u], u
			outOnP = false
		}
	}
	if uOut < 0 {
		// Every cycle holds an arc against its orientation: the network has
		// no directed cycle (arcs go rows → columns and nodes → root).
		panic("emd: internal error: no blocking arc")
	}
	if delta > 0 {
		for u := p; u != join; u = parent[u] {
			if w.up(u) {
				flow[u] -= delta
			} else {
				flow[u] += delta
			}
		}
		for u := q; u != join; u = parent[u] {
			if w.up(u) {
				flow[u] += delta
			} else {
				flow[u] -= delta
			}
		}
	}

	uIn, vIn, sigma := p, q, -rc
	if !outOnP {
		uIn, vIn, sigma = q, p, rc
	}
	w.reroot(e, uIn, vIn, uOut, join, delta)

	// The moved subtree is now the run of size[uIn] nodes from uIn. Only
	// potential differences matter, so when the subtree holds more than
	// half the nodes the rest of the tree (root included) moves by −sigma
	// instead.
	pi, thread, rev := w.pi, w.thread, w.rev
	sz := int(w.size[uIn])
	if N := w.n + w.m + 1; 2*sz <= N {
		shiftRun(pi, thread, rev, uIn, w.last[uIn], sz, sigma)
	} else {
		shiftRun(pi, thread, rev, thread[w.last[uIn]], rev[uIn], N-sz, -sigma)
		if r := pi[w.root]; math.Abs(r) > w.piBound {
			// Keep potentials near the root's zero so that reduced costs
			// are not computed from large cancelling numbers.
			for x := range pi {
				pi[x] -= r
			}
		}
	}
}

// shiftRun adds sigma to the potentials of the k nodes of the thread that
// run from first to last. The run is walked from both ends at once: the
// walk is a chain of dependent loads, and two chains overlap in time.
func shiftRun(pi []float64, thread, rev []int32, first, last int32, k int, sigma float64) {
	x, y := first, last
	for ; k > 1; k -= 2 {
		pi[x] += sigma
		pi[y] += sigma
		x = thread[x]
		y = rev[y]
	}
	if k == 1 {
		pi[x] += sigma
	}
}

// reroot cuts the subtree S of uOut from its parent, re-roots it at uIn
// (a node of S) and hangs it below vIn by the entering arc e, which carries
// flow f.
func (w *network) reroot(e int, uIn, vIn, uOut, join int32, f float64) {
	parent, thread, rev, size, last := w.parent, w.thread, w.rev, w.size, w.last
	sizeS := size[uOut]
	lastS := last[uOut]

	// Record, before anything changes, the stem uIn = s0, s1, ..., sk = uOut
	// and, for each step t, how the old subtree of s[t+1] splits around the
	// old subtree of s[t]: s[t+1], A, subtree(s[t]), B, where A ends at
	// aEnd[t] = rev[s[t]] (which is s[t+1] itself when A is empty) and B runs
	// from bStart[t] to bEnd[t] (bEnd[t] = -1 when B is empty).
	stem := w.stem[:0]
	for x := uIn; x != uOut; x = parent[x] {
		stem = append(stem, x)
	}
	stem = append(stem, uOut)
	k := len(stem) - 1
	for t := 0; t < k; t++ {
		s, sp := stem[t], stem[t+1]
		w.aEnd[t] = rev[s]
		if last[s] == last[sp] {
			w.bEnd[t] = -1
		} else {
			w.bStart[t] = thread[last[s]]
			w.bEnd[t] = last[sp]
		}
	}

	// Detach S from the thread, and fix the subtree ends and sizes of its
	// old ancestors. Sizes above the apex do not change: S stays below it.
	before := rev[uOut]
	after := thread[lastS]
	thread[before] = after
	rev[after] = before
	for x := parent[uOut]; x >= 0 && last[x] == lastS; x = parent[x] {
		last[x] = before
	}
	for x := parent[uOut]; x != join; x = parent[x] {
		size[x] -= sizeS
	}

	// New preorder of S: subtree(s0), then s1 A0 B0, s2 A1 B1, ..., sk A B.
	tail := last[uIn]
	for t := 0; t < k; t++ {
		x := stem[t+1]
		thread[tail] = x
		rev[x] = tail
		tail = w.aEnd[t]
		if b := w.bEnd[t]; b >= 0 {
			bs := w.bStart[t]
			thread[tail] = bs
			rev[bs] = tail
			tail = b
		}
	}
	newLast := tail

	// Reverse the stem: s[t+1] becomes the child of s[t] through the arc
	// that used to join s[t] to s[t+1]. Go down the stem so that each old
	// value is read before it is overwritten.
	for t := k - 1; t >= 0; t-- {
		s, sp := stem[t], stem[t+1]
		parent[sp] = s
		w.pred[sp] = w.pred[s]
		w.flow[sp] = w.flow[s]
		size[sp] = sizeS - size[s]
		last[sp] = newLast
	}
	parent[uIn] = vIn
	w.pred[uIn] = e
	w.flow[uIn] = f
	size[uIn] = sizeS
	last[uIn] = newLast

	// Splice S into the thread right after vIn. Only if vIn is a leaf does
	// the end of its subtree (and of ancestors ending at vIn) change.
	nxt := thread[vIn]
	thread[vIn] = uIn
	rev[uIn] = vIn
	thread[newLast] = nxt
	rev[nxt] = newLast
	if last[vIn] == vIn {
		for x := vIn; x >= 0 && last[x] == vIn; x = parent[x] {
			last[x] = newLast
		}
	}
	for x := vIn; x != join; x = parent[x] {
		size[x] += sizeS
	}
	w.stem = stem
}
