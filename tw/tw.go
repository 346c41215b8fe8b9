package tw

import (
	"math"

	"github.com/twl-ldl/twl/internal/fmath"
	"github.com/twl-ldl/twl/tree"
)

// Workspace computes tree-Wasserstein distances, gradients and embeddings on
// one tree, reusing its scratch memory: after construction none of its
// methods allocate. A Workspace is not safe for concurrent use.
type Workspace struct {
	tree *tree.Tree
	ord  tree.Order
	d    []float64 // per position: subtree differences, then path sums
	p    []float64 // softmax probabilities, user order

	uniform bool    // every edge has weight unit
	unit    float64 // the common edge weight when uniform
	vec     bool    // the vector sweeps suit the tree (see blockFriendly)
	clean   bool    // d is all zero (left so by the last downward sweep)
}

// NewWorkspace returns a workspace for t. It panics if t is nil.
func NewWorkspace(t *tree.Tree) *Workspace {
	if t == nil {
		panic("tw: NewWorkspace with a nil tree")
	}
	ord := t.Order()
	w := &Workspace{
		tree: t,
		ord:  ord,
		d:    make([]float64, len(ord.Parent)),
		p:    make([]float64, t.Len()),
		vec:  ord.Identity && blockFriendly(ord.Parent),
	}
	if len(ord.Weight) > 1 {
		w.unit = ord.Weight[1]
		w.uniform = true
		for _, x := range ord.Weight[1:] {
			if x != w.unit {
				w.uniform = false
				break
			}
		}
	}
	return w
}

// Tree returns the tree the workspace was built for.
func (w *Workspace) Tree() *tree.Tree { return w.tree }

func (w *Workspace) check(name string, x []float64) {
	if len(x) != len(w.p) {
		panic("tw: len(" + name + ") != tree.Len()")
	}
}

// Distance returns TW(a, b), or NaN if a or b holds a NaN or an infinity.
func (w *Workspace) Distance(a, b []float64) float64 {
	w.check("a", a)
	w.check("b", b)
	return w.up(a, b)
}

// DistanceGrad returns TW(a, b) and stores its subgradient with respect to a
// in grad (see the package documentation for the choice at kinks). grad may
// be the same slice as a or b: both are read before grad is written. If a
// or b holds a NaN or an infinity, the distance and every element of grad
// are NaN.
func (w *Workspace) DistanceGrad(grad, a, b []float64) float64 {
	w.check("grad", grad)
	w.check("a", a)
	w.check("b", b)
	v := w.up(a, b)
	w.down(grad)
	if v != v {
		fillNaN(grad)
	}
	return v
}

// LogitGrad returns TW(softmax(z), b) and stores its gradient with respect to
// the logits z in grad. grad may be the same slice as z or b. A NaN or +Inf
// in z, or a NaN or an infinity in b, makes the distance and every element
// of grad NaN; a logit of −Inf is a probability of exactly zero (but all of
// them −Inf is NaN).
func (w *Workspace) LogitGrad(grad, z, b []float64) float64 {
	w.check("grad", grad)
	w.check("z", z)
	w.check("b", b)
	fmath.Softmax(w.p, z)
	v := w.up(w.p, b)
	w.down(grad)
	if v != v {
		fillNaN(grad)
		return v
	}
	chainSoftmax(grad, w.p)
	return v
}

// fillNaN sets every element of x to NaN: the gradient of a distance that is
// NaN because an input was not finite.
func fillNaN(x []float64) {
	nan := math.NaN()
	for i := range x {
		x[i] = nan
	}
}

// Prob returns the probabilities softmax(z) computed by the last call to
// LogitGrad. The slice is owned by the workspace and overwritten by the next
// call.
func (w *Workspace) Prob() []float64 { return w.p }

// Embed stores Φ(a) in dst: dst[i] = w_i · a(Γ(i)), the weight of the edge
// above user node i times the mass of the subtree rooted at i (zero for a
// real root, which has no edge above it). Then TW(a, b) = ‖Φ(a) − Φ(b)‖₁.
// If a holds a NaN or an infinity, every element of dst is NaN.
func (w *Workspace) Embed(dst, a []float64) {
	w.check("dst", dst)
	w.check("a", a)
	d, par, lab := w.d, w.ord.Parent, w.ord.Label
	w.gather(a)
	for k := len(d) - 1; k >= 1; k-- {
		d[par[k]] += d[k]
	}
	if !finite(d[0]) { // the total mass: some input is NaN or infinite
		fillNaN(dst)
		return
	}
	wt := w.ord.Weight[:len(d)]
	lab = lab[:len(d)]
	for k := range d {
		if l := lab[k]; l >= 0 {
			dst[l] = wt[k] * d[k]
		}
	}
}

// gather stores a in internal order in w.d.
func (w *Workspace) gather(a []float64) {
	d := w.d
	w.clean = false
	if w.ord.Identity {
		off := len(d) - len(a)
		d[0] = 0
		copy(d[off:], a)
		return
	}
	lab := w.ord.Label[:len(d)]
	for k, l := range lab {
		if l >= 0 {
			d[k] = a[l]
		} else {
			d[k] = 0
		}
	}
}

// up leaves in w.d the subtree differences a(Γ(k)) − b(Γ(k)) of every
// position k ≥ 1 and returns Σ_e w_e·|difference|, by one reverse sweep:
// each position, once its own subtree is complete, adds its difference into
// its parent's. Unit (uniform) weights skip the weight array, and user
// vectors already in internal order are read in place, folding the
// difference a − b into the sweep. The root's difference, the total
// Σa − Σb, is only checked: if it is not finite, some input was NaN or
// infinite, and up returns NaN. (In an identity layout w.d[0] is left
// without the root's own difference.)
func (w *Workspace) up(a, b []float64) float64 {
	d := w.d
	n := len(d)
	par := w.ord.Parent[:n]
	if w.ord.Identity {
		// Position k holds user node k−off.
		off := n - len(a)
		if !w.clean {
			clear(d)
		}
		w.clean = false
		s := w.upRange(a, b, off, 1, n, 0)
		// d[0] now holds the children's differences; a real root adds its
		// own (the sweep stops at position 1).
		total := d[0]
		if off == 0 {
			total += a[0] - b[0]
		}
		if !finite(total) {
			return math.NaN()
		}
		if w.uniform {
			return w.unit * s
		}
		return s
	}
	lab := w.ord.Label[:n]
	for k, l := range lab {
		if l >= 0 {
			d[k] = a[l] - b[l]
		} else {
			d[k] = 0
		}
	}
	var s float64
	if w.uniform {
		for k := n - 1; k >= 1; k-- {
			x := d[k]
			s += math.Abs(x)
			d[par[k]] += x
		}
		s *= w.unit
	} else {
		wt := w.ord.Weight[:n]
		for k := n - 1; k >= 1; k-- {
			x := d[k]
			s += wt[k] * math.Abs(x)
			d[par[k]] += x
		}
	}
	if !finite(d[0]) { // the total difference Σa − Σb
		return math.NaN()
	}
	return s
}

// finite reports whether x is neither NaN nor infinite. A single test on the
// total difference Σa − Σb catches a NaN or an infinity anywhere in a or b:
// it propagates into every sum it enters (+Inf and −Inf together give NaN).
func finite(x float64) bool { return x-x == 0 }

// down turns the subtree differences left in w.d by up into the gradient,
// the sum of w_e·sign(difference) along each root path, by one forward
// sweep, and stores it in grad in user order.
func (w *Workspace) down(grad []float64) {
	d := w.d
	n := len(d)
	par := w.ord.Parent[:n]
	wt := w.ord.Weight[:n]
	if w.ord.Identity {
		var p, g []float64
		if n == len(grad) {
			// No virtual root: grad itself holds the path sums.
			p = grad
		} else {
			// Virtual root at position 0; position k holds user node k−1.
			// The path sums replace the differences in d and are copied to
			// grad.
			p, g = d, grad
		}
		p[0] = 0
		w.downRange(p, g, 1, n)
		if g == nil {
			// The sweep zeroed d[1:] as it read it.
			d[0] = 0
			w.clean = true
		}
		return
	}
	d[0] = 0
	lab := w.ord.Label[:n]
	if l := lab[0]; l >= 0 {
		grad[l] = 0
	}
	for k := 1; k < n; k++ {
		g := d[par[k]] + signedWeight(wt[k], d[k])
		d[k] = g
		grad[lab[k]] = g
	}
}

// upRange runs the upward sweep over positions [lo, hi) of an identity
// layout, adding to s (see sweep.go).
func (w *Workspace) upRange(a, b []float64, off, lo, hi int, s float64) float64 {
	if w.uniform {
		return upUnit(w.d, a, b, w.ord.Parent, off, lo, hi, s, w.vec)
	}
	return upWeighted(w.d, a, b, w.ord.Weight, w.ord.Parent, off, lo, hi, s, w.vec)
}

// downRange runs the downward sweep over positions [lo, hi) of an identity
// layout.
func (w *Workspace) downRange(p, g []float64, lo, hi int) {
	if w.uniform {
		downUnit(p, w.d, g, w.ord.Parent, w.unit, lo, hi, w.vec)
		return
	}
	downWeighted(p, w.d, g, w.ord.Weight, w.ord.Parent, lo, hi, w.vec)
}

// chainSoftmax maps a gradient g with respect to p = softmax(z) to the
// gradient with respect to z, in place: g ← p ⊙ (g − ⟨p, g⟩).
func chainSoftmax(g, p []float64) {
	g = g[:len(p)]
	var dot float64
	for i, pi := range p {
		dot += pi * g[i]
	}
	for i, pi := range p {
		g[i] = pi * (g[i] - dot)
	}
}

// Distance returns TW(a, b) on t. It allocates a workspace per call; use a
// Workspace to compute many distances. It panics if t is nil.
func Distance(t *tree.Tree, a, b []float64) float64 {
	return NewWorkspace(t).Distance(a, b)
}
