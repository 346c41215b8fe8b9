package loss

import (
	"fmt"
	"math"
	"runtime"

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

// Targeted is implemented by losses whose value has a term that depends on
// the target row alone: for KL(y ‖ p) = Σ y log y − Σ y log p, the first sum,
// which costs a logarithm per label. A trainer that evaluates the same
// targets every epoch computes the terms once with TargetTerms and passes a
// batch's terms to EvalTerms, which then takes no logarithm. EvalTerms with
// the terms of its targets returns exactly what Eval returns.
type Targeted interface {
	Loss
	// TargetTerms stores the term of row r of targets (B×L) in dst[r].
	TargetTerms(dst, targets []float64)
	// EvalTerms is Eval given terms[r], the term of row r of targets.
	EvalTerms(grad, logits, targets, terms []float64) (float64, error)
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
	klRow, lse  []float64 // per row: KL, and the log-sum-exp of the logits
	last        Parts

	// c holds the operands of the current EvalTerms for its parallel
	// loops, klFn and gradFn, which are made once (for self) so that an
	// evaluation allocates nothing.
	c            evalCall
	klFn, gradFn func(r0, r1 int)
	self         *Mixed
	// With a TW term, one parallel loop does a block of rows at a time
	// (twFn), the softmax and KL, TW and the gradient, with a workspace
	// of twTree per part.
	twFn   func(part, r0, r1 int)
	twWS   []*tw.Workspace
	twTree *tree.Tree
}

// evalCall is what the parallel loops of one EvalTerms read.
type evalCall struct {
	grad, logits, targets, terms []float64
	useDist                      bool
	inv, lam                     float64
}

// Parts are the batch means of the two terms of the last Eval. Dist is 0
// when the loss has no distance term or Lambda is 0: the term is then not
// computed.
type Parts struct {
	KL, Dist float64
}

var _ Targeted = (*Mixed)(nil)

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

// yLogY returns Σ y_i log y_i over the y_i > 0 (0·log 0 = 0), summed in
// order.
func yLogY(y []float64) float64 {
	var s float64
	for _, yi := range y {
		if yi > 0 {
			s += yi * math.Log(yi)
		}
	}
	return s
}

// TargetTerms implements Targeted: dst[r] = Σ_i y_ri log y_ri.
func (m *Mixed) TargetTerms(dst, targets []float64) {
	L := m.L
	if len(targets)%L != 0 || len(dst) != len(targets)/L {
		panic("loss: targets must be B×L and dst of length B")
	}
	parallel.For(len(dst), 0, 1+(1<<12)/L, func(r0, r1 int) {
		for r := r0; r < r1; r++ {
			dst[r] = yLogY(targets[r*L : (r+1)*L])
		}
	})
}

// Eval implements Loss.
func (m *Mixed) Eval(grad, logits, targets []float64) (float64, error) {
	return m.EvalTerms(grad, logits, targets, nil)
}

// EvalTerms implements Targeted; terms == nil computes them.
func (m *Mixed) EvalTerms(grad, logits, targets, terms []float64) (float64, error) {
	L := m.L
	if len(logits)%L != 0 || len(targets) != len(logits) || len(grad) != len(logits) {
		panic("loss: logits, targets and grad must be B×L")
	}
	rows := len(logits) / L
	if terms != nil && len(terms) != rows {
		panic("loss: len(terms) != number of rows")
	}
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
	if cap(m.lse) < rows {
		m.lse = make([]float64, rows)
	}
	m.lse = m.lse[:rows]
	useDist := m.Dist != nil && m.Lambda != 0
	inv := 1 / float64(rows)
	if m.self != m {
		m.self = m
		m.klFn = m.klRows
		m.gradFn = m.gradRows
		m.twFn = m.twPart
	}
	m.c = evalCall{grad: grad, logits: logits, targets: targets, terms: terms, useDist: useDist, inv: inv, lam: m.Lambda}
	defer func() { m.c = evalCall{} }()
	if d, ok := m.Dist.(*TW); ok && useDist {
		// Every row is computed as by the three loops below (TW's
		// Batch computes row by row with a Workspace), in one loop.
		t := d.Batch.Tree()
		if m.twTree != t {
			m.twTree, m.twWS = t, nil
		}
		workers, grain := runtime.GOMAXPROCS(0), 1+(1<<12)/L
		for len(m.twWS) < parallel.Parts(rows, workers, grain) {
			m.twWS = append(m.twWS, tw.NewWorkspace(t))
		}
		parallel.ForParts(rows, workers, grain, m.twFn)
		var kl, dist float64
		for _, v := range klRow {
			kl += v
		}
		for _, v := range vals {
			dist += v
		}
		m.last = Parts{KL: kl * inv, Dist: dist * inv}
		return (kl + m.Lambda*dist) * inv, nil
	}
	parallel.For(rows, 0, 1+(1<<12)/L, m.klFn)
	var kl float64
	for _, v := range klRow {
		kl += v
	}
	if !useDist {
		m.last = Parts{KL: kl * inv}
		return kl * inv, nil
	}
	if err := m.Dist.BatchGrad(vals, gp, p, targets); err != nil {
		return 0, err
	}
	var dist float64
	for _, v := range vals {
		dist += v
	}
	parallel.For(rows, 0, 1+(1<<12)/L, m.gradFn)
	m.last = Parts{KL: kl * inv, Dist: dist * inv}
	return (kl + m.Lambda*dist) * inv, nil
}

// klRows computes the softmax and KL of rows [r0, r1) of the current
// evaluation (m.c), and with KL alone its gradient.
func (m *Mixed) klRows(r0, r1 int) {
	c, L := &m.c, m.L
	logits, targets, p, grad, terms, inv, klRow := c.logits, c.targets, m.p, c.grad, c.terms, c.inv, m.klRow
	term := func(r int) float64 {
		if terms != nil {
			return terms[r]
		}
		return yLogY(targets[r*L : (r+1)*L])
	}
	if c.useDist {
		// KL(y‖p) = Σ y log y − Σ y log p, log p = z − lse, over the
		// y > 0 (0·log 0 = 0). The softmax goes two rows at a time
		// (fmath.Softmax2; an odd last row alone). The cross sums of four
		// rows run side by side, each in index order; the last one or
		// two rows go to cross1 or cross2, and a last group of three
		// repeats its last row.
		lse := m.lse
		r := r0
		for ; r+2 <= r1; r += 2 {
			lse[r], lse[r+1] = fmath.Softmax2(p[r*L:(r+1)*L], p[(r+1)*L:(r+2)*L], logits[r*L:(r+1)*L], logits[(r+1)*L:(r+2)*L])
		}
		if r < r1 {
			lse[r] = fmath.Softmax(p[r*L:(r+1)*L], logits[r*L:(r+1)*L])
		}
		row := func(r int) []float64 { return targets[r*L : (r+1)*L] }
		zrow := func(r int) []float64 { return logits[r*L : (r+1)*L] }
		for r := r0; r < r1; {
			switch n := r1 - r; n {
			case 1:
				klRow[r] = term(r) - cross1(row(r), zrow(r), lse[r])
			case 2:
				cr := cross2(row(r), row(r+1), zrow(r), zrow(r+1), lse[r], lse[r+1])
				klRow[r], klRow[r+1] = term(r)-cr[0], term(r+1)-cr[1]
			default:
				var q [4]int
				for k := range q {
					q[k] = min(r+k, r1-1)
				}
				cr := cross4(row(q[0]), row(q[1]), row(q[2]), row(q[3]), zrow(q[0]), zrow(q[1]), zrow(q[2]), zrow(q[3]),
					lse[q[0]], lse[q[1]], lse[q[2]], lse[q[3]])
				for k := 0; k < min(n, 4); k++ {
					klRow[r+k] = term(r+k) - cr[k]
				}
			}
			r += min(r1-r, 4)
		}
		return
	}
	for r := r0; r < r1; r++ {
		z, y, pr := logits[r*L:(r+1)*L], targets[r*L:(r+1)*L], p[r*L:(r+1)*L]
		lse := fmath.Softmax(pr, z)
		t := term(r)
		// KL alone: the gradient p − y in the same pass (each z[i] is
		// read before g[i], which may be the same element).
		var cross float64
		g := grad[r*L : (r+1)*L]
		for i, yi := range y {
			if yi > 0 {
				cross += yi * (z[i] - lse)
			}
			g[i] = inv * (pr[i] - yi)
		}
		klRow[r] = t - cross
	}
}

// cross4 returns, for four rows, Σ_i y_i·(z_i − lse) over the y_i > 0, each
// summed in index order: the four sums advance side by side.
func cross4(y0, y1, y2, y3, z0, z1, z2, z3 []float64, l0, l1, l2, l3 float64) [4]float64 {
	n := len(y0)
	y1, y2, y3 = y1[:n], y2[:n], y3[:n]
	z0, z1, z2, z3 = z0[:n], z1[:n], z2[:n], z3[:n]
	var c0, c1, c2, c3 float64
	for i := range n {
		if yi := y0[i]; yi > 0 {
			c0 += yi * (z0[i] - l0)
		}
		if yi := y1[i]; yi > 0 {
			c1 += yi * (z1[i] - l1)
		}
		if yi := y2[i]; yi > 0 {
			c2 += yi * (z2[i] - l2)
		}
		if yi := y3[i]; yi > 0 {
			c3 += yi * (z3[i] - l3)
		}
	}
	return [4]float64{c0, c1, c2, c3}
}

// cross2 is cross4 for two rows: two chains of additions take about the
// time of one, where cross4 with two rows repeated would take twice that.
func cross2(y0, y1, z0, z1 []float64, l0, l1 float64) [2]float64 {
	n := len(y0)
	y1, z0, z1 = y1[:n], z0[:n], z1[:n]
	var c0, c1 float64
	for i := range n {
		if yi := y0[i]; yi > 0 {
			c0 += yi * (z0[i] - l0)
		}
		if yi := y1[i]; yi > 0 {
			c1 += yi * (z1[i] - l1)
		}
	}
	return [2]float64{c0, c1}
}

// cross1 is cross4 for one row.
func cross1(y, z []float64, l float64) float64 {
	z = z[:len(y)]
	var c float64
	for i, yi := range y {
		if yi > 0 {
			c += yi * (z[i] - l)
		}
	}
	return c
}

// dot2 is dot4 for two rows.
func dot2(p0, p1, g0, g1 []float64) [2]float64 {
	n := len(p0)
	p1, g0, g1 = p1[:n], g0[:n], g1[:n]
	var d0, d1 float64
	for i := range n {
		d0 += p0[i] * g0[i]
		d1 += p1[i] * g1[i]
	}
	return [2]float64{d0, d1}
}

// dot1 is dot4 for one row.
func dot1(p, g []float64) float64 {
	g = g[:len(p)]
	var d float64
	for i, v := range p {
		d += v * g[i]
	}
	return d
}

// dot4 returns Σ_i p_i·g_i for four rows, each summed in index order: the
// four sums advance side by side.
func dot4(p0, p1, p2, p3, g0, g1, g2, g3 []float64) [4]float64 {
	n := len(p0)
	p1, p2, p3 = p1[:n], p2[:n], p3[:n]
	g0, g1, g2, g3 = g0[:n], g1[:n], g2[:n], g3[:n]
	var d0, d1, d2, d3 float64
	for i := range n {
		d0 += p0[i] * g0[i]
		d1 += p1[i] * g1[i]
		d2 += p2[i] * g2[i]
		d3 += p3[i] * g3[i]
	}
	return [4]float64{d0, d1, d2, d3}
}

// twPart computes rows [r0, r1) of the current evaluation with a TW term:
// softmax and KL, TW and its gradient with workspace part, and the
// gradient of the loss.
func (m *Mixed) twPart(part, r0, r1 int) {
	m.klRows(r0, r1)
	ws, L, c := m.twWS[part], m.L, &m.c
	for r := r0; r < r1; r++ {
		s := r * L
		m.vals[r] = ws.DistanceGrad(m.gp[s:s+L], m.p[s:s+L], c.targets[s:s+L])
	}
	m.gradRows(r0, r1)
}

// gradRows stores the gradient of KL + λ·distance of rows [r0, r1) of the
// current evaluation, given the distance's gradient in m.gp. The dot
// products of four rows run side by side (dot4; a group of three repeats
// its last row), the last one or two rows by dot1 or dot2.
func (m *Mixed) gradRows(r0, r1 int) {
	c, L := &m.c, m.L
	targets, p, grad, gp, inv, lam := c.targets, m.p, c.grad, m.gp, c.inv, c.lam
	prow := func(r int) []float64 { return p[r*L : (r+1)*L] }
	grow := func(r int) []float64 { return gp[r*L : (r+1)*L] }
	for r := r0; r < r1; {
		var dots [4]float64
		switch n := r1 - r; n {
		case 1:
			dots[0] = dot1(prow(r), grow(r))
		case 2:
			d := dot2(prow(r), prow(r+1), grow(r), grow(r+1))
			dots[0], dots[1] = d[0], d[1]
		default:
			var q [4]int
			for k := range q {
				q[k] = min(r+k, r1-1)
			}
			dots = dot4(prow(q[0]), prow(q[1]), prow(q[2]), prow(q[3]), grow(q[0]), grow(q[1]), grow(q[2]), grow(q[3]))
		}
		for k := 0; k < min(r1-r, 4); k++ {
			// g = inv·(p − y + λ·p·(gp − dot)), entry by entry.
			fmath.MixedGrad(grad[(r+k)*L:(r+k+1)*L], prow(r+k), targets[(r+k)*L:(r+k+1)*L], grow(r+k), inv, lam, dots[k])
		}
		r += min(r1-r, 4)
	}
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
// Name returns "sinkhorn(λ=Λ,iters=N)": the settings change the loss, so
// they are part of its name (a checkpoint is resumed only by the same loss).
func (d *Sinkhorn) Name() string {
	return fmt.Sprintf("sinkhorn(λ=%g,iters=%d)", d.Solver.Lambda(), d.Solver.Iters())
}
