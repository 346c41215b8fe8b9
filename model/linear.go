package model

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/twl-ldl/twl/internal/fmath"
	"github.com/twl-ldl/twl/internal/parallel"
)

// Linear is the softmax-linear model h(x) = softmax(W·x + b).
type Linear struct {
	In, Out int
	// Params holds W (Out×In, row-major) followed by b (Out).
	Params []float64
}

// NewLinear returns a model with In inputs and Out labels whose weights and
// biases are drawn uniformly from [−1/√In, 1/√In], PyTorch's default for a
// linear layer, from src. It panics if in or out is not positive.
func NewLinear(in, out int, src rand.Source) *Linear {
	if in <= 0 || out <= 0 {
		panic("model: NewLinear needs positive dimensions")
	}
	m := &Linear{In: in, Out: out, Params: make([]float64, out*in+out)}
	rng := rand.New(src)
	bound := 1 / math.Sqrt(float64(in))
	for i := range m.Params {
		m.Params[i] = bound * (2*rng.Float64() - 1)
	}
	return m
}

// W returns the weight matrix, Out×In row-major, a view of Params.
func (m *Linear) W() []float64 { return m.Params[:m.Out*m.In] }

// B returns the bias vector, a view of Params.
func (m *Linear) B() []float64 { return m.Params[m.Out*m.In:] }

func (m *Linear) rows(X []float64) int {
	if len(X)%m.In != 0 {
		panic("model: len(X) is not a multiple of In")
	}
	return len(X) / m.In
}

// Logits stores W·x + b for every row x of X (B×In) in dst (B×Out).
func (m *Linear) Logits(dst, X []float64) {
	rows := m.rows(X)
	if len(dst) != rows*m.Out {
		panic("model: len(dst) != rows·Out")
	}
	if rows == 0 {
		return
	}
	b, w := m.B(), m.W()
	// Split the labels across cores. Every entry is b_j plus one dot
	// product over all In features, so its bits do not depend on the split.
	// (A Gemm per part would not do: gonum's Dgemm sums over k in blocks of
	// 64 or in one dot depending on the shape of the part.) Label-outer
	// order keeps row j of W in cache while the rows of X are visited.
	impl := blas64.Implementation()
	in, out := m.In, m.Out
	parallel.For(out, 0, m.minChunk(rows), func(lo, hi int) {
		for j := lo; j < hi; j++ {
			wj, bj := w[j*in:(j+1)*in], b[j]
			for r := 0; r < rows; r++ {
				dst[r*out+j] = bj + impl.Ddot(in, X[r*in:(r+1)*in], 1, wj, 1)
			}
		}
	})
}

// minChunk is the fewest labels per goroutine: enough for about 2^15
// multiply-adds, below which starting a goroutine costs more than it saves.
func (m *Linear) minChunk(rows int) int {
	return 1 + (1<<15)/max(1, rows*m.In)
}

// Predict stores h(x) = softmax(W·x + b) for every row x of X in dst.
func (m *Linear) Predict(dst, X []float64) {
	m.Logits(dst, X)
	for r := 0; r < len(dst)/m.Out; r++ {
		row := dst[r*m.Out : (r+1)*m.Out]
		fmath.Softmax(row, row)
	}
}

// Backward stores in grad (len(Params)) the gradient of a loss with respect
// to the parameters, given G, the gradient of that loss with respect to the
// logits of the rows of X (B×Out): ∂W = Gᵀ·X and ∂b = Σ_rows G.
func (m *Linear) Backward(grad, G, X []float64) {
	rows := m.rows(X)
	if len(G) != rows*m.Out {
		panic("model: len(G) != rows·Out")
	}
	if len(grad) != len(m.Params) {
		panic("model: len(grad) != len(Params)")
	}
	gw, gb := grad[:m.Out*m.In], grad[m.Out*m.In:]
	if rows == 0 {
		clear(grad)
		return
	}
	parallel.For(m.Out, 0, m.minChunk(rows), func(lo, hi int) {
		blas64.Gemm(blas.Trans, blas.NoTrans, 1,
			blas64.General{Rows: rows, Cols: hi - lo, Data: G[lo:], Stride: m.Out},
			blas64.General{Rows: rows, Cols: m.In, Data: X, Stride: m.In},
			0, blas64.General{Rows: hi - lo, Cols: m.In, Data: gw[lo*m.In:], Stride: m.In})
		b := gb[lo:hi]
		clear(b)
		for r := 0; r < rows; r++ {
			g := G[r*m.Out+lo : r*m.Out+hi]
			for j, v := range g {
				b[j] += v
			}
		}
	})
}
