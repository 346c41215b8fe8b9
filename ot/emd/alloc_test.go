//go:build !race

package emd

import (
	"math/rand/v2"
	"testing"
)

// TestCostAllocs checks that a warmed-up Solver computes costs without
// allocating, and that Solve allocates only its result (plan, U, V).
func TestCostAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	parent, weight := randTree(rng, 200, false)
	cost := treeMetric(parent, weight)
	a, b := randHist(rng, 200, 0.2), randHist(rng, 200, 0.2) // with zero masses
	var s Solver
	if _, err := s.Solve(cost, a, b); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(10, func() { s.Cost(cost, a, b) }); n != 0 {
		t.Errorf("Cost allocates %v times per call, want 0", n)
	}
	if n := testing.AllocsPerRun(10, func() { s.Solve(cost, a, b) }); n != 3 {
		t.Errorf("Solve allocates %v times per call, want 3", n)
	}
}
