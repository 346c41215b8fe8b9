package train

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/optim"
)

// fusedCase is one block of the fused step with random operands: labels
// rows of W (in features) and their biases, the gradient g of rows
// current rows of out ≥ labels logits, and nz next rows.
type fusedCase struct {
	in, labels, rows, out, nz int
	cfg                       optim.Adam
	w, b, x, xn, g            []float64
}

func newFusedCase(rng *rand.Rand, in, labels, rows, nz int, cfg optim.Adam) *fusedCase {
	fill := func(n int, scale float64) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = scale * rng.NormFloat64()
		}
		return v
	}
	out := labels + 3
	return &fusedCase{
		in: in, labels: labels, rows: rows, out: out, nz: nz, cfg: cfg,
		w: fill(labels*in, 0.3), b: fill(labels, 0.3),
		x: fill(rows*in, 1), xn: fill(max(nz, 1)*in, 1), g: fill(rows*out, 0.1),
	}
}

// want computes, independently of fused.go, what steps of the fused pass
// leave: the gradient as Σ_r G[r, j]·x_r fused in row order, Adam's step
// by optim.Adam.Step on the parameters laid out as model.Linear lays them
// (W, then b), and the next rows' logits b_j + the dot product in four
// lanes k mod 4, added as (l0 + l2) + (l1 + l3), the last in mod 4
// products fused in order after them.
func (c *fusedCase) want(steps int) (params, z []float64) {
	in, L := c.in, c.labels
	params = append(append([]float64(nil), c.w...), c.b...)
	grad := make([]float64, len(params))
	opt := c.cfg
	for range steps {
		for j := range L {
			for k := range in {
				var s float64
				for r := range c.rows {
					s = math.FMA(c.g[r*c.out+j], c.x[r*in+k], s)
				}
				grad[j*in+k] = s
			}
			var s float64
			for r := range c.rows {
				s += c.g[r*c.out+j]
			}
			grad[L*in+j] = s
		}
		opt.Step(params, grad)
	}
	z = make([]float64, c.nz*c.out)
	for i := range z {
		z[i] = math.NaN() // the columns of other labels stay as they were
	}
	for s := range c.nz {
		for j := range L {
			var l [4]float64
			k := 0
			for ; k+4 <= in; k += 4 {
				for q := range 4 {
					l[q] = math.FMA(c.xn[s*in+k+q], params[j*in+k+q], l[q])
				}
			}
			sum := (l[0] + l[2]) + (l[1] + l[3])
			for ; k < in; k++ {
				sum = math.FMA(c.xn[s*in+k], params[j*in+k], sum)
			}
			z[s*c.out+j] = params[L*in+j] + sum
		}
	}
	return params, z
}

// run makes steps steps of the fused pass with kernel (fusedLabels or
// fusedLabelsGo), on copies of the case's parameters, and returns them
// (W, then b) and the next rows' logits of the last step.
func (c *fusedCase) run(kernel func(*fusedArgs), steps int) (params, z []float64) {
	in, L := c.in, c.labels
	w, b := append([]float64(nil), c.w...), append([]float64(nil), c.b...)
	a := c.cfg
	P := L*in + L
	end := decayEnd(&a, P)
	flags := 0
	if c.cfg.WeightDecay != 0 {
		if end < L*in {
			panic("test case with decay on part of W")
		}
		flags |= fusedDecayW
		if end == P {
			flags |= fusedDecayB
		}
	}
	if in%4 == 0 {
		flags |= fusedAddBias
	}
	if c.nz > 0 {
		flags |= fusedNext
	}
	xc, xp := make([]float64, packedLen(in)), make([]float64, packedLen(in))
	packRows(xc, c.x, in, c.rows)
	packPairs(xp, c.xn, in, c.nz)
	// A guard row after the logits, which no form may write.
	zg := make([]float64, (c.nz+1)*c.out)
	z = zg[:c.nz*c.out]
	const guard = -12345.5
	for i := range zg[len(z):] {
		zg[len(z)+i] = guard
	}
	for step := range steps {
		for i := range z {
			z[i] = math.NaN()
		}
		a.Begin(P)
		st := a.Current()
		var k adamK
		setAdamK(&k, &st)
		f := fusedArgs{
			w: w, mw: st.M[:L*in], vw: st.V[:L*in], b: b, mb: st.M[L*in:], vb: st.V[L*in:],
			x: c.x, g: c.g, xn: c.xn, xc: xc, xp: xp, z: z, k: &k,
			labels: L, in: in, rows: c.rows, out: c.out, nz: c.nz, flags: flags,
		}
		if step < steps-1 {
			f.nz, f.flags = 0, flags&^fusedNext // the logits of the last step only
		}
		kernel(&f)
		if in%4 != 0 {
			fusedTails(&f)
		}
		for i, v := range zg[len(z):] {
			if v != guard {
				panic(fmt.Sprintf("fused step wrote %v past the logits of its %d next rows, at label %d", v, c.nz, i))
			}
		}
	}
	return append(w, b...), z
}

func sameBits(t *testing.T, what string, got, want []float64) {
	t.Helper()
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("%s[%d] = %v (%#x), want %v (%#x)", what, i, got[i], math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
		}
	}
}

var fusedConfigs = []optim.Adam{
	{LR: 0.01},
	{LR: 0.01, WeightDecay: 0.03},
	{WeightDecay: 0.5, Beta1: 0.8, Beta2: 0.99, Eps: 1e-3},
}

// TestFusedReference checks the reference form of the fused pass
// (fusedLabelsGo, then fusedTails) against the same steps computed
// independently (fusedCase.want: plain loops and optim.Adam.Step), bit
// for bit: features 4 to 19 (every remainder mod 8 and mod 4), 1 to 3
// labels, 1 to 10 rows, 0 to 10 next rows, weight decay on nothing, on
// the weights alone and on every parameter, over three steps.
func TestFusedReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for in := 4; in < 20; in++ {
		for _, labels := range []int{1, 2, 3} {
			for _, rows := range []int{1, 4, 10} {
				for _, nz := range []int{0, 3, 10} {
					for ci, cfg := range fusedConfigs {
						if ci == 1 {
							cfg.DecayEnd = labels * in
						}
						c := newFusedCase(rng, in, labels, rows, nz, cfg)
						name := fmt.Sprintf("in %d, labels %d, rows %d, nz %d, config %d", in, labels, rows, nz, ci)
						wantP, wantZ := c.want(3)
						gotP, gotZ := c.run(fusedLabelsGo, 3)
						sameBits(t, name+": params", gotP, wantP)
						sameBits(t, name+": logits", gotZ, wantZ)
					}
				}
			}
		}
	}
}

// TestFusedKernel checks the kernel of this processor (fusedLabels)
// against the reference form bit for bit, on the shapes of
// TestFusedReference, on blocks like those of the benchmark (100 and
// 101 features, 16 and 17 labels, 10 rows), with large and tiny numbers,
// and on blocks of 8–23 labels, whose biases the kernel updates eight at a
// time and then one at a time.
func TestFusedKernel(t *testing.T) {
	if !haveFused {
		t.Skip("no fused kernel on this processor (or build)")
	}
	rng := rand.New(rand.NewPCG(43, 44))
	type shape struct{ in, labels, rows, nz int }
	var shapes []shape
	for in := 4; in < 20; in++ {
		for _, labels := range []int{1, 2, 3, 4, 5} {
			for _, rows := range []int{1, 2, 9, 10} {
				for _, nz := range []int{0, 1, 7, 10} {
					shapes = append(shapes, shape{in, labels, rows, nz})
				}
			}
		}
	}
	shapes = append(shapes, shape{100, 16, 10, 10}, shape{101, 17, 10, 10}, shape{103, 16, 3, 10}, shape{100, 16, 10, 0})
	// Biases eight at a time and then one at a time.
	shapes = append(shapes, shape{12, 8, 10, 10}, shape{12, 10, 10, 10}, shape{9, 23, 3, 7}, shape{103, 14, 10, 10})
	for _, s := range shapes {
		for ci, cfg := range fusedConfigs {
			if ci == 1 {
				cfg.DecayEnd = s.labels * s.in
			}
			c := newFusedCase(rng, s.in, s.labels, s.rows, s.nz, cfg)
			if s.in == 103 {
				// Numbers over many binades, zeros and subnormals.
				for i := range c.g {
					c.g[i] = math.Ldexp(c.g[i], rng.IntN(80)-40)
				}
				c.x[0], c.xn[1], c.g[2], c.w[3] = 0, math.Copysign(0, -1), 5e-324, -1e-310
			}
			name := fmt.Sprintf("%+v, config %d", s, ci)
			wantP, wantZ := c.run(fusedLabelsGo, 3)
			gotP, gotZ := c.run(fusedLabels, 3)
			sameBits(t, name+": params", gotP, wantP)
			sameBits(t, name+": logits", gotZ, wantZ)
		}
	}
}

// TestPack checks the packed layouts against their definitions, element
// by element, zeros included. packRows: row s's feature k of oct o at
// (o·fusedSlots + s)·8 + k mod 8, and of the last quad at s·4 after the
// octs. packPairs: the pair s/2 of an oct at 16 floats a pair, the low or
// high quad (k mod 8 / 4) at 8 floats, row s mod 2 at 4; of the last quad,
// the pair at 8 floats after the octs and the row at 4.
func TestPack(t *testing.T) {
	forms := []struct {
		name string
		pack func(dst, x []float64, in, n int)
		at   func(s, k, octs int) int // where row s's feature k goes
	}{
		{"packRows", packRows, func(s, k, octs int) int {
			if k < 8*octs {
				return (k/8*fusedSlots+s)*8 + k%8
			}
			return octs*8*fusedSlots + s*4 + k - 8*octs
		}},
		{"packPairs", packPairs, func(s, k, octs int) int {
			if k < 8*octs {
				return k/8*8*fusedSlots + s/2*16 + k%8/4*8 + s%2*4 + k%4
			}
			return octs*8*fusedSlots + s/2*8 + s%2*4 + k - 8*octs
		}},
	}
	for _, f := range forms {
		for _, in := range []int{4, 7, 8, 12, 13, 100} {
			for _, n := range []int{0, 1, 7, 10} {
				x := make([]float64, max(n, 1)*in)
				for i := range x {
					x[i] = float64(i + 1)
				}
				dst := make([]float64, packedLen(in))
				for i := range dst {
					dst[i] = -1
				}
				f.pack(dst, x, in, n)
				want := make([]float64, packedLen(in)) // zeros but where a row's feature goes
				for s := range n {
					for k := 0; k < in&^3; k++ {
						want[f.at(s, k, in/8)] = x[s*in+k]
					}
				}
				sameBits(t, fmt.Sprintf("%s, in %d, %d rows", f.name, in, n), dst, want)
			}
		}
	}
}

// TestFusedKernelSignedZero checks the kernel against the reference form
// bit for bit where the sign of a zero decides a bit of the result: a
// step with fewer than fusedSlots rows whose gradient sums underflow to
// −0, β₁·m rounding to −0 (a first moment of −5e-324 and β₁ = 0.1), so
// that m ← β₁·m + (1−β₁)·g is −0 for g = −0 and +0 for g = +0. The rows
// the kernel pads with must leave every sum as it is, −0 included (by
// hand: (−0)·x + s = s for every s, while (+0)·(+0) + (−0) = +0).
func TestFusedKernelSignedZero(t *testing.T) {
	if !haveFused {
		t.Skip("no fused kernel on this processor (or build)")
	}
	const in, labels = 12, 2
	for _, rows := range []int{1, 3, 9, 10} {
		for _, out := range []int{labels, labels + 3} {
			for _, decay := range []float64{0, 0.5} {
				a := optim.Adam{Beta1: 0.1, WeightDecay: decay}
				P := labels*in + labels
				a.Begin(P)
				st := a.Current()
				var k adamK
				setAdamK(&k, &st)
				w := make([]float64, P)
				for i := range w {
					w[i] = math.Copysign(0, -1)
				}
				for i := range st.M {
					st.M[i] = -5e-324
				}
				// G·x = −1e-340 in every row: each product and sum
				// underflows to −0.
				x := make([]float64, rows*in)
				g := make([]float64, (rows-1)*out+labels)
				for i := range x {
					x[i] = 1e-170
				}
				for i := range g {
					g[i] = -1e-170
				}
				flags := fusedAddBias
				if decay != 0 {
					flags |= fusedDecayW | fusedDecayB
				}
				run := func(kernel func(*fusedArgs)) []float64 {
					p := append([]float64(nil), w...)
					m := append([]float64(nil), st.M...)
					v := append([]float64(nil), st.V...)
					xc, xp := make([]float64, packedLen(in)), make([]float64, packedLen(in))
					packRows(xc, x, in, rows)
					f := fusedArgs{
						w: p[:labels*in], mw: m[:labels*in], vw: v[:labels*in],
						b: p[labels*in:], mb: m[labels*in:], vb: v[labels*in:],
						x: x, g: g, xc: xc, xp: xp, k: &k,
						labels: labels, in: in, rows: rows, out: out, flags: flags,
					}
					kernel(&f)
					return append(append(p, m...), v...)
				}
				name := fmt.Sprintf("rows %d, stride %d, decay %g: params and moments", rows, out, decay)
				sameBits(t, name, run(fusedLabels), run(fusedLabelsGo))
			}
		}
	}
}
