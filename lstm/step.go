package lstm

import (
	"math/rand/v2"

	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/optim"
)

// BenchStep returns one training step of a model of sizes c on a fixed
// mini-batch of batch random documents of length tokens each, with random
// one-label targets: forward, the loss l (nil: KL), backward and Adam, the
// work of every step of training. It is what `twl bench lstm` and BenchmarkStep
// time, at the shapes of the paper's model (and of the PyTorch anchor of
// testdata/bench_torch.py). The first call grows the buffers.
func BenchStep(c Config, batch, length int, trainEmb bool, l loss.Loss, seed uint64) (step func()) {
	m := NewModel(c)
	m.Init(rand.NewPCG(seed, 1))
	rng := rand.New(rand.NewPCG(seed, 2))
	docs := make([][]int32, batch)
	for i := range docs {
		docs[i] = make([]int32, length)
		for t := range docs[i] {
			docs[i][t] = int32(rng.IntN(c.Vocab))
		}
	}
	L := c.Labels
	y := make([]float64, batch*L)
	for r := range batch {
		y[r*L+rng.IntN(L)] = 1
	}
	ln := NewLearner(m, docs, y, LearnerOptions{TrainEmb: trainEmb, Adam: optim.Adam32{}})
	if l == nil {
		l = loss.NewKL(L)
	}
	rows := make([]int, batch)
	for i := range rows {
		rows[i] = i
	}
	z := make([]float64, batch*L)
	yb := make([]float64, batch*L)
	return func() {
		ln.Targets(yb, rows)
		ln.Logits(z, rows)
		if _, err := l.Eval(z, z, yb); err != nil {
			panic("lstm: BenchStep: " + err.Error()) // not reached: the targets are valid
		}
		ln.Update(z)
	}
}
