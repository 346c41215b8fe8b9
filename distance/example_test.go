package distance_test

import (
	"context"
	"fmt"

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
