package tsw_test

import (
	"fmt"

	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
)

// twoTrees returns two trees over the points a, b and c, each with a root r
// and an internal node of its own:
//
//	tree 0: r ─1─ x ─½─ a         tree 1: r ─½─ a
//	        │     └─½─ b                  └─1─ y ─1─ b
//	        └─2─ c                               └─1─ c
func twoTrees() []*tree.Tree {
	t0, err := tree.FromParents([]int{-1, 0, 1, 1, 0}, []float64{0, 1, 0.5, 0.5, 2},
		[]string{"r", "x", "a", "b", "c"}, nil)
	if err != nil {
		panic(err)
	}
	t1, err := tree.FromParents([]int{-1, 0, 0, 1, 1}, []float64{0, 1, 0.5, 1, 1},
		[]string{"r", "y", "a", "b", "c"}, nil)
	if err != nil {
		panic(err)
	}
	return []*tree.Tree{t0, t1}
}

func Example() {
	s, err := tsw.New(twoTrees(), []string{"a", "b", "c"})
	if err != nil {
		panic(err)
	}
	a := []float64{1, 0, 0} // δ_a
	b := []float64{0, 1, 0} // δ_b
	c := []float64{0, 0, 1} // δ_c
	// TW is the path length between the two points on each tree.
	fmt.Println(s.Distance(a, b)) // (1 + 2.5)/2
	fmt.Println(s.Distance(a, c)) // (3.5 + 2.5)/2
	// ½δ_a + ½δ_b against δ_c, given by their non-zero masses:
	// (3.5 + 2.25)/2.
	fmt.Println(s.SparseDistance([]int{0, 1}, []float64{0.5, 0.5}, []int{2}, []float64{1}))
	// Output:
	// 1.75
	// 3
	// 2.875
}

func ExampleSliced_DistanceGrad() {
	s, err := tsw.New(twoTrees(), []string{"a", "b", "c"})
	if err != nil {
		panic(err)
	}
	grad := make([]float64, s.Len())
	v := s.DistanceGrad(grad, []float64{1, 0, 0}, []float64{0, 0, 1})
	// Per tree, the gradient at a point sums w_e·sign(a(Γ) − b(Γ)) over
	// the edges on its path to the root (sign(0) = 0): tree 0 gives
	// (1.5, 1, −2), tree 1 (0.5, −1, −2).
	fmt.Println(v, grad)
	// Output:
	// 3 [1 0 -2]
}

func ExampleSliced_Pairwise() {
	s, err := tsw.New(twoTrees(), []string{"a", "b", "c"})
	if err != nil {
		panic(err)
	}
	A := []float64{
		1, 0, 0,
		0, 1, 0,
	}
	B := []float64{
		1, 0, 0,
		0, 0, 1,
		0.5, 0.5, 0,
	}
	dst := make([]float64, 2*3)
	s.Pairwise(dst, A, B)
	fmt.Println(dst[:3])
	fmt.Println(dst[3:])
	// Output:
	// [0 3 0.875]
	// [1.75 2.75 0.875]
}

func ExampleSliced_SparseEmbed() {
	s, err := tsw.New(twoTrees(), []string{"a", "b", "c"})
	if err != nil {
		panic(err)
	}
	// Embed each distribution once; each distance is then one merge.
	x := s.SparseEmbed(tsw.SparseVec{}, []int{0, 1}, []float64{0.5, 0.5})
	y := s.SparseEmbed(tsw.SparseVec{}, []int{2}, []float64{1})
	fmt.Println(tsw.L1(x, y), s.SparseDistance([]int{0, 1}, []float64{0.5, 0.5}, []int{2}, []float64{1}))
	// Output:
	// 2.875 2.875
}
