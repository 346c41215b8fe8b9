package lstm_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/lstm"
	"github.com/twl-ldl/twl/tree"
)

// BenchmarkStep times one training step (forward, KL loss, backward, Adam)
// at the shapes of REFERENCE.md's PyTorch anchor and of
// testdata/bench_torch.py: 100 documents of 200 tokens, word vectors of
// 100, hidden 200, 147 labels, a vocabulary of 20,000; word vectors frozen
// and trained. Run it beside bench_torch.py (see docs/benchmarks.md).
//
// The loss=kl+tw cases add the tree-Wasserstein term on a random tree of
// 147 labels: the difference from loss=kl is its cost in a step.
func BenchmarkStep(b *testing.B) {
	const B, T, L = 100, 200, 147
	tr := tree.Random(L, rand.NewPCG(5, 6))
	for _, c := range []struct {
		name     string
		l        loss.Loss
		trainEmb bool
	}{{"kl", nil, false}, {"kl+tw", loss.NewKLTW(tr, 1), false}, {"kl", nil, true}} {
		b.Run(fmt.Sprintf("loss=%s/train_emb=%v", c.name, c.trainEmb), func(b *testing.B) {
			step := lstm.BenchStep(lstm.Config{Vocab: 20000, Dim: 100, Hidden: 200, Labels: L}, B, T, c.trainEmb, c.l, 1)
			step() // warm up: buffers grow
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				step()
			}
			b.StopTimer()
			b.ReportMetric(float64(B*T)*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
		})
	}
}
