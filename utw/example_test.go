package utw_test

import (
	"fmt"

	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/utw"
)

// Two label sets of different sizes, as they are: {dog, cat} against
// {dog, snake, lizard}. dog matches dog; cat is four edges from snake and
// lizard, so with a mass cost of 1 it is cheaper to destroy cat (1) and
// create snake and lizard (1 each) than to move it: 3.
func Example() {
	t, err := tree.FromParents([]int{-1, 0, 0, 1, 1, 2, 2}, nil,
		[]string{"animal", "mammal", "reptile", "dog", "cat", "lizard", "snake"}, nil)
	if err != nil {
		panic(err)
	}
	ws := utw.NewWorkspace(t, 1)
	a := []float64{0, 0, 0, 1, 1, 0, 0} // dog, cat
	b := []float64{0, 0, 0, 1, 0, 1, 1} // dog, lizard, snake
	grad := make([]float64, t.Len())
	fmt.Println(ws.DistanceGrad(grad, a, b))
	// With a mass cost of 3, cat moves to one of them (4) and the other
	// is created (3).
	fmt.Println(utw.NewWorkspace(t, 3).Distance(a, b))
	// Output:
	// 3
	// 7
}
