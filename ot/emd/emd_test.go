package emd

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/internal/lpref"
)

// TestHand checks problems whose optimum is known in closed form.
func TestHand(t *testing.T) {
	for _, tc := range []struct {
		name string
		cost []float64
		a, b []float64
		want float64
	}{
		// All mass moves from point 0 to point 1 at distance 3.
		{"point masses", []float64{0, 3, 3, 0}, []float64{1, 0}, []float64{0, 1}, 3},
		// Identical histograms under a metric cost nothing.
		{"identical", []float64{0, 1, 1, 0}, []float64{0.5, 0.5}, []float64{0.5, 0.5}, 0},
		// Points 0, 1, 2 on a line: 1/2 moves from 0 to 2 (or 1/2 from 0 to 1
		// and 1/2 from 1 to 2), cost 1.
		{"line", []float64{0, 1, 2, 1, 0, 1, 2, 1, 0}, []float64{0.5, 0.5, 0}, []float64{0, 0.5, 0.5}, 1},
		// One row: every column receives its mass from it, cost Σ b_j C_0j =
		// 1·1 + 2·2 + 3·3.
		{"one row", []float64{1, 2, 3}, []float64{6}, []float64{1, 2, 3}, 14},
		// Unnormalized masses: a 2×2 assignment with total mass 4; the
		// diagonal costs 4·1, the anti-diagonal 4·5.
		{"assignment", []float64{1, 5, 5, 1}, []float64{2, 2}, []float64{2, 2}, 4},
		// 11ᵀ−I with disjoint supports: all mass moves at cost 1.
		{"disjoint", []float64{0, 1, 1, 1, 0, 1, 1, 1, 0}, []float64{0.5, 0.5, 0}, []float64{0, 0, 1}, 1},
		// 11ᵀ−I: the cost is the total variation Σ max(a_i − b_i, 0) = 0.3.
		{"total variation", []float64{0, 1, 1, 1, 0, 1, 1, 1, 0}, []float64{0.5, 0.3, 0.2}, []float64{0.2, 0.4, 0.4}, 0.3},
		// Negative zero is a valid zero cost.
		{"negative zero", []float64{math.Copysign(0, -1), 1, 1, 0}, []float64{0.5, 0.5}, []float64{0.75, 0.25}, 0.25},
		// All zero costs.
		{"zero costs", make([]float64, 6), []float64{1, 2}, []float64{1, 1, 1}, 0},
		// No mass at all.
		{"zero mass", []float64{1, 2, 3, 4}, []float64{0, 0}, []float64{0, 0}, 0},
		// Empty problem.
		{"empty", nil, nil, nil, 0},
	} {
		res, err := Solve(tc.cost, tc.a, tc.b, nil)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if math.Abs(res.Cost-tc.want) > 1e-12 {
			t.Errorf("%s: Cost = %v, want %v", tc.name, res.Cost, tc.want)
		}
		checkCertificate(t, tc.name, tc.cost, tc.a, tc.b, res)
	}
}

// TestAgainstLP compares with an independent solver, gonum's dense LP
// simplex (internal/lpref), on many small random problems.
func TestAgainstLP(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name    string
		pZero   float64 // probability of a zero mass
		integer int     // costs drawn from {0, ..., integer-1} when > 0 (ties)
		square  bool
	}{
		{name: "dense", square: true},
		{name: "rectangular"},
		{name: "zeros", pZero: 0.3},
		{name: "integer ties", integer: 4},
		{name: "binary ties with zeros", integer: 2, pZero: 0.2},
	} {
		for trial := 0; trial < 60; trial++ {
			n := 1 + rng.IntN(12)
			m := n
			if !tc.square {
				m = 1 + rng.IntN(12)
			}
			cost := make([]float64, n*m)
			for k := range cost {
				if tc.integer > 0 {
					cost[k] = float64(rng.IntN(tc.integer))
				} else {
					cost[k] = rng.Float64()
				}
			}
			a := randHist(rng, n, tc.pZero)
			b := randHist(rng, m, tc.pZero)
			name := fmt.Sprintf("%s/%d (%d×%d)", tc.name, trial, n, m)
			// Expected value: gonum's LP simplex on the same data.
			want, err := lpref.W1(cost, a, b)
			if err != nil {
				t.Fatalf("%s: lpref: %v", name, err)
			}
			res, err := Solve(cost, a, b, nil)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if e := relErr(res.Cost, want, 1e-12); e > 1e-9 {
				t.Errorf("%s: Cost = %v, LP gives %v (rel. err. %v)", name, res.Cost, want, e)
			}
			checkCertificate(t, name, cost, a, b, res)
		}
	}
}

// TestTreeClosedForm compares with the closed form of the Wasserstein
// distance on a tree metric (computed in treeW1), on random trees.
func TestTreeClosedForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		n     int
		unit  bool
		pZero float64
	}{
		{n: 2}, {n: 5}, {n: 20}, {n: 50, unit: true}, {n: 100}, {n: 100, pZero: 0.5},
		{n: 200, unit: true}, {n: 300}, {n: 300, unit: true, pZero: 0.3},
	} {
		for trial := 0; trial < 3; trial++ {
			name := fmt.Sprintf("n=%d unit=%v zeros=%v/%d", tc.n, tc.unit, tc.pZero, trial)
			parent, weight := randTree(rng, tc.n, tc.unit)
			cost := treeMetric(parent, weight)
			a := randHist(rng, tc.n, tc.pZero)
			b := randHist(rng, tc.n, tc.pZero)
			want := treeW1(parent, weight, a, b)
			res, err := Solve(cost, a, b, nil)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if e := relErr(res.Cost, want, 1e-12); e > 1e-9 {
				t.Errorf("%s: Cost = %v, tree closed form %v (rel. err. %v)", name, res.Cost, want, e)
			}
			checkCertificate(t, name, cost, a, b, res)
		}
	}
}

// TestDegenerate covers highly degenerate problems: equal histograms,
// uniform masses with many ties, and the 0/1 cost 11ᵀ−I.
func TestDegenerate(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 2, 7, 30, 120} {
		// Equal histograms under a tree metric: W = 0 (a metric vanishes on
		// the diagonal).
		parent, weight := randTree(rng, n, true)
		cost := treeMetric(parent, weight)
		a := randHist(rng, n, 0.2)
		res, err := Solve(cost, a, a, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Cost != 0 {
			t.Errorf("equal histograms n=%d: Cost = %v, want 0", n, res.Cost)
		}
		checkCertificate(t, fmt.Sprintf("equal n=%d", n), cost, a, a, res)

		// Uniform integer masses (all ties) under 11ᵀ−I, with b a
		// permutation of a: the total variation Σ max(a_i − b_i, 0).
		u := make([]float64, n)
		for i := range u {
			u[i] = float64(1 + rng.IntN(3))
		}
		v := slices.Clone(u)
		rng.Shuffle(n, func(i, j int) { v[i], v[j] = v[j], v[i] })
		ones := make([]float64, n*n)
		for i := range ones {
			if i%(n+1) != 0 {
				ones[i] = 1
			}
		}
		var tv float64
		for i := range u {
			tv += math.Max(u[i]-v[i], 0)
		}
		res, err = Solve(ones, u, v, nil)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(res.Cost-tv) > 1e-12*float64(n) {
			t.Errorf("11ᵀ−I n=%d: Cost = %v, want total variation %v", n, res.Cost, tv)
		}
		checkCertificate(t, fmt.Sprintf("11ᵀ−I n=%d", n), ones, u, v, res)
	}
}

// TestShapes covers very rectangular problems. With one row (column), all
// mass goes from (to) it, so the cost is Σ b_j C[0,j] (Σ a_i C[i,0]); the
// others are checked by their certificate.
func TestShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, sh := range [][2]int{{1, 1}, {1, 300}, {300, 1}, {2, 400}, {400, 2}, {5, 700}, {700, 5}, {150, 260}} {
		n, m := sh[0], sh[1]
		cost := make([]float64, n*m)
		for k := range cost {
			cost[k] = rng.Float64()
		}
		a, b := randHist(rng, n, 0.1), randHist(rng, m, 0.1)
		name := fmt.Sprintf("%d×%d", n, m)
		res, err := Solve(cost, a, b, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkCertificate(t, name, cost, a, b, res)
		var want float64
		switch {
		case n == 1:
			for j := range b {
				want += b[j] * cost[j]
			}
		case m == 1:
			for i := range a {
				want += a[i] * cost[i]
			}
		default:
			continue
		}
		if e := relErr(res.Cost, want, 1e-12); e > 1e-12 {
			t.Errorf("%s: Cost = %v, want %v", name, res.Cost, want)
		}
	}
}

// TestSolverReuse checks that a Solver reused on problems of changing sizes
// gives the same results as fresh solvers, and that Cost agrees with Solve.
func TestSolverReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var s Solver
	for trial := 0; trial < 40; trial++ {
		n, m := 1+rng.IntN(40), 1+rng.IntN(40)
		cost := make([]float64, n*m)
		for k := range cost {
			cost[k] = float64(rng.IntN(5))
		}
		a, b := randHist(rng, n, 0.2), randHist(rng, m, 0.2)
		fresh, err := Solve(cost, a, b, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Solve(cost, a, b)
		if err != nil {
			t.Fatal(err)
		}
		if got.Cost != fresh.Cost || got.Iterations != fresh.Iterations || !slices.Equal(got.Plan, fresh.Plan) {
			t.Errorf("trial %d: reused solver differs from a fresh one", trial)
		}
		c, err := s.Cost(cost, a, b)
		if err != nil {
			t.Fatal(err)
		}
		if c != fresh.Cost {
			t.Errorf("trial %d: Cost = %v, Solve gives %v", trial, c, fresh.Cost)
		}
	}
}

// TestInputsNotMutated checks that Solve leaves cost, a and b unchanged,
// with and without zero masses (which take different code paths).
func TestInputsNotMutated(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, pZero := range []float64{0, 0.4} {
		n, m := 15, 11
		cost := make([]float64, n*m)
		for k := range cost {
			cost[k] = rng.Float64()
		}
		a, b := randHist(rng, n, pZero), randHist(rng, m, pZero)
		c0, a0, b0 := slices.Clone(cost), slices.Clone(a), slices.Clone(b)
		var s Solver
		if _, err := s.Solve(cost, a, b); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Cost(cost, a, b); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(cost, c0) || !slices.Equal(a, a0) || !slices.Equal(b, b0) {
			t.Errorf("pZero=%v: inputs were modified", pZero)
		}
	}
}

func TestErrors(t *testing.T) {
	cost := []float64{0, 1, 1, 0}
	for _, tc := range []struct {
		name    string
		cost    []float64
		a, b    []float64
		wantErr error
	}{
		{"mass mismatch", cost, []float64{1, 0}, []float64{0.5, 0}, ErrMassMismatch},
		{"negative mass", cost, []float64{-1, 2}, []float64{0.5, 0.5}, ErrBadValue},
		{"NaN mass", cost, []float64{1, 0}, []float64{math.NaN(), 1}, ErrBadValue},
		{"Inf mass", cost, []float64{math.Inf(1), 0}, []float64{1, 0}, ErrBadValue},
		{"overflowing mass", cost, []float64{math.MaxFloat64, math.MaxFloat64}, []float64{math.MaxFloat64, math.MaxFloat64}, ErrBadValue},
		{"negative cost", []float64{0, -1, 1, 0}, []float64{1, 0}, []float64{0, 1}, ErrBadValue},
		{"NaN cost", []float64{0, 1, math.NaN(), 0}, []float64{1, 0}, []float64{0, 1}, ErrBadValue},
		{"Inf cost", []float64{0, math.Inf(1), 1, 0}, []float64{1, 0}, []float64{0, 1}, ErrBadValue},
	} {
		res, err := Solve(tc.cost, tc.a, tc.b, nil)
		if !errors.Is(err, tc.wantErr) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.wantErr)
		}
		if !math.IsNaN(res.Cost) || res.Plan != nil {
			t.Errorf("%s: result %+v returned with an error", tc.name, res)
		}
		var s Solver
		if c, err := s.Cost(tc.cost, tc.a, tc.b); !errors.Is(err, tc.wantErr) || !math.IsNaN(c) {
			t.Errorf("%s: Cost = %v, %v; want NaN, %v", tc.name, c, err, tc.wantErr)
		}
	}

	// Masses equal within the default tolerance are accepted; the plan
	// moves the smaller total.
	res, err := Solve([]float64{0, 1, 1, 0}, []float64{1, 0}, []float64{0, 1 + 1e-12}, nil)
	if err != nil {
		t.Errorf("mass within tolerance: %v", err)
	} else if len(res.Plan) != 1 || res.Plan[0] != (Flow{0, 1, 1}) || res.Cost != 1 {
		t.Errorf("mass within tolerance: plan %v, cost %v; want [{0 1 1}], 1", res.Plan, res.Cost)
	}
	// A tighter tolerance rejects them.
	if _, err := Solve(cost, []float64{1, 0}, []float64{0, 1 + 1e-12}, &Settings{MassTol: 1e-14}); !errors.Is(err, ErrMassMismatch) {
		t.Errorf("mass outside a tight tolerance: err = %v, want ErrMassMismatch", err)
	}
}

// TestBadCostAnywhere puts an invalid cost at every position of a matrix,
// with and without zero masses (which route the check through different
// code), and expects an error naming that position.
func TestBadCostAnywhere(t *testing.T) {
	n, m := 4, 7
	for _, masses := range [][2][]float64{
		{{1, 2, 3, 4}, {1, 1, 2, 2, 1, 1, 2}},
		{{1, 0, 5, 4}, {0, 1, 2, 2, 4, 1, 0}},
	} {
		a, b := masses[0], masses[1]
		for k := range n * m {
			for _, bad := range []float64{math.NaN(), -1, math.Inf(1), math.Inf(-1)} {
				cost := make([]float64, n*m)
				for l := range cost {
					cost[l] = float64(l%5) + 0.5
				}
				cost[k] = bad
				_, err := Solve(cost, a, b, nil)
				if !errors.Is(err, ErrBadValue) {
					t.Errorf("a=%v: cost[%d] = %v: err = %v, want ErrBadValue", a, k, bad, err)
				} else if want := fmt.Sprintf("cost[%d]", k); !strings.Contains(err.Error(), want) {
					t.Errorf("a=%v: cost[%d] = %v: error %q does not name %s", a, k, bad, err, want)
				}
			}
		}
	}
}

// TestIterLimit checks that hitting the pivot limit is reported, and that a
// limit large enough gives the optimum.
func TestIterLimit(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	n := 60
	parent, weight := randTree(rng, n, false)
	cost := treeMetric(parent, weight)
	a, b := randHist(rng, n, 0), randHist(rng, n, 0)
	full, err := Solve(cost, a, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	if full.Iterations < 2 {
		t.Fatalf("test problem needs %d pivots; want a harder one", full.Iterations)
	}
	// One pivot fewer than needed must fail.
	res, err := Solve(cost, a, b, &Settings{MaxIter: full.Iterations - 1})
	if !errors.Is(err, ErrIterLimit) {
		t.Fatalf("MaxIter = %d: err = %v, want ErrIterLimit", full.Iterations-1, err)
	}
	if !math.IsNaN(res.Cost) || res.Plan != nil {
		t.Errorf("MaxIter reached: got a result %v with the error", res.Cost)
	}
	var s Solver
	s.MaxIter = 1
	if _, err := s.Cost(cost, a, b); !errors.Is(err, ErrIterLimit) {
		t.Errorf("Cost with MaxIter = 1: err = %v, want ErrIterLimit", err)
	}
	// Exactly enough pivots succeed.
	res, err = Solve(cost, a, b, &Settings{MaxIter: full.Iterations})
	if err != nil || res.Cost != full.Cost {
		t.Errorf("MaxIter = %d: %v, %v; want %v", full.Iterations, res.Cost, err, full.Cost)
	}
}

func TestPanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"short cost", func() { Solve([]float64{0, 1, 1}, []float64{1, 0}, []float64{0, 1}, nil) }},
		{"long cost", func() { Solve(make([]float64, 5), []float64{1, 0}, []float64{0, 1}, nil) }},
		{"cost for empty a", func() { Solve([]float64{0}, nil, []float64{1}, nil) }},
		{"negative MaxIter", func() { Solve([]float64{0}, []float64{1}, []float64{1}, &Settings{MaxIter: -1}) }},
		{"negative MassTol", func() { Solve([]float64{0}, []float64{1}, []float64{1}, &Settings{MassTol: -1}) }},
		{"negative CostTol", func() { Solve([]float64{0}, []float64{1}, []float64{1}, &Settings{CostTol: -1}) }},
		{"Cost shape", func() { new(Solver).Cost([]float64{0, 1}, []float64{1}, []float64{1}) }},
	} {
		if !panics(tc.f) {
			t.Errorf("%s: no panic", tc.name)
		}
	}
}
