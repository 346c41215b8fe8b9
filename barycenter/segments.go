package barycenter

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// segments is an arena of treap nodes holding convex piecewise-linear
// functions on [0, ℓ]: each node is a segment of the graph, a slope and a
// length, and the in-order sequence of a treap is the function's graph
// from 0, slopes non-decreasing. Every node also carries the node of the
// tree whose mass it stands for (its origin), the total length of its
// subtree and a pending slope added to the nodes below it. Node 0 is the
// empty treap.
//
// Treaps are ordered by (slope, index); priorities are a hash of the
// index, so that results do not depend on any random source.
type segments struct {
	n     []seg
	free  []int32 // recycled nodes
	stack []int32 // scratch of release
}

// seg is a node of the arena: its fields share a cache line.
type seg struct {
	slope, lazy, length, sum float64
	origin, left, right      int32
}

func (s *segments) reset() {
	s.n = append(s.n[:0], seg{origin: -1})
	s.free = s.free[:0]
}

// node returns a new one-segment treap, reusing a released node if any.
func (s *segments) node(slope, length float64, origin int32) int32 {
	v := seg{slope: slope, length: length, sum: length, origin: origin}
	if k := len(s.free); k > 0 {
		x := s.free[k-1]
		s.free = s.free[:k-1]
		s.n[x] = v
		return x
	}
	x := int32(len(s.n))
	s.n = append(s.n, v)
	return x
}

// release returns the nodes of treap x to the pool: O(size of x).
func (s *segments) release(x int32) {
	if x == 0 {
		return
	}
	st := append(s.stack[:0], x)
	for len(st) > 0 {
		y := st[len(st)-1]
		st = st[:len(st)-1]
		p := &s.n[y]
		if p.left != 0 {
			st = append(st, p.left)
		}
		if p.right != 0 {
			st = append(st, p.right)
		}
		s.free = append(s.free, y)
	}
	s.stack = st
}

func prio(x int32) uint32 {
	h := uint32(x) * 0x9e3779b1
	h ^= h >> 15
	h *= 0x85ebca77
	h ^= h >> 13
	return h
}

// sum returns the total length of treap x.
func (s *segments) sum(x int32) float64 { return s.n[x].sum }

// add adds d to the slope of every segment of x.
func (s *segments) add(x int32, d float64) {
	if x != 0 {
		p := &s.n[x]
		p.slope += d
		p.lazy += d
	}
}

func (s *segments) push(x int32) {
	p := &s.n[x]
	if d := p.lazy; d != 0 {
		s.add(p.left, d)
		s.add(p.right, d)
		p.lazy = 0
	}
}

func (s *segments) pull(x int32) {
	p := &s.n[x]
	p.sum = s.n[p.left].sum + p.length + s.n[p.right].sum
}

// splitSlope splits x into the segments before (slope, id) in the order of
// (slope, index) and the others.
func (s *segments) splitSlope(x int32, slope float64, id int32) (int32, int32) {
	if x == 0 {
		return 0, 0
	}
	s.push(x)
	p := &s.n[x]
	if p.slope < slope || p.slope == slope && x < id {
		l, r := s.splitSlope(p.right, slope, id)
		s.n[x].right = l
		s.pull(x)
		return x, r
	}
	l, r := s.splitSlope(p.left, slope, id)
	s.n[x].left = r
	s.pull(x)
	return l, x
}

// splitLength splits x at length ℓ from the start: the first part holds
// the segments up to ℓ, the one straddling ℓ cut in two (its second piece
// a new node with the same slope and origin).
func (s *segments) splitLength(x int32, l float64) (int32, int32) {
	if x == 0 {
		return 0, 0
	}
	s.push(x)
	p := s.n[x]
	// cut is compared with the segment's length, not l with the end of
	// the segment: rounding could otherwise leave a piece of length 0 or
	// less.
	cut := l - s.n[p.left].sum
	switch {
	case cut <= 0:
		a, b := s.splitLength(p.left, l)
		s.n[x].left = b
		s.pull(x)
		return a, x
	case cut >= p.length:
		a, b := s.splitLength(p.right, cut-p.length)
		s.n[x].right = a
		s.pull(x)
		return x, b
	}
	y := s.node(p.slope, p.length-cut, p.origin)
	s.n[x].length = cut
	b := s.join(y, p.right)
	s.n[x].right = 0
	s.pull(x)
	return x, b
}

// cut is a kink to add to a function: d added to the slopes of its
// segments beyond length at.
type cut struct {
	at, d float64
}

// cuts adds every kink of c to treap x (c in any order, positions
// relative to x's start plus off; c is reordered) and returns the new
// treap: the same as splitLength, add and join for each kink in turn, in
// one descent that visits each node of the union of their paths once.
func (s *segments) cuts(x int32, c []cut, off float64) int32 {
	if x == 0 || len(c) == 0 {
		return x
	}
	s.push(x)
	p := s.n[x]
	ll := s.n[p.left].sum
	lo, hi := off+ll, off+ll+p.length
	// Three-way partition: [0, i) at ≤ lo, [i, j) inside, [j, len) at ≥ hi.
	i, j, k := 0, 0, len(c)
	var dLeft, dIn float64
	for j < k {
		switch a := c[j].at; {
		case a <= lo:
			dLeft += c[j].d
			c[i], c[j] = c[j], c[i]
			i++
			j++
		case a >= hi:
			k--
			c[j], c[k] = c[k], c[j]
		default:
			dIn += c[j].d
			j++
		}
	}
	left := s.cuts(p.left, c[:i], off)
	right := s.cuts(p.right, c[j:], hi)
	s.add(right, dLeft+dIn)
	slope := p.slope + dLeft
	first := p.length
	var chain int32
	if in := c[i:j]; len(in) > 0 {
		sortCuts(in, 2*bits.Len(uint(len(in))))
		first = in[0].at - lo
		sl := slope
		for q, e := range in {
			end := hi
			if q+1 < len(in) {
				end = in[q+1].at
			}
			sl += e.d
			if end > e.at { // equal positions: one kink of their sum
				chain = s.join(chain, s.node(sl, end-e.at, p.origin))
			}
		}
	}
	q := &s.n[x]
	q.slope, q.length, q.left, q.right = slope, first, 0, 0
	t := x
	if left == 0 || prio(left) <= prio(x) {
		q.left = left
	} else {
		s.pull(x)
		t = s.join(left, x)
	}
	r := s.join(chain, right)
	if t == x && (r == 0 || prio(r) <= prio(x)) {
		s.n[x].right = r
		s.pull(x)
		return x
	}
	s.pull(x)
	return s.join(t, r)
}

// sortCuts sorts c by position: quicksort (median of three) down to
// insertion sort for short runs, with slices.SortFunc past depth levels.
func sortCuts(c []cut, depth int) {
	for len(c) > 12 {
		if depth == 0 {
			slices.SortFunc(c, func(a, b cut) int { return cmp.Compare(a.at, b.at) })
			return
		}
		depth--
		m := len(c) / 2
		if c[m].at < c[0].at {
			c[0], c[m] = c[m], c[0]
		}
		if c[len(c)-1].at < c[m].at {
			c[m], c[len(c)-1] = c[len(c)-1], c[m]
			if c[m].at < c[0].at {
				c[0], c[m] = c[m], c[0]
			}
		}
		pivot := c[m].at
		i, j := 0, len(c)-1
		for i <= j {
			for c[i].at < pivot {
				i++
			}
			for c[j].at > pivot {
				j--
			}
			if i <= j {
				c[i], c[j] = c[j], c[i]
				i++
				j--
			}
		}
		if j+1 < len(c)-i {
			sortCuts(c[:j+1], depth)
			c = c[i:]
		} else {
			sortCuts(c[i:], depth)
			c = c[:j+1]
		}
	}
	for i := 1; i < len(c); i++ {
		for j := i; j > 0 && c[j].at < c[j-1].at; j-- {
			c[j], c[j-1] = c[j-1], c[j]
		}
	}
}

// join concatenates x and y, every slope of x at most every slope of y.
func (s *segments) join(x, y int32) int32 {
	if x == 0 {
		return y
	}
	if y == 0 {
		return x
	}
	if prio(x) > prio(y) {
		s.push(x)
		r := s.join(s.n[x].right, y)
		s.n[x].right = r
		s.pull(x)
		return x
	}
	s.push(y)
	l := s.join(x, s.n[y].left)
	s.n[y].left = l
	s.pull(y)
	return y
}

// union merges x and y by slope: the infimal convolution of the two
// functions.
func (s *segments) union(x, y int32) int32 {
	if x == 0 {
		return y
	}
	if y == 0 {
		return x
	}
	if prio(x) < prio(y) {
		x, y = y, x
	}
	s.push(x)
	l, r := s.splitSlope(y, s.n[x].slope, x)
	l = s.union(s.n[x].left, l)
	s.n[x].left = l
	r = s.union(s.n[x].right, r)
	s.n[x].right = r
	s.pull(x)
	return x
}

// prefix calls f(origin, length) for the segments of x in order, up to a
// total length of l (the last one cut), using stack as scratch; it
// returns the grown stack.
func (s *segments) prefix(x int32, l float64, stack []int32, f func(origin int32, length float64)) []int32 {
	stack = stack[:0]
	var done float64
	for x != 0 || len(stack) > 0 {
		for x != 0 {
			s.push(x)
			stack = append(stack, x)
			x = s.n[x].left
		}
		x = stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		take := math.Min(s.n[x].length, l-done)
		if take > 0 {
			f(s.n[x].origin, take)
			done += take
		}
		if done >= l {
			break
		}
		x = s.n[x].right
	}
	return stack
}
