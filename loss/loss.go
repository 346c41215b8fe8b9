package loss

import (
	"fmt"
	"math"

	"github.com/twl-ldl/twl/internal/fmath"
	"github.com/twl-ldl/twl/internal/parallel"
	"github.com/twl-ldl/twl/ot/sinkhorn"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tw"
)

// Loss is a mini-batch loss of a softmax model.
type Loss interface {
	// Eval returns the loss averaged over the rows of logits (B×L,
	// row-major) against targets (B×L) and stores its gradient with respect
	// to the logits in grad (B×L). grad may be logits.
	Eval(grad, logits, targets []float64) (float64, error)
	// Labels returns L.
	Labels() int
	// Name describes the loss, such as "kl+0.5·tw".
	Name() string
}

// Distance is the optional transport term of a Mixed loss: it stores in
// values[r] the distance between row r of P and of Y (B×L) and in row r of
// grads its gradient with respect to P's row.
type Distance interface {
	BatchGrad(values, grads, P, Y []float64) error
	Name() string
}

// Mixed is KL(y ‖ p) + Lambda·D(p, y) for a Distance D (nil: KL alone).
// It keeps scratch buffers between calls and is not safe for concurrent use.
type Mixed struct {
	L      int
	Lambda float64
	Dist   Distance

	p, gp, vals []float64
	klRow       []float64
	last        Parts
}

// Parts are the batch means of the two terms of the last Eval. Dist is 0
// when the loss has no distance term or Lambda is 0: the term is then not
// computed.
type Parts struct {
	KL, Dist float64
}

var _ Loss = (*Mixed)(nil)

// NewKL returns the KL loss over L labels.
func NewKL(L int) *Mixed { return &Mixed{L: L} }

// NewKLTW returns KL + lambda·TW on tree t. lambda must be non-negative and
// finite (it panics otherwise: a programmer's constant).
func NewKLTW(t *tree.Tree, lambda float64) *Mixed {
	checkLambda(lambda)
	return &Mixed{L: t.Len(), Lambda: lambda, Dist: &TW{Batch: tw.NewBatch(t, 0)}}
}

// NewKLSinkhorn returns KL + lambda·W, W computed by Sinkhorn on the L×L
// cost matrix cost (row-major) with the given settings. The solver's errors
// (invalid cost, memory limit) are returned.
func NewKLSinkhorn(cost []float64, L int, lambda float64, s sinkhorn.Settings) (*Mixed, error) {
	checkLambda(lambda)
	sv, err := sinkhorn.New(cost, L, L, s)
	if err != nil {
		return nil, err
	}
	return &Mixed{L: L, Lambda: lambda, Dist: &Sinkhorn{Solver: sv}}, nil
}

func checkLambda(lambda float64) {
	if !(lambda >= 0) || math.IsInf(lambda, 1) {
		panic("loss: lambda must be finite and non-negative")
	}
}

// Labels returns L.
func (m *Mixed) Labels() int { return m.L }

// Name returns "kl", or "kl+λ·name" with the distance's name.
func (m *Mixed) Name() string {
	if m.Dist == nil || m.Lambda == 0 {
		return "kl"
	}
	return fmt.Sprintf("kl+%g·%s", m.Lambda, m.Dist.Name())
}

// Last returns the terms of the last Eval.
func (m *Mixed) Last() Parts { return m.last }

// Eval implements Loss.
func (m *Mixed) Eval(grad, logits, targets []float64) (float64, error) {
	L := m.L
	if len(logits)%L != 0 || len(targets) != len(logits) || len(grad) != len(logits) {
		panic("loss: logits, targets and grad must be B×L")
	}
	rows := len(logits) / L
	if rows == 0 {
		m.last = Parts{}
		return 0, nil
	}
	if cap(m.p) < len(logits) {
		m.p = make([]float64, len(logits))
		m.gp = make([]float64, len(logits))
		m.vals = make([]float64, rows)
	}
	p, gp := m.p[:len(logits)], m.gp[:len(logits)]
	if cap(m.vals) < rows {
		m.vals = make([]float64, rows)
	}
	vals := m.vals[:rows]

	// Softmax and KL row by row, in parallel for large batches. Per-row
	// results are summed in row order afterwards, so the value does not
	// depend on the scheduling.
	klRow := m.klRow[:0]
	for range rows {
		klRow = append(klRow, 0)
	}
	m.klRow = klRow
	parallel.For(rows, 0, 1+(1<<14)/L, func(r0, r1 int) {
		for r := r0; r < r1; r++ {
			z, y, pr := logits[r*L:(r+1)*L], targets[r*L:(r+1)*L], p[r*L:(r+1)*L]
			lse := fmath.Softmax(pr, z)
			// KL(y‖p) = Σ y (log y − log p), log p = z − lse, 0·log 0 = 0.
			var kl float64
			for i, yi := range y {
				if yi > 0 {
					kl += yi * (math.Log(yi) - (z[i] - lse))
				}
			}
			klRow[r] = kl
		}
	})
	var kl float64
	for _, v := range klRow {
		kl += v
	}
	var dist float64
	useDist := m.Dist != nil && m.Lambda != 0
	if useDist {
		if err := m.Dist.BatchGrad(vals, gp, p, targets); err != nil {
			return 0, err
		}
		for _, v := range vals {
			dist += v
		}
	}
	inv := 1 / float64(rows)
	parallel.For(rows, 0, 1+(1<<15)/L, func(r0, r1 int) {
		for r := r0; r < r1; r++ {
			y, pr, g := targets[r*L:(r+1)*L], p[r*L:(r+1)*L], grad[r*L:(r+1)*L]
			if useDist {
				gr := gp[r*L : (r+1)*L]
				var dot float64
				for i, pi := range pr {
					dot += pi * gr[i]
				}
				lam := m.Lambda
				for i, pi := range pr {
					g[i] = inv * (pi - y[i] + lam*pi*(gr[i]-dot))
				}
			} else {
				for i, pi := range pr {
					g[i] = inv * (pi - y[i])
				}
			}
		}
	})
	m.last = Parts{KL: kl * inv, Dist: dist * inv}
	return (kl + m.Lambda*dist) * inv, nil
}

// TW is the tree-Wasserstein Distance term.
type TW struct{ Batch *tw.Batch }

// BatchGrad implements Distance.
func (d *TW) BatchGrad(values, grads, P, Y []float64) error {
	d.Batch.DistanceGrad(values, grads, P, Y)
	return nil
}

// Name returns "tw".
func (d *TW) Name() string { return "tw" }

// Sinkhorn is the entropic Wasserstein Distance term of Frogner et al.
type Sinkhorn struct{ Solver *sinkhorn.Solver }

// BatchGrad implements Distance.
func (d *Sinkhorn) BatchGrad(values, grads, P, Y []float64) error {
	return d.Solver.BatchGrad(values, grads, P, Y)
}

// Name returns "sinkhorn".
func (d *Sinkhorn) Name() string { return "sinkhorn" }
