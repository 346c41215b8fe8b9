package loss_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/ot/emd"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/utw"
)

// TestKLUTWValue checks KL + λ·UTW against the mean over rows of the KL
// reference plus λ·UTW_μ(s·p, ŷ) by utw.Workspace (itself checked against
// the linear program in package utw), ŷ the target or the indicator of its
// support, for several scales.
func TestKLUTWValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 70))
	for _, c := range []struct {
		n, rows    int
		lambda, mu float64
		scale      float64
		sets       bool
	}{{2, 1, 1, 0.5, 0, false}, {8, 3, 0.5, 0.3, 1, false}, {15, 4, 1, 1, 2.5, true}, {30, 5, 2.5, 2, 0.7, true}} {
		rt := newRandTree(t, rng, c.n)
		z := randLogits(rng, c.rows, c.n, 1)
		y := randTargets(rng, c.rows, c.n, 3)
		l := loss.NewKLUTW(rt.t, c.lambda, loss.UTW{MassCost: c.mu, Scale: c.scale, Sets: c.sets})
		v, _ := eval(t, l, z, y)
		s := c.scale
		if s == 0 {
			s = 1
		}
		ws := utw.NewWorkspace(rt.t, c.mu)
		var kl, d float64
		for r := range c.rows {
			p := testutil.Softmax(z[r*c.n : (r+1)*c.n])
			yr := y[r*c.n : (r+1)*c.n]
			kl += testutil.KL(yr, p)
			a, b := make([]float64, c.n), make([]float64, c.n)
			for i := range p {
				a[i] = s * p[i]
				b[i] = yr[i]
				if c.sets && yr[i] > 0 {
					b[i] = 1
				}
			}
			d += ws.Distance(a, b)
		}
		inv := 1 / float64(c.rows)
		if want := (kl + c.lambda*d) * inv; math.Abs(v-want) > 1e-12*math.Max(1, want) {
			t.Errorf("%+v: KL+λUTW = %.17g, reference %.17g", c, v, want)
		}
	}
}

// TestUTWTruncatedMetric: between two distributions (equal masses), UTW_μ
// is the 1-Wasserstein distance under the truncated tree metric
// min(d_T, 2μ), here computed by ot/emd's network simplex on that matrix
// (testutil.TreeMetric truncated): an independent check of the loss's
// documented meaning on label distributions.
func TestUTWTruncatedMetric(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 71))
	var solver emd.Solver
	for k := range 40 {
		n := 2 + rng.IntN(20)
		parent := testutil.RandomParents(rng, n, 1)
		weight := testutil.UniformWeights(rng, n)
		rt := newRandTreeFrom(t, parent, weight)
		cost := testutil.TreeMetric(parent, weight, 1)
		mu := []float64{0.1, 0.4, 1, 3}[k%4]
		for i := range cost {
			cost[i] = min(cost[i], 2*mu)
		}
		p, y := testutil.Dist(rng, n), testutil.SparseDist(rng, n, 3)
		want, err := solver.Cost(cost, p, y)
		if err != nil {
			t.Fatal(err)
		}
		if got := utw.NewWorkspace(rt.t, mu).Distance(p, y); math.Abs(got-want) > 1e-9*math.Max(1, want) {
			t.Errorf("n=%d μ=%v: UTW %.15g, W1 under min(d, 2μ) %.15g", n, mu, got, want)
		}
	}
}

// TestKLUTWGradFD checks the gradient with respect to the logits against
// central differences of the loss, with and without Sets and Scale. UTW is
// piecewise linear in p: a coordinate is compared only where the
// differences with steps h and h/4 agree (no kink within h); most must be.
func TestKLUTWGradFD(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 72))
	checked, total := 0, 0
	for k, d := range []loss.UTW{{MassCost: 0.3}, {MassCost: 1, Scale: 2}, {MassCost: 0.5, Scale: 1.7, Sets: true}, {MassCost: 4, Sets: true}} {
		for _, n := range []int{3, 8, 15} {
			rt := newRandTree(t, rng, n)
			z := randLogits(rng, 3, n, 1)
			y := randTargets(rng, 3, n, 3)
			l := loss.NewKLUTW(rt.t, 0.8, d)
			_, g := eval(t, l, z, y)
			f := func(x []float64) float64 { v, _ := eval(t, l, x, y); return v }
			x := append([]float64(nil), z...)
			fd := func(i int, h float64) float64 {
				x[i] = z[i] + h
				fp := f(x)
				x[i] = z[i] - h
				fm := f(x)
				x[i] = z[i]
				return (fp - fm) / (2 * h)
			}
			for i := range z {
				total++
				a, b := fd(i, 1e-5), fd(i, 2.5e-6)
				if math.Abs(a-b) > 1e-7 {
					continue // a kink within h
				}
				checked++
				if math.Abs(a-g[i]) > 1e-6*math.Max(1, math.Abs(a)) {
					t.Errorf("%s: case %d n=%d ∂/∂z_%d = %.10g, finite difference %.10g", fmt.Sprint(l.Name()), k, n, i, g[i], a)
				}
			}
		}
	}
	if checked < total*3/4 {
		t.Errorf("only %d of %d coordinates away from kinks", checked, total)
	}
	t.Logf("%d of %d coordinates checked", checked, total)
}

// TestKLUTWName: the settings are part of the name.
func TestKLUTWName(t *testing.T) {
	rt := newRandTree(t, rand.New(rand.NewPCG(1, 1)), 4)
	for _, c := range []struct {
		d    loss.UTW
		want string
	}{
		{loss.UTW{MassCost: 0.5}, "kl+1·utw(μ=0.5)"},
		{loss.UTW{MassCost: 2, Scale: 3.5, Sets: true}, "kl+1·utw(μ=2,s=3.5,sets)"},
	} {
		if got := loss.NewKLUTW(rt.t, 1, c.d).Name(); got != c.want {
			t.Errorf("Name() = %q, want %q", got, c.want)
		}
	}
}

// newRandTreeFrom builds the randTree of a parent array and weights.
func newRandTreeFrom(tb testing.TB, parent []int, weight []float64) randTree {
	t, err := tree.FromParents(parent, weight, nil, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return randTree{t, parent, weight}
}
