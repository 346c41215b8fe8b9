package lstm_test

import (
	"fmt"
	"testing"

	"github.com/twl-ldl/twl/lstm"
)

// BenchmarkStep times one training step (forward, KL loss, backward, Adam)
// at the shapes of REFERENCE.md's PyTorch anchor and of
// testdata/bench_torch.py: 100 documents of 200 tokens, word vectors of
// 100, hidden 200, 147 labels, a vocabulary of 20,000; word vectors frozen
// and trained. Run it beside bench_torch.py (see the README).
func BenchmarkStep(b *testing.B) {
	const B, T = 100, 200
	for _, trainEmb := range []bool{false, true} {
		b.Run(fmt.Sprintf("train_emb=%v", trainEmb), func(b *testing.B) {
			step := lstm.BenchStep(lstm.Config{Vocab: 20000, Dim: 100, Hidden: 200, Labels: 147}, B, T, trainEmb, 1)
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
