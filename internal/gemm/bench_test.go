package gemm

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// benchShape is a product of the LSTM text classifier (batch 100, hidden
// 200, gates 800, embedding 100, 200 time steps), or the square 1000³.
type benchShape struct {
	name           string
	m, n, k        int
	transA, transB bool
	accumulate     bool
	packed         bool // op(B) packed once (MulPacked)
	mulOnly        bool // a variant of the shape before, for Mul alone
}

var benchShapes = []benchShape{
	{name: "RecurrentForward", m: 100, n: 800, k: 200, transB: true, accumulate: true, packed: true},
	{name: "RecurrentBackward", m: 100, n: 200, k: 800, packed: true},
	{name: "InputProjection", m: 20000, n: 800, k: 100, transB: true},
	{name: "WeightGradRecurrent", m: 800, n: 200, k: 20000, transA: true, accumulate: true},
	{name: "WeightGradInput", m: 800, n: 100, k: 20000, transA: true, accumulate: true},
	{name: "InputGrad", m: 20000, n: 100, k: 800},
	{name: "FC", m: 100, n: 200, k: 200, transB: true},
	{name: "FC1", m: 1, n: 200, k: 200, transB: true},
	{name: "FC17", m: 17, n: 200, k: 200, transB: true},
	{name: "FCPacked", m: 100, n: 200, k: 200, transB: true, packed: true, mulOnly: true},
	{name: "FC1Packed", m: 1, n: 200, k: 200, transB: true, packed: true, mulOnly: true},
	{name: "FC17Packed", m: 17, n: 200, k: 200, transB: true, packed: true, mulOnly: true},
	{name: "Square1000", m: 1000, n: 1000, k: 1000},
	{name: "Tiny", m: 6, n: 16, k: 8}, // the cost of a call
}

// operands returns random A and B for s, with their leading dimensions,
// and C.
func (s benchShape) operands() (a []float32, lda int, b []float32, ldb int, c []float32) {
	rng := rand.New(rand.NewPCG(1, 1))
	lda, ldb = s.k, s.n
	if s.transA {
		lda = s.m
	}
	if s.transB {
		ldb = s.k
	}
	a = randMatrix(rng, s.m*s.k/lda, lda, lda)
	b = randMatrix(rng, s.k*s.n/ldb, ldb, ldb)
	return a, lda, b, ldb, make([]float32, s.m*s.n)
}

// report reports the rate of floating-point operations (2mnk a product).
func (s benchShape) report(b *testing.B) {
	b.ReportMetric(2*float64(s.m)*float64(s.n)*float64(s.k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
}

// BenchmarkMul times Mul (MulPacked where op(B) is the same for every
// time step) on the LSTM's shapes; run with -cpu 1,2.
func BenchmarkMul(b *testing.B) {
	for _, s := range benchShapes {
		b.Run(s.name, func(b *testing.B) {
			a, lda, bm, ldb, c := s.operands()
			w := NewWorkspace(0)
			var p Packed
			p.Pack(bm, ldb, s.transB, s.k, s.n)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if s.packed {
					w.MulPacked(c, s.n, a, lda, s.transA, &p, s.m, s.accumulate)
				} else {
					w.Mul(c, s.n, a, lda, s.transA, bm, ldb, s.transB, s.m, s.n, s.k, s.accumulate)
				}
			}
			s.report(b)
		})
	}
}

// BenchmarkGonum times gonum's pure-Go Sgemm (blas32's default
// implementation) on the same shapes, for comparison.
func BenchmarkGonum(b *testing.B) {
	impl := blas32.Implementation()
	for _, s := range benchShapes {
		if s.mulOnly {
			continue
		}
		b.Run(s.name, func(b *testing.B) {
			a, lda, bm, ldb, c := s.operands()
			tA, tB := blas.NoTrans, blas.NoTrans
			if s.transA {
				tA = blas.Trans
			}
			if s.transB {
				tB = blas.Trans
			}
			beta := float32(0)
			if s.accumulate {
				beta = 1
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				impl.Sgemm(tA, tB, s.m, s.n, s.k, 1, a, lda, bm, ldb, beta, c, s.n)
			}
			s.report(b)
		})
	}
}

// BenchmarkPack times the packing of the recurrent weights (800×200),
// once per optimizer step: op(B) = Wᵀ for the forward steps, W for the
// backward steps.
func BenchmarkPack(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	w := randMatrix(rng, 800, 200, 200)
	for _, trans := range []bool{true, false} {
		name, k, n := "Wt", 200, 800
		if !trans {
			name, k, n = "W", 800, 200
		}
		b.Run(name, func(b *testing.B) {
			var p Packed
			b.ReportAllocs()
			for range b.N {
				p.Pack(w, 200, trans, k, n)
			}
		})
	}
}
