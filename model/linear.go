package model

import (
	"math"
	"math/rand/v2"

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
// linear layer, from src. It panics if in or out is not positive or src is
// nil (there is no default source: every initialization is reproducible from
// the seed of the caller's source).
func NewLinear(in, out int, src rand.Source) *Linear {
	if in <= 0 || out <= 0 {
		panic("model: NewLinear needs positive dimensions")
	}
	if src == nil {
		panic("model: NewLinear with a nil rand.Source")
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
	// Split the labels across cores. Every entry is b_j plus dot(x_r, w_j)
	// computed by the same arithmetic in every block (kernel.go), so its
	// bits do not depend on the split.
	parallel.For(m.Out, 0, m.MinChunk(rows), func(lo, hi int) {
		m.LogitsLabels(dst, X, lo, hi)
	})
}

// LogitsLabels is Logits for the labels [lo, hi) alone: it stores W·x + b
// in the columns lo … hi−1 of dst (B×Out) for every row x of X (B×In), and
// leaves the other columns alone. The entries are those Logits computes,
// bit for bit, whatever the range: a caller can split the labels across
// goroutines as it likes (Logits uses MinChunk).
func (m *Linear) LogitsLabels(dst, X []float64, lo, hi int) {
	rows := m.rows(X)
	if len(dst) != rows*m.Out {
		panic("model: len(dst) != rows·Out")
	}
	if lo < 0 || hi > m.Out || lo > hi {
		panic("model: label range out of bounds")
	}
	if rows == 0 {
		return
	}
	logitsBlock(dst, X, m.W(), m.B(), rows, m.In, m.Out, lo, hi)
}

// MinChunk is the fewest labels per part of a parallel loop of Logits or
// Backward over a batch of rows rows: enough for about 2^15 multiply-adds,
// below which handing a part to another core costs more than it saves.
func (m *Linear) MinChunk(rows int) int {
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
	if rows == 0 {
		clear(grad)
		return
	}
	parallel.For(m.Out, 0, m.MinChunk(rows), func(lo, hi int) {
		m.BackwardLabels(grad, G, X, lo, hi)
	})
}

// BackwardLabels is Backward for the labels [lo, hi) alone: it stores rows
// lo … hi−1 of ∂W (grad[lo·In : hi·In]) and ∂b[lo:hi] (grad[Out·In+lo :
// Out·In+hi]), and leaves the rest of grad alone. The entries are those
// Backward computes, bit for bit, whatever the range, so that a training
// step can hand each block of parameters to its optimizer as soon as its
// gradient is known.
func (m *Linear) BackwardLabels(grad, G, X []float64, lo, hi int) {
	rows := m.rows(X)
	if len(G) != rows*m.Out {
		panic("model: len(G) != rows·Out")
	}
	if len(grad) != len(m.Params) {
		panic("model: len(grad) != len(Params)")
	}
	if lo < 0 || hi > m.Out || lo > hi {
		panic("model: label range out of bounds")
	}
	gw, gb := grad[:m.Out*m.In], grad[m.Out*m.In:]
	if rows == 0 {
		clear(gw[lo*m.In : hi*m.In])
		clear(gb[lo:hi])
		return
	}
	var cb []float64 // the SSE2 form's doubled coefficients
	if !useFMA {
		cb = make([]float64, 4*rows)
	}
	backwardBlock(gw, gb, G, X, rows, m.In, m.Out, lo, hi, cb)
}
