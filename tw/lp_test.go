package tw_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/internal/lpref"
	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/tw"
)

// TestClosedFormVsLP checks the closed form against exact optimal transport
// on the tree metric: internal/lpref solves the transport LP with gonum's
// simplex, under the cost matrix of testutil.TreeMetric (a breadth-first
// search over the parent array). Neither shares code with package tw or with
// tree.Distance. Trees have at most 11 nodes to keep the LPs small.
func TestClosedFormVsLP(t *testing.T) {
	const tol = 1e-9
	rng := rand.New(rand.NewPCG(11, 12))
	cases := smallCases(t, rng, 11, 40)
	lps := 0
	for _, c := range cases {
		n := c.tr.Len()
		cost := c.cost()
		ws := tw.NewWorkspace(c.tr)
		leaf := leaves(c.parent)

		type pair struct {
			what string
			a, b []float64
		}
		dense := testutil.Dist(rng, n)
		pairs := []pair{
			{"dense", dense, testutil.Dist(rng, n)},
			{"identical", dense, append([]float64(nil), dense...)},
			{"sparse", testutil.SparseDist(rng, n, 2), testutil.SparseDist(rng, n, 3)},
			{"point masses", testutil.PointMass(n, rng.IntN(n)), testutil.PointMass(n, rng.IntN(n))},
			{"point vs dense", testutil.PointMass(n, rng.IntN(n)), testutil.Dist(rng, n)},
		}
		// Mass only on internal nodes against mass only on leaves.
		internal, onLeaves := make([]float64, n), make([]float64, n)
		for i := range n {
			if leaf[i] {
				onLeaves[i] = 0.1 + rng.Float64()
			} else {
				internal[i] = 0.1 + rng.Float64()
			}
		}
		if n > 1 && !allZero(internal) {
			pairs = append(pairs, pair{"internal vs leaves", normalize(internal), normalize(onLeaves)})
		}
		for _, p := range pairs {
			want, err := lpref.W1(cost, p.a, p.b)
			if err != nil {
				t.Fatalf("%s %s: lpref: %v", c.name, p.what, err)
			}
			lps++
			for _, got := range []float64{ws.Distance(p.a, p.b), tw.Distance(c.tr, p.a, p.b)} {
				if math.Abs(got-want) > tol*math.Max(1, math.Abs(want)) {
					t.Errorf("%s, %s: TW = %.15g, LP = %.15g", c.name, p.what, got, want)
				}
			}
		}
		// Point masses: TW(δ_i, δ_j) is the tree distance d(i, j) itself.
		for k := 0; k < 5; k++ {
			i, j := rng.IntN(n), rng.IntN(n)
			got := ws.Distance(testutil.PointMass(n, i), testutil.PointMass(n, j))
			if want := cost[i*n+j]; math.Abs(got-want) > 1e-12*math.Max(1, want) {
				t.Errorf("%s: TW(δ_%d, δ_%d) = %v, d = %v", c.name, i, j, got, want)
			}
		}
	}
	t.Logf("%d trees, %d LPs", len(cases), lps)
}

func allZero(x []float64) bool {
	for _, v := range x {
		if v != 0 {
			return false
		}
	}
	return true
}
