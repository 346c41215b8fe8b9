package optim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAdamCurrent checks that the step Current describes is the one
// Update makes: the formula of AdamStep's documentation, applied by hand
// to copies of the parameters and of the moments, gives Update's
// parameters and moments bit for bit over three steps, with weight decay
// on the first half; and that M and V are the optimizer's own buffers.
func TestAdamCurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 37
	a := Adam{LR: 0.01, WeightDecay: 0.1, DecayEnd: n / 2}
	p := make([]float64, n)
	for i := range p {
		p[i] = rng.NormFloat64()
	}
	q := append([]float64(nil), p...)
	m, v := make([]float64, n), make([]float64, n)
	for step := range 3 {
		g := make([]float64, n)
		for i := range g {
			g[i] = rng.NormFloat64()
		}
		a.Begin(n)
		st := a.Current()
		for i := range q {
			gi := g[i]
			if i < n/2 {
				gi += float64(st.WeightDecay * q[i])
			}
			m[i] = float64(st.Beta1*m[i]) + float64(st.C1*gi)
			v[i] = float64(st.Beta2*v[i]) + float64(float64(st.C2*gi)*gi)
			q[i] -= float64(st.Step*m[i]) / (math.Sqrt(v[i]) + st.EpsHat)
		}
		a.Update(p, g, 0, n)
		for i := range p {
			if math.Float64bits(p[i]) != math.Float64bits(q[i]) || st.M[i] != m[i] || st.V[i] != v[i] {
				t.Fatalf("step %d, parameter %d: Update %v (m %v, v %v), by hand %v (m %v, v %v)",
					step, i, p[i], st.M[i], st.V[i], q[i], m[i], v[i])
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Current before Begin did not panic")
		}
	}()
	var fresh Adam
	fresh.Current()
}
