package lstm

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Config gives the sizes of a model.
type Config struct {
	Vocab  int `json:"vocab"`  // V: rows of the embedding table, <unk> included
	Dim    int `json:"dim"`    // D: the dimension of word vectors
	Hidden int `json:"hidden"` // H: the size of the LSTM state and of the fully connected layer
	Labels int `json:"labels"` // L: the number of logits
}

func (c Config) check() {
	if c.Vocab < 1 || c.Dim < 1 || c.Hidden < 1 || c.Labels < 1 || c.Vocab > math.MaxInt32 {
		panic(fmt.Sprintf("lstm: sizes must be positive, and the vocabulary at most 2³¹−1 (token IDs are int32): %+v", c))
	}
}

// Bytes returns about how much memory training a model of sizes c on
// batches of batch documents of length tokens holds: the parameters, their
// gradient and Adam's two moments, and the activations of a batch.
func (c Config) Bytes(batch, length int) float64 {
	N := float64(batch) * float64(length)
	H, D := float64(c.Hidden), float64(c.Dim)
	return 4 * (4*float64(c.NumParams()) + N*(7*H+2*D))
}

// The parameter tensors, in the order of the slab.
const (
	tEmb = iota // V×D  word vectors
	tWx         // 4H×D input weights of the gates i, f, g, o
	tWh         // 4H×H recurrent weights
	tB          // 4H   gate biases
	tW1         // H×H  fully connected layer
	tB1         // H
	tW2         // L×H  output layer
	tB2         // L
	numTensors
)

// TensorNames names the tensors in the order of the parameter slab.
var TensorNames = [numTensors]string{"emb", "wx", "wh", "b", "w1", "b1", "w2", "b2"}

// sizes returns the number of values of each tensor.
func (c Config) sizes() [numTensors]int {
	V, D, H, L := c.Vocab, c.Dim, c.Hidden, c.Labels
	return [numTensors]int{V * D, 4 * H * D, 4 * H * H, 4 * H, H * H, H, L * H, L}
}

// NumParams returns the number of parameters, the embedding table
// included.
func (c Config) NumParams() int {
	n := 0
	for _, s := range c.sizes() {
		n += s
	}
	return n
}

// Model is the text classifier of the paper's Section 4.2: word vectors,
// one LSTM layer, a fully connected layer with ReLU, and an output layer
// whose logits feed a softmax loss. Its parameters live in one float32
// slab, Params, cut into the tensors of TensorNames; the views (Emb, Wx,
// …) share it. Weight matrices are stored row-major, output by input, as
// PyTorch stores them.
type Model struct {
	Config
	Params []float32

	Emb []float32 // V×D
	Wx  []float32 // 4H×D: rows 0…H−1 the input gate i, then f, g, o
	Wh  []float32 // 4H×H
	B   []float32 // 4H (PyTorch's b_ih + b_hh)
	W1  []float32 // H×H
	B1  []float32 // H
	W2  []float32 // L×H
	B2  []float32 // L
}

// Tensor returns the view of tensor k of TensorNames.
func (m *Model) Tensor(k int) []float32 {
	return [numTensors][]float32{m.Emb, m.Wx, m.Wh, m.B, m.W1, m.B1, m.W2, m.B2}[k]
}

// Offset returns where tensor k starts in Params.
func (c Config) Offset(k int) int {
	sizes := c.sizes()
	off := 0
	for _, s := range sizes[:k] {
		off += s
	}
	return off
}

// NewModel returns a model of the given sizes with zero parameters.
func NewModel(c Config) *Model {
	c.check()
	m := &Model{Config: c, Params: make([]float32, c.NumParams())}
	m.carve()
	return m
}

// carve sets the views into Params.
func (m *Model) carve() {
	views := [numTensors]*[]float32{&m.Emb, &m.Wx, &m.Wh, &m.B, &m.W1, &m.B1, &m.W2, &m.B2}
	off := 0
	for k, s := range m.sizes() {
		*views[k] = m.Params[off : off+s : off+s]
		off += s
	}
}

// ForgetBias is the initial bias of the forget gate.
const ForgetBias = 1

// Init draws the parameters from src as PyTorch initializes these layers,
// except for the forget gate: every LSTM weight and bias uniform on
// [−1/√H, 1/√H]; each linear layer's weight and bias uniform on
// [−1/√in, 1/√in] for its input size in (PyTorch's nn.Linear); and the
// forget gate's bias set to ForgetBias, 1, so that the cell remembers by
// default at the start of training (Gers, Schmidhuber & Cummins 2000;
// Jozefowicz, Zaremba & Sutskever 2015). The embedding table is drawn
// normal with standard deviation 1/√D, for words without a pretrained
// vector; overwrite it with SetEmbeddings. The draws follow the order of
// TensorNames, so a seed gives the same model on every machine.
func (m *Model) Init(src rand.Source) {
	rng := rand.New(src)
	uniform := func(x []float32, bound float64) {
		for i := range x {
			x[i] = float32((2*rng.Float64() - 1) * bound)
		}
	}
	s := 1 / math.Sqrt(float64(m.Dim))
	for i := range m.Emb {
		m.Emb[i] = flush(float32(rng.NormFloat64() * s))
	}
	h := 1 / math.Sqrt(float64(m.Hidden))
	uniform(m.Wx, h)
	uniform(m.Wh, h)
	uniform(m.B, h)
	H := m.Hidden
	for j := H; j < 2*H; j++ {
		m.B[j] = ForgetBias
	}
	uniform(m.W1, h)
	uniform(m.B1, h)
	uniform(m.W2, h)
	uniform(m.B2, h)
}

// SetEmbeddings copies a V×D table of word vectors into the embedding
// tensor, flushing magnitudes below 2⁻⁶⁰ to zero (see the package
// documentation on subnormal numbers). It panics if the size differs.
func (m *Model) SetEmbeddings(table []float32) {
	if len(table) != len(m.Emb) {
		panic("lstm: embedding table size differs from Vocab×Dim")
	}
	for i, v := range table {
		m.Emb[i] = flush(v)
	}
}
