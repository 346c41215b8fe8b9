package loss

import (
	"math"
	"strconv"

	"github.com/twl-ldl/twl/internal/parallel"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/utw"
)

// NewKLUTW returns KL + lambda·UTW, the unbalanced tree-Wasserstein term
// d (package utw) between the prediction and the target: see UTW for the
// measures it compares. lambda must be non-negative and finite, d.MassCost
// positive and finite, d.Scale non-negative and finite (0 means 1); it
// panics otherwise. d is copied.
func NewKLUTW(t *tree.Tree, lambda float64, d UTW) *Mixed {
	checkLambda(lambda)
	if !(d.MassCost > 0) || math.IsInf(d.MassCost, 1) {
		panic("loss: the mass cost of utw must be positive and finite")
	}
	if !(d.Scale >= 0) || math.IsInf(d.Scale, 1) {
		panic("loss: the scale of utw must be finite and non-negative")
	}
	if d.Scale == 0 {
		d.Scale = 1
	}
	d.t = t
	return &Mixed{L: t.Len(), Lambda: lambda, Dist: &d}
}

// UTW is the unbalanced tree-Wasserstein Distance term: for a prediction
// p and a target row y it is
//
//	UTW_μ(s·p, ŷ),
//
// μ = MassCost the cost of a unit of mass destroyed or created, s = Scale
// the prediction's total mass, and ŷ = y, or with Sets the indicator of
// y's support (one unit on every label of y: the label set as it is, not
// divided by its size). With s = 1 and ŷ = y both are distributions, and
// UTW_μ is the 1-Wasserstein distance under the truncated tree metric
// min(d_T, 2μ): mass farther than 2μ from where it belongs costs 2μ a unit,
// however far it is. The gradient with respect to p is s·f, f the optimal
// potential of package utw. Make it with NewKLUTW.
type UTW struct {
	MassCost float64 // μ
	Scale    float64 // s; 0 means 1
	Sets     bool    // ŷ is the indicator of y's support

	t  *tree.Tree
	ws []*utw.Workspace
	a  [][]float64 // per part: s·p
	b  [][]float64 // per part: ŷ
}

var _ Distance = (*UTW)(nil)

// BatchGrad implements Distance. Rows run in parallel, each part with its
// own workspace; every row's value and gradient are those of a serial run.
func (d *UTW) BatchGrad(values, grads, P, Y []float64) error {
	L := d.t.Len()
	rows := len(values)
	parts := parallel.Parts(rows, 0, 1+(1<<10)/L)
	for len(d.ws) < parts {
		d.ws = append(d.ws, utw.NewWorkspace(d.t, d.MassCost))
		d.a = append(d.a, make([]float64, L))
		d.b = append(d.b, make([]float64, L))
	}
	s := d.Scale
	parallel.ForParts(rows, 0, 1+(1<<10)/L, func(part, r0, r1 int) {
		ws, a, b := d.ws[part], d.a[part], d.b[part]
		for r := r0; r < r1; r++ {
			p, y, g := P[r*L:(r+1)*L], Y[r*L:(r+1)*L], grads[r*L:(r+1)*L]
			for i, v := range p {
				a[i] = s * v
			}
			tgt := y
			if d.Sets {
				for i, v := range y {
					b[i] = 0
					if v > 0 {
						b[i] = 1
					}
				}
				tgt = b
			}
			values[r] = ws.DistanceGrad(g, a, tgt)
			if s != 1 {
				for i := range g {
					g[i] *= s
				}
			}
		}
	})
	return nil
}

// Name returns "utw(μ=M)", with ",s=S" when the scale is not 1 and ",sets"
// with Sets: the settings change the loss, so they are part of its name.
func (d *UTW) Name() string {
	n := "utw(μ=" + strconv.FormatFloat(d.MassCost, 'g', -1, 64)
	if d.Scale != 1 {
		n += ",s=" + strconv.FormatFloat(d.Scale, 'g', -1, 64)
	}
	if d.Sets {
		n += ",sets"
	}
	return n + ")"
}
