package optim

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
)

// BenchmarkAdamStep times one Adam step per parameter count: 101,000 is the
// paper's synthetic model (100 features → 1000 labels, plus biases).
func BenchmarkAdamStep(b *testing.B) {
	for _, n := range []int{10_000, 101_000, 1_000_000} {
		for _, procs := range []int{1, runtime.GOMAXPROCS(0)} {
			b.Run(fmt.Sprintf("params=%d/procs=%d", n, procs), func(b *testing.B) {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				rng := rand.New(rand.NewPCG(1, 2))
				p, g := make([]float64, n), make([]float64, n)
				for i := range p {
					p[i], g[i] = rng.NormFloat64(), rng.NormFloat64()
				}
				var a Adam
				b.ReportAllocs()
				for b.Loop() {
					a.Step(p, g)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/param")
			})
		}
	}
}
