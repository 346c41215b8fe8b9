package lstm

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
)

// smallModel is a model with random parameters and documents of mixed
// lengths, an empty one included, for the gradient tests.
func smallModel(seed uint64) (*Model, [][]int32) {
	m := NewModel(Config{Vocab: 7, Dim: 3, Hidden: 4, Labels: 5})
	m.Init(rand.NewPCG(seed, 1))
	// Larger weights than the initialization, so that every gate works
	// away from its linear regime.
	rng := rand.New(rand.NewPCG(seed, 2))
	for i := range m.Params {
		m.Params[i] += float32(0.3 * rng.NormFloat64())
	}
	docs := [][]int32{{1, 2, 3, 4, 5}, {}, {6, 0, 2}, {3, 3, 1, 0, 6}, {2}}
	return m, docs
}

// klLoss returns Σ_rows KL(y_r ‖ softmax(z_r)) in float64 and its gradient
// with respect to z, softmax(z) − y per row.
func klLoss(z, y []float64, L int) (float64, []float64) {
	var s float64
	dz := make([]float64, len(z))
	for r := 0; r < len(z)/L; r++ {
		p := testutil.Softmax(z[r*L : (r+1)*L])
		s += testutil.KL(y[r*L:(r+1)*L], p)
		for j := range p {
			dz[r*L+j] = p[j] - y[r*L+j]
		}
	}
	return s, dz
}

// TestGradFiniteDifferences compares Backward's gradient of a KL loss with
// central finite differences of the loss, computed by Forward alone, for
// every parameter of a small model (embeddings included), at step 2⁻⁸. The
// forward pass runs in float32, so a difference quotient carries rounding
// noise of about 1e-7·|loss|/h ≈ 1e-5; the tolerance, 3e-3 relative plus
// 3e-4 absolute, is well above that and the O(h²) truncation error, and
// far below any real mistake (a missing term changes gradients by O(1)).
func TestGradFiniteDifferences(t *testing.T) {
	m, docs := smallModel(3)
	L := m.Labels
	y := make([]float64, len(docs)*L)
	rng := rand.New(rand.NewPCG(4, 5))
	for r := range docs {
		copy(y[r*L:], testutil.Dist(rng, L))
	}
	w := m.NewWorkspace()
	z := make([]float64, len(docs)*L)
	loss := func() float64 {
		w.Forward(z, docs)
		v, _ := klLoss(z, y, L)
		return v
	}
	w.Forward(z, docs)
	_, dz := klLoss(z, y, L)
	grad := make([]float32, len(m.Params))
	w.Backward(grad, dz, true)

	const h = 0x1p-8
	bad := 0
	for i := range m.Params {
		p := m.Params[i]
		m.Params[i] = p + h
		up := loss()
		m.Params[i] = p - h
		down := loss()
		m.Params[i] = p
		fd := (up - down) / (2 * h)
		an := float64(grad[i])
		if math.Abs(fd-an) > 3e-3*math.Max(math.Abs(fd), math.Abs(an))+3e-4 {
			if bad++; bad <= 10 {
				t.Errorf("param %d (%s): analytic %.6g, finite difference %.6g", i, tensorOf(m, i), an, fd)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d gradients differ", bad, len(m.Params))
	}
}

// tensorOf names the tensor of parameter i.
func tensorOf(m *Model, i int) string {
	for k := numTensors - 1; k >= 0; k-- {
		if i >= m.Offset(k) {
			return TensorNames[k]
		}
	}
	return "?"
}

// TestNoSubnormals runs backward passes whose gradients are tiny (∂/∂z
// scaled by 1e-30, so that the recurrence drives them through the
// subnormal range, and by 3e-40, itself subnormal in float32) and checks
// that no subnormal number is left in the buffers that feed the matrix
// products (∂z, ∂a1, ∂h_final, the gates' gradients, ∂h, ∂c) or in the
// parameters' gradient: the kernels flush below 2⁻⁶⁰.
func TestNoSubnormals(t *testing.T) {
	m, _ := smallModel(9)
	rng := rand.New(rand.NewPCG(10, 11))
	docs := make([][]int32, 6)
	for i := range docs {
		docs[i] = make([]int32, 40+i)
		for k := range docs[i] {
			docs[i][k] = int32(rng.IntN(m.Vocab))
		}
	}
	for _, scale := range []float64{1e-30, 3e-40} {
		w := m.NewWorkspace()
		z := make([]float64, len(docs)*m.Labels)
		w.Forward(z, docs)
		dz := make([]float64, len(z))
		for i := range dz {
			dz[i] = scale * rng.NormFloat64()
		}
		grad := make([]float32, len(m.Params))
		w.Backward(grad, dz, true)
		for name, buf := range map[string][]float32{"dz": w.dz, "da1": w.da1, "dhfin": w.dhfin, "gates": w.g,
			"dh": w.dh, "dc": w.dc, "grad": grad, "c": w.c, "h": w.hp} {
			for i, v := range buf {
				if v != 0 && math.Abs(float64(v)) < 0x1p-126 {
					t.Fatalf("scale %g: %s[%d] = %g is subnormal", scale, name, i, v)
				}
			}
		}
		// The tiny gradients did reach the flushing: some are zero that a
		// plain float32 computation would have kept as tiny numbers.
		zeros := 0
		for _, v := range w.g[:len(w.lay.bt)*4*m.Hidden] {
			if v == 0 {
				zeros++
			}
		}
		if zeros == 0 {
			t.Errorf("scale %g: no gate gradient was flushed: the test does not reach the subnormal range", scale)
		}
	}
}
