package tw_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/ot/emd"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tw"
)

// planPairs returns pairs of distributions on n nodes covering the cases
// plans must handle: dense, sparse, identical, point masses, mass only on
// internal nodes against mass only on leaves, and dyadic masses, which make
// many partial matches end in exact ties.
func planPairs(rng *rand.Rand, parent []int) [][2][]float64 {
	n := len(parent)
	dense := testutil.Dist(rng, n)
	pairs := [][2][]float64{
		{dense, testutil.Dist(rng, n)},
		{dense, append([]float64(nil), dense...)},
		{testutil.SparseDist(rng, n, 2), testutil.SparseDist(rng, n, 3)},
		{testutil.PointMass(n, rng.IntN(n)), testutil.PointMass(n, rng.IntN(n))},
		{testutil.PointMass(n, rng.IntN(n)), testutil.Dist(rng, n)},
		{dyadic(rng, n), dyadic(rng, n)},
	}
	leaf := leaves(parent)
	internal, onLeaves := make([]float64, n), make([]float64, n)
	for i := range n {
		if leaf[i] {
			onLeaves[i] = 0.1 + rng.Float64()
		} else {
			internal[i] = 0.1 + rng.Float64()
		}
	}
	if !allZero(internal) {
		pairs = append(pairs, [2][]float64{normalize(internal), normalize(onLeaves)})
	}
	return pairs
}

// dyadic returns a distribution whose masses are multiples of 1/8 (every
// sum and difference exact).
func dyadic(rng *rand.Rand, n int) []float64 {
	p := make([]float64, n)
	for range 8 {
		p[rng.IntN(n)] += 0.125
	}
	return p
}

// checkPlan checks a plan from a to b against the brute-force tree metric
// cost (row-major, testutil.TreeMetric): valid moves, marginals a and b to
// 1e-12, at most |supp a| + |supp b| − 1 moves, and a transport cost (from
// the metric, not from package tw) equal to want to 1e-12 relative.
func checkPlan(t *testing.T, name string, plan []tw.Move, cost []float64, a, b []float64, want float64) {
	t.Helper()
	n := len(a)
	ra, rb := make([]float64, n), make([]float64, n)
	var c float64
	for _, m := range plan {
		from, to := int(m.From), int(m.To)
		if from < 0 || from >= n || to < 0 || to >= n || !(m.Mass > 0) {
			t.Fatalf("%s: bad move %+v", name, m)
		}
		ra[from] += m.Mass
		rb[to] += m.Mass
		c += m.Mass * cost[from*n+to]
	}
	supp := 0
	for i := range n {
		if math.Abs(ra[i]-a[i]) > 1e-12 || math.Abs(rb[i]-b[i]) > 1e-12 {
			t.Fatalf("%s: marginals at %d: %v→%v, %v→%v", name, i, a[i], ra[i], b[i], rb[i])
		}
		if a[i] > 0 {
			supp++
		}
		if b[i] > 0 {
			supp++
		}
	}
	if len(plan) > supp-1 {
		t.Errorf("%s: %d moves, more than |supp a| + |supp b| − 1 = %d", name, len(plan), supp-1)
	}
	if math.Abs(c-want) > 1e-12*math.Max(1, want) {
		t.Errorf("%s: plan cost %.17g, want %.17g", name, c, want)
	}
}

// TestPlanOptimal checks dense and sparse plans on small random trees and
// forests (every weight pattern of smallCases: zero weights included): the
// cost of the plan under the brute-force metric equals the exact optimum
// of ot/emd's network simplex on the same metric to 1e-12 relative, and so
// does the cost the planner returns and tw.Distance.
func TestPlanOptimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 1))
	var solver emd.Solver
	var plan []tw.Move
	for _, c := range smallCases(t, rng, 12, 60) {
		cost := c.cost()
		p := tw.NewPlanner(c.tr)
		for k, ab := range planPairs(rng, c.parent) {
			a, b := ab[0], ab[1]
			want, err := solver.Cost(cost, a, b)
			if err != nil {
				t.Fatalf("%s: emd: %v", c.name, err)
			}
			d := tw.Distance(c.tr, a, b)
			var got float64
			plan, got = p.Plan(plan, a, b)
			checkPlan(t, c.name+" dense", plan, cost, a, b, want)
			for _, v := range []float64{got, d} {
				if math.Abs(v-want) > 1e-12*math.Max(1, want) {
					t.Errorf("%s pair %d: cost %.17g, TW %.17g, emd %.17g", c.name, k, got, d, want)
				}
			}
			ai, am := sparseOf(a)
			bi, bm := sparseOf(b)
			plan, got = p.SparsePlan(plan, ai, am, bi, bm)
			checkPlan(t, c.name+" sparse", plan, cost, a, b, want)
			if math.Abs(got-want) > 1e-12*math.Max(1, want) {
				t.Errorf("%s pair %d: sparse cost %.17g, emd %.17g", c.name, k, got, want)
			}
		}
	}
}

// sparseOf returns the non-zero entries of x.
func sparseOf(x []float64) ([]int, []float64) {
	var idx []int
	var m []float64
	for i, v := range x {
		if v != 0 {
			idx = append(idx, i)
			m = append(m, v)
		}
	}
	return idx, m
}

// TestPlanLarge checks plans on random trees of 2,000 nodes in both label
// orders: marginals, size, and the plan's cost computed from tree.Distance
// per move against tw.Distance (the closed form) to 1e-12 relative.
func TestPlanLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 2))
	for _, bfs := range []bool{false, true} {
		tr := tree.Random(2000, rand.NewPCG(30, 3))
		if bfs {
			tr = tr.BreadthFirst()
		}
		n := tr.Len()
		p := tw.NewPlanner(tr)
		for _, ab := range [][2][]float64{
			{testutil.Dist(rng, n), testutil.Dist(rng, n)},
			{testutil.SparseDist(rng, n, 40), testutil.SparseDist(rng, n, 25)},
		} {
			a, b := ab[0], ab[1]
			want := tw.Distance(tr, a, b)
			ai, am := sparseOf(a)
			bi, bm := sparseOf(b)
			dense, _ := p.Plan(nil, a, b)
			sparse, _ := p.SparsePlan(nil, ai, am, bi, bm)
			for _, plan := range [][]tw.Move{dense, sparse} {
				ra, rb := make([]float64, n), make([]float64, n)
				var c float64
				for _, m := range plan {
					ra[m.From] += m.Mass
					rb[m.To] += m.Mass
					c += m.Mass * tr.Distance(int(m.From), int(m.To))
				}
				for i := range n {
					if math.Abs(ra[i]-a[i]) > 1e-12 || math.Abs(rb[i]-b[i]) > 1e-12 {
						t.Fatalf("marginals at %d", i)
					}
				}
				if len(plan) > len(ai)+len(bi)-1 {
					t.Errorf("%d moves for %d + %d labels", len(plan), len(ai), len(bi))
				}
				if math.Abs(c-want) > 1e-12*want {
					t.Errorf("bfs=%v: plan cost %.17g, TW %.17g", bfs, c, want)
				}
			}
		}
	}
}

// TestPlanHand checks a plan worked out by hand on the animals tree (unit
// weights): all of dog's mass goes to cat (half, 2 edges) and to snake
// (half, 4 edges): cost 3.
func TestPlanHand(t *testing.T) {
	tr := animals() // animal, mammal, reptile, dog, cat, lizard, snake
	a := []float64{0, 0, 0, 1, 0, 0, 0}
	b := []float64{0, 0, 0, 0, 0.5, 0, 0.5}
	plan, cost := tw.NewPlanner(tr).Plan(nil, a, b)
	if cost != 3 || len(plan) != 2 {
		t.Fatalf("cost %v, plan %v", cost, plan)
	}
	got := map[tw.Move]bool{}
	for _, m := range plan {
		got[m] = true
	}
	if !got[tw.Move{From: 3, To: 4, Mass: 0.5}] || !got[tw.Move{From: 3, To: 6, Mass: 0.5}] {
		t.Errorf("plan %v", plan)
	}
}

// TestPlanNaN: a NaN or infinite mass gives an empty plan and a NaN cost,
// and leaves the planner usable.
func TestPlanNaN(t *testing.T) {
	tr := animals()
	p := tw.NewPlanner(tr)
	a := []float64{0, 0, 0, 1, 0, 0, 0}
	b := []float64{0, 0, 0, 0, math.Inf(1), 0, 0.5}
	plan, cost := p.Plan(nil, a, b)
	if len(plan) != 0 || !math.IsNaN(cost) {
		t.Errorf("plan %v cost %v", plan, cost)
	}
	plan, cost = p.SparsePlan(plan, []int{3}, []float64{math.NaN()}, []int{4}, []float64{1})
	if len(plan) != 0 || !math.IsNaN(cost) {
		t.Errorf("sparse: plan %v cost %v", plan, cost)
	}
	b[4] = 0.5
	if _, cost = p.Plan(plan, a, b); cost != 3 {
		t.Errorf("after NaN: cost %v", cost)
	}
}

// TestPlanAllocs: once warmed, Plan and SparsePlan allocate nothing.
func TestPlanAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 4))
	tr := tree.Random(500, rand.NewPCG(30, 5))
	n := tr.Len()
	a, b := testutil.Dist(rng, n), testutil.SparseDist(rng, n, 30)
	ai, am := sparseOf(a)
	bi, bm := sparseOf(b)
	p := tw.NewPlanner(tr)
	plan, _ := p.Plan(nil, a, b)
	plan, _ = p.SparsePlan(plan, ai, am, bi, bm)
	if got := testing.AllocsPerRun(10, func() {
		plan, _ = p.Plan(plan, a, b)
		plan, _ = p.SparsePlan(plan, ai, am, bi, bm)
	}); got != 0 {
		t.Errorf("%v allocations per run", got)
	}
}
