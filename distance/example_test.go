package distance_test

import (
	"context"
	"fmt"
	"os"

	"github.com/twl-ldl/twl/distance"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/tree"
)

func Example() {
	// The tree of Figure 1 of the paper, unit weights; user order animal,
	// mammal, reptile, dog, cat, lizard, snake.
	t, err := tree.FromParents([]int{-1, 0, 0, 1, 1, 2, 2}, nil,
		[]string{"animal", "mammal", "reptile", "dog", "cat", "lizard", "snake"}, nil)
	if err != nil {
		panic(err)
	}
	const dog, cat, snake = 3, 4, 6
	var A, B labeldist.Rows
	A.Append([]int{dog}, []float64{1})
	A.Append([]int{dog, cat}, []float64{0.5, 0.5})
	B.Append([]int{cat}, []float64{1})
	B.Append([]int{snake}, []float64{1})

	m := distance.NewTW(t, nil)
	ctx := context.Background()
	d := make([]float64, 2)
	if err := m.Rows(ctx, d, &A, &B); err != nil {
		panic(err)
	}
	fmt.Println("rows:", d) // dog → cat; half to cat, the rest to snake

	cols, err := m.Columns(ctx, &B)
	if err != nil {
		panic(err)
	}
	all := make([]float64, 4)
	if err := m.Pairwise(ctx, all, &A, cols); err != nil {
		panic(err)
	}
	fmt.Println("pairwise:", all)
	// Output:
	// rows: [2 4]
	// pairwise: [2 4 1 4]
}

func ExampleNewSelf() {
	// Figure 1's tree, unit weights, as in the package example.
	t, err := tree.FromParents([]int{-1, 0, 0, 1, 1, 2, 2}, nil,
		[]string{"animal", "mammal", "reptile", "dog", "cat", "lizard", "snake"}, nil)
	if err != nil {
		panic(err)
	}
	const dog, cat, snake = 3, 4, 6
	var R labeldist.Rows
	R.Append([]int{dog}, []float64{1})
	R.Append([]int{cat}, []float64{1})
	R.Append([]int{snake}, []float64{1})
	R.Append([]int{dog, cat}, []float64{0.5, 0.5})

	ctx := context.Background()
	cols, err := distance.NewTW(t, nil).Columns(ctx, &R)
	if err != nil {
		panic(err)
	}
	// Each of the 6 pairs computed once, the 4×4 matrix written from them.
	self, err := distance.NewSelf(ctx, cols)
	if err != nil {
		panic(err)
	}
	n := self.Len()
	all := make([]float64, n*n)
	self.Rows(all, 0, n)
	w := distance.NewMatrixWriter(os.Stdout, "tw", n, false, 0)
	if err := w.WriteRows(all); err != nil {
		panic(err)
	}
	// Output:
	// 0	2	4	1
	// 2	0	4	1
	// 4	4	0	4
	// 1	1	4	0
}
