package tw

import (
	"math"

	"github.com/twl-ldl/twl/tree"
)

// Move is one entry of a transport plan: Mass moves from user node From to
// user node To.
type Move struct {
	From, To int32
	Mass     float64
}

// Planner computes optimal transport plans on one tree: couplings of a
// and b whose cost Σ mass·d_T(from, to) is TW(a, b). See the package
// documentation ("Transport plans") for the algorithm. A Planner holds
// scratch memory: once it has grown to the largest problem, its methods
// allocate nothing beyond the growth of the caller's destination. It is
// not safe for concurrent use.
type Planner struct {
	t *tree.Tree
	o tree.Order

	// The tree in depth-first preorder: the user index (−1 for a virtual
	// root), the end of the subtree, the parent and the weight of the edge
	// above the j-th node.
	preLab, preEnd, prePar []int32
	preW                   []float64

	// The stacks of unmatched supplies and demands.
	sup, dem planStack
	// Dense: the masses of a and b in preorder, and the net mass of each
	// subtree (zero between calls).
	pa, pb, pnet []float64

	span   tree.Span
	pos    []int32
	sa, sb []float64 // sparse: per span node, the masses of a and b
	net    []float64 // sparse: per span node, the net mass of its subtree
}

// planStack is a stack of unmatched masses: the node (user index) and its
// preorder number, and the mass left.
type planStack struct {
	pre, node []int32
	mass      []float64
}

func (s *planStack) push(pre, node int32, mass float64) {
	s.pre = append(s.pre, pre)
	s.node = append(s.node, node)
	s.mass = append(s.mass, mass)
}

func (s *planStack) reset() {
	s.pre, s.node, s.mass = s.pre[:0], s.node[:0], s.mass[:0]
}

// NewPlanner returns a Planner for distributions on the labels of t. It
// panics if t is nil. It takes O(L) time and 20·L bytes for the tree in
// preorder; Plan's 24·L bytes of scratch are made on first use.
func NewPlanner(t *tree.Tree) *Planner {
	if t == nil {
		panic("tw: NewPlanner with a nil tree")
	}
	o := t.Order()
	n := len(o.Parent)
	p := &Planner{t: t, o: o, preLab: make([]int32, n), preEnd: make([]int32, n),
		prePar: make([]int32, n), preW: make([]float64, n)}
	for k := range n {
		j := o.Pre[k]
		p.preLab[j] = o.Label[k]
		p.preEnd[j] = o.PreEnd[k]
		p.preW[j] = o.Weight[k]
		p.prePar[j] = -1
		if k > 0 {
			p.prePar[j] = o.Pre[o.Parent[k]]
		}
	}
	return p
}

// Tree returns the tree the planner was built for.
func (p *Planner) Tree() *tree.Tree { return p.t }

// Plan stores in dst[:0] an optimal transport plan from a to b, dense
// vectors of length t.Len() in user order, and returns it with its cost
// TW(a, b), Σ_e w_e·|a(Γ_e) − b(Γ_e)| summed in preorder (equal to
// Workspace.Distance's to rounding). The plan has at most
// |supp a| + |supp b| − 1 moves, mass staying on a node included as a
// move from the node to itself; its marginals are a and b up to rounding.
// The moves are in no particular order (the order in which they are
// found, bottom-up). a and b are not modified and must have equal total
// masses: otherwise the plan leaves the excess unmatched, and the cost
// returned is still the closed form Σ_e w_e·|a(Γ_e) − b(Γ_e)|. A NaN or
// infinite mass gives an empty plan and a NaN cost. It panics if len(a)
// or len(b) is not t.Len().
//
// It takes O(L) time: a gather of the masses into preorder, then one pass
// over the tree in reverse preorder.
func (p *Planner) Plan(dst []Move, a, b []float64) ([]Move, float64) {
	L := p.t.Len()
	if len(a) != L || len(b) != L {
		panic("tw: Plan: len(a) or len(b) != tree.Len()")
	}
	dst = dst[:0]
	lab, end, par, w := p.preLab, p.preEnd, p.prePar, p.preW
	n := len(lab)
	// Gather the masses in preorder first: a loop of loads alone, which
	// the processor overlaps, rather than loads among the branches of the
	// matching.
	if p.pa == nil {
		p.pa, p.pb, p.pnet = make([]float64, n), make([]float64, n), make([]float64, n)
	}
	pa, pb, net := p.pa[:n], p.pb[:n], p.pnet[:n]
	var bad float64 // NaN if some mass is NaN or infinite
	for j, l := range lab {
		if l >= 0 {
			x, y := a[l], b[l]
			pa[j], pb[j] = x, y
			bad += x - x + y - y
		}
	}
	if bad != 0 {
		return dst, math.NaN()
	}
	p.sup.reset()
	p.dem.reset()
	var cost float64
	for j := n - 1; j >= 0; j-- {
		d := net[j]
		if l := lab[j]; l >= 0 {
			x, y := pa[j], pb[j]
			dst = p.own(dst, int32(j), l, x, y)
			d += x - y
		}
		dst = p.match(dst, end[j])
		// The net mass of the subtree crosses the edge above it.
		net[j] = 0
		if q := par[j]; q >= 0 {
			cost += w[j] * math.Abs(d)
			net[q] += d
		}
	}
	return dst, cost
}

// own adds the masses x of a and y of b at node l (user index, preorder
// number pre): min(x, y) stays (a move from l to itself), the rest is
// pushed as unmatched.
func (p *Planner) own(dst []Move, pre, l int32, x, y float64) []Move {
	if m := min(x, y); m > 0 {
		dst = append(dst, Move{From: l, To: l, Mass: m})
	}
	switch {
	case x > y:
		p.sup.push(pre, l, x-y)
	case y > x:
		p.dem.push(pre, l, y-x)
	}
	return dst
}

// match pairs the unmatched supplies and demands of the subtree whose
// preorder numbers end before end until one side is used up. In reverse
// preorder they are the tops of the stacks: every node processed before
// the subtree lies after it in preorder. Every pair meets at the subtree's
// root: each comes from another child of it, or from the root itself (an
// earlier match at a child would otherwise have paired them), so the
// move's path passes through the root, and the moves add up to the flows
// |a(Γ_e) − b(Γ_e)| of the closed form.
func (p *Planner) match(dst []Move, end int32) []Move {
	s, d := &p.sup, &p.dem
	i, k := len(s.pre)-1, len(d.pre)-1
	for i >= 0 && k >= 0 && s.pre[i] < end && d.pre[k] < end {
		ms, md := s.mass[i], d.mass[k]
		from, to := s.node[i], d.node[k]
		switch {
		case ms < md:
			dst = append(dst, Move{From: from, To: to, Mass: ms})
			d.mass[k] = md - ms
			i--
		case md < ms:
			dst = append(dst, Move{From: from, To: to, Mass: md})
			s.mass[i] = ms - md
			k--
		default:
			dst = append(dst, Move{From: from, To: to, Mass: ms})
			i--
			k--
		}
	}
	s.pre, s.node, s.mass = s.pre[:i+1], s.node[:i+1], s.mass[:i+1]
	d.pre, d.node, d.mass = d.pre[:k+1], d.node[:k+1], d.mass[:k+1]
	return dst
}

// SparsePlan is Plan for a and b given by their non-zero masses, as for
// Sparse.Distance: labels ai with masses am, bi with bm (user indices, in
// any order; a label listed twice has its masses added). It runs on the
// tree spanned by the k labels (tree.Span) in O(k log k + k log L) time,
// independent of L; its cost, summed over the span's edges, agrees with
// Sparse.Distance to rounding. It panics if len(ai) != len(am),
// len(bi) != len(bm) or a label is out of range. The inputs are not
// modified.
func (p *Planner) SparsePlan(dst []Move, ai []int, am []float64, bi []int, bm []float64) ([]Move, float64) {
	if len(ai) != len(am) || len(bi) != len(bm) {
		panic("tw: sparse labels and masses differ in length")
	}
	dst = dst[:0]
	L := p.t.Len()
	pos := p.pos[:0]
	var bad float64
	for k, i := range ai {
		if uint(i) >= uint(L) {
			panic("tw: sparse label out of range")
		}
		pos = append(pos, p.o.Position[i])
		bad += am[k] - am[k]
	}
	for k, i := range bi {
		if uint(i) >= uint(L) {
			panic("tw: sparse label out of range")
		}
		pos = append(pos, p.o.Position[i])
		bad += bm[k] - bm[k]
	}
	p.pos = pos
	if bad != 0 {
		return dst, math.NaN()
	}
	sp := &p.span
	p.o.Span(sp, pos)
	n := sp.Nodes()
	p.sa, p.sb, p.net = growF64(p.sa, n), growF64(p.sb, n), growF64(p.net, n)
	clear(p.sa)
	clear(p.sb)
	for k := range ai {
		p.sa[sp.Of[k]] += am[k]
	}
	for k := range bi {
		p.sb[sp.Of[len(ai)+k]] += bm[k]
	}
	p.sup.reset()
	p.dem.reset()
	o := p.o
	var cost float64
	for j := n - 1; j >= 0; j-- {
		q := sp.Pos[j]
		x, y := p.sa[j], p.sb[j]
		if l := o.Label[q]; l >= 0 {
			dst = p.own(dst, o.Pre[q], l, x, y)
		}
		dst = p.match(dst, o.PreEnd[q])
		p.net[j] += x - y
		if j > 0 {
			cost += sp.Len[j] * math.Abs(p.net[j])
			p.net[sp.Parent[j]] += p.net[j]
		}
		p.net[j] = 0
	}
	return dst, cost
}

func growF64(x []float64, n int) []float64 {
	if cap(x) < n {
		return make([]float64, n)
	}
	return x[:n]
}
