package utw

import (
	"math"

	"github.com/twl-ldl/twl/tree"
)

// solver runs the dynamic program of the package documentation on a tree
// given by a parent array in parent-before-child order (parent[0] = −1),
// the weight of the edge above each node and the signed masses a − b.
// Its per-node arrays are zero (root, sigma) between calls.
type solver struct {
	lambda float64
	k      keys
	root   []int32   // per node: the breakpoints of h_v (a treap)
	sigma  []float64 // per node: the slope of h_v just right of −λ
	arg    []float64 // per node: the maximizer of h_v chosen
	f      []float64 // per node: the optimal potential
	sub    []float64 // per node: the mass of its subtree, then 0
}

func newSolver(lambda float64) solver {
	if !(lambda > 0) || math.IsInf(lambda, 1) {
		panic("utw: the mass cost λ must be positive and finite")
	}
	s := solver{lambda: lambda}
	s.k.reset()
	return s
}

// grow makes room for n nodes.
func (s *solver) grow(n int) {
	if len(s.root) >= n {
		return
	}
	s.root = make([]int32, n)
	s.sigma = make([]float64, n)
	s.arg = make([]float64, n)
	s.f = make([]float64, n)
	s.sub = make([]float64, n)
	s.k.n = make([]key, 1, n+1)
}

// solve leaves in s.f[:n] an optimal potential f of
//
//	max Σ_v m_v f_v  subject to  |f_v| ≤ λ,  |f_v − f_parent(v)| ≤ w_v
//
// and returns the maximum, m_v being the signed mass of node v.
func (s *solver) solve(parent []int32, w []float64, m []float64) float64 {
	n := len(m)
	s.grow(n)
	s.k.reset()
	k := &s.k
	root, sigma, arg := s.root[:n], s.sigma[:n], s.arg[:n]
	var size float64 // Σ|m|, the scale of the slopes
	for v := n - 1; v >= 0; v-- {
		r, sg := root[v], sigma[v]+m[v]
		root[v], sigma[v] = 0, 0
		size += math.Abs(m[v])
		if v == 0 {
			arg[0] = s.rootArg(r, sg, 1e-13*size)
			break
		}
		var x float64
		x, r, sg = s.step(r, sg, w[v])
		arg[v] = x
		p := parent[v]
		root[p] = k.union(root[p], r)
		sigma[p] += sg
	}
	f := s.f[:n]
	f[0] = arg[0]
	for v := 1; v < n; v++ {
		fp, wv := f[parent[v]], w[v]
		f[v] = min(max(arg[v], fp-wv), fp+wv)
	}
	// The value Σ_v m_v f_v, summed as f_root·M_root plus
	// Σ_v (f_v − f_parent)·M_v over the edges, M_v the mass of v's
	// subtree: every term is bounded by w_v·|M_v| as in the closed form
	// of TW, whereas f itself may be near ±λ, however large λ is.
	sub := s.sub[:n]
	var val float64
	for v := n - 1; v >= 1; v-- {
		mv := sub[v] + m[v]
		val += (f[v] - f[parent[v]]) * mv
		sub[parent[v]] += mv
		sub[v] = 0
	}
	total := sub[0] + m[0]
	sub[0] = 0
	return val + f[0]*total
}

// rootArg returns the maximizer of h at the root (breakpoints r, slope sg
// right of −λ) nearest to 0, slopes within tol of 0 taken as 0. When
// Σa = Σb, h is flat on a wide interval, and its ends, near ±λ, are
// maximizers only because Σa − Σb rounds to some 1e-17: there f_root·
// (Σa − Σb) would add rounding of the order of λ·1e-16 to the value.
func (s *solver) rootArg(r int32, sg, tol float64) float64 {
	lam := s.lambda
	lo, hi := -lam, lam
	if sg > tol {
		if x, ok := s.k.find(r, sg-tol); ok {
			lo = x
		} else {
			lo = lam
		}
	}
	if sg < -tol {
		hi = -lam
	} else if x, ok := s.k.find(r, sg+tol); ok {
		hi = x
	}
	return min(max(0, lo), hi)
}

// step finds a maximizer x of h on [−λ, λ], for h given by its breakpoints
// r and its slope sg just right of −λ, and returns the breakpoints and slope of H(x) = max h over [x − w, x + w] ∩ [−λ, λ],
// restricted to [−λ, λ]: the part of h left of x moves left by w, the part
// right of it right by w, and a flat piece of width 2w opens at x.
func (s *solver) step(r int32, sg, w float64) (x float64, r2 int32, sg2 float64) {
	k := &s.k
	lam := s.lambda
	switch {
	case sg <= 0: // h decreases from −λ on
		x = -lam
		k.shift(r, w)
		if sg < 0 {
			r = k.join(k.node(-lam+w, -sg), r)
		}
		sg = 0
	default:
		a, b := k.splitWeight(r, sg)
		if b == 0 {
			// The drops add up to less than sg: h increases up to λ.
			// (Also when they add up to sg but the running sums,
			// rounded, stay below it.)
			x = lam
			k.shift(a, -w)
			if d := sg - k.sum(a); d > 0 {
				a = k.join(a, k.node(lam-w, d))
			}
			r = a
			break
		}
		// The slope crosses zero at the breakpoint q.
		q, b := k.popFirst(b)
		x = k.n[q].pos
		left := min(sg-k.sum(a), k.n[q].wt)
		right := k.n[q].wt - left
		k.shift(a, -w)
		k.shift(b, w)
		k.n[q].pos, k.n[q].wt, k.n[q].sum = x-w, left, left
		a = k.join(a, q)
		if right > 0 {
			b = k.join(k.node(x+w, right), b)
		}
		r = k.join(a, b)
	}
	// Keep the breakpoints inside (−λ, λ): those at or below −λ no longer
	// bend the function on its domain but lower its slope there.
	lo, r := k.splitBelow(r, -lam, math.MaxInt32)
	sg -= k.sum(lo)
	r, _ = k.splitBelow(r, lam, 0)
	return x, r, sg
}

// Workspace computes the unbalanced tree-Wasserstein distance UTW_λ of
// dense vectors on one tree, and its subgradient, reusing its memory:
// after construction its methods allocate nothing. It is not safe for
// concurrent use.
type Workspace struct {
	t *tree.Tree
	o tree.Order
	s solver
	m []float64 // a − b in internal order
}

// NewWorkspace returns a workspace for UTW_λ on t, λ being the cost of
// creating or destroying a unit of mass. It panics if t is nil or λ is not
// positive and finite.
func NewWorkspace(t *tree.Tree, lambda float64) *Workspace {
	if t == nil {
		panic("utw: NewWorkspace with a nil tree")
	}
	w := &Workspace{t: t, o: t.Order(), s: newSolver(lambda)}
	n := len(w.o.Parent)
	w.m = make([]float64, n)
	w.s.grow(n)
	return w
}

// Tree returns the tree the workspace was built for.
func (w *Workspace) Tree() *tree.Tree { return w.t }

// Lambda returns the mass cost λ.
func (w *Workspace) Lambda() float64 { return w.s.lambda }

// Distance returns UTW_λ(a, b) for non-negative masses a and b in user
// order (of any total). A NaN or infinite mass gives NaN. It panics if
// len(a) or len(b) is not t.Len(). a and b are not modified.
func (w *Workspace) Distance(a, b []float64) float64 {
	return w.run(a, b)
}

// DistanceGrad returns UTW_λ(a, b) and stores in grad an optimal dual
// potential f (user order): a subgradient of UTW_λ with respect to a, −f
// being one with respect to b. Every f_i lies in [−λ, λ] and differs from
// its parent's by at most the weight of the edge between them. grad may be
// a or b. A NaN or infinite mass gives NaN and a grad of NaNs.
func (w *Workspace) DistanceGrad(grad, a, b []float64) float64 {
	if len(grad) != w.t.Len() {
		panic("utw: len(grad) != tree.Len()")
	}
	v := w.run(a, b)
	if v != v {
		for i := range grad {
			grad[i] = math.NaN()
		}
		return v
	}
	for k, l := range w.o.Label {
		if l >= 0 {
			grad[l] = w.s.f[k]
		}
	}
	return v
}

func (w *Workspace) run(a, b []float64) float64 {
	L := w.t.Len()
	if len(a) != L || len(b) != L {
		panic("utw: len(a) or len(b) != tree.Len()")
	}
	m := w.m
	var bad float64
	for k, l := range w.o.Label {
		if l >= 0 {
			m[k] = a[l] - b[l]
			bad += m[k] - m[k]
		} else {
			m[k] = 0
		}
	}
	if bad != 0 {
		return math.NaN()
	}
	return w.s.solve(w.o.Parent, w.o.Weight, m)
}

// Sparse computes UTW_λ between measures given by their non-zero masses,
// on the tree spanned by their labels (tree.Span): O(k log k) time for k
// labels, whatever the size of the tree. It is not safe for concurrent
// use.
type Sparse struct {
	t    *tree.Tree
	o    tree.Order
	s    solver
	span tree.Span
	pos  []int32
	m    []float64
}

// NewSparse returns a Sparse for UTW_λ on t. It panics if t is nil or λ
// is not positive and finite.
func NewSparse(t *tree.Tree, lambda float64) *Sparse {
	if t == nil {
		panic("utw: NewSparse with a nil tree")
	}
	return &Sparse{t: t, o: t.Order(), s: newSolver(lambda)}
}

// Tree returns the tree s computes distances on.
func (s *Sparse) Tree() *tree.Tree { return s.t }

// Distance returns UTW_λ(a, b) for a given by labels ai (user indices, in
// any order; a label listed twice has its masses added) with masses am,
// and b by bi and bm. A NaN or infinite mass gives NaN. It panics if
// len(ai) != len(am), len(bi) != len(bm) or a label is out of range. The
// inputs are not modified.
func (s *Sparse) Distance(ai []int, am []float64, bi []int, bm []float64) float64 {
	if len(ai) != len(am) || len(bi) != len(bm) {
		panic("utw: sparse labels and masses differ in length")
	}
	L := s.t.Len()
	pos := s.pos[:0]
	var bad float64
	for k, i := range ai {
		if uint(i) >= uint(L) {
			panic("utw: sparse label out of range")
		}
		pos = append(pos, s.o.Position[i])
		bad += am[k] - am[k]
	}
	for k, i := range bi {
		if uint(i) >= uint(L) {
			panic("utw: sparse label out of range")
		}
		pos = append(pos, s.o.Position[i])
		bad += bm[k] - bm[k]
	}
	s.pos = pos
	if bad != 0 {
		return math.NaN()
	}
	sp := &s.span
	s.o.Span(sp, pos)
	n := sp.Nodes()
	if cap(s.m) < n {
		s.m = make([]float64, n)
	}
	m := s.m[:n]
	clear(m)
	for k := range ai {
		m[sp.Of[k]] += am[k]
	}
	for k := range bi {
		m[sp.Of[len(ai)+k]] -= bm[k]
	}
	return s.s.solve(sp.Parent, sp.Len, m)
}
