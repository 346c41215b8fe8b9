package tw

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

var benchSizes = []int{100, 1000, 10000, 100000, 1000000}

// randomDist returns a random probability vector of length n.
func randomDist(rng *rand.Rand, n int) []float64 {
	p := make([]float64, n)
	var s float64
	for i := range p {
		p[i] = rng.Float64()
		s += p[i]
	}
	for i := range p {
		p[i] /= s
	}
	return p
}

// benchSetup returns a uniformly random tree on n nodes with unit weights,
// numbered breadth-first (bfs) or as the Prüfer decoding numbers them, and
// two random distributions.
func benchSetup(n int, bfs bool) (*tree.Tree, []float64, []float64) {
	t := tree.Random(n, rand.NewPCG(1, uint64(n)))
	if bfs {
		t = t.BreadthFirst()
	}
	rng := rand.New(rand.NewPCG(2, uint64(n)))
	return t, randomDist(rng, n), randomDist(rng, n)
}

// forSizes runs f for every size and label order.
func forSizes(b *testing.B, sizes []int, f func(b *testing.B, n int, bfs bool)) {
	for _, bfs := range []bool{true, false} {
		order := "bfs"
		if !bfs {
			order = "random"
		}
		for _, n := range sizes {
			b.Run(fmt.Sprintf("order=%s/L=%d", order, n), func(b *testing.B) { f(b, n, bfs) })
		}
	}
}

func BenchmarkDistance(b *testing.B) {
	forSizes(b, benchSizes, func(b *testing.B, n int, bfs bool) {
		t, x, y := benchSetup(n, bfs)
		ws := NewWorkspace(t)
		b.ReportAllocs()
		for b.Loop() {
			ws.Distance(x, y)
		}
	})
}

func BenchmarkDistanceGrad(b *testing.B) {
	forSizes(b, benchSizes, func(b *testing.B, n int, bfs bool) {
		t, x, y := benchSetup(n, bfs)
		ws := NewWorkspace(t)
		g := make([]float64, n)
		b.ReportAllocs()
		for b.Loop() {
			ws.DistanceGrad(g, x, y)
		}
	})
}

func BenchmarkLogitGrad(b *testing.B) {
	forSizes(b, benchSizes, func(b *testing.B, n int, bfs bool) {
		t, x, y := benchSetup(n, bfs)
		ws := NewWorkspace(t)
		g := make([]float64, n)
		b.ReportAllocs()
		for b.Loop() {
			ws.LogitGrad(g, x, y)
		}
	})
}

// BenchmarkBatchDistanceGrad reports label entries per second
// (batch × labels per second) for a batch of 100 rows.
func BenchmarkBatchDistanceGrad(b *testing.B) {
	const rows = 100
	forSizes(b, benchSizes[:4], func(b *testing.B, n int, bfs bool) {
		{
			t, _, _ := benchSetup(n, bfs)
			rng := rand.New(rand.NewPCG(2, uint64(n)))
			A := make([]float64, 0, rows*n)
			B := make([]float64, 0, rows*n)
			for range rows {
				A = append(A, randomDist(rng, n)...)
				B = append(B, randomDist(rng, n)...)
			}
			G := make([]float64, rows*n)
			v := make([]float64, rows)
			bt := NewBatch(t, 0)
			b.ReportAllocs()
			for b.Loop() {
				bt.DistanceGrad(v, G, A, B)
			}
			b.ReportMetric(float64(rows*n)*float64(b.N)/b.Elapsed().Seconds(), "entries/s")
		}
	})
}

// BenchmarkPlan times an optimal plan between two dense random
// distributions (mass on every label): one sweep, L + L − 1 moves at most.
func BenchmarkPlan(b *testing.B) {
	forSizes(b, benchSizes, func(b *testing.B, n int, bfs bool) {
		t, x, y := benchSetup(n, bfs)
		p := NewPlanner(t)
		plan, _ := p.Plan(nil, x, y)
		b.ReportAllocs()
		for b.Loop() {
			plan, _ = p.Plan(plan, x, y)
		}
	})
}

// BenchmarkSparsePlan times a plan between two distributions of 20
// labels each on trees of every size.
func BenchmarkSparsePlan(b *testing.B) {
	forSizes(b, benchSizes, func(b *testing.B, n int, bfs bool) {
		t, _, _ := benchSetup(n, bfs)
		rng := rand.New(rand.NewPCG(3, uint64(n)))
		ai, am := sparseRow(rng, n, 20)
		bi, bm := sparseRow(rng, n, 20)
		p := NewPlanner(t)
		plan, _ := p.SparsePlan(nil, ai, am, bi, bm)
		b.ReportAllocs()
		for b.Loop() {
			plan, _ = p.SparsePlan(plan, ai, am, bi, bm)
		}
	})
}

// sparseRow returns k distinct random labels of n (k ≤ n) with random
// masses summing to 1.
func sparseRow(rng *rand.Rand, n, k int) ([]int, []float64) {
	k = min(k, n)
	idx := rng.Perm(n)[:k]
	m := randomDist(rng, k)
	return idx, m
}
