package barycenter_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/barycenter"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tw"
)

// TestBatchedKinks checks the solver, which adds a node's kinks in one
// descent of its function, against the same solver adding them one split
// at a time (the reference form), on uniformly random trees (deep: some
// √L levels, where each input's kinks meet many times) and random
// recursive trees, with mass on all nodes and on leaves only, sparse
// inputs, uniform and random weights, and with dyadic masses (many kinks
// at equal positions). The objectives must agree to 1e-12 relative, and
// each returned ν must be a distribution whose objective recomputed by
// tw.Distance is the one returned. One solver is reused across cases, to
// check that its workspace (recycled segments, stamps) carries nothing
// over.
func TestBatchedKinks(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 30))
	for c := range 40 {
		L := 50 + rng.IntN(400)
		tr := tree.Random(L, rand.NewPCG(uint64(c), 3)).BreadthFirst()
		if c%4 == 3 {
			tr = recursiveTree(L, rng)
		}
		n := 2 + rng.IntN(30)
		k := 1 + rng.IntN(8)
		rows := benchRows(rng, n, L, k)
		if c%5 == 4 {
			for j := range rows.Mass {
				rows.Mass[j] = float64(1+rng.IntN(3)) / 8
			}
		}
		var lam []float64
		if c%2 == 1 {
			lam = make([]float64, n)
			for i := range lam {
				lam[i] = rng.Float64()
			}
		}
		batched, single := barycenter.New(tr), barycenter.New(tr)
		barycenter.SetOneByOne(single, true)
		for _, leaves := range []bool{false, true} {
			name := fmt.Sprintf("case %d (L=%d, n=%d, k=%d, leaves=%v)", c, L, n, k, leaves)
			o := &barycenter.Options{Leaves: leaves}
			nu, ref := make([]float64, L), make([]float64, L)
			got, err := batched.Solve(nu, rows, lam, o)
			if err != nil {
				t.Fatal(err)
			}
			want, err := single.Solve(ref, rows, lam, o)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-want) > 1e-12*math.Max(1, want) {
				t.Errorf("%s: objective %v, one split at a time %v", name, got, want)
			}
			var sum, re float64
			for j, v := range nu {
				if v < 0 || v > 0 && leaves && !tr.IsLeaf(j) {
					t.Errorf("%s: ν(%d) = %v", name, j, v)
				}
				sum += v
			}
			for i := range n {
				idx, mass := rows.Row(i)
				mu := make([]float64, L)
				var tot float64
				for j, l := range idx {
					mu[l] = mass[j]
					tot += mass[j]
				}
				for l := range mu {
					mu[l] /= tot
				}
				w := 1.0 / float64(n)
				if lam != nil {
					w = lam[i]
				}
				re += w * tw.Distance(tr, mu, nu)
			}
			if math.Abs(sum-1) > 1e-12 || math.Abs(re-got) > 1e-12*math.Max(1, got) {
				t.Errorf("%s: Σν = %v, objective by tw.Distance %v, returned %v", name, sum, re, got)
			}
		}
	}
}
