package pointtree

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/twl-ldl/twl/tree"
)

// MaxQuadDepth is the largest QuadOptions.Depth: finer cells than
// 2s/2^50 are below the resolution of float64 coordinates.
const MaxQuadDepth = 50

// QuadOptions controls Quad. The zero value means the defaults.
type QuadOptions struct {
	// Depth is the level of the finest cells: the root cell, of side 2s,
	// has level 0 and a cell of level ℓ has side 2s/2^ℓ. Zero means 12; it
	// must lie in [0, MaxQuadDepth].
	Depth int

	// Seed selects the random shift, unless Shift is given.
	Seed uint64

	// Shift, when not nil, is the shift as fractions of s: u_j = Shift[j]·s,
	// each Shift[j] in [0, 1). Its length must be d (else Quad panics). Nil
	// means a shift drawn uniformly from [0, s)^d with Seed.
	Shift []float64
}

func (o *QuadOptions) resolve(d int) (QuadOptions, error) {
	var r QuadOptions
	if o != nil {
		r = *o
	}
	if r.Depth < 0 || r.Depth > MaxQuadDepth {
		return r, &Error{Err: ErrOption, Msg: fmt.Sprintf("Depth = %d is outside [0, %d]", r.Depth, MaxQuadDepth)}
	}
	if r.Depth == 0 {
		r.Depth = 12
	}
	if r.Shift != nil {
		if len(r.Shift) != d {
			panic(fmt.Sprintf("pointtree: Quad: len(Shift) = %d != d = %d", len(r.Shift), d))
		}
		for j, f := range r.Shift {
			if !(f >= 0 && f < 1) {
				return r, &Error{Err: ErrOption, Msg: fmt.Sprintf("Shift[%d] = %v is outside [0, 1)", j, f)}
			}
		}
	}
	return r, nil
}

// QuadPrefix is the base of the names of a quadtree's internal nodes (see
// the package documentation).
const QuadPrefix = "·q"

// Quad returns the randomly shifted quadtree of n points of dimension d
// (Indyk & Thaper 2003), whose leaves are the points, with every edge as
// long as the diameter of the cell below it: the distance between two
// points in the tree is at least their Euclidean distance. The package
// documentation gives the cells, the weights and the collapsed chains. The
// arguments are those of Cluster, as are the panics and errors; point i is
// node i of the tree, and the cells follow, breadth-first.
func Quad(points []float64, n, d int, names []string, opts *QuadOptions) (*tree.Tree, error) {
	checkShape("Quad", points, n, d, names)
	o, err := opts.resolve(d)
	if err != nil {
		return nil, err
	}
	if err := checkPoints(points, n, d); err != nil {
		return nil, err
	}
	if err := checkNames(names); err != nil {
		return nil, err
	}
	q := newQuadder(points, n, d, o)
	q.run()
	return q.build(pointNames(names, n), internalPrefix(names, QuadPrefix))
}

// quadder holds the state of one Quad call.
type quadder struct {
	points []float64
	n, d   int
	depth  int
	s      float64   // the largest coordinate range
	a      []float64 // a_j = u_j − min_j: x_j + a_j is the shifted coordinate
	c      float64   // 1/(2s)
	diam   float64   // √d·2s, the diameter of the root cell

	perm  []int32 // point indices, each cell's points contiguous and ascending
	cells []qcell // breadth-first

	leafParent []int32
	leafWeight []float64

	// Scratch of group, indexed by position in the cell.
	words int      // uint64 words of a child key: ⌈d/64⌉
	keys  []uint64 // child key of each point
	group []int32  // child of each point
	table []int32  // open addressing: group+1, or 0 for empty
	first []int32  // position of each group's first point
	tmp   []int32
	count []int32
}

// qcell is a non-empty cell holding two or more points, perm[lo:hi],
// after collapsing: the deepest cell of its chain.
type qcell struct {
	lo, hi int32
	level  int32
	parent int32   // index in cells; -1 for the root
	weight float64 // the diameters of the cells of its chain, summed
}

func newQuadder(points []float64, n, d int, o QuadOptions) *quadder {
	lo := append([]float64(nil), points[:d]...)
	hi := append([]float64(nil), points[:d]...)
	for i := 1; i < n; i++ {
		for j, x := range row(points, d, i) {
			lo[j] = min(lo[j], x)
			hi[j] = max(hi[j], x)
		}
	}
	var s float64
	for j := range lo {
		s = max(s, hi[j]-lo[j])
	}
	q := &quadder{
		points:     points,
		n:          n,
		d:          d,
		depth:      o.Depth,
		s:          s,
		a:          make([]float64, d),
		perm:       make([]int32, n),
		leafParent: make([]int32, n),
		leafWeight: make([]float64, n),
	}
	for i := range q.perm {
		q.perm[i] = int32(i)
	}
	q.c = 1 / (2 * s)
	if math.IsInf(q.c, 1) {
		// s = 0, or so small (below 2.8e-309) that 1/(2s) overflows: the
		// points coincide, or all but; run makes them leaves of the root.
		q.s = 0
		return q
	}
	q.diam = math.Sqrt(float64(d)) * 2 * s
	rng := rand.New(rand.NewPCG(o.Seed, 0x71756164)) // "quad"
	for j := range q.a {
		f := 0.0
		if o.Shift != nil {
			f = o.Shift[j]
		} else {
			f = rng.Float64()
		}
		q.a[j] = f*s - lo[j]
	}
	q.words = (d + 63) / 64
	q.keys = make([]uint64, n*q.words)
	q.group = make([]int32, n)
	q.table = make([]int32, tableSize(n))
	q.first = make([]int32, 0, 16)
	q.tmp = make([]int32, n)
	return q
}

// tableSize is the size of the hash table for m keys: a power of two at
// least 2m.
func tableSize(m int) int {
	t := 4
	for t < 2*m {
		t *= 2
	}
	return t
}

// cellDiam returns the diameter of a cell of level ℓ: √d·2s/2^ℓ.
func (q *quadder) cellDiam(level int) float64 { return math.Ldexp(q.diam, -level) }

func (q *quadder) run() {
	q.cells = append(q.cells, qcell{lo: 0, hi: int32(q.n), parent: -1})
	if q.s == 0 {
		for i := range q.n {
			q.leafParent[i] = 0 // weight 0: the points coincide
		}
		return
	}
	for h := 0; h < len(q.cells); h++ {
		cl := q.cells[h]
		for {
			if int(cl.level) == q.depth {
				q.hang(int32(h), cl, q.cellDiam(q.depth+1))
				break
			}
			groups := q.split(cl.lo, cl.hi, int(cl.level)+1)
			if groups == 1 {
				cl.level++ // a chain: the cell's only child takes its place
				if h > 0 {
					cl.weight += q.cellDiam(int(cl.level))
				}
				continue
			}
			w := q.cellDiam(int(cl.level) + 1)
			for g := range groups {
				a, b := q.first[g], q.first[g+1]
				if b-a == 1 {
					i := q.perm[cl.lo+a]
					q.leafParent[i] = int32(h)
					q.leafWeight[i] = w
					continue
				}
				q.cells = append(q.cells, qcell{lo: cl.lo + a, hi: cl.lo + b, level: cl.level + 1, parent: int32(h), weight: w})
			}
			break
		}
		q.cells[h] = cl
	}
}

// hang makes the points of cell h its leaves, with edges of weight w.
func (q *quadder) hang(h int32, cl qcell, w float64) {
	for _, i := range q.perm[cl.lo:cl.hi] {
		q.leafParent[i] = h
		q.leafWeight[i] = w
	}
}

// split partitions the points perm[lo:hi], which share a cell of level
// ℓ−1, into the cells of level ℓ, stably, children in the order of their
// first point. It returns the number of children; the bounds of child g,
// relative to lo, are first[g] and first[g+1].
//
// The child of a point is given by the ℓ-th binary digit of each of its
// scaled coordinates z_j = (x_j + a_j)/(2s) ∈ [0, 1): bit j of the key is
// ⌊z_j·2^ℓ⌋ mod 2. z_j is computed the same way at every level, and
// scaling by a power of two is exact, so the cells of successive levels
// nest exactly.
func (q *quadder) split(lo, hi int32, level int) int {
	m := int(hi - lo)
	W, d := q.words, q.d
	scale := math.Ldexp(1, level)
	keys := q.keys[:m*W]
	clear(keys)
	perm := q.perm[lo:hi]
	for p, i := range perm {
		x := row(q.points, d, int(i))
		key := keys[p*W : (p+1)*W]
		for j, xj := range x {
			z := (xj + q.a[j]) * q.c
			bit := uint64(int64(z*scale)) & 1
			key[j>>6] |= bit << (j & 63)
		}
	}

	// Group equal keys with an open-addressing hash table.
	size := tableSize(m)
	table := q.table[:size]
	clear(table)
	mask := uint64(size - 1)
	group := q.group[:m]
	q.count = q.count[:0]
	q.first = q.first[:0]
	for p := range m {
		key := keys[p*W : (p+1)*W]
		var hsh uint64
		for _, w := range key {
			hsh = mix(hsh ^ w)
		}
		for slot := hsh & mask; ; slot = (slot + 1) & mask {
			g := table[slot] - 1
			if g < 0 {
				g = int32(len(q.count))
				table[slot] = g + 1
				q.first = append(q.first, int32(p))
				q.count = append(q.count, 0)
			} else if !equalKeys(key, keys[int(q.first[g])*W:int(q.first[g]+1)*W]) {
				continue
			}
			group[p] = g
			q.count[g]++
			break
		}
	}
	groups := len(q.count)
	if groups == 1 {
		return 1
	}
	// Stable partition by group; first becomes the groups' bounds.
	q.first = append(q.first[:0], 0)
	for _, c := range q.count {
		q.first = append(q.first, q.first[len(q.first)-1]+c)
	}
	fill := q.count // reused as the next free position of each group
	copy(fill, q.first[:groups])
	tmp := q.tmp[:m]
	for p, g := range group {
		tmp[fill[g]] = perm[p]
		fill[g]++
	}
	copy(perm, tmp)
	return groups
}

func equalKeys(a, b []uint64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// build assembles the tree: points first, in their order, then the cells
// breadth-first.
func (q *quadder) build(names []string, prefix string) (*tree.Tree, error) {
	n := q.n
	N := n + len(q.cells)
	parent := make([]int, N)
	weight := make([]float64, N)
	all := make([]string, N)
	copy(all, names)
	for i := range n {
		parent[i] = n + int(q.leafParent[i])
		weight[i] = normalWeight(q.leafWeight[i])
	}
	ord := make([]int, len(q.cells))
	for j, cl := range q.cells {
		if cl.parent < 0 {
			parent[n+j] = -1
			all[n+j] = prefix
			continue
		}
		p := int(cl.parent)
		parent[n+j] = n + p
		weight[n+j] = normalWeight(cl.weight)
		all[n+j] = childName(all[n+p], ord[p])
		ord[p]++
	}
	return tree.FromParents(parent, weight, all, nil)
}
