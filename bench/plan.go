package bench

import (
	"math/rand/v2"
	"time"

	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tw"
)

// PlanNeed returns about how many bytes Plan holds on L labels: the two
// distributions, the planner (the tree in preorder, the masses in
// preorder, its stacks) and a plan of up to 2L moves.
func PlanNeed(L int) float64 { return float64(L) * (16 + 8 + 16 + 32 + 32) }

// Plan times an optimal transport plan (tw.Planner.Plan) between two random
// distributions with mass on every label, on a random tree of L labels with
// unit weights in the order ord ("bfs" or "random", as for TW): the case
// that POT's ot.emd solves on the dense tree metric.
func Plan(L int, ord string, seed uint64, target time.Duration) Record {
	t := tree.Random(L, rand.NewPCG(seed, uint64(L)))
	if ord == "bfs" {
		t = t.BreadthFirst()
	}
	rng := rand.New(rand.NewPCG(seed, uint64(L)+1))
	a, b := RandomRows(rng, 1, L), RandomRows(rng, 1, L)
	var p *tw.Planner
	var plan []tw.Move
	wsBytes := Allocated(func() {
		p = tw.NewPlanner(t)
		plan, _ = p.Plan(nil, a, b)
	})
	n, sec, bytes := Measure(func() { plan, _ = p.Plan(plan, a, b) }, target)
	return Record{
		Method: "plan", Order: ord, Labels: L, Batch: 1, SecondsPerOp: sec, BytesPerOp: bytes,
		EntriesPerSecond: float64(L) / sec, MemoryBytes: floatBytes(a, b) + wsBytes,
		Workers: 1, Iterations: n,
	}
}
