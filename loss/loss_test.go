package loss_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/internal/fmath"
	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/ot/sinkhorn"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tw"
)

// randTree is a random single-rooted tree on n nodes with weights in
// [0.25, 2.25), kept with its parent array and weights for the reference
// computations below.
type randTree struct {
	t      *tree.Tree
	parent []int
	weight []float64
}

func newRandTree(tb testing.TB, rng *rand.Rand, n int) randTree {
	parent := testutil.RandomParents(rng, n, 1)
	weight := testutil.UniformWeights(rng, n)
	for i := range weight {
		weight[i] += 0.25
	}
	t, err := tree.FromParents(parent, weight, nil, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return randTree{t, parent, weight}
}

// subtreeDiff returns d_v = Σ_{u ∈ Γ(v)} (a_u − b_u) for every node v, by
// walking from every node up to the root: O(n·depth), sharing no code with
// package tw's sweeps.
func (r randTree) subtreeDiff(a, b []float64) []float64 {
	d := make([]float64, len(a))
	for u := range a {
		for v := u; v >= 0; v = r.parent[v] {
			d[v] += a[u] - b[u]
		}
	}
	return d
}

// twRef is TW(a, b) = Σ_e w_e |d_e| over the non-root nodes (Evans &
// Matsen 2012, the paper's Eq. 3).
func (r randTree) twRef(a, b []float64) float64 {
	var s float64
	for v, dv := range r.subtreeDiff(a, b) {
		if r.parent[v] >= 0 {
			s += r.weight[v] * math.Abs(dv)
		}
	}
	return s
}

// minKink returns the smallest |d_e| over the edges: the distance to the
// nearest kink of TW(·, b) at a.
func (r randTree) minKink(a, b []float64) float64 {
	m := math.Inf(1)
	for v, dv := range r.subtreeDiff(a, b) {
		if r.parent[v] >= 0 {
			m = min(m, math.Abs(dv))
		}
	}
	return m
}

// randLogits returns rows×L normal logits times scale.
func randLogits(rng *rand.Rand, rows, L int, scale float64) []float64 {
	z := make([]float64, rows*L)
	for i := range z {
		z[i] = scale * rng.NormFloat64()
	}
	return z
}

// randTargets returns rows random distributions over L labels; sparse ones
// (with zeros, to exercise 0·log 0) when k < L.
func randTargets(rng *rand.Rand, rows, L, k int) []float64 {
	y := make([]float64, 0, rows*L)
	for range rows {
		if k < L {
			y = append(y, testutil.SparseDist(rng, L, k)...)
		} else {
			y = append(y, testutil.Dist(rng, L)...)
		}
	}
	return y
}

// eval calls l.Eval and fails the test on error.
func eval(tb testing.TB, l loss.Loss, z, y []float64) (float64, []float64) {
	tb.Helper()
	g := make([]float64, len(z))
	v, err := l.Eval(g, z, y)
	if err != nil {
		tb.Fatal(err)
	}
	return v, g
}

// checkFD compares the gradient of l at z with central differences of the
// value f(z) = l.Eval(·, z, y) in every coordinate, and of ref(z) when ref
// is not nil (a smooth function whose gradient l returns but whose value it
// does not, as for Sinkhorn). The error of a central difference is
// O(h²·|third derivative|) plus rounding ε·|f|/h.
func checkFD(t *testing.T, name string, l loss.Loss, z, y []float64, h, tol float64, ref func(z []float64) float64) {
	t.Helper()
	f := ref
	if f == nil {
		f = func(z []float64) float64 { v, _ := eval(t, l, z, y); return v }
	}
	_, g := eval(t, l, z, y)
	x := slices.Clone(z)
	for i := range z {
		x[i] = z[i] + h
		fp := f(x)
		x[i] = z[i] - h
		fm := f(x)
		x[i] = z[i]
		if fd := (fp - fm) / (2 * h); math.Abs(fd-g[i]) > tol*math.Max(1, math.Abs(fd)) {
			t.Errorf("%s: ∂loss/∂z_%d = %.10g, finite difference %.10g", name, i, g[i], fd)
		}
	}
}

// TestKLValue compares the KL loss with klRef averaged over rows, on dense
// and sparse targets (zeros in y), and with large logits where p is
// nearly one-hot. Both compute the same sum; they differ in the
// exponential (fmath vs math.Exp, a few ulps) and in rounding, hence 1e-12
// relative.
func TestKLValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		name        string
		rows, L, k  int
		logitsScale float64
	}{
		{"one label", 2, 1, 1, 1},
		{"dense", 5, 7, 7, 1},
		{"sparse", 5, 20, 3, 2},
		{"one-hot targets", 4, 10, 1, 1},
		{"large logits", 3, 10, 10, 30},
		{"many rows", 300, 4, 4, 1},
	}
	for _, c := range cases {
		z := randLogits(rng, c.rows, c.L, c.logitsScale)
		y := randTargets(rng, c.rows, c.L, c.k)
		l := loss.NewKL(c.L)
		v, _ := eval(t, l, z, y)
		var want float64
		for r := range c.rows {
			want += testutil.KL(y[r*c.L:(r+1)*c.L], testutil.Softmax(z[r*c.L:(r+1)*c.L]))
		}
		want /= float64(c.rows)
		if math.Abs(v-want) > 1e-12*math.Max(1, want) {
			t.Errorf("%s: KL = %.17g, reference %.17g", c.name, v, want)
		}
		if p := l.Last(); p.KL != v || p.Dist != 0 {
			t.Errorf("%s: Last() = %+v, want {KL: %v, Dist: 0}", c.name, p, v)
		}
	}
}

// TestKLZeroAtTarget: KL(y‖y) = 0 (Gibbs' inequality is tight only there)
// and the gradient p − y vanishes, for z = log y.
func TestKLZeroAtTarget(t *testing.T) {
	y := []float64{0.1, 0.2, 0.3, 0.4}
	z := make([]float64, 4)
	for i, v := range y {
		z[i] = math.Log(v)
	}
	v, g := eval(t, loss.NewKL(4), z, y)
	if math.Abs(v) > 1e-15 {
		t.Errorf("KL(y‖y) = %v", v)
	}
	for i, gi := range g {
		if math.Abs(gi) > 1e-15 {
			t.Errorf("gradient[%d] = %v at the optimum", i, gi)
		}
	}
}

// TestKLGradFD checks the KL gradient (p − y)/rows against central
// differences: h = 1e-5 gives truncation ≈ h² ≈ 1e-10 and rounding ≈ 1e-11.
func TestKLGradFD(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct{ rows, L, k int }{{1, 2, 2}, {3, 6, 6}, {4, 9, 2}} {
		z := randLogits(rng, c.rows, c.L, 1.5)
		y := randTargets(rng, c.rows, c.L, c.k)
		checkFD(t, fmt.Sprintf("kl %v", c), loss.NewKL(c.L), z, y, 1e-5, 1e-7, nil)
	}
}

// twCase draws logits and dense targets on a random tree such that every
// subtree difference of softmax(z) − y is at least 1e-3 away from 0, so
// that TW is differentiable in a ball much larger than the FD step (moving
// z_i by h moves every subtree mass by less than h).
func twCase(t *testing.T, rng *rand.Rand, rt randTree, rows int) (z, y []float64) {
	L := rt.t.Len()
	for range 1000 {
		z = randLogits(rng, rows, L, 1)
		y = randTargets(rng, rows, L, L)
		ok := true
		for r := range rows {
			p := testutil.Softmax(z[r*L : (r+1)*L])
			if rt.minKink(p, y[r*L:(r+1)*L]) < 1e-3 {
				ok = false
			}
		}
		if ok {
			return z, y
		}
	}
	t.Fatal("no sample away from kinks")
	return nil, nil
}

// TestKLTWValue checks the value of KL + λ·TW against the mean of klRef
// plus λ times both twRef (independent subtree sums) and tw.Distance, and
// Last() against the two means.
func TestKLTWValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct {
		n, rows int
		lambda  float64
	}{{2, 1, 1}, {8, 3, 0.5}, {15, 4, 1}, {30, 5, 2.5}} {
		rt := newRandTree(t, rng, c.n)
		z := randLogits(rng, c.rows, c.n, 1)
		y := randTargets(rng, c.rows, c.n, 3)
		l := loss.NewKLTW(rt.t, c.lambda)
		v, _ := eval(t, l, z, y)
		var kl, twr, twd float64
		for r := range c.rows {
			p := testutil.Softmax(z[r*c.n : (r+1)*c.n])
			yr := y[r*c.n : (r+1)*c.n]
			kl += testutil.KL(yr, p)
			twr += rt.twRef(p, yr)
			twd += tw.Distance(rt.t, p, yr)
		}
		inv := 1 / float64(c.rows)
		kl, twr, twd = kl*inv, twr*inv, twd*inv
		if want := kl + c.lambda*twr; math.Abs(v-want) > 1e-12*math.Max(1, want) {
			t.Errorf("%v: KL+λTW = %.17g, reference %.17g", c, v, want)
		}
		if math.Abs(twr-twd) > 1e-12 {
			t.Errorf("%v: twRef %v, tw.Distance %v", c, twr, twd)
		}
		p := l.Last()
		if math.Abs(p.KL-kl) > 1e-12 || math.Abs(p.Dist-twr) > 1e-12 {
			t.Errorf("%v: Last() = %+v, want {KL: %v, Dist: %v}", c, p, kl, twr)
		}
		if math.Abs(p.KL+c.lambda*p.Dist-v) > 1e-14*math.Max(1, v) {
			t.Errorf("%v: Last parts %+v do not add up to %v", c, p, v)
		}
	}
}

// TestKLTWGradFD checks the KL + λ·TW gradient against central differences
// of the loss value, for λ ∈ {0.5, 1} (the paper's range), on chains and
// random trees, at points at least 1e-3 from every kink (twCase). There TW
// is linear in p, so the loss is smooth with h = 1e-6 far inside the
// differentiable region; truncation ≈ h² and rounding ≈ 1e-10.
func TestKLTWGradFD(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, lambda := range []float64{0.5, 1} {
		for _, n := range []int{2, 5, 10} {
			rt := newRandTree(t, rng, n)
			z, y := twCase(t, rng, rt, 3)
			checkFD(t, fmt.Sprintf("λ=%g random n=%d", lambda, n), loss.NewKLTW(rt.t, lambda), z, y, 1e-6, 1e-6, nil)
		}
		// Chain: TW is the 1-D W1 between cumulative distributions.
		parent := []int{-1, 0, 1, 2, 3, 4}
		ch := randTree{tree.Chain(6), parent, []float64{0, 1, 1, 1, 1, 1}}
		z, y := twCase(t, rng, ch, 2)
		checkFD(t, fmt.Sprintf("λ=%g chain", lambda), loss.NewKLTW(ch.t, lambda), z, y, 1e-6, 1e-6, nil)
	}
}

// sinkhornCost returns the tree metric of a random tree on n nodes
// (testutil.TreeMetric, a BFS reference): the ground cost of the paper's
// Sinkhorn baseline.
func sinkhornCost(rng *rand.Rand, n int) []float64 {
	parent := testutil.RandomParents(rng, n, 1)
	return testutil.TreeMetric(parent, testutil.UniformWeights(rng, n), 1)
}

// TestKLSinkhornValue checks the value of KL + λ·W against the mean of
// klRef plus λ times sinkhorn's Result.Value (the transport cost ⟨C, P⟩ of
// the entropic plan, Frogner et al.'s loss, which is what the loss adds),
// with the paper's 10 iterations and with a converged solver.
func TestKLSinkhornValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, s := range []sinkhorn.Settings{
		{Lambda: 50, Iters: 10, Tol: -1}, // the paper's baseline
		{Lambda: 5, Iters: 100000, Tol: 1e-13},
	} {
		const n, rows, lambda = 7, 3, 0.5
		cost := sinkhornCost(rng, n)
		l, err := loss.NewKLSinkhorn(cost, n, lambda, s)
		if err != nil {
			t.Fatal(err)
		}
		z := randLogits(rng, rows, n, 1)
		y := randTargets(rng, rows, n, n)
		v, _ := eval(t, l, z, y)
		var kl, w float64
		for r := range rows {
			p := testutil.Softmax(z[r*n : (r+1)*n])
			res, err := sinkhorn.Solve(cost, p, y[r*n:(r+1)*n], s)
			if err != nil {
				t.Fatal(err)
			}
			kl += testutil.KL(y[r*n:(r+1)*n], p)
			w += res.Value
		}
		kl /= rows
		w /= rows
		// 1e-10: the reference softmax (math.Exp) differs from the loss's in
		// the last bits, which Sinkhorn amplifies by at most λ·max C.
		if want := kl + lambda*w; math.Abs(v-want) > 1e-10 {
			t.Errorf("%+v: KL+λW = %.17g, reference %.17g", s, v, want)
		}
		if p := l.Last(); math.Abs(p.Dist-w) > 1e-10 {
			t.Errorf("%+v: Last().Dist = %v, reference %v", s, p.Dist, w)
		}
	}
}

// TestKLSinkhornGradFD: the loss's gradient for the Sinkhorn term is that
// of the entropic objective W_λ (ot/sinkhorn/doc.go, "Loss value and
// gradients"), not of the transport cost it reports as value. So the
// reference is central differences of KL + λ·Result.Entropic from a
// separately built, converged solver (tolerance 1e-13: the entropic value
// is then accurate to ≈ 1e-13, an FD error of ≈ 1e-8 at h = 1e-5).
func TestKLSinkhornGradFD(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const n, rows = 6, 2
	for _, c := range []struct{ lambda, reg float64 }{{0.5, 2}, {1, 10}} {
		cost := sinkhornCost(rng, n)
		s := sinkhorn.Settings{Lambda: c.reg, Iters: 200000, Tol: 1e-13}
		l, err := loss.NewKLSinkhorn(cost, n, c.lambda, s)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := sinkhorn.New(cost, n, n, s)
		if err != nil {
			t.Fatal(err)
		}
		z := randLogits(rng, rows, n, 1)
		y := randTargets(rng, rows, n, n)
		objective := func(z []float64) float64 {
			var v float64
			for r := range rows {
				p, yr := testutil.Softmax(z[r*n:(r+1)*n]), y[r*n:(r+1)*n]
				res, err := ref.Solve(p, yr)
				if err != nil {
					t.Fatal(err)
				}
				v += testutil.KL(yr, p) + c.lambda*res.Entropic
			}
			return v / rows
		}
		checkFD(t, fmt.Sprintf("λ=%g reg=%g", c.lambda, c.reg), l, z, y, 1e-5, 1e-6, objective)
	}
}

// TestGradAliasing checks that Eval(z, z, y), the way train calls it,
// gives the same value and gradient as with a separate gradient slice.
func TestGradAliasing(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	rt := newRandTree(t, rng, 9)
	cost := testutil.TreeMetric(rt.parent, rt.weight, 1)
	sk, err := loss.NewKLSinkhorn(cost, 9, 1, sinkhorn.Settings{Lambda: 50, Iters: 10, Tol: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []loss.Loss{loss.NewKL(9), loss.NewKLTW(rt.t, 1), sk} {
		z := randLogits(rng, 4, 9, 1)
		y := randTargets(rng, 4, 9, 4)
		v1, g1 := eval(t, l, slices.Clone(z), y)
		v2, err := l.Eval(z, z, y)
		if err != nil {
			t.Fatal(err)
		}
		if v1 != v2 || !slices.Equal(g1, z) {
			t.Errorf("%s: aliased Eval differs: %v vs %v", l.Name(), v2, v1)
		}
	}
}

// TestInputsUnchanged checks that Eval modifies neither logits nor targets
// when grad is a separate slice.
func TestInputsUnchanged(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	rt := newRandTree(t, rng, 6)
	z := randLogits(rng, 3, 6, 1)
	y := randTargets(rng, 3, 6, 6)
	z0, y0 := slices.Clone(z), slices.Clone(y)
	eval(t, loss.NewKLTW(rt.t, 1), z, y)
	if !slices.Equal(z, z0) || !slices.Equal(y, y0) {
		t.Error("Eval modified its inputs")
	}
}

// TestDeterministicAcrossProcs: Eval on a batch large enough to be split
// across goroutines gives the same bits for GOMAXPROCS 1 and 4.
func TestDeterministicAcrossProcs(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	rt := newRandTree(t, rng, 8)
	z := randLogits(rng, 5000, 8, 1)
	y := randTargets(rng, 5000, 8, 3)
	run := func(procs int) (float64, []float64) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		return eval(t, loss.NewKLTW(rt.t, 1), z, y)
	}
	v1, g1 := run(1)
	v4, g4 := run(4)
	if v1 != v4 || !slices.Equal(g1, g4) {
		t.Errorf("GOMAXPROCS 1 and 4 differ: %v vs %v", v1, v4)
	}
}

func TestName(t *testing.T) {
	ch := tree.Chain(3)
	sk, err := loss.NewKLSinkhorn(make([]float64, 9), 3, 1, sinkhorn.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	sk0, err := loss.NewKLSinkhorn(make([]float64, 9), 3, 0, sinkhorn.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		l    *loss.Mixed
		name string
		L    int
	}{
		{loss.NewKL(3), "kl", 3},
		{loss.NewKLTW(ch, 0.5), "kl+0.5·tw", 3},
		{loss.NewKLTW(ch, 1), "kl+1·tw", 3},
		{loss.NewKLTW(ch, 0), "kl", 3},            // λ = 0 is plain KL
		{sk, "kl+1·sinkhorn(λ=50,iters=1000)", 3}, // the defaults of Settings{}
		{sk0, "kl", 3},
	} {
		if got := c.l.Name(); got != c.name {
			t.Errorf("Name() = %q, want %q", got, c.name)
		}
		if c.l.Labels() != c.L {
			t.Errorf("%s: Labels() = %d, want %d", c.name, c.l.Labels(), c.L)
		}
	}
}

// TestZeroRows: an empty batch has loss 0, no error, and resets Last.
func TestZeroRows(t *testing.T) {
	l := loss.NewKLTW(tree.Chain(3), 1)
	eval(t, l, []float64{0, 1, 2}, []float64{1, 0, 0})
	if l.Last().KL == 0 {
		t.Fatal("Last not set by a non-empty batch")
	}
	v, err := l.Eval(nil, nil, nil)
	if v != 0 || err != nil || l.Last() != (loss.Parts{}) {
		t.Errorf("Eval on no rows = %v, %v, Last %+v", v, err, l.Last())
	}
}

// TestBatchSizeChanges: the scratch buffers are reused across calls with
// growing and shrinking batches; each call must equal a fresh loss.
func TestBatchSizeChanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	rt := newRandTree(t, rng, 5)
	reused := loss.NewKLTW(rt.t, 1)
	for _, rows := range []int{2, 7, 1, 10, 3} {
		z := randLogits(rng, rows, 5, 1)
		y := randTargets(rng, rows, 5, 5)
		v1, g1 := eval(t, reused, z, y)
		v2, g2 := eval(t, loss.NewKLTW(rt.t, 1), z, y)
		if v1 != v2 || !slices.Equal(g1, g2) {
			t.Errorf("rows=%d: reused loss gives %v, fresh %v", rows, v1, v2)
		}
	}
}

// TestErrors: Sinkhorn's data errors reach the caller.
func TestErrors(t *testing.T) {
	if _, err := loss.NewKLSinkhorn([]float64{0, -1, 1, 0}, 2, 1, sinkhorn.Settings{}); !errors.Is(err, sinkhorn.ErrCost) {
		t.Errorf("negative cost: error %v, want ErrCost", err)
	}
	l, err := loss.NewKLSinkhorn([]float64{0, 1, 1, 0}, 2, 1, sinkhorn.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	g := make([]float64, 2)
	if _, err := l.Eval(g, []float64{0, 0}, []float64{math.NaN(), 1}); !errors.Is(err, sinkhorn.ErrMass) {
		t.Errorf("NaN target: error %v, want ErrMass", err)
	}
}

func TestPanics(t *testing.T) {
	ch := tree.Chain(3)
	cases := []struct {
		name string
		f    func()
	}{
		{"logits not B×L", func() { loss.NewKL(3).Eval(make([]float64, 4), make([]float64, 4), make([]float64, 4)) }},
		{"targets short", func() { loss.NewKL(3).Eval(make([]float64, 3), make([]float64, 3), make([]float64, 2)) }},
		{"grad short", func() { loss.NewKL(3).Eval(make([]float64, 2), make([]float64, 3), make([]float64, 3)) }},
		{"negative λ", func() { loss.NewKLTW(ch, -1) }},
		{"NaN λ", func() { loss.NewKLTW(ch, math.NaN()) }},
		{"infinite λ", func() { loss.NewKLTW(ch, math.Inf(1)) }},
		{"sinkhorn negative λ", func() { loss.NewKLSinkhorn(make([]float64, 9), 3, -1, sinkhorn.Settings{}) }},
	}
	for _, c := range cases {
		ok, v := testutil.Panics(c.f)
		if !ok {
			t.Errorf("%s: no panic", c.name)
			continue
		}
		if s, _ := v.(string); !strings.HasPrefix(s, "loss: ") {
			t.Errorf("%s: panic value %v does not start with \"loss: \"", c.name, v)
		}
	}
}

// Example evaluates KL + 1·TW on the two-node chain 0 — 1 for logits
// z = (0, 0), so p = (½, ½), against y = (1, 0). By hand:
// KL = log 2 = 0.693147; TW = |p₁ − y₁| = ½ (the subtree of node 1);
// ∂KL/∂z = p − y = (−½, ½); the TW subgradient in p is (0, 1) (path sums
// of sign(½)), ⟨p, g⟩ = ½, so λ·p ⊙ (g − ½) = (−¼, ¼) and the total
// gradient is (−¾, ¾).
func Example() {
	l := loss.NewKLTW(tree.Chain(2), 1)
	z := []float64{0, 0}
	y := []float64{1, 0}
	grad := make([]float64, 2)
	v, err := l.Eval(grad, z, y)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s = %.6f (kl %.6f, tw %.6f), gradient %v\n", l.Name(), v, l.Last().KL, l.Last().Dist, grad)
	// Output:
	// kl+1·tw = 1.193147 (kl 0.693147, tw 0.500000), gradient [-0.75 0.75]
}

// TestEvalTermsEqualsEval: with the targets' terms computed once by
// TargetTerms (Σ y log y per row, checked against a direct sum), EvalTerms
// returns the same value and gradient as Eval, bit for bit, for KL and
// KL + TW.
func TestEvalTermsEqualsEval(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const rows, L = 7, 30
	tr := tree.Random(L, rand.NewPCG(7, 8))
	for _, l := range []loss.Targeted{loss.NewKL(L), loss.NewKLTW(tr, 0.5)} {
		z := randLogits(rng, rows, L, 2)
		y := randTargets(rng, rows, L, 10)
		terms := make([]float64, rows)
		l.TargetTerms(terms, y)
		for r := range rows {
			var want float64
			for _, yi := range y[r*L : (r+1)*L] {
				if yi > 0 {
					want += yi * math.Log(yi)
				}
			}
			if math.Abs(terms[r]-want) > 1e-14 {
				t.Fatalf("%s: term of row %d = %v, direct sum %v", l.Name(), r, terms[r], want)
			}
		}
		g1 := make([]float64, rows*L)
		g2 := make([]float64, rows*L)
		v1, err1 := l.Eval(g1, z, y)
		v2, err2 := l.EvalTerms(g2, z, y, terms)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if math.Float64bits(v1) != math.Float64bits(v2) || !slices.Equal(g1, g2) {
			t.Errorf("%s: EvalTerms = %v, Eval = %v (or the gradients differ)", l.Name(), v2, v1)
		}
	}
}

// TestNewPaper checks the five losses of the paper's tables by their names
// and their values on one row against the losses made directly.
func TestNewPaper(t *testing.T) {
	tr := tree.Random(12, rand.NewPCG(1, 2))
	rng := rand.New(rand.NewPCG(3, 4))
	z := make([]float64, 12)
	for i := range z {
		z[i] = rng.NormFloat64()
	}
	y := testutil.Dist(rng, 12)
	cost := tr.DistanceMatrix(nil).RawMatrix().Data
	direct := map[string]loss.Loss{"kl": loss.NewKL(12), "kl+0.5tw": loss.NewKLTW(tr, 0.5), "kl+tw": loss.NewKLTW(tr, 1)}
	for _, lambda := range []float64{0.5, 1} {
		l, err := loss.NewKLSinkhorn(cost, 12, lambda, loss.PaperSinkhorn)
		if err != nil {
			t.Fatal(err)
		}
		direct[map[float64]string{0.5: "kl+0.5w1", 1: "kl+w1"}[lambda]] = l
	}
	for _, id := range loss.PaperIDs {
		for _, c := range [][]float64{nil, cost} {
			l, err := loss.NewPaper(id, tr, c)
			if err != nil {
				t.Fatal(err)
			}
			got, err1 := l.Eval(make([]float64, 12), z, y)
			want, err2 := direct[id].Eval(make([]float64, 12), z, y)
			if err1 != nil || err2 != nil || got != want || l.Name() != direct[id].Name() {
				t.Errorf("%s: %v (%s), want %v (%s)", id, got, l.Name(), want, direct[id].Name())
			}
		}
	}
	if _, err := loss.NewPaper("kl+2tw", tr, nil); err == nil {
		t.Error("unknown loss: no error")
	}
	if loss.PaperLabel("kl+0.5tw") != "KL + ½TW" || loss.PaperLabel("x") != "x" {
		t.Error("loss.PaperLabel")
	}
}

// wrappedTW is the TW distance behind another type, so that Mixed takes
// the general path (softmax and KL, the batch's TW, the gradient: three
// loops) rather than the one loop it runs for *loss.TW.
type wrappedTW struct{ d *loss.TW }

func (w wrappedTW) BatchGrad(values, grads, P, Y []float64) error {
	return w.d.BatchGrad(values, grads, P, Y)
}
func (w wrappedTW) Name() string { return w.d.Name() }

// TestKLTWOneLoop checks that KL + TW evaluated in one loop over blocks of
// rows (a *loss.TW term) gives bit for bit the value, the gradient and the
// parts of the general path (the same term behind another type), for
// batches of 1 to 40 rows on a 300-node tree, with and without the
// targets' terms, under 1 and 2 processors (other splits of the rows).
func TestKLTWOneLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	tr := tree.Random(300, rand.NewPCG(43, 44))
	L := tr.Len()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		for _, rows := range []int{1, 3, 10, 40} {
			z := make([]float64, rows*L)
			y := make([]float64, rows*L)
			for i := range z {
				z[i] = 3 * rng.NormFloat64()
				if rng.IntN(3) > 0 {
					y[i] = rng.ExpFloat64()
				}
			}
			one := loss.NewKLTW(tr, 0.7)
			gen := &loss.Mixed{L: L, Lambda: 0.7, Dist: wrappedTW{one.Dist.(*loss.TW)}}
			terms := make([]float64, rows)
			one.TargetTerms(terms, y)
			for _, tt := range [][]float64{nil, terms} {
				g1, g2 := make([]float64, len(z)), make([]float64, len(z))
				v1, err1 := one.EvalTerms(g1, z, y, tt)
				v2, err2 := gen.EvalTerms(g2, z, y, tt)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if math.Float64bits(v1) != math.Float64bits(v2) || one.Last() != gen.Last() {
					t.Fatalf("procs %d, rows %d: value %v (%+v), general path %v (%+v)", procs, rows, v1, one.Last(), v2, gen.Last())
				}
				for i := range g1 {
					if math.Float64bits(g1[i]) != math.Float64bits(g2[i]) {
						t.Fatalf("procs %d, rows %d: gradient %d = %v, general path %v", procs, rows, i, g1[i], g2[i])
					}
				}
			}
		}
	}
}

// TestKLTWRowByRow checks KL + TW (value, parts and gradient, bit for bit)
// against a computation row by row written here from the definitions:
// the softmax (fmath.Softmax), KL = Σ y log y − Σ_{y>0} y·(z − lse) summed
// in index order, TW and its gradient g from a tw.Workspace, and the
// gradient (p − y + λ·p·(g − Σ p·g))/B, the batch sums in row order; for 1
// to 9 rows (the loss sums four, two or one row side by side, and takes
// the softmax of two rows at once), targets with zeros, under 1 and 2
// processors.
func TestKLTWRowByRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	tr := tree.Random(200, rand.NewPCG(47, 48))
	L := tr.Len()
	const lam = 0.7
	ws := tw.NewWorkspace(tr)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		for rows := 1; rows <= 9; rows++ {
			z := make([]float64, rows*L)
			y := make([]float64, rows*L)
			for i := range z {
				z[i] = 3 * rng.NormFloat64()
				if rng.IntN(3) > 0 {
					y[i] = rng.ExpFloat64()
				}
			}
			inv := 1 / float64(rows)
			want := make([]float64, len(z))
			var kl, dist float64
			for r := range rows {
				zr, yr, wr := z[r*L:(r+1)*L], y[r*L:(r+1)*L], want[r*L:(r+1)*L]
				p := make([]float64, L)
				lse := fmath.Softmax(p, zr)
				var s, cross float64
				for _, v := range yr {
					if v > 0 {
						s += v * math.Log(v)
					}
				}
				for i, v := range yr {
					if v > 0 {
						cross += v * (zr[i] - lse)
					}
				}
				kl += s - cross
				g := make([]float64, L)
				dist += ws.DistanceGrad(g, p, yr)
				var dot float64
				for i := range p {
					dot += p[i] * g[i]
				}
				for i := range p {
					wr[i] = inv * (p[i] - yr[i] + lam*p[i]*(g[i]-dot))
				}
			}
			wantV := (kl + lam*dist) * inv
			l := loss.NewKLTW(tr, lam)
			grad := make([]float64, len(z))
			v, err := l.Eval(grad, z, y)
			if err != nil {
				t.Fatal(err)
			}
			if math.Float64bits(v) != math.Float64bits(wantV) || l.Last() != (loss.Parts{KL: kl * inv, Dist: dist * inv}) {
				t.Fatalf("procs %d, rows %d: value %v (%+v), row by row %v (KL %v, TW %v)", procs, rows, v, l.Last(), wantV, kl*inv, dist*inv)
			}
			for i := range grad {
				if math.Float64bits(grad[i]) != math.Float64bits(want[i]) {
					t.Fatalf("procs %d, rows %d: gradient %d = %v, row by row %v", procs, rows, i, grad[i], want[i])
				}
			}
		}
	}
}
