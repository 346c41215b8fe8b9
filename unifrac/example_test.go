package unifrac_test

import (
	"context"
	"fmt"

	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/unifrac"
)

// Two samples on a four-node tree: root → u (length 1), u → A (2),
// u → B (3), root → C (4).
func Example() {
	t, err := tree.FromParents([]int{-1, 0, 1, 1, 0}, []float64{0, 1, 2, 3, 4},
		[]string{"root", "u", "A", "B", "C"}, nil)
	if err != nil {
		panic(err)
	}
	A, _ := t.Index("A")
	B, _ := t.Index("B")
	C, _ := t.Index("C")
	tab := &unifrac.Table{
		IDs:     []string{"X", "Z"},
		Indptr:  []int{0, 2, 4},
		Indices: []int32{int32(A), int32(B), int32(A), int32(C)},
		Values:  []float64{1, 1, 3, 1}, // X = {A: 1, B: 1}, Z = {A: 3, C: 1}
	}
	for _, m := range []unifrac.Method{unifrac.WeightedUnnormalized, unifrac.WeightedNormalized, unifrac.Unweighted} {
		e, err := unifrac.New(t, tab, m, nil)
		if err != nil {
			panic(err)
		}
		d := make([]float64, 1) // condensed: the one pair
		if err := e.Condensed(context.Background(), d); err != nil {
			panic(err)
		}
		fmt.Printf("%-21s %.4f\n", m, d[0])
	}
	// Output:
	// weighted_unnormalized 3.2500
	// weighted_normalized   0.4815
	// unweighted            0.7000
}

// Rows computes a shard of the matrix: rows [i0, i1) against all samples,
// the same bits as the full matrix.
func ExampleEngine_Rows() {
	t, _ := tree.FromParents([]int{-1, 0, 0, 0}, []float64{0, 1, 1, 1}, nil, nil)
	tab := &unifrac.Table{
		Indptr:  []int{0, 1, 2, 4},
		Indices: []int32{1, 2, 1, 2},
		Values:  []float64{1, 1, 1, 1},
	}
	e, _ := unifrac.New(t, tab, unifrac.WeightedUnnormalized, &unifrac.Options{Workers: 1})
	row := make([]float64, e.Len())
	e.Rows(context.Background(), row, 2, 3)
	fmt.Println(row)
	// Output:
	// [1 1 0]
}
