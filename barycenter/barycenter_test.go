package barycenter_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"

	"github.com/twl-ldl/twl/barycenter"
	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tw"
)

// lpBarycenter solves the barycenter problem as one linear program over
// transport plans, with gonum's simplex: variables ν_j ≥ 0 (j among the
// allowed nodes) and, for every input i, a plan π_i[j, k] ≥ 0 from ν to μ_i
// (k in the support of μ_i), minimizing Σ_i λ_i Σ_jk c_jk π_i[j, k] subject
// to Σ_k π_i[j, k] = ν_j and Σ_j π_i[j, k] = μ_i[k]. It uses the
// brute-force metric c (testutil.TreeMetric) and shares nothing with the
// closed form of TW or with package barycenter: the tests' oracle. Each
// input after the first drops its last column constraint: the others
// imply it (both marginals of every plan sum to Σν = 1).
func lpBarycenter(c []float64, n int, mu [][]float64, lam []float64, allowed []bool) (float64, error) {
	var nodes []int
	for j := range n {
		if allowed[j] {
			nodes = append(nodes, j)
		}
	}
	nv := len(nodes)
	type block struct {
		i    int
		supp []int
		at   int
	}
	var blocks []block
	at := nv
	rowsN := 0
	for i, m := range mu {
		var supp []int
		for k, v := range m {
			if v > 0 {
				supp = append(supp, k)
			}
		}
		blocks = append(blocks, block{i, supp, at})
		at += nv * len(supp)
		rowsN += nv + len(supp)
		if i > 0 {
			rowsN--
		}
	}
	cost := make([]float64, at)
	A := mat.NewDense(rowsN, at, nil)
	rhs := make([]float64, rowsN)
	r := 0
	for _, b := range blocks {
		ns := len(b.supp)
		cols := ns
		if b.i > 0 {
			cols--
		}
		for p, j := range nodes {
			for q, k := range b.supp {
				v := b.at + p*ns + q
				cost[v] = lam[b.i] * c[j*n+k]
				A.Set(r+p, v, 1) // Σ_k π[j,k] − ν_j = 0
				if q < cols {
					A.Set(r+nv+q, v, 1) // Σ_j π[j,k] = μ_i[k]
				}
			}
			A.Set(r+p, p, -1)
		}
		for q, k := range b.supp[:cols] {
			rhs[r+nv+q] = mu[b.i][k]
		}
		r += nv + cols
	}
	opt, _, err := lp.Simplex(cost, A, rhs, 1e-12, nil)
	return opt, err
}

// rowsOf returns the distributions as labeldist.Rows.
func rowsOf(mu [][]float64) *labeldist.Rows {
	var rs labeldist.Rows
	for _, m := range mu {
		var idx []int
		var mass []float64
		for k, v := range m {
			if v != 0 {
				idx = append(idx, k)
				mass = append(mass, v)
			}
		}
		rs.Append(idx, mass)
	}
	return &rs
}

// dyadicDist returns a distribution of 8 masses of 1/8 on random nodes:
// many ties between the inputs' subtree masses.
func dyadicDist(rng *rand.Rand, n int) []float64 {
	p := make([]float64, n)
	for range 8 {
		p[rng.IntN(n)] += 0.125
	}
	return p
}

// TestLP checks the objective against the transport LP on random trees
// and forests (unit, dyadic with zeros and uniform weights), for mass on
// all nodes and on leaves only, 1 to 4 inputs with uniform or random
// weights, dense, sparse and dyadic inputs (ties); and checks that the
// returned ν is a distribution on the allowed nodes whose objective,
// recomputed by tw.Distance, is the one returned.
func TestLP(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 40))
	var s *barycenter.Solver
	for k := range 160 {
		n := 1 + rng.IntN(8)
		roots := 1
		if k%3 == 1 {
			roots = 1 + rng.IntN(n)
		}
		parent := testutil.RandomParents(rng, n, roots)
		var weight []float64
		switch k % 3 {
		case 1:
			weight = testutil.DyadicWeights(rng, n)
		case 2:
			weight = testutil.UniformWeights(rng, n)
		}
		vw := []float64{1, 0.5, 2}[k%3]
		tr, err := tree.FromParents(parent, weight, nil, &tree.Options{VirtualRootWeight: vw})
		if err != nil {
			t.Fatal(err)
		}
		c := testutil.TreeMetric(parent, weight, vw)
		m := 1 + rng.IntN(4)
		mu := make([][]float64, m)
		for i := range mu {
			switch (k + i) % 3 {
			case 0:
				mu[i] = testutil.Dist(rng, n)
			case 1:
				mu[i] = testutil.SparseDist(rng, n, 2)
			case 2:
				mu[i] = dyadicDist(rng, n)
			}
		}
		var lam []float64
		if k%2 == 1 {
			lam = make([]float64, m)
			for i := range lam {
				lam[i] = float64(1 + rng.IntN(4))
			}
		}
		leaves := k%4 >= 2
		allowed := make([]bool, n)
		for j := range n {
			allowed[j] = !leaves || tr.IsLeaf(j)
		}
		name := fmt.Sprintf("case %d (n=%d roots=%d m=%d leaves=%v)", k, n, roots, m, leaves)
		if k%5 == 0 || s == nil || s.Tree() != tr {
			s = barycenter.New(tr)
		}
		nu := make([]float64, n)
		got, err := s.Solve(nu, rowsOf(mu), lam, &barycenter.Options{Leaves: leaves})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ulam := lam
		if ulam == nil {
			ulam = make([]float64, m)
			for i := range ulam {
				ulam[i] = 1 / float64(m)
			}
		}
		want, err := lpBarycenter(c, n, mu, ulam, allowed)
		if err != nil {
			t.Fatalf("%s: LP: %v", name, err)
		}
		if math.Abs(got-want) > 1e-9*math.Max(1, want) {
			t.Errorf("%s: objective %.15g, LP %.15g (ν = %v)", name, got, want, nu)
		}
		var sum, re float64
		for j, v := range nu {
			if v < 0 || v > 0 && !allowed[j] {
				t.Fatalf("%s: ν = %v", name, nu)
			}
			sum += v
		}
		for i := range mu {
			re += ulam[i] * tw.Distance(tr, mu[i], nu)
		}
		if math.Abs(sum-1) > 1e-12 || math.Abs(re-got) > 1e-12*math.Max(1, got) {
			t.Errorf("%s: Σν = %v, objective by tw.Distance %v, returned %v", name, sum, re, got)
		}
	}
}

// TestHand checks barycenters worked out by hand on the animals tree
// (unit weights): the barycenter of δ_dog and δ_snake with weights 1 and
// 1 costs 4 wherever on the path between them it sits; with weights 2
// and 1 it is δ_dog, at cost 4. The barycenter of δ_dog, δ_cat and
// δ_snake (uniform) is δ_mammal (the median of the three), at cost
// (1 + 1 + 3)/3; on leaves only it is one of dog or cat: (0 + 2 + 4)/3.
func TestHand(t *testing.T) {
	tr, err := tree.FromParents([]int{-1, 0, 0, 1, 1, 2, 2}, nil,
		[]string{"animal", "mammal", "reptile", "dog", "cat", "lizard", "snake"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	point := func(i int) []float64 { return testutil.PointMass(7, i) }
	s := barycenter.New(tr)
	nu := make([]float64, 7)
	for _, c := range []struct {
		mu     [][]float64
		lam    []float64
		leaves bool
		want   float64
		nu     []float64 // nil: not unique
	}{
		{[][]float64{point(3), point(6)}, []float64{1, 1}, false, 4, nil},
		{[][]float64{point(3), point(6)}, []float64{2, 1}, false, 4, point(3)},
		{[][]float64{point(3), point(4), point(6)}, nil, false, 5.0 / 3, point(1)},
		{[][]float64{point(3), point(4), point(6)}, nil, true, 2, nil},
	} {
		got, err := s.Solve(nu, rowsOf(c.mu), c.lam, &barycenter.Options{Leaves: c.leaves})
		if err != nil || math.Abs(got-c.want) > 1e-15 {
			t.Errorf("%v: objective %v (%v), want %v", c.mu, got, err, c.want)
		}
		for j := range nu {
			if c.nu != nil && math.Abs(nu[j]-c.nu[j]) > 1e-15 {
				t.Errorf("%v: ν = %v, want %v", c.mu, nu, c.nu)
				break
			}
		}
	}
}

// TestErrors: bad weights and masses are errors, not panics.
func TestErrors(t *testing.T) {
	tr := tree.Chain(3)
	s := barycenter.New(tr)
	nu := make([]float64, 3)
	rows := rowsOf([][]float64{{1, 0, 0}, {0, 0, 1}})
	if _, err := s.Solve(nu, rows, []float64{1, -1}, nil); !errors.Is(err, barycenter.ErrBadWeight) {
		t.Errorf("negative weight: %v", err)
	}
	if _, err := s.Solve(nu, rows, []float64{0, 0}, nil); !errors.Is(err, barycenter.ErrBadWeight) {
		t.Errorf("zero weights: %v", err)
	}
	if _, err := s.Solve(nu, &labeldist.Rows{}, nil, nil); !errors.Is(err, barycenter.ErrNoRows) {
		t.Errorf("no rows: %v", err)
	}
	bad := rowsOf([][]float64{{1, 0, 0}})
	bad.Mass[0] = math.NaN()
	if _, err := s.Solve(nu, bad, nil, nil); !errors.Is(err, barycenter.ErrBadMass) {
		t.Errorf("NaN mass: %v", err)
	}
	if v, err := s.Solve(nu, rows, nil, nil); err != nil || v != 1 {
		t.Errorf("after errors: %v %v", v, err)
	}
}
