package labelset

import (
	"math"
	"slices"

	"github.com/twl-ldl/twl/tree"
)

// better reports whether label a of p comes before label b: higher mass
// first, equal masses in label order.
func better(p []float64, a, b int) bool { return p[a] > p[b] || p[a] == p[b] && a < b }

// Top appends to dst the labels of p of mass at least min, the k of highest
// mass when k > 0, by decreasing mass (equal masses in label order), and
// returns the extended slice. The masses must not be NaN. It allocates only
// to grow dst, and panics if k is negative.
func Top(dst []int, p []float64, k int, min float64) []int {
	if k < 0 {
		panic("labelset: Top with k < 0")
	}
	base := len(dst)
	if k == 0 || k >= len(p) {
		for j, v := range p {
			if v >= min {
				dst = append(dst, j)
			}
		}
		h := dst[base:]
		slices.SortFunc(h, func(a, b int) int {
			if better(p, a, b) {
				return -1
			}
			return 1
		})
		return dst
	}
	// A heap of the best labels so far, the worst at its root.
	worse := func(a, b int) bool { return better(p, b, a) }
	for j, v := range p {
		if v < min {
			continue
		}
		h := dst[base:]
		if len(h) < k {
			dst = append(dst, j)
			h = dst[base:]
			for c := len(h) - 1; c > 0; { // sift up
				up := (c - 1) / 2
				if !worse(h[c], h[up]) {
					break
				}
				h[up], h[c] = h[c], h[up]
				c = up
			}
			continue
		}
		if better(p, j, h[0]) {
			h[0] = j
			siftDown(h, len(h), worse)
		}
	}
	// Pop the worst to the end, leaving the best first.
	h := dst[base:]
	for n := len(h) - 1; n > 0; n-- {
		h[0], h[n] = h[n], h[0]
		siftDown(h, n, worse)
	}
	return dst
}

// siftDown restores the heap h[:n] (the root the least by less) below its
// root.
func siftDown(h []int, n int, less func(a, b int) bool) {
	for c := 0; ; {
		l := 2*c + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && less(h[r], h[l]) {
			m = r
		}
		if !less(h[m], h[c]) {
			return
		}
		h[c], h[m] = h[m], h[c]
		c = m
	}
}

// Decoder finds the label sets of Closed over one tree, reusing its memory.
// It is not safe for concurrent use; give each goroutine its own.
type Decoder struct {
	t   *tree.Tree
	ord tree.Order

	keep  []bool    // by position: the label and its ancestors have mass ≥ min
	size  []int32   // by position: the labels kept in its subtree, capped at K
	f     []float64 // by position, K+1 each: the best mass of a closed set of j labels of its subtree, the position's own label included
	split []int32   // by position, K+1 each: how many of the parent's j labels the position's subtree took
	first []int32   // the children of position q are the positions first[q] … first[q+1]-1
	tmp   []float64
	tmpS  []int32
	stack []item
}

// item is a position and the number of labels its subtree holds.
type item struct{ q, j int32 }

// NewDecoder returns a Decoder for the tree t.
func NewDecoder(t *tree.Tree) *Decoder {
	o := t.Order()
	n := len(o.Parent)
	d := &Decoder{t: t, ord: o, keep: make([]bool, n), size: make([]int32, n), first: make([]int32, n+1)}
	// Breadth-first positions: the children of a position are contiguous,
	// after those of every position before it.
	c := int32(1)
	for q := range n {
		d.first[q] = c
		for c < int32(n) && o.Parent[c] == int32(q) {
			c++
		}
	}
	d.first[n] = c
	return d
}

// Closed appends to dst the labels of the set of highest total mass
// among those closed under ancestors in the tree, of at most k labels (no
// bound for k = 0), each of mass at least min (see the package
// documentation), by decreasing mass (equal masses in label order), and
// returns the extended slice. p holds a mass for every label of the tree,
// in its user order; the masses must not be NaN. It panics if len(p) is not
// the number of labels or k is negative.
func (d *Decoder) Closed(dst []int, p []float64, k int, min float64) []int {
	L := d.t.Len()
	if len(p) != L {
		panic("labelset: Decoder.Closed with a distribution of the wrong length")
	}
	if k < 0 {
		panic("labelset: Decoder.Closed with k < 0")
	}
	o := d.ord
	n := len(o.Parent)
	// The labels the threshold keeps, top-down: positions are breadth
	// first, a parent before its children.
	kept := 0
	for q := range n {
		if l := o.Label[q]; l < 0 {
			d.keep[q] = true // the virtual root of a forest
		} else {
			d.keep[q] = p[l] >= min && (q == 0 || d.keep[o.Parent[q]])
			if d.keep[q] {
				kept++
			}
		}
	}
	base := len(dst)
	if k == 0 || k >= kept {
		for q := range n {
			if d.keep[q] && o.Label[q] >= 0 {
				dst = append(dst, int(o.Label[q]))
			}
		}
		return sortByMass(dst, base, p)
	}
	d.solve(p, k)
	// The best number of labels at the root, a larger one on ties.
	best, j := math.Inf(-1), 0
	for s := 0; s <= int(d.size[0]); s++ {
		if v := d.f[s]; v >= best {
			best, j = v, s
		}
	}
	dst = d.collect(dst, j)
	return sortByMass(dst, base, p)
}

// solve fills f and split bottom-up for the bound k: each position's
// subtree knapsack, its children merged into it in decreasing position
// order.
func (d *Decoder) solve(p []float64, k int) {
	o := d.ord
	n := len(o.Parent)
	K := k + 1
	if cap(d.f) < n*K {
		d.f = make([]float64, n*K)
		d.split = make([]int32, n*K)
	}
	d.f, d.split = d.f[:n*K], d.split[:n*K]
	if cap(d.tmp) < K {
		d.tmp, d.tmpS = make([]float64, K), make([]int32, K)
	}
	tmp, tmpS := d.tmp[:K], d.tmpS[:K]
	ninf := math.Inf(-1)
	// Start every kept position with itself alone.
	for q := range n {
		if !d.keep[q] {
			continue
		}
		f := d.f[q*K : (q+1)*K]
		for j := range f {
			f[j] = ninf
		}
		if l := o.Label[q]; l < 0 {
			f[0] = 0 // the virtual root: no label of its own
			d.size[q] = 0
		} else {
			f[1] = p[l]
			d.size[q] = 1
		}
	}
	for q := n - 1; q >= 1; q-- {
		if !d.keep[q] {
			continue
		}
		u := o.Parent[q]
		fu, fq := d.f[int(u)*K:int(u+1)*K], d.f[q*K:(q+1)*K]
		su, sq := int(d.size[u]), int(d.size[q])
		top := min(su+sq, k)
		// tmp[j]: the best of fu[a] + (b > 0 ? fq[b] : 0) over a + b = j.
		for j := 0; j <= top; j++ {
			tmp[j], tmpS[j] = ninf, 0
		}
		for a := 0; a <= su; a++ {
			if fu[a] == ninf {
				continue
			}
			if fu[a] > tmp[a] {
				tmp[a], tmpS[a] = fu[a], 0
			}
			for b := 1; b <= sq && a+b <= k; b++ {
				if fq[b] == ninf {
					continue
				}
				if v := fu[a] + fq[b]; v > tmp[a+b] {
					tmp[a+b], tmpS[a+b] = v, int32(b)
				}
			}
		}
		copy(fu, tmp[:top+1])
		copy(d.split[q*K:q*K+top+1], tmpS[:top+1])
		d.size[u] = int32(top)
	}
}

// collect appends the labels of the best set of j labels of the whole tree,
// following split down from the root: a position given j labels takes its
// own (unless virtual) and hands the rest to its children, from its first
// child on, the reverse of the order they were merged in.
func (d *Decoder) collect(dst []int, j int) []int {
	o := d.ord
	K := len(d.f) / len(o.Parent)
	st := d.stack[:0]
	if j > 0 {
		st = append(st, item{0, int32(j)})
	}
	for len(st) > 0 {
		it := st[len(st)-1]
		st = st[:len(st)-1]
		q, j := it.q, it.j
		if l := o.Label[q]; l >= 0 {
			dst = append(dst, int(l))
		}
		for c := d.first[q]; c < d.first[q+1]; c++ {
			if !d.keep[c] {
				continue
			}
			if b := d.split[int(c)*K+int(j)]; b > 0 {
				st = append(st, item{c, b})
				j -= b
			}
		}
	}
	d.stack = st
	return dst
}

// sortByMass sorts dst[base:] by decreasing mass, equal masses in label
// order.
func sortByMass(dst []int, base int, p []float64) []int {
	slices.SortFunc(dst[base:], func(a, b int) int {
		if better(p, a, b) {
			return -1
		}
		return 1
	})
	return dst
}
