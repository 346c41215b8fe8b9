package tw

import "math"

// The sweeps below are the hot loops of the package for trees whose user
// order is the internal breadth-first order (tree.Order.Identity). On amd64
// they run as assembly (sweep_amd64.s); these Go forms are the reference the
// assembly is tested against bit for bit, and the implementation elsewhere
// (or with the purego build tag). Every form performs the same floating-point
// operations in the same order, so results do not depend on which runs.
//
// Each sweeps the positions [lo, hi), with 1 ≤ lo ≤ hi ≤ len(d) (Workspace
// sweeps [1, n); the tests also sweep a tree in two ranges); par is the
// parent array of the internal order, and user vectors are read at k−off,
// where off is 1 below a virtual root and 0 otherwise.

// upUnitGo adds a−b into the subtree differences d (which must hold the
// children's contributions, zero for leaves) from the last position to the
// first, pushing each finished difference into its parent, and returns s
// plus the sum of their absolute values.
//
// The sum has a fixed association, the one a four-lane vector loop gives:
// from hi down, each block of four positions [c, c+4) adds |d[c+j]| to lane
// j; the positions left over below the last block, fewer than four, go to a
// scalar t; the result is s + (((lane0 + lane2) + (lane1 + lane3)) + t).
func upUnitGo(d, a, b []float64, par []int32, off, lo, hi int, s float64) float64 {
	par = par[:len(d)]
	var acc [4]float64
	k := hi
	for ; k-4 >= lo; k -= 4 {
		c := k - 4
		for i := c + 3; i >= c; i-- {
			x := d[i] + (a[i-off] - b[i-off])
			d[i] = x
			d[par[i]] += x
		}
		for j := range acc {
			acc[j] += math.Abs(d[c+j])
		}
	}
	var t float64
	for k--; k >= lo; k-- {
		x := d[k] + (a[k-off] - b[k-off])
		d[k] = x
		t += math.Abs(x)
		d[par[k]] += x
	}
	return s + (((acc[0] + acc[2]) + (acc[1] + acc[3])) + t)
}

// upWeightedGo is upUnitGo with the absolute differences weighted by wt.
func upWeightedGo(d, a, b, wt []float64, par []int32, off, lo, hi int, s float64) float64 {
	par = par[:len(d)]
	wt = wt[:len(d)]
	var acc [4]float64
	k := hi
	for ; k-4 >= lo; k -= 4 {
		c := k - 4
		for i := c + 3; i >= c; i-- {
			x := d[i] + (a[i-off] - b[i-off])
			d[i] = x
			d[par[i]] += x
		}
		for j := range acc {
			acc[j] += float64(math.Abs(d[c+j]) * wt[c+j]) // explicit conversion: never fused
		}
	}
	var t float64
	for k--; k >= lo; k-- {
		x := d[k] + (a[k-off] - b[k-off])
		d[k] = x
		t += float64(math.Abs(x) * wt[k])
		d[par[k]] += x
	}
	return s + (((acc[0] + acc[2]) + (acc[1] + acc[3])) + t)
}

// downUnitGo stores in p the path sums p[k] = p[par[k]] + u·sign(d[k]) in
// increasing k (p[0] is the caller's), and, when g is not nil, copies each
// into g[k−1]. When g is nil it zeroes each d[k] once read, so that the next
// upward sweep needs no clearing. p may be d itself: d[k] is read (and
// zeroed) before p[k] is written.
func downUnitGo(p, d, g []float64, par []int32, u float64, lo, hi int) {
	n := len(d)
	par = par[:n]
	p = p[:n]
	if g == nil {
		for k := lo; k < hi; k++ {
			x := d[k]
			d[k] = 0
			p[k] = p[par[k]] + signedWeight(u, x)
		}
		return
	}
	g = g[:n-1]
	for k := lo; k < hi; k++ {
		v := p[par[k]] + signedWeight(u, d[k])
		p[k] = v
		g[k-1] = v
	}
}

// downWeightedGo is downUnitGo with edge weights wt.
func downWeightedGo(p, d, g, wt []float64, par []int32, lo, hi int) {
	n := len(d)
	par = par[:n]
	p = p[:n]
	wt = wt[:n]
	if g == nil {
		for k := lo; k < hi; k++ {
			x := d[k]
			d[k] = 0
			p[k] = p[par[k]] + signedWeight(wt[k], x)
		}
		return
	}
	g = g[:n-1]
	for k := lo; k < hi; k++ {
		v := p[par[k]] + signedWeight(wt[k], d[k])
		p[k] = v
		g[k-1] = v
	}
}

// signedWeight returns w·sign(x) with sign(±0) = 0, for w ≥ 0, without
// branches: the signs of subtree differences are unpredictable, and a
// mispredicted branch per node would cost more than the rest of the sweep.
// A NaN x gives ±w, as the assembly's unordered comparison does.
func signedWeight(w, x float64) float64 {
	xb := math.Float64bits(x)
	mag := xb << 1              // drop the sign bit: zero iff x is ±0
	nz := -((mag | -mag) >> 63) // all ones iff x is not ±0
	sgn := xb & (1 << 63)       // sign bit of x
	return math.Float64frombits((math.Float64bits(w) | sgn) & nz)
}

// blockFriendly reports whether the vector forms of the sweeps suit the
// breadth-first parent array par: whether the tree has at least 512 nodes
// (below that the vector forms' fixed costs dominate: measured 620 ns
// against 370 ns at 100 nodes) and at most one block of four positions in
// sixteen holds a node and its parent, which the vector forms must do one
// position at a time. Narrow trees (chains, and the thin first and last
// levels of small random trees) run faster one position at a time
// throughout. Both forms give the same results.
func blockFriendly(par []int32) bool {
	n := len(par)
	var blocks, slow int
	for c := n - 4; c >= 1; c -= 4 {
		blocks++
		if int(par[c+3]) >= c {
			slow++
		}
	}
	return n >= 512 && 16*slow <= blocks
}
