package pointtree

import (
	"fmt"
	"github.com/twl-ldl/twl/internal/fmath"
	"math"
	"math/rand/v2"
	"runtime"

	"github.com/twl-ldl/twl/internal/parallel"
	"github.com/twl-ldl/twl/tree"
)

// ClusterOptions controls Cluster. The zero value means the defaults.
type ClusterOptions struct {
	// K is the branching: the number of clusters each node is split into
	// (fewer when the points do not allow K). Zero means 4; it must be at
	// least 2.
	K int

	// Depth is the greatest depth of a cluster node: the root has depth 0,
	// nodes at depth Depth are not split, and points lie at depth at most
	// Depth+1. Zero means 6; it must not be negative.
	Depth int

	// Iters is the number of Lloyd assignment steps per split (fewer when
	// the assignment stops changing). Zero means 10; it must not be
	// negative.
	Iters int

	// Seed selects the random seeding of every split.
	Seed uint64

	// Workers bounds the goroutines used; zero or negative means
	// runtime.GOMAXPROCS(0). The tree is the same whatever Workers is.
	Workers int
}

func (o *ClusterOptions) resolve() (ClusterOptions, error) {
	var r ClusterOptions
	if o != nil {
		r = *o
	}
	switch {
	case r.K < 0 || r.K == 1:
		return r, &Error{Err: ErrOption, Msg: fmt.Sprintf("K = %d: the branching must be at least 2", r.K)}
	case r.Depth < 0:
		return r, &Error{Err: ErrOption, Msg: fmt.Sprintf("Depth = %d is negative", r.Depth)}
	case r.Iters < 0:
		return r, &Error{Err: ErrOption, Msg: fmt.Sprintf("Iters = %d is negative", r.Iters)}
	}
	if r.K == 0 {
		r.K = 4
	}
	if r.Depth == 0 {
		r.Depth = 6
	}
	if r.Iters == 0 {
		r.Iters = 10
	}
	if r.Workers <= 0 {
		r.Workers = runtime.GOMAXPROCS(0)
	}
	return r, nil
}

// ClusterPrefix is the base of the names of a clustering tree's internal
// nodes (see the package documentation).
const ClusterPrefix = "·c"

// Cluster returns the clustering tree of n points of dimension d (Le et al.
// 2019): a recursive k-means partition whose leaves are the points. points
// holds the coordinates row-major (point i is points[i·d : (i+1)·d]);
// names[i] names point i, and nil means "0" … "n−1". Point i is node i of
// the tree; the internal nodes follow, breadth-first. The package
// documentation gives the algorithm and the edge weights.
//
// Negative n or d, len(points) != n·d and len(names) != n are programmer
// errors and panic. An empty point set, d = 0, a NaN, infinite or too large
// coordinate, bad or repeated names and invalid options are reported as
// errors. points and names are not modified.
func Cluster(points []float64, n, d int, names []string, opts *ClusterOptions) (*tree.Tree, error) {
	checkShape("Cluster", points, n, d, names)
	o, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	if err := checkPoints(points, n, d); err != nil {
		return nil, err
	}
	if err := checkNames(names); err != nil {
		return nil, err
	}
	points, unscale := rescale(points)
	c := &clusterer{
		unscale:    unscale,
		points:     points,
		n:          n,
		d:          d,
		o:          o,
		perm:       make([]int32, n),
		assign:     make([]int32, n),
		d2:         make([]float64, n),
		tmp:        make([]int32, n),
		leafParent: make([]int32, n),
		leafWeight: make([]float64, n),
	}
	c.run()
	return c.build(pointNames(names, n), internalPrefix(names, ClusterPrefix))
}

// Grain sizes of the parallel loops: points per part of a seeding loop,
// coordinates per part of the root's mean, points per block of a Lloyd
// iteration, and the work (points × K × d) from which a node's split runs
// its loops in parallel rather than beside other nodes' splits.
const (
	grainPoints = 256
	grainDims   = 8
	lloydBlock  = 256
	bigSplit    = 1 << 20
)

// clusterer holds the state of one Cluster call. Every array indexed by
// position (perm, assign, d2, tmp) is shared by the nodes of a level, each
// node owning the range [lo, hi) of its points, so nodes split
// concurrently without locks.
type clusterer struct {
	unscale int // the weights are scaled by 2^unscale
	points  []float64
	n, d    int
	o       ClusterOptions

	perm   []int32   // point indices, each node's points contiguous and ascending
	assign []int32   // cluster of each position during a split
	d2     []float64 // k-means++: squared distance to the nearest seed
	tmp    []int32   // scratch of the stable partition

	nodes      []cnode   // cluster nodes, breadth-first
	leafParent []int32   // node below which point i hangs
	leafWeight []float64 // weight of the edge above point i
}

// cnode is a cluster node: the points perm[lo:hi] and their mean.
type cnode struct {
	lo, hi int32
	depth  int32
	parent int32 // index in nodes; -1 for the root
	key    uint64
	weight float64 // distance from centre to the parent's centre
	centre []float64
}

// child is a cluster of two or more points found by a split.
type child struct {
	lo, hi int32
	weight float64
	centre []float64
}

// mix is the finalizer of SplitMix64 (Steele, Lea & Flood 2014).
func mix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// childKey is the random stream of the j-th cluster child of the node
// whose stream is key: streams depend on a node's path, not on the order
// in which nodes are split.
func childKey(key uint64, j int) uint64 {
	return mix(key + uint64(j+1)*0x9e3779b97f4a7c15)
}

func (c *clusterer) row(i int32) []float64 { return row(c.points, c.d, int(i)) }

func (c *clusterer) run() {
	n, d := c.n, c.d
	for i := range c.perm {
		c.perm[i] = int32(i)
	}
	centre := make([]float64, d)
	parallel.For(d, c.o.Workers, grainDims, func(a, b int) {
		s := centre[a:b]
		for i := range n {
			x := c.row(int32(i))[a:b]
			for j := range s {
				s[j] += x[j]
			}
		}
		for j := range s {
			s[j] /= float64(n)
		}
	})
	c.nodes = append(c.nodes, cnode{lo: 0, hi: int32(n), parent: -1, key: mix(0x726f6f74), centre: centre})

	level := []int32{0}
	for len(level) > 0 {
		kids := make([][]child, len(level))
		var small []int
		for i, h := range level {
			nd := &c.nodes[h]
			if int(nd.hi-nd.lo)*c.o.K*d >= bigSplit && c.o.Workers > 1 {
				kids[i] = c.split(h, c.o.Workers)
			} else {
				small = append(small, i)
			}
		}
		parallel.Each(len(small), c.o.Workers, func(t int) {
			i := small[t]
			kids[i] = c.split(level[i], 1)
		})
		var next []int32
		for i, h := range level {
			nd := c.nodes[h]
			for j, ch := range kids[i] {
				next = append(next, int32(len(c.nodes)))
				c.nodes = append(c.nodes, cnode{
					lo: ch.lo, hi: ch.hi, depth: nd.depth + 1, parent: h,
					key: childKey(nd.key, j), weight: ch.weight, centre: ch.centre,
				})
			}
		}
		level = next
	}
}

// hang makes the points of node h its leaves.
func (c *clusterer) hang(h int32) {
	nd := &c.nodes[h]
	for _, i := range c.perm[nd.lo:nd.hi] {
		c.leafParent[i] = h
		c.leafWeight[i] = dist(c.row(i), nd.centre)
	}
}

// split partitions the points of node h by k-means and returns its
// children of two or more points; points alone in their cluster become
// leaves of h, as do all its points when h is not split.
func (c *clusterer) split(h int32, workers int) []child {
	nd := &c.nodes[h]
	lo, hi := int(nd.lo), int(nd.hi)
	K, d := c.o.K, c.d
	if int(nd.depth) >= c.o.Depth || hi-lo < K {
		c.hang(h)
		return nil
	}
	perm, assign := c.perm[lo:hi], c.assign[lo:hi]
	rng := rand.New(rand.NewPCG(c.o.Seed, nd.key))
	cen := make([]float64, K*d)
	k := c.seed(cen, perm, c.d2[lo:hi], rng, workers)
	if k < 2 {
		c.hang(h) // all the points coincide
		return nil
	}
	cen = cen[:k*d]
	c.lloyd(cen, k, perm, assign, workers)

	// Renumber the clusters in the order of their first point (their
	// smallest point index, as the range is ascending), dropping empty ones,
	// and partition the range stably.
	relabel := make([]int32, k)
	for j := range relabel {
		relabel[j] = -1
	}
	var count []int32
	for _, a := range assign {
		if relabel[a] < 0 {
			relabel[a] = int32(len(count))
			count = append(count, 0)
		}
		count[relabel[a]]++
	}
	kk := len(count)
	if kk < 2 {
		c.hang(h)
		return nil
	}
	start := make([]int32, kk+1)
	for j, m := range count {
		start[j+1] = start[j] + m
	}
	fill := append([]int32(nil), start[:kk]...)
	tmp := c.tmp[lo:hi]
	for p, a := range assign {
		l := relabel[a]
		tmp[fill[l]] = perm[p]
		fill[l]++
	}
	copy(perm, tmp)

	// Children in the order of their first point; a point alone in its
	// cluster hangs below h.
	old := make([]int, kk)
	for j, l := range relabel {
		if l >= 0 {
			old[l] = j
		}
	}
	var kids []child
	for l, j := range old {
		a, b := start[l], start[l+1]
		if b-a == 1 {
			i := perm[a]
			c.leafParent[i] = h
			c.leafWeight[i] = dist(c.row(i), nd.centre)
			continue
		}
		centre := cen[j*d : (j+1)*d : (j+1)*d]
		kids = append(kids, child{lo: int32(lo) + a, hi: int32(lo) + b, weight: dist(centre, nd.centre), centre: centre})
	}
	return kids
}

// seed chooses up to K initial centres among the points perm by k-means++
// (Arthur & Vassilvitskii 2007): the first uniformly, each next one with
// probability proportional to its squared distance to the nearest centre
// chosen. It stops early when every point coincides with a centre, and
// returns the number of centres, stored row by row in cen.
func (c *clusterer) seed(cen []float64, perm []int32, d2 []float64, rng *rand.Rand, workers int) int {
	d, m := c.d, len(perm)
	first := cen[:d]
	copy(first, c.row(perm[rng.IntN(m)]))
	parallel.For(m, workers, grainPoints, func(a, b int) {
		for p := a; p < b; p++ {
			d2[p] = fmath.SqDist(c.row(perm[p]), first)
		}
	})
	k := 1
	for k < c.o.K {
		var total float64
		for _, v := range d2 {
			total += v
		}
		if !(total > 0) {
			break
		}
		// The first point whose cumulative weight exceeds r; the last point
		// of positive weight should rounding leave none.
		r := rng.Float64() * total
		pick := -1
		var acc float64
		for p, v := range d2 {
			if v > 0 {
				pick = p
				if acc += v; acc > r {
					break
				}
			}
		}
		ck := cen[k*d : (k+1)*d]
		copy(ck, c.row(perm[pick]))
		k++
		if k < c.o.K {
			parallel.For(m, workers, grainPoints, func(a, b int) {
				for p := a; p < b; p++ {
					d2[p] = min(d2[p], fmath.SqDist(c.row(perm[p]), ck))
				}
			})
		}
	}
	return k
}

// lloyd runs Lloyd's iterations from the k centres in cen: assign every
// point to its nearest centre (the first on ties), then move every centre
// to the mean of its points (a centre left without points stays), until
// Iters assignments or an assignment that changes nothing. On return the
// centres are the means of the clusters given by assign.
//
// The points are taken in fixed blocks of B positions (lloydBlock, or 16k
// for large k), which do not depend on workers. Each block
// sums its points per cluster while it assigns them (the rows are then in
// cache); the sums of a cluster are the blocks' sums added in block order,
// so the bits do not depend on workers.
func (c *clusterer) lloyd(cen []float64, k int, perm, assign []int32, workers int) {
	d, m := c.d, len(perm)
	B := max(lloydBlock, 16*k) // the partial sums take at most m·d/16 floats
	nb := (m + B - 1) / B
	bsums := make([]float64, nb*k*d)
	bcounts := make([]int, nb*k)
	bchanged := make([]int, nb)
	counts := make([]int, k)
	for it := range c.o.Iters {
		parallel.For(nb, workers, 1, func(lo, hi int) {
			for blk := lo; blk < hi; blk++ {
				sums := bsums[blk*k*d : (blk+1)*k*d]
				cnt := bcounts[blk*k : (blk+1)*k]
				clear(sums)
				clear(cnt)
				ch := 0
				for p := blk * B; p < min(m, (blk+1)*B); p++ {
					x := c.row(perm[p])
					best, bj := math.Inf(1), 0
					for j := range k {
						if v := fmath.SqDist(x, cen[j*d:(j+1)*d]); v < best {
							best, bj = v, j
						}
					}
					if it == 0 || assign[p] != int32(bj) {
						ch++
					}
					assign[p] = int32(bj)
					cnt[bj]++
					s := sums[bj*d : (bj+1)*d]
					for t, xt := range x {
						s[t] += xt
					}
				}
				bchanged[blk] = ch
			}
		})
		total := 0
		for _, ch := range bchanged {
			total += ch
		}
		if total == 0 {
			return // the centres are already the means of this assignment
		}
		clear(counts)
		for blk := range nb {
			for j, v := range bcounts[blk*k : (blk+1)*k] {
				counts[j] += v
			}
		}
		for j, cnt := range counts {
			if cnt == 0 {
				continue
			}
			cj := cen[j*d : (j+1)*d]
			copy(cj, bsums[j*d:(j+1)*d])
			for blk := 1; blk < nb; blk++ {
				s := bsums[(blk*k+j)*d : (blk*k+j+1)*d]
				for t := range cj {
					cj[t] += s[t]
				}
			}
			for t := range cj {
				cj[t] /= float64(cnt)
			}
		}
	}
}

// build assembles the tree: points first, in their order, then the
// cluster nodes breadth-first.
func (c *clusterer) build(names []string, prefix string) (*tree.Tree, error) {
	n := c.n
	N := n + len(c.nodes)
	parent := make([]int, N)
	weight := make([]float64, N)
	all := make([]string, N)
	copy(all, names)
	for i := range n {
		parent[i] = n + int(c.leafParent[i])
		weight[i] = normalWeight(math.Ldexp(c.leafWeight[i], c.unscale))
	}
	ord := make([]int, len(c.nodes))
	for j, nd := range c.nodes {
		if nd.parent < 0 {
			parent[n+j] = -1
			all[n+j] = prefix
			continue
		}
		p := int(nd.parent)
		parent[n+j] = n + p
		weight[n+j] = normalWeight(math.Ldexp(nd.weight, c.unscale))
		all[n+j] = childName(all[n+p], ord[p])
		ord[p]++
	}
	return tree.FromParents(parent, weight, all, nil)
}
