package emd_test

import (
	"fmt"

	"github.com/twl-ldl/twl/ot/emd"
)

// Three points on a line at 0, 1 and 2, with the squared distance as the
// cost: moving a = (0.5, 0.5, 0) onto b = (0, 0.5, 0.5) is cheapest by
// shifting each half one step (cost 0.5·1 + 0.5·1), not by moving half
// from 0 to 2 (cost 0.5·4).
func ExampleSolve() {
	cost := []float64{
		0, 1, 4,
		1, 0, 1,
		4, 1, 0,
	}
	a := []float64{0.5, 0.5, 0}
	b := []float64{0, 0.5, 0.5}
	res, err := emd.Solve(cost, a, b, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("cost %.3g\n", res.Cost)
	for _, f := range res.Plan {
		fmt.Printf("%.3g from %d to %d\n", f.Mass, f.I, f.J)
	}
	// The dual potentials certify optimality: Σ a·U + Σ b·V = cost.
	var dual float64
	for i := range a {
		dual += a[i] * res.U[i]
	}
	for j := range b {
		dual += b[j] * res.V[j]
	}
	fmt.Printf("dual %.3g\n", dual)
	// Output:
	// cost 1
	// 0.5 from 0 to 1
	// 0.5 from 1 to 2
	// dual 1
}

// A Solver reuses its workspace, so computing many distances of the same
// size allocates nothing after the first.
func ExampleSolver_Cost() {
	cost := []float64{
		0, 1, 1,
		1, 0, 1,
		1, 1, 0,
	}
	var s emd.Solver
	for _, pair := range [][2][]float64{
		{{1, 0, 0}, {0, 0, 1}},
		{{0.2, 0.3, 0.5}, {0.5, 0.3, 0.2}},
	} {
		c, err := s.Cost(cost, pair[0], pair[1])
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%.3g\n", c)
	}
	// Output:
	// 1
	// 0.3
}
