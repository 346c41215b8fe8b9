package unifrac

import (
	"context"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// TestListedOrderZero checks that a sample and a copy listing the same
// counts in another order are at distance exactly 0 (the package
// documentation promises it for "the same proportions, listed in any
// order"): with a node listed three times, and with counts whose total
// depends on the order of addition (0.1 + 0.2 + 0.3 ≠ 0.3 + 0.2 + 0.1 in
// float64, by hand).
func TestListedOrderZero(t *testing.T) {
	// Root 0 with children 1, 2, 3; node 1 with tips 4, 5; all branches of
	// length 1.
	tr, err := tree.FromParents([]int{-1, 0, 0, 0, 1, 1}, []float64{0, 1, 1, 1, 1, 1}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		i0, i1 []int32
		v0, v1 []float64
	}{
		// Node 4 listed three times (total 89, exact either way): its
		// proportions 7/89, 12/89 and 42/89 add up to a mass one ulp apart
		// in the two orders.
		{"repeated node", []int32{4, 4, 4, 2}, []int32{4, 4, 4, 2}, []float64{7, 12, 42, 28}, []float64{42, 12, 7, 28}},
		// Three distinct nodes, non-integer counts: the totals differ.
		{"fractional counts", []int32{1, 2, 3}, []int32{3, 2, 1}, []float64{0.1, 0.2, 0.3}, []float64{0.3, 0.2, 0.1}},
	}
	for _, c := range cases {
		tab := &Table{Indptr: []int{0, len(c.i0), len(c.i0) + len(c.i1)}}
		tab.Indices = append(append(tab.Indices, c.i0...), c.i1...)
		tab.Values = append(append(tab.Values, c.v0...), c.v1...)
		for _, m := range []Method{WeightedUnnormalized, WeightedNormalized, Generalized} {
			for _, frac := range []float64{0, 2} {
				e := mustNew(t, tr, tab, m, &Options{Alpha: 0.5, Workers: 1}, frac)
				d := make([]float64, 1)
				if err := e.Condensed(context.Background(), d); err != nil {
					t.Fatal(err)
				}
				if d[0] != 0 {
					t.Errorf("%s, %v, dense fraction %g: distance %g, want 0", c.name, m, frac, d[0])
				}
			}
		}
	}
}
