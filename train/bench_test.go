package train

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/model"
	"github.com/twl-ldl/twl/optim"
	"github.com/twl-ldl/twl/tree"
)

// synthShape returns random data of the paper's synthetic protocol's shape:
// N samples of in features, distributions over the L nodes of t.
func synthShape(t *tree.Tree, n, in int) Data {
	rng := rand.New(rand.NewPCG(7, 8))
	L := t.Len()
	d := Data{X: make([]float64, n*in), Y: make([]float64, n*L), N: n, In: in, L: L}
	for i := range d.X {
		d.X[i] = rng.Float64()
	}
	for r := 0; r < n; r++ {
		y := d.Y[r*L : (r+1)*L]
		var s float64
		for i := range y {
			y[i] = rng.ExpFloat64()
			s += y[i]
		}
		for i := range y {
			y[i] /= s
		}
	}
	return d
}

// BenchmarkEpoch times one epoch of the paper's synthetic protocol: 1000
// samples, 100 features, a 1000-node random tree, batch 10, Adam
// (REFERENCE.md: PyTorch takes 0.125 s for KL and 0.92 s for KL + TW per
// epoch). One Fit call trains b.N epochs, so ns/op is the time per epoch in
// a running training, with Fit's one-time setup (buffers, the targets'
// Σ y log y) spread over the epochs as in real use.
func BenchmarkEpoch(b *testing.B) {
	t := tree.Random(1000, rand.NewPCG(1, 2)).BreadthFirst()
	data := synthShape(t, 1000, 100)
	for _, name := range []string{"kl", "kl+tw"} {
		b.Run(fmt.Sprintf("loss=%s", name), func(b *testing.B) {
			var l loss.Loss = loss.NewKL(t.Len())
			if name == "kl+tw" {
				l = loss.NewKLTW(t, 1)
			}
			m := model.NewLinear(100, t.Len(), rand.NewPCG(3, 4))
			b.ReportAllocs()
			b.ResetTimer()
			if _, err := Fit(m, l, data, Config{Epochs: b.N, Batch: 10}); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// BenchmarkStep times one training step of the paper's synthetic shape
// (batch 10, 100 features, a 1000-node random tree, KL + TW, Adam): the
// targets and logits of the batch, the loss and its gradient, the gradient
// of the parameters and the Adam update. A step should allocate nothing.
func BenchmarkStep(b *testing.B) {
	t := tree.Random(1000, rand.NewPCG(1, 2)).BreadthFirst()
	data := synthShape(t, 1000, 100)
	l := loss.NewKLTW(t, 1)
	ln := newLinear(model.NewLinear(100, t.Len(), rand.NewPCG(3, 4)), data, optim.Adam{WeightDecay: 0.03, DecayEnd: 100 * t.Len()})
	const batch = 10
	L := t.Len()
	y, z := make([]float64, batch*L), make([]float64, batch*L)
	rows := make([]int, batch)
	// Σ y log y of every row, computed once, as Fit does.
	terms, tb := make([]float64, data.N), make([]float64, batch)
	for r := range data.N {
		ln.Targets(y[:L], []int{r})
		l.TargetTerms(terms[r:r+1], y[:L])
	}
	s := 0
	b.ReportAllocs()
	for b.Loop() {
		for k := range rows {
			rows[k] = (s + 37*k) % data.N
			tb[k] = terms[rows[k]]
		}
		s += batch
		ln.Targets(y, rows)
		ln.Logits(z, rows)
		if _, err := l.EvalTerms(z, z, y, tb); err != nil {
			b.Fatal(err)
		}
		ln.Update(z)
	}
}
