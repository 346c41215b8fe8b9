package sinkhorn

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/internal/lpref"
)

// TestAgainstReference checks every variant against refSinkhorn, the naive
// log-domain iteration in reference_test.go, after the same number of
// iterations: the iterates are mathematically identical, so values and
// potentials must agree to rounding. Expected values: refSinkhorn.
func TestAgainstReference(t *testing.T) {
	type problem struct {
		name          string
		n, m          int
		lambda        float64
		iters         int
		cost          func(r *rand.Rand, n, m int) []float64
		zerosA, zeroB int
	}
	uniform := func(scale float64) func(r *rand.Rand, n, m int) []float64 {
		return func(r *rand.Rand, n, m int) []float64 { return randCost(r, n, m, scale) }
	}
	problems := []problem{
		{name: "random 5x7 λ=10", n: 5, m: 7, lambda: 10, iters: 50, cost: uniform(1)},
		{name: "paper 11ᵀ−I 20 λ=50 10 iters", n: 20, m: 20, lambda: 50, iters: 10,
			cost: func(_ *rand.Rand, n, _ int) []float64 { return paperCost(n) }},
		{name: "random 12x9 λ=50 one iter", n: 12, m: 9, lambda: 50, iters: 1, cost: uniform(1)},
		{name: "zeros 8x9 λ=20", n: 8, m: 9, lambda: 20, iters: 30, cost: uniform(1), zerosA: 2, zeroB: 3},
		{name: "large λ·C 6x8 λ=1000 C<10", n: 6, m: 8, lambda: 1000, iters: 200, cost: uniform(10)},
		{name: "large λ·C with zeros", n: 9, m: 7, lambda: 1000, iters: 100, cost: uniform(10), zerosA: 3, zeroB: 2},
		{name: "tree metric 80 nodes λ=50 sparse b", n: 80, m: 80, lambda: 50, iters: 40,
			cost: func(r *rand.Rand, n, _ int) []float64 { return treeCost(r, n) }, zeroB: 74},
		{name: "tree metric 80 nodes λ=50", n: 80, m: 80, lambda: 50, iters: 200,
			cost: func(r *rand.Rand, n, _ int) []float64 { return treeCost(r, n) }},
		{name: "parallel sparse b 200x190 λ=50 C<20", n: 200, m: 190, lambda: 50, iters: 15, cost: uniform(20), zerosA: 3, zeroB: 180},
		{name: "parallel 200x190 λ=200 C<3", n: 200, m: 190, lambda: 200, iters: 15, cost: uniform(3), zerosA: 7, zeroB: 5},
	}
	type variant struct {
		name     string
		set      Settings
		unstable bool // Plain may fail with ErrUnstable on large λ·C
	}
	variants := []variant{
		{name: "log", set: Settings{}},
		{name: "log τ=10", set: Settings{Threshold: 10}},
		{name: "log τ=10 1 worker", set: Settings{Threshold: 10, Workers: 1}},
		{name: "log 3 workers", set: Settings{Workers: 3}},
		{name: "plain", set: Settings{Method: Plain}, unstable: true},
	}
	for pi, p := range problems {
		rnd := rand.New(rand.NewPCG(1, uint64(pi)))
		cost := p.cost(rnd, p.n, p.m)
		a := randHist(rnd, p.n, p.zerosA)
		b := randHist(rnd, p.m, p.zeroB)
		ref := refSinkhorn(cost, a, b, p.lambda, p.iters)
		largeLC := slices.Max(cost)*p.lambda > 700
		for _, v := range variants {
			t.Run(p.name+"/"+v.name, func(t *testing.T) {
				set := v.set
				set.Lambda, set.Iters, set.Tol = p.lambda, p.iters, -1
				s, err := New(cost, p.n, p.m, set)
				if err != nil {
					t.Fatal(err)
				}
				f := make([]float64, p.n)
				g := make([]float64, p.m)
				res, err := s.Potentials(f, g, a, b)
				if v.unstable && largeLC && errors.Is(err, ErrUnstable) {
					return // Plain may underflow once λ·C > 700
				}
				if err != nil {
					t.Fatal(err)
				}
				const tol = 1e-9
				if d := relDiff(res.Value, ref.value); d > tol {
					t.Errorf("value %v, reference %v", res.Value, ref.value)
				}
				if d := relDiff(res.Entropic, ref.entropic); d > tol {
					t.Errorf("entropic %v, reference %v", res.Entropic, ref.entropic)
				}
				if d := math.Abs(res.MarginalErr - ref.margErr); d > 1e-12+tol*ref.margErr {
					t.Errorf("marginal error %v, reference %v", res.MarginalErr, ref.margErr)
				}
				if res.Iters != p.iters {
					t.Errorf("iters %d, want %d", res.Iters, p.iters)
				}
				for i := range f {
					if a[i] > 0 && relDiff(f[i], ref.f[i]) > tol {
						t.Errorf("f[%d] = %v, reference %v", i, f[i], ref.f[i])
					}
					if math.IsNaN(f[i]) || math.IsInf(f[i], 0) {
						t.Errorf("f[%d] = %v", i, f[i])
					}
				}
				for j := range g {
					if b[j] > 0 && relDiff(g[j], ref.g[j]) > tol {
						t.Errorf("g[%d] = %v, reference %v", j, g[j], ref.g[j])
					}
					if math.IsNaN(g[j]) || math.IsInf(g[j], 0) {
						t.Errorf("g[%d] = %v", j, g[j])
					}
				}
				if v.set.Threshold == 10 && largeLC && res.Fixes == 0 {
					t.Errorf("no stabilization event with τ = 10 on λ·C > 700")
				}
			})
		}
	}
}

// TestConvergesToExact checks that the entropic transport cost approaches
// the exact optimal transport cost as λ grows. Expected values: the exact
// cost W from internal/lpref (gonum's simplex LP solver, independent code).
// The bound 0 ≤ ⟨C,P_λ⟩ − W ≤ log(n·m)/λ is elementary: P_λ minimizes
// ⟨C,P⟩ − H(P)/λ, so ⟨C,P_λ⟩ − W ≤ (H(P_λ) − H(P*))/λ ≤ log(nm)/λ for plans
// of mass 1 (0 ≤ H ≤ log(nm)). For problems with a unique optimal vertex
// the gap decays much faster, which the λ = 1000 and 10⁴ rows check.
func TestConvergesToExact(t *testing.T) {
	for seed := range uint64(4) {
		rnd := rand.New(rand.NewPCG(2, seed))
		n, m := 6, 7
		cost := euclidCost(rnd, n, m)
		a := randHist(rnd, n, 0)
		b := randHist(rnd, m, 1)
		exact, err := lpref.W1(cost, a, b)
		if err != nil {
			t.Fatal(err)
		}
		prev := math.Inf(1)
		for _, tc := range []struct {
			lambda float64
			tol    float64 // required |value − exact|
		}{
			{lambda: 10, tol: math.Log(42) / 10},
			{lambda: 100, tol: math.Log(42) / 100},
			{lambda: 1000, tol: 1e-4},
			{lambda: 10000, tol: 1e-6},
		} {
			res, err := Solve(cost, a, b, Settings{Lambda: tc.lambda, Iters: 200000, Tol: 1e-13})
			if err != nil {
				t.Fatal(err)
			}
			gap := math.Abs(res.Value - exact)
			if gap > tc.tol {
				t.Errorf("seed %d λ=%v: value %v, exact %v, gap %.3g > %.3g (iters %d, marginal err %.3g)",
					seed, tc.lambda, res.Value, exact, gap, tc.tol, res.Iters, res.MarginalErr)
			}
			if gap > prev && gap > 1e-12 {
				t.Errorf("seed %d λ=%v: gap %.3g did not decrease from %.3g", seed, tc.lambda, gap, prev)
			}
			prev = gap
		}
	}
}

// TestGradFiniteDifference compares Grad with central differences of the
// converged entropic objective, computed by refSinkhorn, along directions
// e_i − e_j tangent to the simplex (the gradient is defined up to a
// constant). Expected values: the finite differences.
func TestGradFiniteDifference(t *testing.T) {
	for _, tc := range []struct {
		name   string
		n, m   int
		lambda float64
		zeroB  int
		scale  float64
	}{
		{name: "5x6 λ=5", n: 5, m: 6, lambda: 5, scale: 1},
		{name: "7x4 λ=20 zeros in b", n: 7, m: 4, lambda: 20, zeroB: 1, scale: 1},
		{name: "6x6 λ=3 C<4", n: 6, m: 6, lambda: 3, scale: 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(3, uint64(tc.n*100+tc.m)))
			cost := randCost(rnd, tc.n, tc.m, tc.scale)
			a := randHist(rnd, tc.n, 0)
			b := randHist(rnd, tc.m, tc.zeroB)
			s, err := New(cost, tc.n, tc.m, Settings{Lambda: tc.lambda, Iters: 100000, Tol: 1e-15})
			if err != nil {
				t.Fatal(err)
			}
			grad := make([]float64, tc.n)
			if _, err := s.Grad(grad, a, b); err != nil {
				t.Fatal(err)
			}
			if sum := sumOf(grad); math.Abs(sum) > 1e-12 {
				t.Errorf("gradient sums to %v, want 0", sum)
			}
			// 2000 reference iterations converge these problems to rounding
			// (the solver needs fewer than 300 for a 1e−15 marginal error).
			const h = 1e-5
			obj := func(x []float64) float64 { return refSinkhorn(cost, x, b, tc.lambda, 2000).entropic }
			for i := range tc.n {
				j := (i + 1) % tc.n
				ap := slices.Clone(a)
				am := slices.Clone(a)
				ap[i] += h
				ap[j] -= h
				am[i] -= h
				am[j] += h
				fd := (obj(ap) - obj(am)) / (2 * h)
				if got := grad[i] - grad[j]; math.Abs(got-fd) > 1e-6 {
					t.Errorf("direction e_%d − e_%d: gradient %v, finite difference %v", i, j, got, fd)
				}
			}
		})
	}
}

// TestLogitGradFiniteDifference compares LogitGrad with central differences
// through the softmax, of the converged entropic objective (refSinkhorn),
// coordinate by coordinate (the softmax makes every direction admissible).
func TestLogitGradFiniteDifference(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 0))
	n, m := 6, 5
	cost := randCost(rnd, n, m, 1)
	b := randHist(rnd, m, 1)
	z := make([]float64, n)
	for i := range z {
		z[i] = 2 * rnd.NormFloat64()
	}
	const lambda = 8
	s, err := New(cost, n, m, Settings{Lambda: lambda, Iters: 100000, Tol: 1e-15})
	if err != nil {
		t.Fatal(err)
	}
	grad := make([]float64, n)
	val, err := s.LogitGrad(grad, z, b)
	if err != nil {
		t.Fatal(err)
	}
	soft := func(z []float64) []float64 {
		mx := slices.Max(z)
		p := make([]float64, len(z))
		s := 0.0
		for i, v := range z {
			p[i] = math.Exp(v - mx)
			s += p[i]
		}
		for i := range p {
			p[i] /= s
		}
		return p
	}
	ref := refSinkhorn(cost, soft(z), b, lambda, 2000)
	if relDiff(val, ref.value) > 1e-9 {
		t.Errorf("value %v, reference %v", val, ref.value)
	}
	const h = 1e-5
	for i := range n {
		zp, zm := slices.Clone(z), slices.Clone(z)
		zp[i] += h
		zm[i] -= h
		fd := (refSinkhorn(cost, soft(zp), b, lambda, 2000).entropic -
			refSinkhorn(cost, soft(zm), b, lambda, 2000).entropic) / (2 * h)
		if math.Abs(grad[i]-fd) > 1e-7 {
			t.Errorf("∂/∂z_%d: gradient %v, finite difference %v", i, grad[i], fd)
		}
	}
}

// TestZeros checks histograms with zero entries: no NaN or Inf anywhere,
// converged marginals equal to a and b (so the plan is feasible; expected
// value: the inputs themselves), and zero-mass potentials equal to the soft
// c-transform computed here by hand.
func TestZeros(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 0))
	for _, tc := range []struct {
		name          string
		n, m, za, zb  int
		lambda, scale float64
	}{
		{name: "moderate", n: 9, m: 8, za: 3, zb: 4, lambda: 30, scale: 1},
		{name: "large λ·C", n: 9, m: 8, za: 3, zb: 4, lambda: 500, scale: 5},
		{name: "single support point", n: 5, m: 6, za: 4, zb: 5, lambda: 50, scale: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cost := randCost(rnd, tc.n, tc.m, tc.scale)
			a := randHist(rnd, tc.n, tc.za)
			b := randHist(rnd, tc.m, tc.zb)
			s, err := New(cost, tc.n, tc.m, Settings{Lambda: tc.lambda, Iters: 200000, Tol: 1e-12})
			if err != nil {
				t.Fatal(err)
			}
			f := make([]float64, tc.n)
			g := make([]float64, tc.m)
			res, err := s.Potentials(f, g, a, b)
			if err != nil {
				t.Fatal(err)
			}
			grad := make([]float64, tc.n)
			if _, err := s.Grad(grad, a, b); err != nil {
				t.Fatal(err)
			}
			for _, x := range [][]float64{f, g, grad, {res.Value, res.Entropic, res.MarginalErr}} {
				for _, v := range x {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						t.Fatalf("non-finite output %v in %v", v, x)
					}
				}
			}
			if res.MarginalErr > 1e-11 {
				t.Errorf("marginal error %v after convergence", res.MarginalErr)
			}
			// Rebuild the plan from the potentials and check the marginals.
			for i := range tc.n {
				row := 0.0
				for j := range tc.m {
					if a[i] > 0 && b[j] > 0 {
						row += math.Exp(tc.lambda * (f[i] + g[j] - cost[i*tc.m+j]))
					}
				}
				if math.Abs(row-a[i]) > 1e-11 {
					t.Errorf("row %d of P sums to %v, a = %v", i, row, a[i])
				}
				if a[i] == 0 {
					want := cTransform(tc.lambda, cost[i*tc.m:(i+1)*tc.m], g, b)
					if relDiff(f[i], want) > 1e-12 {
						t.Errorf("f[%d] = %v at zero mass, c-transform %v", i, f[i], want)
					}
				}
			}
			for j := range tc.m {
				col := 0.0
				cj := make([]float64, tc.n)
				for i := range tc.n {
					cj[i] = cost[i*tc.m+j]
					if a[i] > 0 && b[j] > 0 {
						col += math.Exp(tc.lambda * (f[i] + g[j] - cost[i*tc.m+j]))
					}
				}
				if math.Abs(col-b[j]) > 1e-11 {
					t.Errorf("column %d of P sums to %v, b = %v", j, col, b[j])
				}
				if b[j] == 0 {
					want := cTransform(tc.lambda, cj, f, a)
					if relDiff(g[j], want) > 1e-12 {
						t.Errorf("g[%d] = %v at zero mass, c-transform %v", j, g[j], want)
					}
				}
			}
		})
	}
}

// cTransform returns −(1/λ) log Σ_{k: w_k>0} exp(λ(h_k − c_k)), computed
// with a max shift.
func cTransform(lambda float64, c, h, w []float64) float64 {
	mx := math.Inf(-1)
	for k := range c {
		if w[k] > 0 {
			mx = math.Max(mx, lambda*(h[k]-c[k]))
		}
	}
	s := 0.0
	for k := range c {
		if w[k] > 0 {
			s += math.Exp(lambda*(h[k]-c[k]) - mx)
		}
	}
	return -(mx + math.Log(s)) / lambda
}

func sumOf(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

// TestZeroMass checks the degenerate all-zero histograms: value 0 and a
// zero gradient. Expected values: the transport cost of the empty plan.
func TestZeroMass(t *testing.T) {
	cost := []float64{0, 1, 1, 0}
	s, err := New(cost, 2, 2, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	grad := []float64{7, 7}
	v, err := s.Grad(grad, []float64{0, 0}, []float64{0, 0})
	if err != nil || v != 0 || grad[0] != 0 || grad[1] != 0 {
		t.Errorf("got %v, %v, %v; want 0, [0 0], nil", v, grad, err)
	}
}

// TestWorkersAndBatchBitwise checks that single solves with any number of
// workers and all batch methods give bit-identical results. Expected
// values: the serial single-pair results (Workers = 1).
func TestWorkersAndBatchBitwise(t *testing.T) {
	for _, tc := range []struct {
		name          string
		n, m, B       int
		lambda, scale float64
		iters         int
		tau           float64
		zeroB         int // zeros per target row (default (k+1)%4)
	}{
		{name: "small", n: 30, m: 20, B: 9, lambda: 50, scale: 1, iters: 20},
		// n·m ≥ parMin: the single solves run in parallel; λ·C > 700 and
		// τ = 1e6 make rows and columns go through the stabilization.
		{name: "parallel stabilized", n: 260, m: 250, B: 5, lambda: 400, scale: 4, iters: 12, tau: 1e6},
		// Targets with 10 of 250 entries positive take the sparse passes.
		{name: "parallel sparse targets", n: 260, m: 250, B: 4, lambda: 50, scale: 20, iters: 12, zeroB: 240},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(6, uint64(tc.n)))
			n, m, B := tc.n, tc.m, tc.B
			cost := randCost(rnd, n, m, tc.scale)
			a := make([]float64, 0, B*n)
			b := make([]float64, 0, B*m)
			z := make([]float64, B*n)
			for k := range B {
				a = append(a, randHist(rnd, n, k%3)...)
				zb := (k + 1) % 4
				if tc.zeroB > 0 {
					zb = tc.zeroB
				}
				b = append(b, randHist(rnd, m, zb)...)
			}
			for i := range z {
				z[i] = rnd.NormFloat64()
			}
			a0, b0, z0, c0 := slices.Clone(a), slices.Clone(b), slices.Clone(z), slices.Clone(cost)
			base := Settings{Lambda: tc.lambda, Iters: tc.iters, Tol: -1, Threshold: tc.tau}
			// Serial references.
			serial, _ := New(cost, n, m, withWorkers(base, 1))
			wantV := make([]float64, B)
			wantG := make([]float64, B*n)
			wantLV := make([]float64, B)
			wantLG := make([]float64, B*n)
			fixes := 0
			for k := range B {
				ak, bk := a[k*n:(k+1)*n], b[k*m:(k+1)*m]
				res, err := serial.Solve(ak, bk)
				if err != nil {
					t.Fatal(err)
				}
				fixes += res.Fixes
				if wantV[k], err = serial.Grad(wantG[k*n:(k+1)*n], ak, bk); err != nil {
					t.Fatal(err)
				}
				if wantV[k] != res.Value {
					t.Fatalf("Grad value %v differs from Solve value %v", wantV[k], res.Value)
				}
				if wantLV[k], err = serial.LogitGrad(wantLG[k*n:(k+1)*n], z[k*n:(k+1)*n], bk); err != nil {
					t.Fatal(err)
				}
			}
			if tc.tau != 0 && fixes == 0 {
				t.Errorf("expected stabilization events")
			}
			for _, w := range []int{1, 2, 3, 8} {
				s, err := New(cost, n, m, withWorkers(base, w))
				if err != nil {
					t.Fatal(err)
				}
				gotV := make([]float64, B)
				gotG := make([]float64, B*n)
				if err := s.BatchGrad(gotV, gotG, a, b); err != nil {
					t.Fatal(err)
				}
				expectBits(t, "BatchGrad values", w, gotV, wantV)
				expectBits(t, "BatchGrad grads", w, gotG, wantG)
				clear(gotV)
				if err := s.Batch(gotV, a, b); err != nil {
					t.Fatal(err)
				}
				expectBits(t, "Batch values", w, gotV, wantV)
				clear(gotV)
				clear(gotG)
				if err := s.BatchLogitGrad(gotV, gotG, z, b); err != nil {
					t.Fatal(err)
				}
				expectBits(t, "BatchLogitGrad values", w, gotV, wantLV)
				expectBits(t, "BatchLogitGrad grads", w, gotG, wantLG)
				// Single solves with w workers.
				for k := range B {
					g := make([]float64, n)
					v, err := s.Grad(g, a[k*n:(k+1)*n], b[k*m:(k+1)*m])
					if err != nil {
						t.Fatal(err)
					}
					expectBits(t, "Grad value", w, []float64{v}, wantV[k:k+1])
					expectBits(t, "Grad", w, g, wantG[k*n:(k+1)*n])
				}
			}
			if !slices.Equal(a, a0) || !slices.Equal(b, b0) || !slices.Equal(z, z0) || !slices.Equal(cost, c0) {
				t.Errorf("inputs modified")
			}
		})
	}
}

func withWorkers(s Settings, w int) Settings {
	s.Workers = w
	return s
}

func expectBits(t *testing.T, what string, workers int, got, want []float64) {
	t.Helper()
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Errorf("%s, %d workers: [%d] = %v, serial %v", what, workers, i, got[i], want[i])
			return
		}
	}
}

// TestSetCost checks that SetCost gives the results of a fresh solver and
// that a failed SetCost leaves the solver refusing to solve.
func TestSetCost(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 0))
	n, m := 7, 6
	c1, c2 := randCost(rnd, n, m, 1), randCost(rnd, n, m, 3)
	a, b := randHist(rnd, n, 0), randHist(rnd, m, 0)
	set := Settings{Lambda: 200, Iters: 50, Tol: -1}
	s, _ := New(c1, n, m, set)
	if _, err := s.Solve(a, b); err != nil {
		t.Fatal(err)
	}
	if err := s.SetCost(c2); err != nil {
		t.Fatal(err)
	}
	got, _ := s.Solve(a, b)
	want, _ := Solve(c2, a, b, set)
	if got != want {
		t.Errorf("after SetCost %+v, fresh solver %+v", got, want)
	}
	bad := slices.Clone(c2)
	bad[5] = -1
	if err := s.SetCost(bad); !errors.Is(err, ErrCost) {
		t.Errorf("SetCost(bad) = %v, want ErrCost", err)
	}
	if _, err := s.Solve(a, b); !errors.Is(err, ErrCost) {
		t.Errorf("Solve after failed SetCost = %v, want ErrCost", err)
	}
}

// TestTolStops checks that the default tolerance stops the iteration early
// with a marginal error within the requested relative tolerance.
func TestTolStops(t *testing.T) {
	rnd := rand.New(rand.NewPCG(8, 0))
	n, m := 10, 12
	cost := randCost(rnd, n, m, 1)
	a, b := randHist(rnd, n, 0), randHist(rnd, m, 0)
	res, err := Solve(cost, a, b, Settings{Lambda: 20})
	if err != nil {
		t.Fatal(err)
	}
	if res.Iters >= DefaultIters || res.MarginalErr > DefaultTol {
		t.Errorf("iters %d, marginal error %v; want early stop below %v", res.Iters, res.MarginalErr, DefaultTol)
	}
}

// TestErrors checks the data-dependent error conditions.
func TestErrors(t *testing.T) {
	cost := []float64{0, 1, 1, 0}
	a := []float64{0.5, 0.5}
	b := []float64{0.25, 0.75}
	for _, tc := range []struct {
		name       string
		cost, a, b []float64
		set        Settings
		want       error
	}{
		{name: "negative cost", cost: []float64{0, -1, 1, 0}, want: ErrCost},
		{name: "NaN cost", cost: []float64{0, math.NaN(), 1, 0}, want: ErrCost},
		{name: "Inf cost", cost: []float64{0, 1, math.Inf(1), 0}, want: ErrCost},
		{name: "negative mass", a: []float64{-0.5, 1.5}, want: ErrMass},
		{name: "NaN mass", b: []float64{math.NaN(), 1}, want: ErrMass},
		{name: "Inf mass", b: []float64{math.Inf(1), 1}, want: ErrMass},
		{name: "mass mismatch", b: []float64{0.25, 0.5}, want: ErrMassMismatch},
		{name: "negative λ", set: Settings{Lambda: -1}, want: ErrSettings},
		{name: "NaN λ", set: Settings{Lambda: math.NaN()}, want: ErrSettings},
		{name: "Inf λ", set: Settings{Lambda: math.Inf(1)}, want: ErrSettings},
		{name: "negative Iters", set: Settings{Iters: -1}, want: ErrSettings},
		{name: "τ ≤ 1", set: Settings{Threshold: 0.5}, want: ErrSettings},
		{name: "negative Workers", set: Settings{Workers: -2}, want: ErrSettings},
		{name: "unknown method", set: Settings{Method: 7}, want: ErrSettings},
		{name: "memory limit", set: Settings{MaxBytes: 100}, want: ErrTooLarge},
		{name: "plain underflow", cost: []float64{0, 1, 1, 0}, a: []float64{1, 0}, b: []float64{0, 1},
			set: Settings{Method: Plain, Lambda: 1000}, want: ErrUnstable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, x, y := cost, a, b
			if tc.cost != nil {
				c = tc.cost
			}
			if tc.a != nil {
				x = tc.a
			}
			if tc.b != nil {
				y = tc.b
			}
			_, err := Solve(c, x, y, tc.set)
			if !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
		})
	}
	// Batch errors name the lowest failing row.
	s, _ := New(cost, 2, 2, Settings{Workers: 2})
	vals := make([]float64, 3)
	err := s.Batch(vals, []float64{0.5, 0.5, 0.5, 0.5, -1, 2}, []float64{1, 0, 0.5, 0.6, 1, 0})
	if !errors.Is(err, ErrMassMismatch) || !strings.Contains(err.Error(), "batch row 1") {
		t.Errorf("batch error = %v, want row 1 ErrMassMismatch", err)
	}
	grads := make([]float64, 4)
	err = s.BatchLogitGrad(vals[:2], grads, []float64{0, 1, math.NaN(), 0}, []float64{0.5, 0.5, 0.5, 0.5})
	if !errors.Is(err, ErrMass) || !strings.Contains(err.Error(), "batch row 1") {
		t.Errorf("batch logit error = %v, want row 1 ErrMass", err)
	}
}

// TestPanics checks that shape mismatches panic with a "sinkhorn: " message.
func TestPanics(t *testing.T) {
	cost := []float64{0, 1, 1, 0, 2, 2}
	s, err := New(cost, 3, 2, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	a3, b2 := []float64{0.2, 0.3, 0.5}, []float64{0.5, 0.5}
	for _, tc := range []struct {
		name string
		fn   func()
	}{
		{"New cost length", func() { New(cost, 2, 2, Settings{}) }},
		{"New zero n", func() { New(nil, 0, 2, Settings{}) }},
		{"Solve a", func() { s.Solve(b2, b2) }},
		{"Solve b", func() { s.Solve(a3, a3) }},
		{"Grad dst", func() { s.Grad(make([]float64, 2), a3, b2) }},
		{"LogitGrad dst", func() { s.LogitGrad(make([]float64, 4), a3, b2) }},
		{"Potentials f", func() { s.Potentials(make([]float64, 2), nil, a3, b2) }},
		{"Potentials g", func() { s.Potentials(nil, make([]float64, 3), a3, b2) }},
		{"SetCost", func() { s.SetCost(cost[:4]) }},
		{"Batch a", func() { s.Batch(make([]float64, 2), a3, append(b2, b2...)) }},
		{"Batch b", func() { s.Batch(make([]float64, 1), a3, a3) }},
		{"BatchGrad grads", func() { s.BatchGrad(make([]float64, 1), make([]float64, 2), a3, b2) }},
		{"BatchLogitGrad grads", func() { s.BatchLogitGrad(make([]float64, 1), nil, a3, b2) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := panics(tc.fn)
			if !strings.HasPrefix(msg, "sinkhorn: ") {
				t.Errorf("panic %q, want a \"sinkhorn: \" panic", msg)
			}
		})
	}
}

// panics runs fn and returns its panic message ("" if it did not panic).
func panics(fn func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg, _ = r.(string)
			if msg == "" {
				msg = "non-string panic"
			}
		}
	}()
	fn()
	return ""
}

// TestBytes checks the memory accounting against the formula written out
// by hand, and that New refuses problems over the limit.
func TestBytes(t *testing.T) {
	// n = m = 1e5, one worker: cost + kernel + one private kernel
	// = 3·8·1e10 bytes, the kernel's column sums (m floats), lane vectors
	// (6n + 7m floats, n bools, 2m ints) and per-block column partials
	// (chunking(1e5) gives 64 blocks: 63·m more floats).
	const n = 100000
	want := int64(3*8*n*n + 8*n + 8*(6*n+7*n) + n + 16*n + 8*63*n)
	if got := Bytes(n, n, Settings{Workers: 1, MaxBytes: -1}); got != want {
		t.Errorf("Bytes(1e5, 1e5) = %d, want %d", got, want)
	}
	// Two lanes when unlimited; reduced to one when only one fits.
	two := Bytes(100, 100, Settings{Workers: 2, MaxBytes: -1})
	one := Bytes(100, 100, Settings{Workers: 1, MaxBytes: -1})
	if two <= one {
		t.Errorf("two lanes %d ≤ one lane %d", two, one)
	}
	if got := Bytes(100, 100, Settings{Workers: 2, MaxBytes: one}); got != one {
		t.Errorf("Bytes with limit %d = %d, want one lane", one, got)
	}
	cost := paperCost(100)
	if _, err := New(cost, 100, 100, Settings{Workers: 1, MaxBytes: one - 1}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("New over the limit: err = %v, want ErrTooLarge", err)
	}
	if _, err := New(cost, 100, 100, Settings{Workers: 1, MaxBytes: one}); err != nil {
		t.Errorf("New at the limit: %v", err)
	}
	if Bytes(n, n, Settings{}) <= DefaultMaxBytes {
		t.Errorf("L = 1e5 should exceed the default limit")
	}
}

// TestPOT compares with POT, an independent implementation. Expected
// values: POT 0.8.2, ot.sinkhorn2(a, b, C, reg=1/λ, method="sinkhorn_log",
// numItermax=iters, stopThr=0) for the value and, for the gradient,
// log_u/λ − mean(log_u/λ) from ot.sinkhorn(..., log=True), run on the same
// inputs (the seeded histograms and costs below, written out with %.17g).
func TestPOT(t *testing.T) {
	// The inputs of the second and third cases, generated as in
	// BenchmarkPaper and with a random cost.
	rnd := rand.New(rand.NewPCG(10, 100))
	a100, b100 := randHist(rnd, 100, 0), randHist(rnd, 100, 0)
	rnd = rand.New(rand.NewPCG(20, 0))
	c50 := randCost(rnd, 50, 40, 5)
	a50, b50 := randHist(rnd, 50, 0), randHist(rnd, 40, 6)
	for _, tc := range []struct {
		name        string
		cost, a, b  []float64
		n, m        int
		set         Settings
		value       float64
		grad0, gend float64 // first and last gradient entries (0: not checked)
	}{
		{
			name: "3x3 paper setting", n: 3, m: 3,
			cost:  []float64{0, 1, 1, 1, 0, 1, 1, 1, 0},
			a:     []float64{0.5, 0.3, 0.2},
			b:     []float64{0.2, 0.3, 0.5},
			set:   paperSettings,
			value: 3.5092952351495725e-15,
		},
		{
			name: "L=100 paper setting", n: 100, m: 100,
			cost: paperCost(100), a: a100, b: b100,
			set:   paperSettings,
			value: 0.006536222181618583, grad0: -0.12419166128653139,
		},
		{
			name: "50x40 λ=200 C<5 zeros in b", n: 50, m: 40,
			cost: c50, a: a50, b: b50,
			set:   Settings{Lambda: 200, Iters: 30, Tol: -1},
			value: 0.18853178892280897, grad0: -0.09710604084472563, gend: 0.6736508205304796,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(tc.cost, tc.n, tc.m, tc.set)
			if err != nil {
				t.Fatal(err)
			}
			grad := make([]float64, tc.n)
			v, err := s.Grad(grad, tc.a, tc.b)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(v-tc.value) > 1e-12*math.Abs(tc.value) {
				t.Errorf("value %v, POT %v", v, tc.value)
			}
			if tc.grad0 != 0 && math.Abs(grad[0]-tc.grad0) > 1e-12 {
				t.Errorf("grad[0] %v, POT %v", grad[0], tc.grad0)
			}
			if tc.gend != 0 && math.Abs(grad[tc.n-1]-tc.gend) > 1e-12 {
				t.Errorf("grad[n-1] %v, POT %v", grad[tc.n-1], tc.gend)
			}
		})
	}
}

// TestSinglePoint checks 1×m and n×1 problems, whose only feasible plan
// sends all mass to (or from) the single point. Expected values: Σ_j b_j C_0j
// (resp. Σ_i a_i C_i0), the cost of that plan, for every λ and method.
func TestSinglePoint(t *testing.T) {
	row := []float64{0.5, 2, 7}
	w := []float64{0.2, 0.3, 0.5}
	want := 0.2*0.5 + 0.3*2 + 0.5*7
	for _, set := range []Settings{{}, {Lambda: 1e4}, {Method: Plain, Lambda: 0.1}} {
		r1, err := Solve(row, []float64{1}, w, set)
		if err != nil || math.Abs(r1.Value-want) > 1e-15 {
			t.Errorf("1×3 %+v: value %v, err %v; want %v", set, r1.Value, err, want)
		}
		r2, err := Solve(row, w, []float64{1}, set)
		if err != nil || math.Abs(r2.Value-want) > 1e-15 {
			t.Errorf("3×1 %+v: value %v, err %v; want %v", set, r2.Value, err, want)
		}
	}
}
