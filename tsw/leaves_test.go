package tsw_test

import (
	"fmt"
	"testing"

	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
)

// The points are the leaves a, b and c of both trees. All mass on a against
// all on c costs 1/2 + 1 + 2 = 3.5 on tree 0 (a → x → r → c) and 1/2 + 1 + 1
// = 2.5 on tree 1 (a → r → y → c): the tree-sliced distance is their mean, 3.
func ExampleNewOverLeaves() {
	flat, sl, err := tsw.NewOverLeaves(twoTrees(), []string{"t0.tree", "t1.tree"})
	if err != nil {
		panic(err)
	}
	fmt.Println(tsw.Leaves(flat), sl.Trees(), "trees")
	fmt.Println(sl.Distance([]float64{1, 0, 0}, []float64{0, 0, 1}))
	// Output:
	// [a b c] 2 trees
	// 3
}

func TestNewOverLeavesDiffer(t *testing.T) {
	ts := twoTrees()
	// c is internal in this tree: r → c → {a, b}.
	t2, err := tree.FromParents([]int{-1, 0, 1, 1}, nil, []string{"r", "c", "a", "b"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = tsw.NewOverLeaves([]*tree.Tree{ts[0], t2}, []string{"t0", "t2"})
	if want := `"c" is a leaf of t0 but not of t2: the trees must have the same leaves (the labels)`; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	// A leaf d of the second tree only.
	t3, err := tree.FromParents([]int{-1, 0, 0, 0, 0}, nil, []string{"r", "a", "b", "c", "d"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = tsw.NewOverLeaves([]*tree.Tree{ts[0], t3}, []string{"t0", "t3"})
	if want := `"d" is a leaf of t3 but not of t0: the trees must have the same leaves (the labels)`; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}
