package unifrac

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/twl-ldl/twl/biom"
	"github.com/twl-ldl/twl/tree"
)

// refTableOf is TableOf as first written, one sample after the other; it maps the samples of b onto the tips of t: each observation id
// must name a tip of t, matched byte for byte (as package newick names
// tips, and as ssu matches them); otherwise the error is a
// *MissingTipsError naming the first few. A sample without counts, or
// with a negative or non-finite count, is a *SampleError: UniFrac is not
// defined for an empty sample (ssu gives it distances as to an empty
// community; here it must be removed from the table). Counts that sum to
// infinity are refused as well, and so is a table without samples. b is not modified and the result shares
// nothing with it.
func refTableOf(t *tree.Tree, b *biom.Table) (*Table, error) {
	node := make([]int32, len(b.Observations))
	miss := &MissingTipsError{}
	for o, id := range b.Observations {
		i, ok := t.Index(id)
		if !ok || !t.IsLeaf(i) {
			if len(miss.IDs) < 5 {
				miss.IDs = append(miss.IDs, id)
			}
			miss.Count++
			continue
		}
		node[o] = int32(i)
	}
	if miss.Count > 0 {
		return nil, miss
	}
	n := len(b.Samples)
	if n == 0 {
		return nil, errors.New("no samples")
	}
	if len(b.Indptr) != n+1 || len(b.Indices) != len(b.Data) || b.Indptr[0] != 0 || b.Indptr[n] != len(b.Data) {
		return nil, fmt.Errorf("unifrac: biom table of %d samples has malformed rows", n)
	}
	tab := &Table{
		IDs:     slices.Clone(b.Samples),
		Indptr:  slices.Clone(b.Indptr),
		Indices: make([]int32, len(b.Indices)),
		Values:  slices.Clone(b.Data),
	}
	for s := range n {
		lo, hi := b.Indptr[s], b.Indptr[s+1]
		if hi < lo {
			return nil, fmt.Errorf("unifrac: biom table rows decrease at sample %d", s+1)
		}
		var sum float64
		for k := lo; k < hi; k++ {
			o, v := b.Indices[k], b.Data[k]
			if o < 0 || int(o) >= len(node) {
				return nil, &SampleError{b.Samples[s], fmt.Sprintf("observation index %d out of range [0, %d)", o, len(node))}
			}
			if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, &SampleError{b.Samples[s], fmt.Sprintf("count %v of observation %q is negative or not finite", v, b.Observations[o])}
			}
			tab.Indices[k] = node[o]
			sum += v
		}
		switch {
		case sum == 0:
			return nil, &SampleError{b.Samples[s], "no counts: UniFrac is not defined for an empty sample (remove it from the table)"}
		case math.IsInf(sum, 0):
			return nil, &SampleError{b.Samples[s], "the counts sum to infinity"}
		}
	}
	// Observations without any entry are listed, in their order.
	for o := range b.Observations {
		if !slices.Contains(b.Indices, int32(o)) {
			tab.Listed = append(tab.Listed, node[o])
		}
	}
	return tab, nil
}
