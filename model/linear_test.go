package model_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/model"
)

// randSlice returns n standard normal values.
func randSlice(rng *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	return x
}

// naiveLogits is the reference W·x + b by a triple loop over rows, labels
// and features, reading W and b from Params by the documented layout (W
// row-major Out×In, then b). It shares no code with Linear.
func naiveLogits(m *model.Linear, X []float64) []float64 {
	rows := len(X) / m.In
	z := make([]float64, rows*m.Out)
	for r := range rows {
		for j := range m.Out {
			s := m.Params[m.Out*m.In+j]
			for k := range m.In {
				s += m.Params[j*m.In+k] * X[r*m.In+k]
			}
			z[r*m.Out+j] = s
		}
	}
	return z
}

// naiveBackward is the reference gradient ∂W_jk = Σ_r G_rj·X_rk,
// ∂b_j = Σ_r G_rj by explicit loops.
func naiveBackward(m *model.Linear, G, X []float64) []float64 {
	rows := len(X) / m.In
	g := make([]float64, len(m.Params))
	for r := range rows {
		for j := range m.Out {
			for k := range m.In {
				g[j*m.In+k] += G[r*m.Out+j] * X[r*m.In+k]
			}
			g[m.Out*m.In+j] += G[r*m.Out+j]
		}
	}
	return g
}

// shapes covers tiny, tall, wide, the paper's synthetic shape (batch 10,
// 100 features, 1000 labels) and shapes above gonum's Dgemm block size (64)
// in every dimension.
var shapes = []struct{ rows, in, out int }{
	{1, 1, 1}, {3, 2, 5}, {7, 13, 4}, {10, 100, 1000}, {128, 100, 128}, {70, 130, 90}, {0, 4, 3},
}

// TestLogitsNaive compares Logits with naiveLogits. The two sum the same
// products in different orders, so they agree to a few ulps of Σ|w·x|+|b|;
// the tolerance is 1e-13 times that magnitude.
func TestLogitsNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, s := range shapes {
		t.Run(fmt.Sprintf("%dx%dx%d", s.rows, s.in, s.out), func(t *testing.T) {
			m := model.NewLinear(s.in, s.out, rand.NewPCG(2, uint64(s.out)))
			X := randSlice(rng, s.rows*s.in)
			got := make([]float64, s.rows*s.out)
			m.Logits(got, X)
			want := naiveLogits(m, X)
			for r := range s.rows {
				for j := range s.out {
					scale := math.Abs(m.B()[j])
					for k := range s.in {
						scale += math.Abs(m.W()[j*s.in+k] * X[r*s.in+k])
					}
					i := r*s.out + j
					if d := math.Abs(got[i] - want[i]); d > 1e-13*scale {
						t.Fatalf("z[%d,%d] = %v, naive %v", r, j, got[i], want[i])
					}
				}
			}
		})
	}
}

// TestPredictRows checks that Predict is the softmax of the naive logits
// (computed here with math.Exp), with every row a distribution.
func TestPredictRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, s := range shapes {
		m := model.NewLinear(s.in, s.out, rand.NewPCG(4, 4))
		// Scale the weights up so that some logits are large (softmax near
		// one-hot) and the max shift matters.
		for i := range m.Params {
			m.Params[i] *= 20
		}
		X := randSlice(rng, s.rows*s.in)
		p := make([]float64, s.rows*s.out)
		m.Predict(p, X)
		z := naiveLogits(m, X)
		for r := range s.rows {
			row, zr := p[r*s.out:(r+1)*s.out], z[r*s.out:(r+1)*s.out]
			mx := slices.Max(zr)
			var norm, sum float64
			for _, v := range zr {
				norm += math.Exp(v - mx)
			}
			for j, v := range row {
				if !(v >= 0 && v <= 1) {
					t.Fatalf("%v: p[%d,%d] = %v outside [0,1]", s, r, j, v)
				}
				want := math.Exp(zr[j]-mx) / norm
				if math.Abs(v-want) > 1e-12 {
					t.Fatalf("%v: p[%d,%d] = %v, reference softmax %v", s, r, j, v, want)
				}
				sum += v
			}
			if math.Abs(sum-1) > 1e-13 {
				t.Errorf("%v: row %d sums to %v", s, r, sum)
			}
		}
	}
}

// TestBackwardNaive compares Backward with naiveBackward. Both sum over
// rows; gonum's kernel may order the sums differently, hence 1e-13 relative
// to Σ|G·X|.
func TestBackwardNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, s := range shapes {
		m := model.NewLinear(s.in, s.out, rand.NewPCG(6, 6))
		X := randSlice(rng, s.rows*s.in)
		G := randSlice(rng, s.rows*s.out)
		got := make([]float64, len(m.Params))
		for i := range got {
			got[i] = math.NaN() // Backward must overwrite, not accumulate
		}
		m.Backward(got, G, X)
		want := naiveBackward(m, G, X)
		absG := make([]float64, len(G))
		absX := make([]float64, len(X))
		for i := range G {
			absG[i] = math.Abs(G[i])
		}
		for i := range X {
			absX[i] = math.Abs(X[i])
		}
		scale := naiveBackward(m, absG, absX)
		for i := range got {
			if d := math.Abs(got[i] - want[i]); !(d <= 1e-13*scale[i]) {
				t.Fatalf("%v: grad[%d] = %v, naive %v", s, i, got[i], want[i])
			}
		}
	}
}

// TestBackwardFD checks Backward against central finite differences of
// f(θ) = Σ_rj C_rj·z_rj(θ) with random C: the gradient of f with respect to
// the logits is exactly C, so Backward(grad, C, X) must be ∂f/∂θ. f is
// linear in θ, so the central difference is exact up to rounding
// (≈ ε·Σ|C·z|/h); h = 1e-4 and the tolerance 1e-7 leave a wide margin.
func TestBackwardFD(t *testing.T) {
	const h = 1e-4
	rng := rand.New(rand.NewPCG(7, 7))
	for _, s := range []struct{ rows, in, out int }{{1, 1, 1}, {4, 3, 5}, {9, 6, 2}} {
		m := model.NewLinear(s.in, s.out, rand.NewPCG(8, 8))
		X := randSlice(rng, s.rows*s.in)
		C := randSlice(rng, s.rows*s.out)
		z := make([]float64, s.rows*s.out)
		f := func() float64 {
			m.Logits(z, X)
			var v float64
			for i := range z {
				v += C[i] * z[i]
			}
			return v
		}
		grad := make([]float64, len(m.Params))
		m.Backward(grad, C, X)
		for i := range m.Params {
			p := m.Params[i]
			m.Params[i] = p + h
			fp := f()
			m.Params[i] = p - h
			fm := f()
			m.Params[i] = p
			if fd := (fp - fm) / (2 * h); math.Abs(fd-grad[i]) > 1e-7 {
				t.Errorf("%v: ∂f/∂θ_%d = %v, finite difference %v", s, i, grad[i], fd)
			}
		}
	}
}

// TestDeterministicAcrossProcs checks that Logits, Predict and Backward give
// the same bits whatever GOMAXPROCS is, i.e. however the labels are split
// across goroutines. The shapes are those where the split changes which
// path gonum's Dgemm takes (labels above 64 and In above 64), which is what
// made an earlier Logits differ in the last bits between 1 and 2 cores.
func TestDeterministicAcrossProcs(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, s := range []struct{ rows, in, out int }{{128, 100, 128}, {10, 100, 300}, {10, 100, 1000}, {33, 7, 2000}} {
		m := model.NewLinear(s.in, s.out, rand.NewPCG(10, 10))
		X := randSlice(rng, s.rows*s.in)
		G := randSlice(rng, s.rows*s.out)
		run := func(procs int) (z, p, g []float64) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			z = make([]float64, s.rows*s.out)
			p = make([]float64, s.rows*s.out)
			g = make([]float64, len(m.Params))
			m.Logits(z, X)
			m.Predict(p, X)
			m.Backward(g, G, X)
			return z, p, g
		}
		z1, p1, g1 := run(1)
		for _, procs := range []int{2, 3, 8, 16} {
			z, p, g := run(procs)
			if !slices.Equal(z, z1) || !slices.Equal(p, p1) || !slices.Equal(g, g1) {
				t.Errorf("%v: GOMAXPROCS=%d differs from GOMAXPROCS=1", s, procs)
			}
		}
	}
}

// TestNewLinear checks the initialization: deterministic per source, within
// PyTorch's bound 1/√In, spread over the interval, and different for
// different seeds.
func TestNewLinear(t *testing.T) {
	for _, c := range []struct{ in, out int }{{1, 1}, {4, 3}, {100, 50}} {
		a := model.NewLinear(c.in, c.out, rand.NewPCG(11, 12))
		b := model.NewLinear(c.in, c.out, rand.NewPCG(11, 12))
		d := model.NewLinear(c.in, c.out, rand.NewPCG(11, 13))
		if a.In != c.in || a.Out != c.out || len(a.Params) != c.out*c.in+c.out ||
			len(a.W()) != c.out*c.in || len(a.B()) != c.out {
			t.Fatalf("%v: wrong shapes", c)
		}
		if !slices.Equal(a.Params, b.Params) {
			t.Errorf("%v: same seed, different parameters", c)
		}
		if slices.Equal(a.Params, d.Params) {
			t.Errorf("%v: different seeds, same parameters", c)
		}
		bound := 1 / math.Sqrt(float64(c.in))
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range a.Params {
			if math.Abs(v) > bound {
				t.Fatalf("%v: parameter %v outside ±%v", c, v, bound)
			}
			lo, hi = min(lo, v), max(hi, v)
		}
		// With 5050 uniform draws the extremes are within 1% of the bound
		// except with probability about 2·0.995^5050 ≈ 1e-11.
		if len(a.Params) > 1000 && (lo > -0.99*bound || hi < 0.99*bound) {
			t.Errorf("%v: parameters span [%v, %v], expected nearly ±%v", c, lo, hi, bound)
		}
	}
}

// TestViews checks that W and B are views of Params, not copies.
func TestViews(t *testing.T) {
	m := model.NewLinear(2, 3, rand.NewPCG(1, 2))
	m.W()[5] = 42
	m.B()[2] = -7
	if m.Params[5] != 42 || m.Params[8] != -7 {
		t.Errorf("W/B are not views of Params: %v", m.Params)
	}
}

func TestPanics(t *testing.T) {
	m := model.NewLinear(3, 2, rand.NewPCG(1, 2))
	cases := []struct {
		name string
		f    func()
	}{
		{"NewLinear in=0", func() { model.NewLinear(0, 2, rand.NewPCG(1, 1)) }},
		{"NewLinear out=-1", func() { model.NewLinear(2, -1, rand.NewPCG(1, 1)) }},
		{"NewLinear nil source", func() { model.NewLinear(2, 2, nil) }},
		{"NewFile nil model", func() { model.NewFile(nil, nil) }},
		{"Logits X not multiple of In", func() { m.Logits(make([]float64, 2), make([]float64, 4)) }},
		{"Logits dst short", func() { m.Logits(make([]float64, 3), make([]float64, 6)) }},
		{"Predict dst long", func() { m.Predict(make([]float64, 5), make([]float64, 6)) }},
		{"Backward G short", func() { m.Backward(make([]float64, 8), make([]float64, 3), make([]float64, 6)) }},
		{"Backward grad short", func() { m.Backward(make([]float64, 7), make([]float64, 4), make([]float64, 6)) }},
		{"Backward X not multiple of In", func() { m.Backward(make([]float64, 8), make([]float64, 2), make([]float64, 5)) }},
	}
	for _, c := range cases {
		ok, v := testutil.Panics(c.f)
		if !ok {
			t.Errorf("%s: no panic", c.name)
			continue
		}
		if s, _ := v.(string); len(s) < 7 || s[:7] != "model: " {
			t.Errorf("%s: panic value %v does not start with \"model: \"", c.name, v)
		}
	}
}

// TestZeroRows checks that an empty batch is valid: no logits, zero gradient.
func TestZeroRows(t *testing.T) {
	m := model.NewLinear(3, 2, rand.NewPCG(1, 2))
	m.Logits(nil, nil)
	m.Predict(nil, nil)
	g := []float64{1, 2, 3, 4, 5, 6, 7, 8}
	m.Backward(g, nil, nil)
	for _, v := range g {
		if v != 0 {
			t.Fatalf("Backward on no rows left %v", g)
		}
	}
}

// Example shows a forward pass of a 2-feature, 3-label model with
// hand-set parameters: z = W·x + b = (1, 2, 0) for x = (1, 1), and
// softmax(1, 2, 0) = (e, e², 1)/(1 + e + e²) = (0.2447, 0.6652, 0.0900).
func Example() {
	m := &model.Linear{In: 2, Out: 3, Params: []float64{
		1, 0, // W row 0
		0, 1, // W row 1
		-1, 0, // W row 2
		0, 1, 1, // b
	}}
	x := []float64{1, 1}
	z := make([]float64, 3)
	m.Logits(z, x)
	p := make([]float64, 3)
	m.Predict(p, x)
	fmt.Println(z)
	fmt.Printf("%.4f\n", p)
	// Output:
	// [1 2 0]
	// [0.2447 0.6652 0.0900]
}

// TestLabelRanges checks that LogitsLabels and BackwardLabels over ranges
// of labels that cover them all (random cut points, odd and even, run in a
// shuffled order) give bit for bit what Logits and Backward give over all
// the labels at once, for batches of 1, 3 and 10 rows and inputs of 7 and
// 100 features; and that each leaves the entries outside its range alone.
func TestLabelRanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, in := range []int{7, 100} {
		for _, rows := range []int{1, 3, 10} {
			const out = 53
			m := model.NewLinear(in, out, rand.NewPCG(5, 6))
			X := randSlice(rng, rows*in)
			G := randSlice(rng, rows*out)
			wantZ := make([]float64, rows*out)
			m.Logits(wantZ, X)
			wantG := make([]float64, len(m.Params))
			m.Backward(wantG, G, X)
			cuts := []int{0, out}
			for range 6 {
				cuts = append(cuts, rng.IntN(out+1))
			}
			slices.Sort(cuts)
			z := make([]float64, rows*out)
			grad := make([]float64, len(m.Params))
			for i := range z {
				z[i] = math.NaN()
			}
			for i := range grad {
				grad[i] = math.NaN()
			}
			for _, k := range rng.Perm(len(cuts) - 1) {
				lo, hi := cuts[k], cuts[k+1]
				m.LogitsLabels(z, X, lo, hi)
				m.BackwardLabels(grad, G, X, lo, hi)
			}
			for i := range z {
				if math.Float64bits(z[i]) != math.Float64bits(wantZ[i]) {
					t.Fatalf("in=%d rows=%d cuts %v: logit %d = %v, Logits %v", in, rows, cuts, i, z[i], wantZ[i])
				}
			}
			for i := range grad {
				if math.Float64bits(grad[i]) != math.Float64bits(wantG[i]) {
					t.Fatalf("in=%d rows=%d cuts %v: gradient %d = %v, Backward %v", in, rows, cuts, i, grad[i], wantG[i])
				}
			}
		}
	}
}
