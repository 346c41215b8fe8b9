package tsw

import (
	"errors"
	"fmt"

	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tw"
)

// Sentinel errors wrapped by the errors of New; test for them with
// errors.Is.
var (
	ErrMissingPoint   = errors.New("point missing from a tree")
	ErrDuplicatePoint = errors.New("point named twice")
)

// Sliced computes tree-sliced Wasserstein distances between distributions
// over n named points, on T trees that each have a node of every point's
// name. Its dense methods allocate only on their first call (the
// workspaces), SparseDistance only to grow its scratch for longer lists
// than before, and Pairwise every time (the embeddings).
//
// A Sliced is not safe for concurrent use: it holds scratch memory. Clone
// makes another one for another goroutine cheaply; the clones share the
// read-only trees and point-to-node maps.
type Sliced struct {
	*shared

	ws []*tw.Workspace // per tree, made on first dense use
	sp []*tw.Sparse    // per tree, made on first sparse use
	// x is the scatter buffer of the largest tree: zero except while a
	// tree's points are in it. zero stays all zero. g receives a tree's
	// gradient; acc (length n) sums them over the trees.
	x, zero, g, acc []float64
	ia, ib          []int          // sparse indices mapped to one tree's nodes
	se              *sparseScratch // SparseEmbed's, made on first use
}

// shared is the read-only part of a Sliced, common to its clones.
type shared struct {
	names []string
	index map[string]int
	given []*tree.Tree // the trees as given to New
	trees []*tree.Tree // the same, breadth-first (tree.Tree.BreadthFirst)
	// node[t*n+i] is the user index in trees[t] of point i's node.
	node []int32
	// direct[t] reports that trees[t] has exactly the n points as its
	// nodes, in point order: vectors go to tree t unchanged.
	direct []bool
	off    []int // off[t]: tree t's first coordinate in the embedding
	maxLen int
}

// New returns a Sliced for distributions over the points named names, in
// that order, on trees. Every tree must have a node of each name (usually a
// leaf; internal nodes of a tree's own carry no mass). It returns an error
// wrapping ErrMissingPoint, naming the tree's index and the point, if a
// tree lacks one, and one wrapping ErrDuplicatePoint if a name is repeated.
// An empty names is an error too. It panics if trees is empty or holds a
// nil tree. Of its inputs it keeps only the trees, which are immutable.
func New(trees []*tree.Tree, names []string) (*Sliced, error) {
	if len(trees) == 0 {
		panic("tsw: New with no trees")
	}
	for _, t := range trees {
		if t == nil {
			panic("tsw: New with a nil tree")
		}
	}
	n := len(names)
	if n == 0 {
		return nil, errors.New("tsw: no points")
	}
	sh := &shared{
		names:  append([]string(nil), names...),
		index:  make(map[string]int, n),
		given:  append([]*tree.Tree(nil), trees...),
		trees:  make([]*tree.Tree, len(trees)),
		node:   make([]int32, len(trees)*n),
		direct: make([]bool, len(trees)),
		off:    make([]int, len(trees)+1),
	}
	for i, name := range names {
		if j, dup := sh.index[name]; dup {
			return nil, fmt.Errorf("tsw: points %d and %d are both named %q: %w", j, i, name, ErrDuplicatePoint)
		}
		sh.index[name] = i
	}
	for k, t := range trees {
		// The breadth-first renumbering lets package tw read vectors in
		// place, several times faster than through a permutation; users
		// never see the trees' node indices.
		t = t.BreadthFirst()
		sh.trees[k] = t
		node := sh.node[k*n : (k+1)*n]
		direct := t.Len() == n
		for i, name := range names {
			v, ok := t.Index(name)
			if !ok {
				return nil, fmt.Errorf("tsw: tree %d has no node %q (point %d): %w", k, name, i, ErrMissingPoint)
			}
			node[i] = int32(v)
			direct = direct && v == i
		}
		sh.direct[k] = direct
		sh.off[k+1] = sh.off[k] + t.Len()
		sh.maxLen = max(sh.maxLen, t.Len())
	}
	return &Sliced{shared: sh}, nil
}

// Clone returns a Sliced on the same trees and points with its own scratch
// memory, for use on another goroutine. It costs O(1); the clone makes its
// workspaces on first use.
func (s *Sliced) Clone() *Sliced { return &Sliced{shared: s.shared} }

// Trees returns T, the number of trees.
func (s *Sliced) Trees() int { return len(s.trees) }

// Tree returns tree k as given to New.
func (s *Sliced) Tree(k int) *tree.Tree { return s.given[k] }

// Len returns n, the number of points.
func (s *Sliced) Len() int { return len(s.names) }

// Name returns the name of point i.
func (s *Sliced) Name(i int) string { return s.names[i] }

// Index returns the index of the point named name.
func (s *Sliced) Index(name string) (int, bool) {
	i, ok := s.index[name]
	return i, ok
}

// EmbedLen returns the length of an embedding: the total number of nodes of
// the trees, Σ_t L_t.
func (s *Sliced) EmbedLen() int { return s.off[len(s.trees)] }

func (s *Sliced) check(name string, x []float64) {
	if len(x) != len(s.names) {
		panic("tsw: len(" + name + ") != number of points")
	}
}

// dense makes the workspaces and buffers of the dense methods.
func (s *Sliced) dense() {
	if s.ws != nil {
		return
	}
	s.ws = make([]*tw.Workspace, len(s.trees))
	for k, t := range s.trees {
		s.ws[k] = tw.NewWorkspace(t)
	}
	s.x = make([]float64, s.maxLen)
	s.zero = make([]float64, s.maxLen)
	s.g = make([]float64, s.maxLen)
	s.acc = make([]float64, len(s.names))
}

// diff returns the vectors of tree k to pass to its workspace for (a, b):
// a and b themselves when the tree's nodes are the points, else a − b
// scattered to the points' nodes (zero elsewhere), and zero. TW and its
// gradient depend on a − b alone, and package tw adds a_i − b_i to the
// subtree sums as one term, so this gives the bits that a and b scattered
// separately would, with half the scattering. undo clears the scatter.
func (s *Sliced) diff(k int, a, b []float64) (x, y []float64) {
	if s.direct[k] {
		return a, b
	}
	n := len(s.names)
	L := s.trees[k].Len()
	x = s.x[:L]
	for i, v := range s.node[k*n : (k+1)*n] {
		x[v] = a[i] - b[i]
	}
	return x, s.zero[:L]
}

// undo restores the zeros of the scatter buffer after tree k: by clearing
// it whole when the points are a quarter of the nodes or more (a sequential
// clear of L floats measured faster than n scattered stores from about
// there: on 10⁴-node trees with 7500 points, 20% off a distance), else point
// by point.
func (s *Sliced) undo(k int) {
	if s.direct[k] {
		return
	}
	n := len(s.names)
	L := s.trees[k].Len()
	if 4*n >= L {
		clear(s.x[:L])
		return
	}
	x := s.x
	for _, v := range s.node[k*n : (k+1)*n] {
		x[v] = 0
	}
}

// Distance returns TSW(a, b) = (1/T) Σ_t TW_t(a, b) for a and b over the n
// points. It costs O(Σ_t L_t). A NaN or an infinity in a or b gives NaN.
// It panics if len(a) or len(b) is not n.
func (s *Sliced) Distance(a, b []float64) float64 {
	s.check("a", a)
	s.check("b", b)
	s.dense()
	var sum float64
	for k, ws := range s.ws {
		x, y := s.diff(k, a, b)
		sum += ws.Distance(x, y)
		s.undo(k)
	}
	return sum / float64(len(s.ws))
}

// DistanceGrad returns TSW(a, b) and stores in grad its subgradient with
// respect to a: the sum over the trees of each tree's TW subgradient (see
// package tw for the choice at kinks) at the points' nodes, times 1/T. grad may be the
// same slice as a or b. A NaN or an infinity in a or b makes the distance
// and every element of grad NaN. It panics if a length is not n.
func (s *Sliced) DistanceGrad(grad, a, b []float64) float64 {
	s.check("grad", grad)
	s.check("a", a)
	s.check("b", b)
	s.dense()
	n := len(s.names)
	acc := s.acc
	clear(acc)
	var sum float64
	for k, ws := range s.ws {
		x, y := s.diff(k, a, b)
		if s.direct[k] {
			sum += ws.DistanceGrad(s.g[:n], x, y)
			for i, g := range s.g[:n] {
				acc[i] += g
			}
			continue
		}
		g := s.g[:s.trees[k].Len()]
		sum += ws.DistanceGrad(g, x, y)
		s.undo(k)
		for i, v := range s.node[k*n : (k+1)*n] {
			acc[i] += g[v]
		}
	}
	// A product, not a quotient: a division per point cost as much as the
	// rest of the gradient's bookkeeping together.
	inv := 1 / float64(len(s.ws))
	for i, v := range acc {
		grad[i] = v * inv
	}
	return sum / float64(len(s.ws))
}

// Embed stores Φ(a) in dst (of length EmbedLen): the embeddings of package
// tw (tw.Workspace.Embed) of a's scatter onto every tree, concatenated in
// tree order and multiplied by 1/T, so that TSW(a, b) = ‖Φ(a) − Φ(b)‖₁. The
// coordinates of tree t start at Σ_{u<t} L_u; within a tree they are in the
// user order of its breadth-first renumbering (tree.Tree.BreadthFirst). If
// a holds a NaN or an infinity, every element of dst is NaN. It panics if
// len(a) is not n or len(dst) is not EmbedLen.
func (s *Sliced) Embed(dst, a []float64) {
	s.check("a", a)
	if len(dst) != s.EmbedLen() {
		panic("tsw: len(dst) != EmbedLen()")
	}
	s.dense()
	n := len(s.names)
	inv := 1 / float64(len(s.ws))
	for k, ws := range s.ws {
		seg := dst[s.off[k]:s.off[k+1]]
		if s.direct[k] {
			ws.Embed(seg, a)
		} else {
			x := s.x[:len(seg)]
			for i, v := range s.node[k*n : (k+1)*n] {
				x[v] = a[i]
			}
			ws.Embed(seg, x)
			s.undo(k)
		}
		if inv != 1 {
			for j := range seg {
				seg[j] *= inv
			}
		}
	}
}

// SparseDistance returns TSW(a, b) for a given by point indices ai with
// masses am, and b by bi and bm: indices in [0, n), in any order, each at
// most once per distribution; zero masses may be listed or left out. Each
// tree's term is computed by a tw.Sparse, in O(k log k + k log L_t) for k
// listed points (or densely when they are many; see tw.Sparse). It agrees
// with Distance to rounding. A NaN or an infinite mass gives NaN. It panics
// if len(ai) != len(am), len(bi) != len(bm), or an index is out of range.
// The inputs are not modified.
func (s *Sliced) SparseDistance(ai []int, am []float64, bi []int, bm []float64) float64 {
	if len(ai) != len(am) || len(bi) != len(bm) {
		panic("tsw: sparse indices and masses differ in length")
	}
	n := len(s.names)
	for _, i := range ai {
		if uint(i) >= uint(n) {
			panic("tsw: point index out of range")
		}
	}
	for _, i := range bi {
		if uint(i) >= uint(n) {
			panic("tsw: point index out of range")
		}
	}
	if s.sp == nil {
		s.sp = make([]*tw.Sparse, len(s.trees))
		for k, t := range s.trees {
			s.sp[k] = tw.NewSparse(t)
		}
	}
	var sum float64
	for k, sp := range s.sp {
		node := s.node[k*n : (k+1)*n]
		ia, ib := s.ia[:0], s.ib[:0]
		for _, i := range ai {
			ia = append(ia, int(node[i]))
		}
		for _, i := range bi {
			ib = append(ib, int(node[i]))
		}
		s.ia, s.ib = ia, ib
		sum += sp.Distance(ia, am, ib, bm)
	}
	return sum / float64(len(s.sp))
}
