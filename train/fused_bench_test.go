package train

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/model"
	"github.com/twl-ldl/twl/optim"
)

// BenchmarkFusedPass times the parameter pass of one training step of the
// benchmark's shape (100 features, 1000 labels, 10 rows and 10 next rows)
// on one goroutine: form=fused is the one pass of fused.go (where the
// processor runs it), form=separate the gradient, Adam and the next rows'
// logits a block of 16 labels at a time with model.Linear's kernels and
// optim.Adam's, and form=adam Adam alone over the same parameters (the
// part the fused pass overlaps with the products). Every 1000 iterations
// the parameters and the optimizer start afresh, outside the timing, so
// that the numbers stay those of a training run's early steps however
// many iterations run (B/op counts the fresh optimizers' moments).
func BenchmarkFusedPass(b *testing.B) {
	const resetEvery = 1000
	const in, L, rows = 100, 1000, 10
	rng := rand.New(rand.NewPCG(5, 6))
	fill := func(n int) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		return x
	}
	x, xn, dz := fill(rows*in), fill(rows*in), fill(rows*L)
	for i := range dz {
		dz[i] *= 1e-3
	}
	cfg := optim.Adam{WeightDecay: 0.03, DecayEnd: in * L}
	for _, form := range []string{"fused", "separate", "adam"} {
		if form == "fused" && !haveFused {
			continue
		}
		b.Run(fmt.Sprintf("form=%s", form), func(b *testing.B) {
			m := model.NewLinear(in, L, rand.NewPCG(1, 2))
			z := make([]float64, rows*L)
			ln := newLinear(m, Data{X: x, N: rows, In: in, L: L}, cfg)
			ln.xb, ln.rows, ln.xn = x, rows, xn
			opt := cfg
			// A gradient of the size of dz's products, so that Adam's
			// moments do not decay into subnormal numbers over the
			// iterations (which would slow every form down as b.N grows).
			grad := fill(len(m.Params))
			for i := range grad {
				grad[i] *= 1e-3
			}
			p0 := append([]float64(nil), m.Params...)
			wEnd := in * L
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				if n++; n%resetEvery == 0 {
					// Back to the first step's parameters and a new
					// optimizer, outside the timing: the state stays that
					// of a training run's first thousand steps.
					b.StopTimer()
					copy(m.Params, p0)
					ln = newLinear(m, Data{X: x, N: rows, In: in, L: L}, cfg)
					ln.xb, ln.rows, ln.xn = x, rows, xn
					opt = cfg
					b.StartTimer()
				}
				switch form {
				case "fused":
					ln.beginStep(rows)
					ln.dz, ln.zn = dz, z
					ln.fusedBlock(0, L)
				case "separate":
					opt.Begin(len(m.Params))
					for j := 0; j < L; j += updateBlock {
						k := min(j+updateBlock, L)
						m.BackwardLabels(grad, dz, x, j, k)
						opt.Update(m.Params, grad, j*in, k*in)
						opt.Update(m.Params, grad, wEnd+j, wEnd+k)
						m.LogitsLabels(z, xn, j, k)
					}
				case "adam":
					opt.Begin(len(m.Params))
					opt.Update(m.Params, grad, 0, len(m.Params))
				}
			}
		})
	}
}
