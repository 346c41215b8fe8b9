package unifrac

import (
	"math/bits"
	"runtime"

	"github.com/twl-ldl/twl/internal/parallel"
	"github.com/twl-ldl/twl/tree"
)

// FaithPD stores in dst[s] Faith's phylogenetic diversity of sample s of
// tab (Faith 1992): the total length of the branches on the root paths of
// the nodes where the sample has a positive count, each branch counted
// once. The root has no branch of its own; a count on an internal node
// counts its root path, as a count on a tip does. A sample without a
// positive count has diversity 0. This is the value of faithpd (Striped
// UniFrac), which also leaves out the root's branch and counts a branch
// when the sample's count below it is positive.
//
// The samples are taken 64 at a time: one sweep of the tree's positions,
// children before parents, passes each position's set of samples up to its
// parent and adds its branch's length to each of them, so a diversity is
// summed in an order set by the tree alone (not by the order of a row) and
// the results do not depend on opts.Workers, the only option FaithPD
// reads (≤ 0 means runtime.GOMAXPROCS(0)). The work is O(L·N/64 + Σ|paths|)
// for L tree nodes and N samples.
//
// It panics if t or tab is nil or len(dst) ≠ tab.Len(), and returns an
// error for a table whose content does not fit the tree (a node out of
// range, a negative or non-finite count).
func FaithPD(dst []float64, t *tree.Tree, tab *Table, opts *Options) error {
	if t == nil || tab == nil {
		panic("unifrac: nil tree or table")
	}
	if len(dst) != tab.Len() {
		panic("unifrac: destination has the wrong length")
	}
	if err := tab.check(t.Len(), true); err != nil {
		return err
	}
	workers := runtime.GOMAXPROCS(0)
	if opts != nil && opts.Workers > 0 {
		workers = opts.Workers
	}
	o := t.Order()
	L, n := len(o.Parent), tab.Len()
	parent, pos, weight := o.Parent, o.Position, o.Weight
	groups := (n + 63) / 64
	parallel.ForParts(groups, workers, 1, func(_, lo, hi int) {
		word := make([]uint64, L)
		var pd [64]float64
		for g := lo; g < hi; g++ {
			s0 := g * 64
			for s := s0; s < min(s0+64, n); s++ {
				bit := uint64(1) << (s - s0)
				for k := tab.Indptr[s]; k < tab.Indptr[s+1]; k++ {
					if tab.Values[k] > 0 {
						word[pos[tab.Indices[k]]] |= bit
					}
				}
			}
			clear(pd[:])
			for k := L - 1; k > 0; k-- {
				x := word[k]
				if x == 0 {
					continue
				}
				word[k] = 0
				word[parent[k]] |= x
				w := weight[k]
				for ; x != 0; x &= x - 1 {
					pd[bits.TrailingZeros64(x)] += w
				}
			}
			word[0] = 0
			copy(dst[s0:min(s0+64, n)], pd[:])
		}
	})
	return nil
}
