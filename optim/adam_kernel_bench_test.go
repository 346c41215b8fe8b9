package optim

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkAdamKernel times the update of one block of parameters (no
// parallel loop) in each available form: the Go reference and the
// assembly of this processor (kernel=asm; on amd64, AVX four at a time
// where the processor has it, SSE2 two at a time otherwise). 16,384
// parameters (512 KB of state) stay in cache; 101,000 are the paper's
// synthetic model.
func BenchmarkAdamKernel(b *testing.B) {
	for _, n := range []int{16_384, 101_000} {
		rng := rand.New(rand.NewPCG(1, 2))
		p, g, m, v := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range p {
			p[i], g[i] = rng.NormFloat64(), rng.NormFloat64()
		}
		k := adamConsts{b1: 0.9, c1: 0.1, b2: 0.999, c2: 1 - 0.999, step: 1e-3, epsHat: 1e-8, wd: 0.03}
		for _, kernel := range []string{"go", "sse2", "avx", "avx512"} {
			avx, avx512 := useAVX, useAVX512
			switch kernel {
			case "sse2":
				useAVX, useAVX512 = false, false
			case "avx":
				useAVX512 = false
			case "avx512":
				if !useAVX512 {
					continue
				}
			}
			b.Run(fmt.Sprintf("params=%d/kernel=%s", n, kernel), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if kernel == "go" {
						adamGo(p, g, m, v, &k)
					} else {
						adamUpdate(p, g, m, v, &k)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/param")
			})
			useAVX, useAVX512 = avx, avx512
		}
	}
}
