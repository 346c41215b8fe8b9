package barycenter

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/tree"
)

// Errors of Solve for invalid data; they are wrapped with detail.
var (
	// ErrNoRows: no distributions were given.
	ErrNoRows = errors.New("barycenter: no distributions")
	// ErrBadWeight: a weight is negative, NaN or infinite, or all are 0.
	ErrBadWeight = errors.New("barycenter: bad weight")
	// ErrBadMass: a mass is negative, NaN or infinite, or a row has no
	// mass.
	ErrBadMass = errors.New("barycenter: bad mass")
)

// Options control Solve. The zero value (and nil) allows mass on every
// node.
type Options struct {
	// Leaves restricts the barycenter to the leaves of the tree (nodes
	// without children).
	Leaves bool
}

// Solver computes tree-Wasserstein barycenters on one tree, keeping its
// scratch memory between calls. It is not safe for concurrent use.
type Solver struct {
	t *tree.Tree
	o tree.Order

	seg   segments
	root  []int32 // per position: the treap of the functions of its children
	stamp []int32 // per position: the last row whose closure holds it (+1)
	acc   []float64
	full  []float64 // per position: Σ λ_i over the rows with μ_i(Γ(v)) = 1
	x     []float64 // per position: ν(Γ(v))

	// The entries μ_i(Γ(v)) > 0, grouped by position v (CSR).
	off      []int32
	entRow   []int32
	entMass  []float64
	closure  []int32
	starts   []int32
	rowTop   []int32
	rowTotal []float64
	order    []int32
	stack    []int32
	lambda   []float64
	leafPos  []bool
	visitPos []int32
	cut      []cut

	// oneByOne adds each node's kinks one split at a time, as a
	// reference for the tests.
	oneByOne bool
}

// New returns a Solver for distributions on the labels of t. It panics if
// t is nil.
func New(t *tree.Tree) *Solver {
	if t == nil {
		panic("barycenter: New with a nil tree")
	}
	o := t.Order()
	n := len(o.Parent)
	s := &Solver{t: t, o: o,
		root: make([]int32, n), stamp: make([]int32, n), acc: make([]float64, n),
		x: make([]float64, n), full: make([]float64, n), off: make([]int32, n+1), leafPos: make([]bool, n)}
	for k := range n {
		s.leafPos[k] = o.PreEnd[k]-o.Pre[k] == 1 && o.Label[k] >= 0
	}
	return s
}

// Tree returns the tree the solver was built for.
func (s *Solver) Tree() *tree.Tree { return s.t }

// Solve stores in nu (length t.Len(), user order) a minimizer ν* of
//
//	Σ_i λ_i·TW(μ_i, ν)
//
// over the probability distributions ν on the tree's nodes (on its leaves
// with o.Leaves), μ_i being row i of rows (user indices), and returns the
// minimum. weights gives the λ_i; nil means 1/n each (the mean distance).
// Each row is taken as a distribution: its masses are divided by their
// sum (a row of masses that sum to 1 up to rounding is thus taken as
// it is). nu is overwritten. rows and weights are not modified.
//
// It panics if len(nu) != t.Len(), or weights is not nil and not of
// length rows.Rows(); it returns an error wrapping ErrNoRows, ErrBadWeight
// or ErrBadMass for invalid data, with nu then all zero.
func (s *Solver) Solve(nu []float64, rows *labeldist.Rows, weights []float64, o *Options) (float64, error) {
	L := s.t.Len()
	if len(nu) != L {
		panic("barycenter: len(nu) != tree.Len()")
	}
	clear(nu)
	nr := rows.Rows()
	if weights != nil && len(weights) != nr {
		panic("barycenter: len(weights) != rows.Rows()")
	}
	if nr == 0 {
		return 0, ErrNoRows
	}
	lam, err := s.weights(weights, nr)
	if err != nil {
		return 0, err
	}
	if err := s.entries(rows, lam, L); err != nil {
		return 0, err
	}
	leaves := o != nil && o.Leaves
	r := s.sweep(lam, leaves)
	s.stack = s.seg.prefix(r, 1, s.stack, func(origin int32, l float64) {
		nu[s.o.Label[origin]] += l
	})
	return s.objective(nu, lam), nil
}

// weights checks the weights and returns them (1/n each for nil).
func (s *Solver) weights(w []float64, n int) ([]float64, error) {
	s.lambda = slices.Grow(s.lambda[:0], n)[:n]
	if w == nil {
		for i := range s.lambda {
			s.lambda[i] = 1 / float64(n)
		}
		return s.lambda, nil
	}
	var total float64
	for i, v := range w {
		if !(v >= 0) || math.IsInf(v, 1) {
			return nil, fmt.Errorf("%w: weight %d is %v", ErrBadWeight, i+1, v)
		}
		total += v
	}
	if total == 0 {
		return nil, fmt.Errorf("%w: all weights are 0", ErrBadWeight)
	}
	copy(s.lambda, w)
	return s.lambda, nil
}

// entries computes μ_i(Γ(v)) for every row i (rescaled to sum 1) and
// every node v strictly below the lowest common ancestor top_i of its
// support, grouped by node, and adds λ_i to full[top_i]: at top_i and
// above it μ_i(Γ(v)) = 1. The nodes below top_i (row i's closure) are the
// support and its ancestors up to top_i. Two passes over the rows: the
// first checks them, finds top_i and counts the closure's nodes per node
// v; the second walks each closure again and writes its entries in place.
// A closure is walked from each support node up to the first node already
// met: a path that ends on a node of an earlier path. Taking the paths
// last first, each bottom-up, sums every node's children before the node
// itself, without sorting: O(C) per row for C nodes.
func (s *Solver) entries(rows *labeldist.Rows, lam []float64, L int) error {
	o := s.o
	par, pos := o.Parent, o.Position
	nr := rows.Rows()
	clear(s.full)
	off := s.off
	clear(off)
	s.rowTop = slices.Grow(s.rowTop[:0], nr)[:nr]
	s.rowTotal = slices.Grow(s.rowTotal[:0], nr)[:nr]
	for i := range nr {
		idx, mass := rows.Row(i)
		var total float64
		top := int32(-1)
		for k, l := range idx {
			m := mass[k]
			if uint(l) >= uint(L) {
				panic("barycenter: label out of range")
			}
			if !(m >= 0) || math.IsInf(m, 1) {
				s.clearStamps()
				return fmt.Errorf("%w: row %d, label %d: %v", ErrBadMass, i+1, l, m)
			}
			if m == 0 {
				continue
			}
			total += m
			if top < 0 {
				top = pos[l]
			} else {
				top = o.LCA(top, pos[l])
			}
		}
		if top < 0 {
			s.clearStamps()
			return fmt.Errorf("%w: row %d has no mass", ErrBadMass, i+1)
		}
		if math.IsInf(total, 1) {
			s.clearStamps()
			return fmt.Errorf("%w: row %d: the masses overflow", ErrBadMass, i+1)
		}
		s.full[top] += lam[i]
		s.rowTop[i], s.rowTotal[i] = top, total
		cur := int32(i + 1)
		s.stamp[top] = cur
		for k, l := range idx {
			if mass[k] == 0 {
				continue
			}
			for q := pos[l]; s.stamp[q] != cur; q = par[q] {
				s.stamp[q] = cur
				off[q+1]++
			}
		}
		s.stamp[top] = 0
	}
	for k := 1; k < len(off); k++ {
		off[k] += off[k-1]
	}
	ne := off[len(off)-1]
	s.entRow = slices.Grow(s.entRow[:0], int(ne))[:ne]
	s.entMass = slices.Grow(s.entMass[:0], int(ne))[:ne]
	fill := append(s.order[:0], off[:len(off)-1]...)
	for i := range nr {
		idx, mass := rows.Row(i)
		top, total := s.rowTop[i], s.rowTotal[i]
		cur := int32(nr + i + 1)
		s.stamp[top] = cur
		cl, starts := s.closure[:0], s.starts[:0]
		for k, l := range idx {
			if mass[k] == 0 {
				continue
			}
			starts = append(starts, int32(len(cl)))
			for q := pos[l]; s.stamp[q] != cur; q = par[q] {
				s.stamp[q] = cur
				s.acc[q] = 0
				cl = append(cl, q)
			}
		}
		for k, l := range idx {
			if mass[k] > 0 {
				s.acc[pos[l]] += mass[k] / total
			}
		}
		end := int32(len(cl))
		for k := len(starts) - 1; k >= 0; k-- {
			for _, q := range cl[starts[k]:end] {
				if p := par[q]; p != top {
					s.acc[p] += s.acc[q]
				}
				j := fill[q]
				s.entRow[j], s.entMass[j] = int32(i), s.acc[q]
				fill[q]++
			}
			end = starts[k]
		}
		s.stamp[top] = 0
		s.closure, s.starts = cl, starts
	}
	s.order = fill
	// Reset the stamps for the next call.
	for v := range s.stamp {
		if off[v+1] > off[v] {
			s.stamp[v] = 0
		}
	}
	// full[v]: the weight of the rows whose top lies in Γ(v).
	for k := len(s.full) - 1; k >= 1; k-- {
		s.full[par[k]] += s.full[k]
	}
	return nil
}

// clearStamps resets the stamps of the rows' closures after the first
// pass stopped on an error: their nodes are those v with off[v+1] > 0.
func (s *Solver) clearStamps() {
	for v := range s.stamp {
		if s.off[v+1] > 0 {
			s.stamp[v] = 0
		}
	}
}

// sweep runs the dynamic program from the deepest position up and returns
// the root's function (see the package documentation).
func (s *Solver) sweep(lam []float64, leaves bool) int32 {
	g := &s.seg
	g.reset()
	par, wt := s.o.Parent, s.o.Weight
	n := len(par)
	var total float64
	for _, v := range lam {
		total += v
	}
	// Nodes to visit: all of them for leaves only; else those whose
	// subtree holds mass, and the root (see the package documentation).
	visit := s.visitPos[:0]
	for v := n - 1; v >= 0; v-- {
		if leaves || v == 0 || s.off[v+1] > s.off[v] || s.full[v] > 0 {
			visit = append(visit, int32(v))
		}
	}
	s.visitPos = visit
	for _, v := range visit {
		r := s.root[v]
		s.root[v] = 0
		virtual := v == 0 && s.o.Virtual
		switch {
		case s.leafPos[v] && (leaves || r == 0):
			r = g.node(0, 1, v)
		case leaves || virtual:
			var rest int32
			r, rest = g.splitLength(r, 1)
			g.release(rest)
		default:
			// G_v(x) = min over s ≤ x of K_v(s): the part of slope
			// at most 0, then mass kept at v (slope 0).
			var rest, beyond int32
			r, rest = g.splitSlope(r, 0, math.MaxInt32)
			r, beyond = g.splitLength(r, 1)
			g.release(rest)
			g.release(beyond)
			if left := 1 - g.sum(r); left > 0 {
				r = g.join(r, g.node(0, left, v))
			}
		}
		if v == 0 {
			return r
		}
		// F_v = φ_v + G_v, φ_v(x) = w_v Σ_i λ_i |μ_i(Γ_v) − x|.
		if w := wt[v]; w != 0 {
			pos := s.full[v]
			for j := s.off[v]; j < s.off[v+1]; j++ {
				pos += lam[s.entRow[j]]
			}
			g.add(r, w*(total-2*pos))
			if s.oneByOne {
				for j := s.off[v]; j < s.off[v+1]; j++ {
					a, b := g.splitLength(r, s.entMass[j])
					g.add(b, 2*w*lam[s.entRow[j]])
					r = g.join(a, b)
				}
			} else {
				c := s.cut[:0]
				for j := s.off[v]; j < s.off[v+1]; j++ {
					c = append(c, cut{at: s.entMass[j], d: 2 * w * lam[s.entRow[j]]})
				}
				r = g.cuts(r, c, 0)
				s.cut = c
			}
		}
		p := par[v]
		s.root[p] = g.union(s.root[p], r)
	}
	panic("barycenter: the root was not visited")
}

// objective returns Σ_i λ_i Σ_e w_e |μ_i(Γ_e) − ν(Γ_e)| for the ν in nu,
// from the grouped entries: O(L + entries).
func (s *Solver) objective(nu []float64, lam []float64) float64 {
	par, wt, lab := s.o.Parent, s.o.Weight, s.o.Label
	x := s.x
	for k, l := range lab {
		if l >= 0 {
			x[k] = nu[l]
		} else {
			x[k] = 0
		}
	}
	for k := len(x) - 1; k >= 1; k-- {
		x[par[k]] += x[k]
	}
	var total float64
	for _, v := range lam {
		total += v
	}
	var val float64
	for v := 1; v < len(x); v++ {
		w := wt[v]
		if w == 0 {
			continue
		}
		// Rows without mass below v: λ_i·x_v each; rows with all their
		// mass below v: λ_i·(1 − x_v); the others λ_i·|μ_i(Γ(v)) − x_v|.
		in := (total-s.full[v])*x[v] + s.full[v]*(1-x[v])
		for j := s.off[v]; j < s.off[v+1]; j++ {
			l := lam[s.entRow[j]]
			in += l * (math.Abs(s.entMass[j]-x[v]) - x[v])
		}
		val += w * in
	}
	return val
}
