package lstm

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// torchCase is testdata/torch.json, written by testdata/gen_torch.py with
// PyTorch 1.13 in float64 from float32 parameters.
type torchCase struct {
	Config  Config
	Docs    [][]int32
	Params  map[string][]float64
	Targets []float64
	Logits  []float64
	Loss    float64
	Grads   map[string][]float64
}

// TestPyTorch runs the model of testdata/torch.json (documents of lengths
// 6, 3, 0, 6 and 1; 9 hidden units, so that the AVX2 cell kernels run on
// one block of 8 and the Go references on the ninth) and compares its
// logits, loss and the gradient of every tensor with PyTorch's nn.LSTM and
// autograd. twl computes in float32 with its own exp, sigmoid and tanh
// (within a few 1e-7 of exact), PyTorch in float64. The differences
// measured are at most 1.3e-7; the tolerance, 1e-6 absolute plus 1e-5
// relative, leaves room for float32 rounding on other processors and is far
// below what any mistake in the recurrence gives.
func TestPyTorch(t *testing.T) {
	raw, err := os.ReadFile("testdata/torch.json")
	if err != nil {
		t.Fatal(err)
	}
	var c torchCase
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	m := NewModel(c.Config)
	for k, name := range TensorNames {
		v := c.Params[name]
		dst := m.Tensor(k)
		if len(v) != len(dst) {
			t.Fatalf("%s: %d values, want %d", name, len(v), len(dst))
		}
		for i, x := range v {
			dst[i] = float32(x)
		}
	}
	L := m.Labels
	z := make([]float64, len(c.Docs)*L)
	w := m.NewWorkspace()
	w.Forward(z, c.Docs)
	loss, dz := klLoss(z, c.Targets, L)
	close := func(what string, got, want []float64) {
		t.Helper()
		worst := 0.0
		for i := range want {
			d := math.Abs(got[i] - want[i])
			if d > 1e-6+1e-5*math.Abs(want[i]) {
				t.Errorf("%s[%d] = %.8g, PyTorch %.8g", what, i, got[i], want[i])
			}
			worst = max(worst, d)
		}
		t.Logf("%s: largest difference %.3g", what, worst)
	}
	close("logits", z, c.Logits)
	close("loss", []float64{loss}, []float64{c.Loss})
	grad := make([]float32, len(m.Params))
	w.Backward(grad, dz, true)
	for k, name := range TensorNames {
		off := m.Offset(k)
		g := make([]float64, len(m.Tensor(k)))
		for i := range g {
			g[i] = float64(grad[off+i])
		}
		close("grad "+name, g, c.Grads[name])
	}
}
