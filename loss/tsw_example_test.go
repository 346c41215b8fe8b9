package loss_test

import (
	"fmt"

	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
)

func ExampleNewKLTSW() {
	// Two trees over the labels a, b and c (say, clustering trees of the
	// label names' embeddings), each with internal nodes of its own:
	//
	//	tree 0: r ─1─ x ─½─ a         tree 1: r ─½─ a
	//	        │     └─½─ b                  └─1─ y ─1─ b
	//	        └─2─ c                               └─1─ c
	t0, _ := tree.FromParents([]int{-1, 0, 1, 1, 0}, []float64{0, 1, 0.5, 0.5, 2},
		[]string{"r", "x", "a", "b", "c"}, nil)
	t1, _ := tree.FromParents([]int{-1, 0, 0, 1, 1}, []float64{0, 1, 0.5, 1, 1},
		[]string{"r", "y", "a", "b", "c"}, nil)
	s, err := tsw.New([]*tree.Tree{t0, t1}, []string{"a", "b", "c"})
	if err != nil {
		panic(err)
	}
	l := loss.NewKLTSW(s, 0.5)
	// One row: uniform prediction (zero logits), target δ_a. KL = log 3;
	// TW is 3/2 on tree 0 and 5/3 on tree 1, so TSW = 19/12.
	logits := []float64{0, 0, 0}
	target := []float64{1, 0, 0}
	grad := make([]float64, 3)
	v, err := l.Eval(grad, logits, target)
	if err != nil {
		panic(err)
	}
	fmt.Println(l.Labels())
	fmt.Printf("%.5f = %.5f + 0.5·%.5f\n", v, l.Last().KL, l.Last().Dist)
	// Output:
	// 3
	// 1.89028 = 1.09861 + 0.5·1.58333
}
