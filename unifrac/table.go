package unifrac

import (
	"fmt"
	"math"
)

// Table is a table of counts, one sparse row per sample, in compressed
// sparse row form: sample s has counts Values[k] on the tree nodes
// Indices[k] (user indices of package tree) for k in
// [Indptr[s], Indptr[s+1]). A node may appear more than once in a row; its
// counts add up. Zero counts are allowed and ignored.
type Table struct {
	// IDs names the samples; it may be nil.
	IDs     []string
	Indptr  []int
	Indices []int32
	Values  []float64
	// Listed holds further nodes that the table names without any entry
	// in a row: the observations of a BIOM table whose counts are all
	// zero. Only Options.BypassTips looks at them (a listed tip keeps its
	// parent's branch in the tree that ssu prunes to the table). It may be
	// nil.
	Listed []int32
}

// Len returns the number of samples.
func (t *Table) Len() int { return len(t.Indptr) - 1 }

// check validates the table's shape and values against a tree with nodes
// user nodes; with raw, a sample may have no positive count.
func (t *Table) check(nodes int, raw bool) error {
	if len(t.Indptr) == 0 {
		return fmt.Errorf("unifrac: table has no Indptr")
	}
	n := len(t.Indptr) - 1
	if n >= 1<<30 {
		return fmt.Errorf("unifrac: table has %d samples, more than 2³⁰−1", n)
	}
	if t.IDs != nil && len(t.IDs) != n {
		return fmt.Errorf("unifrac: table has %d sample ids for %d samples", len(t.IDs), n)
	}
	if len(t.Indices) != len(t.Values) {
		return fmt.Errorf("unifrac: table has %d indices and %d values", len(t.Indices), len(t.Values))
	}
	for _, i := range t.Listed {
		if i < 0 || int(i) >= nodes {
			return fmt.Errorf("unifrac: table lists node %d, out of range [0, %d)", i, nodes)
		}
	}
	if t.Indptr[0] != 0 || t.Indptr[n] != len(t.Indices) {
		return fmt.Errorf("unifrac: table Indptr does not span [0, %d)", len(t.Indices))
	}
	for s := range n {
		lo, hi := t.Indptr[s], t.Indptr[s+1]
		if hi < lo {
			return fmt.Errorf("unifrac: table Indptr decreases at sample %d", s)
		}
		var sum float64
		for k := lo; k < hi; k++ {
			i, v := t.Indices[k], t.Values[k]
			if i < 0 || int(i) >= nodes {
				return fmt.Errorf("unifrac: sample %s: node %d out of range [0, %d)", t.name(s), i, nodes)
			}
			if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("unifrac: sample %s: count %g on node %d is negative or not finite", t.name(s), v, i)
			}
			sum += v
		}
		if (sum == 0 && !raw) || math.IsInf(sum, 0) {
			return fmt.Errorf("unifrac: sample %s: total count %g is not positive and finite", t.name(s), sum)
		}
	}
	return nil
}

func (t *Table) name(s int) string {
	if t.IDs != nil {
		return fmt.Sprintf("%q", t.IDs[s])
	}
	return fmt.Sprint(s)
}
