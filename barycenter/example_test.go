package barycenter_test

import (
	"fmt"

	"github.com/twl-ldl/twl/barycenter"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/tree"
)

// Three annotators put a document on dog, cat and snake: their barycenter
// is mammal, the tree's median of the three, at a mean distance of
// (1 + 1 + 3)/3; on the leaves only, dog or cat, at (0 + 2 + 4)/3.
func Example() {
	t, err := tree.FromParents([]int{-1, 0, 0, 1, 1, 2, 2}, nil,
		[]string{"animal", "mammal", "reptile", "dog", "cat", "lizard", "snake"}, nil)
	if err != nil {
		panic(err)
	}
	var rows labeldist.Rows
	rows.Append([]int{3}, []float64{1}) // dog
	rows.Append([]int{4}, []float64{1}) // cat
	rows.Append([]int{6}, []float64{1}) // snake
	s := barycenter.New(t)
	nu := make([]float64, t.Len())
	v, err := s.Solve(nu, &rows, nil, nil)
	if err != nil {
		panic(err)
	}
	row, _ := labeldist.Format(t, nu)
	fmt.Printf("%s %.4f\n", row, v)
	v, _ = s.Solve(nu, &rows, nil, &barycenter.Options{Leaves: true})
	fmt.Printf("%.4f\n", v)
	// Output:
	// {"mammal":1} 1.6667
	// 2.0000
}
