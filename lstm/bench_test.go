package lstm_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/lstm"
	"github.com/twl-ldl/twl/optim"
)

// BenchmarkStep times one training step (forward, KL loss, backward, Adam)
// at the shapes of REFERENCE.md's PyTorch anchor and of
// testdata/bench_torch.py: 100 documents of 200 tokens, word vectors of
// 100, hidden 200, 147 labels, a vocabulary of 20,000; word vectors frozen
// and trained. Run it beside bench_torch.py (see the README).
func BenchmarkStep(b *testing.B) {
	const B, T, V, D, H, L = 100, 200, 20000, 100, 200, 147
	for _, trainEmb := range []bool{false, true} {
		b.Run(fmt.Sprintf("train_emb=%v", trainEmb), func(b *testing.B) {
			m := lstm.NewModel(lstm.Config{Vocab: V, Dim: D, Hidden: H, Labels: L})
			m.Init(rand.NewPCG(1, 2))
			rng := rand.New(rand.NewPCG(3, 4))
			docs := make([][]int32, B)
			for i := range docs {
				docs[i] = make([]int32, T)
				for t := range docs[i] {
					docs[i][t] = int32(rng.IntN(V))
				}
			}
			y := make([]float64, B*L)
			for r := range B {
				y[r*L+rng.IntN(L)] = 1
			}
			ln := lstm.NewLearner(m, docs, y, lstm.LearnerOptions{Adam: optim.Adam32{}, TrainEmb: trainEmb})
			kl := loss.NewKL(L)
			rows := make([]int, B)
			for i := range rows {
				rows[i] = i
			}
			z := make([]float64, B*L)
			yb := make([]float64, B*L)
			step := func() {
				ln.Targets(yb, rows)
				ln.Logits(z, rows)
				if _, err := kl.Eval(z, z, yb); err != nil {
					b.Fatal(err)
				}
				ln.Update(z)
			}
			step() // warm up: buffers grow
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				step()
			}
			b.ReportMetric(float64(B*T)*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
		})
	}
}
