package tree_test

import (
	"os"

	"github.com/twl-ldl/twl/tree"
)

// The tree of Figure 1 of the paper, and a second root: a forest.
func ExampleTree_Draw() {
	t, err := tree.FromParents([]int{-1, 0, 0, 1, 1, 2, 2, -1}, nil,
		[]string{"animal", "mammal", "reptile", "dog", "cat", "lizard", "snake", "rock"}, nil)
	if err != nil {
		panic(err)
	}
	t.Draw(os.Stdout, "")
	// Output:
	// animal
	// ├── mammal
	// │   ├── dog
	// │   └── cat
	// └── reptile
	//     ├── lizard
	//     └── snake
	// rock
}
