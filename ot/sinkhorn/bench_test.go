package sinkhorn

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// paperSettings is the paper's Sinkhorn baseline: λ = 50, 10 log-domain
// iterations, no early stop.
var paperSettings = Settings{Lambda: 50, Iters: 10, Tol: -1}

// BenchmarkPaper is the paper's efficiency experiment: cost 11ᵀ − I, one
// random pair, L = 1e2, 1e3, 1e4. "cold" includes building the kernel
// (New + Solve, what a one-off call costs, comparable to POT's
// sinkhorn2(method="sinkhorn_log")); "warm" reuses the cached kernel;
// "grad" is warm and also returns the gradient. The L = 1e4 cases (1.6 GB)
// are skipped with -short.
func BenchmarkPaper(b *testing.B) {
	// inputs builds the problem inside each sub-benchmark, so that
	// filtered-out sizes cost nothing.
	inputs := func(b *testing.B, L int) (cost, p, q []float64) {
		if L > 1000 && testing.Short() {
			b.Skip("L > 1000 skipped with -short")
		}
		rnd := rand.New(rand.NewPCG(10, uint64(L)))
		cost = paperCost(L)
		p, q = randHist(rnd, L, 0), randHist(rnd, L, 0)
		b.ResetTimer()
		return cost, p, q
	}
	for _, L := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("cold/L=%d", L), func(b *testing.B) {
			cost, p, q := inputs(b, L)
			b.ReportAllocs()
			for b.Loop() {
				s, err := New(cost, L, L, paperSettings)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := s.Solve(p, q); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("warm/L=%d", L), func(b *testing.B) {
			cost, p, q := inputs(b, L)
			s, err := New(cost, L, L, paperSettings)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Solve(p, q); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("grad/L=%d", L), func(b *testing.B) {
			cost, p, q := inputs(b, L)
			s, err := New(cost, L, L, paperSettings)
			if err != nil {
				b.Fatal(err)
			}
			grad := make([]float64, L)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Grad(grad, p, q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRandomCostCold is BenchmarkPaper's cold case on a cost with
// distinct entries, where every kernel entry needs its own exp.
func BenchmarkRandomCostCold(b *testing.B) {
	for _, L := range []int{1000} {
		rnd := rand.New(rand.NewPCG(11, uint64(L)))
		cost := randCost(rnd, L, L, 1)
		p, q := randHist(rnd, L, 0), randHist(rnd, L, 0)
		b.Run(fmt.Sprintf("L=%d", L), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s, err := New(cost, L, L, paperSettings)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := s.Solve(p, q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBatchLogitGrad is the training loss in the paper's setting:
// B = 10 rows of logits on L = 1000 labels, cost 11ᵀ − I, against dense
// targets and against sparse ones (5 positive entries, the sparse passes).
func BenchmarkBatchLogitGrad(b *testing.B) {
	const B, L = 10, 1000
	for _, tc := range []struct {
		name  string
		zeros int
	}{{"dense", 0}, {"sparse", L - 5}} {
		b.Run(tc.name, func(b *testing.B) {
			rnd := rand.New(rand.NewPCG(12, 0))
			cost := paperCost(L)
			logits := make([]float64, B*L)
			for i := range logits {
				logits[i] = rnd.NormFloat64()
			}
			targets := make([]float64, 0, B*L)
			for range B {
				targets = append(targets, randHist(rnd, L, tc.zeros)...)
			}
			s, err := New(cost, L, L, paperSettings)
			if err != nil {
				b.Fatal(err)
			}
			values := make([]float64, B)
			grads := make([]float64, B*L)
			b.ReportAllocs()
			for b.Loop() {
				if err := s.BatchLogitGrad(values, grads, logits, targets); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
