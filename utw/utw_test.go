package utw_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tw"
	"github.com/twl-ldl/twl/utw"
)

// lpUTW solves the primal linear program of UTW_λ on the cost matrix c
// (n×n, row-major) with gonum's simplex:
//
//	min Σ_ij c_ij P_ij + λ(Σa − ΣP) + λ(Σb − ΣP)
//	s.t. P ≥ 0, P·1 ≤ a, Pᵀ·1 ≤ b,
//
// the transported mass P plus λ per unit of a destroyed and of b created,
// written with slack variables s, t ≥ 0: P·1 + s = a, Pᵀ·1 + t = b. Nodes
// without mass are left out (they carry none in any feasible plan). It
// shares no code with package utw: it is the tests' independent oracle.
func lpUTW(c []float64, n int, a, b []float64, lambda float64) (float64, error) {
	var ia, ib []int
	var sa, sb float64
	for i := range n {
		if a[i] > 0 {
			ia = append(ia, i)
			sa += a[i]
		}
		if b[i] > 0 {
			ib = append(ib, i)
			sb += b[i]
		}
	}
	if len(ia) == 0 || len(ib) == 0 {
		return lambda * (sa + sb), nil
	}
	np, nq := len(ia), len(ib)
	nv := np*nq + np + nq
	cost := make([]float64, nv)
	A := mat.NewDense(np+nq, nv, nil)
	rhs := make([]float64, np+nq)
	for p, i := range ia {
		for q, j := range ib {
			v := p*nq + q
			cost[v] = c[i*n+j] - 2*lambda
			A.Set(p, v, 1)
			A.Set(np+q, v, 1)
		}
		A.Set(p, np*nq+p, 1)
		rhs[p] = a[i]
	}
	for q, j := range ib {
		A.Set(np+q, np*nq+np+q, 1)
		rhs[np+q] = b[j]
	}
	opt, _, err := lp.Simplex(cost, A, rhs, 1e-12, nil)
	if err != nil {
		return 0, err
	}
	return opt + lambda*(sa+sb), nil
}

// randomCase returns a random forest or tree of at most maxN nodes with
// weights of one of several patterns (unit, dyadic with zeros, uniform),
// its parent array and weights, and its brute-force metric.
func randomCase(t *testing.T, rng *rand.Rand, k, maxN int) (*tree.Tree, []float64, string) {
	n := 1 + rng.IntN(maxN)
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
	vw := []float64{0.5, 1, 2}[k%3]
	tr, err := tree.FromParents(parent, weight, nil, &tree.Options{VirtualRootWeight: vw})
	if err != nil {
		t.Fatal(err)
	}
	if k%2 == 1 {
		// Renumbering changes the user order; the metric goes with it.
		tr = tr.BreadthFirst()
		parent = make([]int, n)
		weight = make([]float64, n)
		for i := range n {
			parent[i] = tr.Parent(i)
			weight[i] = tr.Weight(i)
		}
	}
	return tr, testutil.TreeMetric(parent, weight, vw), fmt.Sprintf("case %d (n=%d, roots=%d)", k, n, roots)
}

// measure returns non-negative masses on n nodes, not normalized: each
// node has mass with probability density, on a scale of total.
func measure(rng *rand.Rand, n int, density, total float64) []float64 {
	a := make([]float64, n)
	for i := range a {
		if rng.Float64() < density {
			a[i] = total * rng.Float64() / (density * float64(n))
		}
	}
	return a
}

// TestLP checks UTW_λ (dense and sparse) against the linear program on
// random trees and forests, weight patterns with zeros, masses of
// different totals, and λ from well below to well above the edge weights.
func TestLP(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 20))
	cases := 0
	for k := range 300 {
		tr, c, name := randomCase(t, rng, k, 16)
		n := tr.Len()
		lambda := []float64{0.05, 0.3, 0.75, 1, 2.5, 40}[k%6]
		density := []float64{0.3, 0.6, 1}[k%3]
		a := measure(rng, n, density, 0.5+2*rng.Float64())
		b := measure(rng, n, density, 0.5+2*rng.Float64())
		if k%7 == 0 {
			copy(b, a) // equal measures: 0
		}
		want, err := lpUTW(c, n, a, b, lambda)
		if err != nil {
			t.Fatalf("%s: LP: %v", name, err)
		}
		ws := utw.NewWorkspace(tr, lambda)
		got := ws.Distance(a, b)
		ai, am := nonZero(a)
		bi, bm := nonZero(b)
		sp := utw.NewSparse(tr, lambda).Distance(ai, am, bi, bm)
		for _, v := range []float64{got, sp} {
			if math.Abs(v-want) > 1e-9*math.Max(1, want) {
				t.Errorf("%s λ=%v: UTW %.15g (sparse %.15g), LP %.15g", name, lambda, got, sp, want)
			}
		}
		cases++
	}
	t.Logf("%d cases", cases)
}

func nonZero(x []float64) ([]int, []float64) {
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

// TestSparseDense compares Sparse (on the tree spanned by the labels with
// mass, chains of nodes without mass joined into one edge) and Workspace
// (every node) on larger random trees and forests, where the LP would be
// slow: two paths through the dynamic program that must agree to
// rounding.
func TestSparseDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 26))
	for k := range 300 {
		tr, _, name := randomCase(t, rng, k, 80)
		n := tr.Len()
		lambda := []float64{0.05, 0.3, 0.75, 1, 2.5, 40}[k%6]
		a := measure(rng, n, 0.2, 0.5+2*rng.Float64())
		b := measure(rng, n, 0.2, 0.5+2*rng.Float64())
		got := utw.NewWorkspace(tr, lambda).Distance(a, b)
		ai, am := nonZero(a)
		bi, bm := nonZero(b)
		sp := utw.NewSparse(tr, lambda).Distance(ai, am, bi, bm)
		if math.Abs(got-sp) > 1e-12*math.Max(1, got) {
			t.Errorf("%s λ=%v: dense %.17g, sparse %.17g", name, lambda, got, sp)
		}
	}
}

// TestLargeLambda: with equal total masses and λ at least half the
// diameter, no mass is worth destroying and UTW_λ is TW (tw.Distance);
// also for λ = 10⁶, where the potentials are near ±λ.
func TestLargeLambda(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 21))
	for k := range 40 {
		tr := tree.Random(2+rng.IntN(300), rand.NewPCG(uint64(k), 22))
		n := tr.Len()
		a, b := testutil.Dist(rng, n), testutil.SparseDist(rng, n, 5)
		want := tw.Distance(tr, a, b)
		var diam float64
		for i := range n {
			diam = max(diam, tr.RootDistance(i))
		}
		for _, lambda := range []float64{diam, 1e6} {
			got := utw.NewWorkspace(tr, lambda).Distance(a, b)
			if math.Abs(got-want) > 1e-12*math.Max(1, want) {
				t.Errorf("n=%d λ=%v: UTW %.17g, TW %.17g", n, lambda, got, want)
			}
		}
	}
}

// TestGrad checks the subgradient: by central finite differences at random
// points (away from kinks: random masses), with respect to a and, as −f,
// to b; and the subgradient inequality UTW(a') ≥ UTW(a) + ⟨f, a' − a⟩ at
// random a', which holds at kinks too.
func TestGrad(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 23))
	const h = 1e-7
	for k := range 60 {
		tr, _, name := randomCase(t, rng, k, 15)
		n := tr.Len()
		lambda := []float64{0.2, 0.7, 3}[k%3]
		a := measure(rng, n, 0.8, 1+rng.Float64())
		b := measure(rng, n, 0.8, 1+rng.Float64())
		ws := utw.NewWorkspace(tr, lambda)
		f := make([]float64, n)
		v := ws.DistanceGrad(f, a, b)
		for i := range n {
			if math.Abs(f[i]) > lambda*(1+1e-15) {
				t.Fatalf("%s: |f_%d| = %v > λ", name, i, f[i])
			}
			if p := tr.Parent(i); p >= 0 && math.Abs(f[i]-f[p]) > tr.Weight(i)*(1+1e-12)+1e-15 {
				t.Fatalf("%s: f not Lipschitz on the edge above %d", name, i)
			}
			for _, side := range []struct {
				x    []float64
				sign float64
			}{{a, 1}, {b, -1}} {
				x := side.x
				old := x[i]
				if old < 2*h {
					continue // keep masses non-negative
				}
				x[i] = old + h
				up := ws.Distance(a, b)
				x[i] = old - h
				down := ws.Distance(a, b)
				x[i] = old
				fd := (up - down) / (2 * h)
				if math.Abs(fd-side.sign*f[i]) > 1e-5*math.Max(1, math.Abs(f[i])) {
					t.Errorf("%s: ∂/∂ at %d (sign %v): finite difference %v, f %v", name, i, side.sign, fd, f[i])
				}
			}
		}
		for range 5 {
			a2 := measure(rng, n, 0.5, 2*rng.Float64())
			v2 := ws.Distance(a2, b)
			var lin float64
			for i := range n {
				lin += f[i] * (a2[i] - a[i])
			}
			if v2 < v+lin-1e-12*math.Max(1, v) {
				t.Errorf("%s: subgradient inequality: %v < %v + %v", name, v2, v, lin)
			}
		}
	}
}

// TestHand checks values worked out by hand on the chain 0–1–2 with unit
// weights. δ_0 against δ_2 (distance 2): transport costs 2, destroying
// and creating 2λ, so UTW = min(2, 2λ). δ_0 against 3·δ_1: move 1 unit
// (cost 1) and create 2 (2λ), or destroy and create all (λ + 3λ):
// UTW = min(1 + 2λ, 4λ).
func TestHand(t *testing.T) {
	tr := tree.Chain(3)
	for _, c := range []struct {
		a, b          []float64
		lambda, value float64
	}{
		{[]float64{1, 0, 0}, []float64{0, 0, 1}, 0.5, 1},
		{[]float64{1, 0, 0}, []float64{0, 0, 1}, 2, 2},
		{[]float64{1, 0, 0}, []float64{0, 3, 0}, 0.25, 1},
		{[]float64{1, 0, 0}, []float64{0, 3, 0}, 1, 3},
		{[]float64{0, 0, 0}, []float64{0, 3, 0}, 1.5, 4.5},
	} {
		if got := utw.NewWorkspace(tr, c.lambda).Distance(c.a, c.b); math.Abs(got-c.value) > 1e-15 {
			t.Errorf("UTW_%v(%v, %v) = %v, want %v", c.lambda, c.a, c.b, got, c.value)
		}
	}
}

// TestNaN: a NaN or infinite mass gives NaN, and the workspace stays
// usable.
func TestNaN(t *testing.T) {
	tr := tree.Chain(3)
	ws := utw.NewWorkspace(tr, 1)
	g := make([]float64, 3)
	if v := ws.DistanceGrad(g, []float64{math.Inf(1), 0, 0}, []float64{0, 0, 1}); !math.IsNaN(v) || !math.IsNaN(g[1]) {
		t.Errorf("got %v, %v", v, g)
	}
	if v := utw.NewSparse(tr, 1).Distance([]int{0}, []float64{math.NaN()}, nil, nil); !math.IsNaN(v) {
		t.Errorf("sparse: got %v", v)
	}
	if v := ws.Distance([]float64{1, 0, 0}, []float64{0, 0, 1}); v != 2 {
		t.Errorf("after NaN: %v", v)
	}
}

// TestAllocs: once warmed, Distance, DistanceGrad and Sparse.Distance
// allocate nothing.
func TestAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 24))
	tr := tree.Random(400, rand.NewPCG(30, 25))
	n := tr.Len()
	a, b := measure(rng, n, 0.5, 1), measure(rng, n, 0.5, 2)
	ai, am := nonZero(a)
	bi, bm := nonZero(b)
	ws := utw.NewWorkspace(tr, 0.8)
	sp := utw.NewSparse(tr, 0.8)
	g := make([]float64, n)
	sp.Distance(ai, am, bi, bm)
	if got := testing.AllocsPerRun(10, func() {
		ws.Distance(a, b)
		ws.DistanceGrad(g, a, b)
		sp.Distance(ai, am, bi, bm)
	}); got != 0 {
		t.Errorf("%v allocations per run", got)
	}
}
