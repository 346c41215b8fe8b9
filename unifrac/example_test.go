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

// Columns prepares one table once and computes the distances of other
// samples to all of its samples. With Raw the counts are the masses as
// they are: the weighted unnormalized distance is then the
// tree-Wasserstein distance between the count vectors. On the tree of the
// package example, Q = {A: 3, C: 1} against X = {A: 1, B: 1} gives
// 1·|3−2| + 2·|3−1| + 3·|0−1| + 4·|1−0| = 12 (the branches above u, A, B
// and C), and Q against itself 0.
func ExampleColumns_Query() {
	t, _ := tree.FromParents([]int{-1, 0, 1, 1, 0}, []float64{0, 1, 2, 3, 4},
		[]string{"root", "u", "A", "B", "C"}, nil)
	A, _ := t.Index("A")
	B, _ := t.Index("B")
	C, _ := t.Index("C")
	cols, err := unifrac.NewColumns(t, &unifrac.Table{
		Indptr:  []int{0, 2, 4},
		Indices: []int32{int32(A), int32(B), int32(A), int32(C)},
		Values:  []float64{1, 1, 3, 1}, // X, and Q itself
	}, unifrac.WeightedUnnormalized, &unifrac.Options{Raw: true})
	if err != nil {
		panic(err)
	}
	q := &unifrac.Table{Indptr: []int{0, 2}, Indices: []int32{int32(A), int32(C)}, Values: []float64{3, 1}}
	d := make([]float64, cols.Len()) // one query row against the two columns
	if err := cols.Query(context.Background(), d, q); err != nil {
		panic(err)
	}
	fmt.Println(d)
	// Output:
	// [12 0]
}
