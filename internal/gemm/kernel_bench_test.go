package gemm

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkKernel times the microkernel alone on panels that stay in L1
// (packed A, and A read in place from rows of 256 floats).
func BenchmarkKernel(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const kb = 256
	ap := randMatrix(rng, kb, mr, mr)
	ad := randMatrix(rng, mr, kb, kb)
	at := randMatrix(rng, kb, 800, 800)
	bp := randMatrix(rng, kb, nr, nr)
	c := make([]float32, mr*nr)
	for _, v := range []struct {
		name     string
		a        []float32
		rsa, csa int
	}{{"packed", ap, 1, mr}, {"inplace", ad, kb, 1}, {"inplaceT", at, 1, 800}} {
		b.Run(v.name, func(b *testing.B) {
			for range b.N {
				kernel(kb, v.a, v.rsa, v.csa, bp, nr, c, nr, mr, nr, true)
			}
			b.ReportMetric(2*mr*nr*kb*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
		})
	}
}

// BenchmarkKernel2 times the AVX-512 kernel of two row panels alone on
// panels that stay in L1 (A read in place from rows of 256 floats, and
// transposed).
func BenchmarkKernel2(b *testing.B) {
	if !use512 {
		b.Skip("no AVX-512")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const kb = 256
	ad := randMatrix(rng, 2*mr, kb, kb)
	at := randMatrix(rng, kb, 800, 800)
	bp := randMatrix(rng, kb, nr, nr)
	c := make([]float32, 2*mr*nr)
	for _, v := range []struct {
		name     string
		a        []float32
		rsa, csa int
	}{{"inplace", ad, kb, 1}, {"inplaceT", at, 1, 800}} {
		b.Run(v.name, func(b *testing.B) {
			for range b.N {
				kernel2(kb, v.a, v.rsa, v.csa, bp, nr, c, nr, nr, true)
			}
			b.ReportMetric(2*2*mr*nr*kb*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
		})
	}
}

// BenchmarkPackPanels times the packing of a 200×200 block of op(B) and
// op(A), panel by panel.
func BenchmarkPackPanels(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 200
	src := randMatrix(rng, n, n, n)
	dst := make([]float32, (n+nr)*n)
	for _, trans := range []bool{false, true} {
		name := "N"
		if trans {
			name = "T"
		}
		b.Run("B"+name, func(b *testing.B) {
			for range b.N {
				for q := 0; q < n; q += nr {
					packBPanel(dst[q*n:(q+nr)*n], src, n, trans, 0, n, q, min(nr, n-q))
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(n*n), "ns/elem")
		})
		b.Run("A"+name, func(b *testing.B) {
			for range b.N {
				for i := 0; i < n; i += mr {
					packAPanel(dst[i*n:(i+mr)*n], src, n, trans, i, min(mr, n-i), 0, n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(n*n), "ns/elem")
		})
	}
}
