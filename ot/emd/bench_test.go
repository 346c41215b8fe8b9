package emd

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchProblem is a tree shortest-path metric on n nodes (random tree,
// weights uniform in [0, 1)) with two random histograms on the nodes, the
// setting of REFERENCE.md's POT emd2 timings.
type benchProblem struct {
	cost, a, b []float64
}

var benchCache = map[string]benchProblem{}

func treeProblem(n int, unit bool) benchProblem {
	key := fmt.Sprintf("tree/%d/%v", n, unit)
	if p, ok := benchCache[key]; ok {
		return p
	}
	rng := rand.New(rand.NewPCG(uint64(n), 2024))
	parent, weight := randTree(rng, n, unit)
	p := benchProblem{treeMetric(parent, weight), randHist(rng, n, 0), randHist(rng, n, 0)}
	benchCache[key] = p
	return p
}

// onesProblem is the cost 11ᵀ−I (0 on the diagonal, 1 elsewhere) with two
// random histograms, the cost of the paper's Sinkhorn baseline.
func onesProblem(n int) benchProblem {
	key := fmt.Sprintf("ones/%d", n)
	if p, ok := benchCache[key]; ok {
		return p
	}
	rng := rand.New(rand.NewPCG(uint64(n), 2025))
	cost := make([]float64, n*n)
	for k := range cost {
		if k%(n+1) != 0 {
			cost[k] = 1
		}
	}
	p := benchProblem{cost, randHist(rng, n, 0), randHist(rng, n, 0)}
	benchCache[key] = p
	return p
}

func benchCost(b *testing.B, p benchProblem) {
	var s Solver
	if _, err := s.Cost(p.cost, p.a, p.b); err != nil { // grow the workspace
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := s.Cost(p.cost, p.a, p.b); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCostTree(b *testing.B) {
	for _, n := range []int{100, 1000, 3000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchCost(b, treeProblem(n, false)) })
	}
}

func BenchmarkCostTreeUnit(b *testing.B) {
	for _, n := range []int{100, 1000, 3000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchCost(b, treeProblem(n, true)) })
	}
}

func BenchmarkCostOnes(b *testing.B) {
	for _, n := range []int{100, 1000, 3000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchCost(b, onesProblem(n)) })
	}
}

// BenchmarkSolveTree includes building the plan and the dual potentials.
func BenchmarkSolveTree(b *testing.B) {
	for _, n := range []int{100, 1000, 3000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			p := treeProblem(n, false)
			var s Solver
			if _, err := s.Solve(p.cost, p.a, p.b); err != nil { // grow the workspace
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Solve(p.cost, p.a, p.b); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCostUniform uses i.i.d. uniform costs, a harder case for the
// simplex than metrics (more pivots).
func BenchmarkCostUniform(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(uint64(n), 2026))
			cost := make([]float64, n*n)
			for k := range cost {
				cost[k] = rng.Float64()
			}
			benchCost(b, benchProblem{cost, randHist(rng, n, 0), randHist(rng, n, 0)})
		})
	}
}
