package pointtree

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/twl-ldl/twl/tree"
)

// FitMethod selects the objective of FitWeights.
type FitMethod int

const (
	// NNLS minimizes the squared error of the sampled distances over
	// non-negative weights.
	NNLS FitMethod = iota
	// Lasso adds λ·Σ w_e to NNLS's objective (scaled as below), as Yamada
	// et al. (2022) do, driving the weights of unhelpful edges to zero.
	Lasso
)

func (m FitMethod) String() string {
	switch m {
	case NNLS:
		return "NNLS"
	case Lasso:
		return "Lasso"
	}
	return fmt.Sprintf("FitMethod(%d)", int(m))
}

// FitOptions controls FitWeights. The zero value means the defaults.
type FitOptions struct {
	// Pairs is the number of point pairs sampled, uniformly with
	// replacement. Zero means min(20·n, 1 000 000). When Pairs is at least
	// n(n−1)/2, every pair is used once instead.
	Pairs int

	// Seed selects the sampled pairs.
	Seed uint64

	// Method is the objective: NNLS (the default) or Lasso.
	Method FitMethod

	// Lambda is λ, the weight of the ℓ₁ penalty of Lasso; it must be
	// finite and non-negative, and is ignored by NNLS.
	Lambda float64

	// Sweeps bounds the sweeps of coordinate descent over the edges. Zero
	// means 1000.
	Sweeps int

	// Tol stops the descent after a sweep that lowers the objective by at
	// most Tol times its value. Zero means 1e-4 (see the package
	// documentation for what it gives).
	Tol float64
}

func (o *FitOptions) resolve(n int) (FitOptions, error) {
	var r FitOptions
	if o != nil {
		r = *o
	}
	switch {
	case r.Pairs < 0:
		return r, &Error{Err: ErrOption, Msg: fmt.Sprintf("Pairs = %d is negative", r.Pairs)}
	case r.Method != NNLS && r.Method != Lasso:
		return r, &Error{Err: ErrOption, Msg: "unknown method " + r.Method.String()}
	case !(r.Lambda >= 0 && r.Lambda <= math.MaxFloat64):
		return r, &Error{Err: ErrOption, Msg: fmt.Sprintf("Lambda = %v is not finite and non-negative", r.Lambda)}
	case r.Sweeps < 0:
		return r, &Error{Err: ErrOption, Msg: fmt.Sprintf("Sweeps = %d is negative", r.Sweeps)}
	case !(r.Tol >= 0 && r.Tol <= math.MaxFloat64):
		return r, &Error{Err: ErrOption, Msg: fmt.Sprintf("Tol = %v is not finite and non-negative", r.Tol)}
	}
	if r.Pairs == 0 {
		r.Pairs = min(20*n, 1_000_000)
	}
	if r.Method == NNLS {
		r.Lambda = 0
	}
	if r.Sweeps == 0 {
		r.Sweeps = 1000
	}
	if r.Tol == 0 {
		r.Tol = 1e-4
	}
	return r, nil
}

// FitWeights returns t with the same nodes, names, order and edges, and
// edge weights fitted so that the tree distance between points
// approximates their Euclidean distance on sampled pairs (Yamada et al.
// 2022): the non-negative least-squares (or Lasso) solution, approached
// by coordinate descent from t's weights until a sweep gains less than
// Tol. Point i has coordinates
// points[i·d : (i+1)·d] and is the node of t named names[i] (nil: "0" …
// "n−1"); points may be any nodes, leaves or not. The package
// documentation gives the objective, the algorithm and its cost.
//
// Edges on no sampled path keep their weight, as do the edges joining a
// forest's roots to its virtual root (they enter the fit as constants).
// Where edges always occur together on the sampled paths (the two edges
// below a root with two children) only their sum is determined; the
// descent then keeps a split that depends on the starting weights.
// With fewer than two points there is nothing to fit and t is returned.
//
// A nil t, negative n or d, len(points) != n·d and len(names) != n are
// programmer errors and panic. Bad coordinates, names missing from t
// (tree.ErrUnknownNode) or repeated (tree.ErrBadName), and invalid
// options are reported as errors. t, points and names are not modified.
func FitWeights(t *tree.Tree, points []float64, n, d int, names []string, opts *FitOptions) (*tree.Tree, error) {
	if t == nil {
		panic("pointtree: FitWeights with a nil tree")
	}
	checkShape("FitWeights", points, n, d, names)
	o, err := opts.resolve(n)
	if err != nil {
		return nil, err
	}
	if err := checkPoints(points, n, d); err != nil {
		return nil, err
	}
	ord := t.Order()
	node, err := pointNodes(t, ord, pointNames(names, n))
	if err != nil {
		return nil, err
	}
	if n < 2 {
		return t, nil
	}
	f := newFit(ord, node, points, d, samplePairs(n, o.Pairs, o.Seed))
	f.descend(o)
	return f.tree(t)
}

// pointNodes returns the position in ord of the node of each point.
func pointNodes(t *tree.Tree, ord tree.Order, names []string) ([]int32, error) {
	node := make([]int32, len(names))
	owner := make([]int32, len(ord.Parent))
	for i, s := range names {
		u, ok := t.Index(s)
		if !ok {
			return nil, &Error{Line: i + 1, Err: tree.ErrUnknownNode, Msg: fmt.Sprintf("point %q is not a node of the tree", s)}
		}
		k := ord.Position[u]
		if owner[k] > 0 {
			return nil, &Error{Line: i + 1, Err: tree.ErrBadName, Msg: fmt.Sprintf("name %q already used by point %d", s, owner[k])}
		}
		owner[k] = int32(i + 1)
		node[i] = k
	}
	return node, nil
}

// samplePairs returns the pairs as consecutive indices: every pair i < j
// in order when want ≥ n(n−1)/2, else want pairs of distinct points drawn
// uniformly with replacement.
func samplePairs(n, want int, seed uint64) []int32 {
	if total := n * (n - 1) / 2; want >= total {
		pairs := make([]int32, 0, 2*total)
		for i := range n {
			for j := i + 1; j < n; j++ {
				pairs = append(pairs, int32(i), int32(j))
			}
		}
		return pairs
	}
	rng := rand.New(rand.NewPCG(seed, 0x70616972)) // "pair"
	pairs := make([]int32, 2*want)
	for r := range want {
		i, j := rng.IntN(n), rng.IntN(n-1)
		if j >= i {
			j++
		}
		pairs[2*r], pairs[2*r+1] = int32(i), int32(j)
	}
	return pairs
}

// fit is the least-squares problem. Row r of the design is the
// indicator of the edges on the path of pair r (edge k is the edge above
// position k); the rows through edge k are rows[start[k]:start[k+1]].
// target[r] is the Euclidean distance of pair r less the weights of its
// fixed edges. The rows whose lowest common ancestor is position v are
// byLCA[lcaStart[v]:lcaStart[v+1]].
type fit struct {
	ord      tree.Order
	w        []float64 // by position: the weight of the edge above it
	fixed    []bool    // by position: the edge above it is fixed
	point    []bool    // by position: a point lies there
	start    []int32
	rows     []int32
	lcaStart []int32
	byLCA    []int32
	kids     []int32 // the children of k are positions kids[k] … kids[k+1]−1
	lca      []int32 // by row: the lowest common ancestor of the pair
	side     []int32 // by row: the children of lca on the pair's paths (2 a row; −1: none)
	inS      []bool  // by position: scratch of subtreeMove
	target   []float64
	res      []float64 // target − design·w
}

func newFit(ord tree.Order, node []int32, points []float64, d int, pairs []int32) *fit {
	E := len(ord.Parent)
	P := len(pairs) / 2
	f := &fit{
		ord:      ord,
		w:        append([]float64(nil), ord.Weight...),
		fixed:    make([]bool, E),
		point:    make([]bool, E),
		start:    make([]int32, E+1),
		lcaStart: make([]int32, E+1),
		kids:     make([]int32, E+1),
		lca:      make([]int32, P),
		side:     make([]int32, 2*P),
		inS:      make([]bool, E),
		target:   make([]float64, P),
		res:      make([]float64, P),
	}
	f.fixed[0] = true // the root has no edge
	for k := 1; k < E; k++ {
		f.fixed[k] = ord.Virtual && ord.Parent[k] == 0
		f.kids[ord.Parent[k]+1]++
	}
	for k := range E {
		f.kids[k+1] += f.kids[k]
	}
	for k := range f.kids { // positions are breadth-first: children follow 1, 2, …
		f.kids[k]++
	}
	for _, k := range node {
		f.point[k] = true
	}
	lca := f.lca
	for r := range P {
		lca[r] = ord.LCA(node[pairs[2*r]], node[pairs[2*r+1]])
		for e := range 2 {
			f.side[2*r+e] = -1
			for k := node[pairs[2*r+e]]; k != lca[r]; k = ord.Parent[k] {
				f.side[2*r+e] = k
			}
		}
	}
	// Two walks over the paths: count the rows of each column, then fill.
	walk := func(visit func(r int, k int32)) {
		for r, l := range lca {
			for k := node[pairs[2*r]]; k != l; k = ord.Parent[k] {
				visit(r, k)
			}
			for k := node[pairs[2*r+1]]; k != l; k = ord.Parent[k] {
				visit(r, k)
			}
		}
	}
	walk(func(r int, k int32) {
		if f.fixed[k] {
			f.target[r] -= f.w[k]
		} else {
			f.start[k+1]++
		}
	})
	points, unscale := rescale(points)
	for r := range P {
		i, j := pairs[2*r], pairs[2*r+1]
		f.target[r] += math.Ldexp(dist(row(points, d, int(i)), row(points, d, int(j))), unscale)
	}
	f.rows = group(f.start, P, walk, f.fixed)
	for _, l := range lca {
		f.lcaStart[l+1]++
	}
	f.byLCA = group(f.lcaStart, P, func(visit func(r int, k int32)) {
		for r, l := range lca {
			visit(r, l)
		}
	}, nil)
	return f
}

// group turns the counts in start[1:] into offsets and returns the rows
// grouped by the key that each walks visits (skipping keys with skip[k]
// set, when skip is not nil), each group in increasing row order.
func group(start []int32, rows int, walk func(func(r int, k int32)), skip []bool) []int32 {
	for k := 1; k < len(start); k++ {
		start[k] += start[k-1]
	}
	out := make([]int32, start[len(start)-1])
	next := append([]int32(nil), start[:len(start)-1]...)
	walk(func(r int, k int32) {
		if skip == nil || !skip[k] {
			out[next[k]] = int32(r)
			next[k]++
		}
	})
	return out
}

// residual recomputes res = target − design·w.
func (f *fit) residual() {
	copy(f.res, f.target)
	for k := 1; k < len(f.w); k++ {
		wk := f.w[k]
		for _, r := range f.rows[f.start[k]:f.start[k+1]] {
			f.res[r] -= wk
		}
	}
}

// used reports whether some row goes through the edge above position k.
func (f *fit) used(k int) bool { return f.start[k+1] > f.start[k] }

// descend minimizes
//
//	F(w) = (1/2P)·Σ_r res_r² + λ·Σ_e w_e,    w ≥ 0,
//
// by exact minimization along two families of directions in turn.
//
// Coordinates: the minimizer in w_e alone, the others fixed, is
// max(0, w_e + (Σ_{r∋e} res_r − λP)/h_e), h_e being the number of rows
// through e. Alone, this coordinate descent crawls: a node's edge and its
// children's edges occur together on most paths, and moving weight
// between them changes few distances.
//
// Subtree moves: for a node v without a point, adding δ to the edge
// above v and taking δ from each of its children's edges changes only
// the distances of the pairs whose lowest common ancestor is v, each by
// −2δ (a path through v's edge also goes through exactly one child
// edge). The best δ is (−2·Σ_{lca=v} res_r − λP(a − c))/(4·#rows), a and c
// counting the edges raised and lowered, clipped so that no weight goes
// negative; a child edge that reaches 0 hands over to partialMove. These
// moves are coordinate descent on the distances from the root, in which
// the problem is better conditioned.
//
// A sweep runs all subtree moves, then all coordinates. Every step lowers
// F; the coordinate steps alone converge to a minimizer (Tseng 2001), and
// the subtree moves speed them up.
// The residual is updated in place and recomputed every 16 sweeps so that
// rounding does not drift. The descent stops after a sweep that lowers F
// by at most Tol·F, when the residual is within rounding of zero (an exact
// fit), or after Sweeps sweeps.
func (f *fit) descend(o FitOptions) {
	P := float64(len(f.res))
	lp := o.Lambda * P
	var scale float64 // Σ target²: residuals below 1e-28 of it are rounding
	for _, b := range f.target {
		scale += b * b
	}
	prev := math.Inf(1)
	for sweep := range o.Sweeps {
		if sweep%16 == 0 {
			f.residual()
		}
		for v := range len(f.w) {
			f.subtreeMove(v, lp)
		}
		for k := 1; k < len(f.w); k++ {
			rs := f.rows[f.start[k]:f.start[k+1]]
			if len(rs) == 0 {
				continue
			}
			var g float64
			for _, r := range rs {
				g += f.res[r]
			}
			w := max(0, f.w[k]+(g-lp)/float64(len(rs)))
			if delta := w - f.w[k]; delta != 0 {
				for _, r := range rs {
					f.res[r] -= delta
				}
				f.w[k] = w
			}
		}
		var ss, l1 float64
		for _, r := range f.res {
			ss += r * r
		}
		if lp > 0 {
			for k := 1; k < len(f.w); k++ {
				if f.used(k) {
					l1 += f.w[k]
				}
			}
		}
		obj := ss/(2*P) + o.Lambda*l1
		if prev-obj <= o.Tol*obj || ss <= 1e-28*scale {
			break
		}
		prev = obj
	}
}

// subtreeMove makes the subtree move at position v (see descend).
func (f *fit) subtreeMove(v int, lp float64) {
	rs := f.byLCA[f.lcaStart[v]:f.lcaStart[v+1]]
	if len(rs) == 0 || f.point[v] {
		return
	}
	if f.ord.Virtual && (v == 0 || f.ord.Parent[v] == 0) {
		return // the virtual root, or a root of a forest: their edges stay
	}
	up := f.used(v) // v's edge is raised only if some path uses it
	lo, hi := math.Inf(-1), math.Inf(1)
	a, c := 0.0, 0.0
	if up {
		lo, a = -f.w[v], 1
	}
	kids := f.kids[v]
	for k := kids; k < f.kids[v+1]; k++ {
		if f.used(int(k)) {
			hi = min(hi, f.w[k])
			c++
		}
	}
	var g float64
	for _, r := range rs {
		g += f.res[r]
	}
	best := -(2*g + lp*(a-c)) / (4 * float64(len(rs)))
	if delta := max(lo, min(hi, best)); delta != 0 {
		if up {
			f.w[v] += delta
		}
		for k := kids; k < f.kids[v+1]; k++ {
			if f.used(int(k)) {
				f.w[k] = max(0, f.w[k]-delta)
			}
		}
		for _, r := range rs {
			f.res[r] += 2 * delta
		}
	}
	if best > hi {
		f.partialMove(v, up, lp)
	}
}

// partialMove continues a subtree move at v that a child's edge, now of
// weight 0, stopped: it raises v's edge (when a path uses it) and lowers
// only the children's edges S still positive. A pair whose lowest common
// ancestor is v then changes by −δ for each of its two child edges in S;
// a pair through v's edge and a child edge not in S changes by +δ. The
// step minimizes F along that direction, clipped to keep S's weights
// non-negative.
func (f *fit) partialMove(v int, up bool, lp float64) {
	lo, hi := f.kids[v], f.kids[v+1]
	inS := f.inS
	s, top := 0.0, math.Inf(1)
	for k := lo; k < hi; k++ {
		if f.used(int(k)) && f.w[k] > 0 {
			inS[k] = true
			s++
			top = min(top, f.w[k])
		}
	}
	defer func() {
		for k := lo; k < hi; k++ {
			inS[k] = false
		}
	}()
	if s == 0 {
		return
	}
	coef := func(r int32) float64 {
		a := 0.0
		for _, k := range f.side[2*r : 2*r+2] {
			if k >= 0 && inS[k] {
				a--
			}
		}
		return a
	}
	rs := f.byLCA[f.lcaStart[v]:f.lcaStart[v+1]]
	var num, den float64
	for _, r := range rs {
		a := coef(r)
		num += a * f.res[r]
		den += a * a
	}
	sumD := -s
	if up {
		sumD++
		for k := lo; k < hi; k++ {
			if !inS[k] {
				for _, r := range f.rows[f.start[k]:f.start[k+1]] {
					if f.lca[r] != int32(v) {
						num += f.res[r]
						den++
					}
				}
			}
		}
	}
	delta := min(top, (num-lp*sumD)/den)
	if !(delta > 0) {
		return
	}
	if up {
		f.w[v] += delta
	}
	for k := lo; k < hi; k++ {
		if inS[k] {
			f.w[k] = max(0, f.w[k]-delta)
		}
	}
	for _, r := range rs {
		f.res[r] -= coef(r) * delta
	}
	if up {
		for k := lo; k < hi; k++ {
			if !inS[k] {
				for _, r := range f.rows[f.start[k]:f.start[k+1]] {
					if f.lca[r] != int32(v) {
						f.res[r] -= delta
					}
				}
			}
		}
	}
}

// tree rebuilds t with the fitted weights.
func (f *fit) tree(t *tree.Tree) (*tree.Tree, error) {
	L := t.Len()
	parent := make([]int, L)
	weight := make([]float64, L)
	opts := &tree.Options{VirtualRootName: t.RootName()}
	for i := range L {
		parent[i] = t.Parent(i)
		weight[i] = f.w[f.ord.Position[i]]
		if parent[i] < 0 && t.Virtual() {
			opts.VirtualRootWeight = t.Weight(i)
		}
	}
	return tree.FromParents(parent, weight, t.Names(), opts)
}
