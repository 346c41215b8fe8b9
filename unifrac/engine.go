package unifrac

import (
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/twl-ldl/twl/internal/parallel"
	"github.com/twl-ldl/twl/tree"
)

// Method selects a UniFrac variant (see the package documentation).
type Method int

const (
	WeightedUnnormalized Method = iota
	WeightedNormalized
	Unweighted
	Generalized
)

// String returns the method's name as Striped UniFrac spells it, without
// the precision suffix: "weighted_unnormalized", "weighted_normalized",
// "unweighted" or "generalized".
func (m Method) String() string {
	switch m {
	case WeightedUnnormalized:
		return "weighted_unnormalized"
	case WeightedNormalized:
		return "weighted_normalized"
	case Unweighted:
		return "unweighted"
	case Generalized:
		return "generalized"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// Options tunes an Engine. The zero value (or nil) is ready to use.
type Options struct {
	// Alpha is the exponent of the generalized method, usually in [0, 1];
	// other methods ignore it. It must be finite.
	Alpha float64
	// Workers bounds the goroutines that prepare and compute; ≤ 0 means
	// runtime.GOMAXPROCS(0). Results do not depend on it.
	Workers int
	// Progress, when not nil, is called after each tile of the output
	// with the number of tiles done and their total. Calls are serialized
	// and done increases, but they come from the worker goroutines.
	Progress func(done, total int)
}

// Tiling constants. blockSize samples make a block (a tile is blockSize ×
// blockSize pairs; local sample numbers fit a byte); dense columns are
// reduced in chunks of chunkLen, each summed in four lanes.
const (
	blockSize = 256
	chunkLen  = 128
)

// defaultDense is the fraction of the samples that must reach a branch for
// it to be dense.
const defaultDense = 0.4

// Engine holds a table's per-sample branch masses on a tree, ready to
// compute distances between its samples. It is immutable once built and
// safe for concurrent use.
type Engine struct {
	n       int
	method  Method
	alpha   float64
	workers int
	prog    func(done, total int)
	ids     []string

	// total[s] is S_s = Σ_e v_s(e) over the branches sample s reaches
	// (for Generalized, Σ_e w_e a_e^α).
	total []float64

	// Dense branches: x[s*dp+c] is the value of sample s on dense column c
	// (zero when it does not reach it); dp is the number of columns rounded
	// up to a multiple of chunkLen.
	dense, dp int
	x         []float64

	// Sparse branches, indexed by block of blockSize samples.
	blocks []block
	// wsp[b] is the length of sparse branch b (Unweighted and Generalized).
	wsp []float64

	// spaces keeps the tiles' workspaces between calls.
	spaces sync.Pool
}

// block is the inverted index of the sparse branches of samples
// [lo, lo+blockSize): branch br[k] is reached by the samples lo+loc[j]
// (in increasing order) with values val[j], for j in [ptr[k], ptr[k+1]).
// For Generalized, val holds a_e and pw holds w_e·a_e^α; for Unweighted,
// val is nil: every value of branch b is its length wsp[b].
type block struct {
	br  []int32
	ptr []int32
	loc []uint8
	val []float64
	pw  []float64
}

// New prepares the samples of tab on t for method m. It does not keep tab.
// It panics if t or tab is nil and returns an error for a table whose
// content does not fit the tree (see the package documentation).
func New(t *tree.Tree, tab *Table, m Method, opts *Options) (*Engine, error) {
	return newEngine(t, tab, m, opts, defaultDense)
}

// newEngine is New with the dense fraction: branches reached by at least
// denseFrac·N samples are dense (0 makes every reached branch dense, a
// value above 1 none).
func newEngine(t *tree.Tree, tab *Table, m Method, opts *Options, denseFrac float64) (*Engine, error) {
	if t == nil || tab == nil {
		panic("unifrac: New with a nil tree or table")
	}
	if m < WeightedUnnormalized || m > Generalized {
		return nil, fmt.Errorf("unifrac: unknown method %d", int(m))
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	if m == Generalized && (math.IsNaN(o.Alpha) || math.IsInf(o.Alpha, 0)) {
		return nil, fmt.Errorf("unifrac: generalized alpha %g is not finite", o.Alpha)
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if err := tab.check(t.Len()); err != nil {
		return nil, err
	}
	e := &Engine{n: tab.Len(), method: m, alpha: o.Alpha, workers: o.Workers, prog: o.Progress}
	if tab.IDs != nil {
		e.ids = append([]string(nil), tab.IDs...)
	}
	e.prepare(t.Order(), tab, denseFrac)
	return e, nil
}

// Len returns the number of samples.
func (e *Engine) Len() int { return e.n }

// Method returns the engine's method.
func (e *Engine) Method() Method { return e.method }

// IDs returns a copy of the sample ids, or nil if the table had none.
func (e *Engine) IDs() []string { return append([]string(nil), e.ids...) }

// walker finds the branches one sample reaches and their masses.
type walker struct {
	stamp []int32   // stamp[k] == tag when position k was reached in the current call
	mass  []float64 // mass[k] = a(Γ(k)) for the current sample
	path  []int32   // positions reached, as upward segments
	seg   []int32   // start of each segment in path
	list  []int32   // positions reached with a positive length
	ent   []entry   // a block's sparse entries
	pws   []float64 // their w_e·a_e^α (Generalized)
	cnt   []int32   // counting sort of the entries
}

func newWalker(L int) *walker {
	return &walker{stamp: make([]int32, L), mass: make([]float64, L)}
}

// mark stamps the positions on the root paths of sample s's nodes with a
// positive count, recording them in w.path as segments: each node's path up
// to the first position already stamped. It returns the sample's total
// count. Tags must differ between calls on one walker.
func (w *walker) mark(o *tree.Order, tab *Table, s int, tag int32) float64 {
	lo, hi := tab.Indptr[s], tab.Indptr[s+1]
	w.path, w.seg = w.path[:0], w.seg[:0]
	var sum float64
	for k := lo; k < hi; k++ {
		c := tab.Values[k]
		sum += c
		if c == 0 {
			continue
		}
		v := o.Position[tab.Indices[k]]
		if v == 0 || w.stamp[v] == tag {
			continue
		}
		w.seg = append(w.seg, int32(len(w.path)))
		for ; v > 0 && w.stamp[v] != tag; v = o.Parent[v] {
			w.stamp[v] = tag
			w.mass[v] = 0
			w.path = append(w.path, v)
		}
	}
	return sum
}

// walk fills w.list and w.mass for sample s: the positions k ≥ 1 with a
// positive length on the root paths of the sample's nodes, each with the
// proportion of the sample below it. It marks the paths, puts each node's
// own proportion on it, and pushes the masses up: segments in reverse
// order, each from the bottom, so that every position comes after all its
// reached descendants (a later segment ends at or below a position of an
// earlier one, never above it).
func (w *walker) walk(o *tree.Order, tab *Table, s int, tag int32) {
	sum := w.mark(o, tab, s, tag)
	for k := tab.Indptr[s]; k < tab.Indptr[s+1]; k++ {
		if c := tab.Values[k]; c != 0 {
			w.mass[o.Position[tab.Indices[k]]] += c / sum
		}
	}
	w.list = w.list[:0]
	end := len(w.path)
	for g := len(w.seg) - 1; g >= 0; g-- {
		start := int(w.seg[g])
		for _, v := range w.path[start:end] {
			if p := o.Parent[v]; p > 0 {
				w.mass[p] += w.mass[v]
			}
			if o.Weight[v] > 0 {
				w.list = append(w.list, v)
			}
		}
		end = start
	}
}

// prepare computes the per-sample sums, the dense matrix and the sparse
// blocks.
func (e *Engine) prepare(o tree.Order, tab *Table, denseFrac float64) {
	L := len(o.Parent)
	n := e.n
	// Count the samples reaching each branch.
	parts := parallel.Parts(n, e.workers, 64)
	counts := make([][]int32, parts)
	var walkers sync.Pool
	walkers.New = func() any { return newWalker(L) }
	parallel.ForParts(n, e.workers, 64, func(part, lo, hi int) {
		w := walkers.Get().(*walker)
		c := make([]int32, L)
		for s := lo; s < hi; s++ {
			w.mark(&o, tab, s, int32(s+1))
			for _, v := range w.path {
				c[v]++
			}
		}
		counts[part] = c
		walkers.Put(w)
	})
	reach := counts[0]
	for _, c := range counts[1:] {
		for k, x := range c {
			reach[k] += x
		}
	}
	// Classify: column[k] ≥ 0 is a dense column, sparse[k] ≥ 0 a sparse id.
	column := make([]int32, L)
	sparse := make([]int32, L)
	limit := denseFrac * float64(n)
	if e.method == Generalized {
		limit = math.Inf(1)
	}
	var nd, ns int32
	for k := range L {
		column[k], sparse[k] = -1, -1
		switch {
		case reach[k] == 0:
		case float64(reach[k]) >= limit:
			column[k] = nd
			nd++
		default:
			sparse[k] = ns
			if e.method == Generalized || e.method == Unweighted {
				e.wsp = append(e.wsp, o.Weight[k])
			}
			ns++
		}
	}
	e.dense = int(nd)
	e.dp = (e.dense + chunkLen - 1) / chunkLen * chunkLen
	if e.dp > 0 {
		e.x = make([]float64, n*e.dp)
	}
	e.total = make([]float64, n)
	nb := (n + blockSize - 1) / blockSize
	e.blocks = make([]block, nb)
	parallel.Each(nb, e.workers, func(b int) {
		w := walkers.Get().(*walker)
		defer walkers.Put(w)
		lo, hi := b*blockSize, min((b+1)*blockSize, n)
		ent, pws := w.ent[:0], w.pws[:0]
		for s := lo; s < hi; s++ {
			w.walk(&o, tab, s, int32(n+s+1))
			var row []float64
			if e.dp > 0 {
				row = e.x[s*e.dp : (s+1)*e.dp]
			}
			var tot float64
			for _, v := range w.list {
				a, wt := w.mass[v], o.Weight[v]
				var x, pw float64
				switch e.method {
				case Unweighted:
					x = wt
				case Generalized:
					x = a
					pw = wt * math.Pow(a, e.alpha)
				default:
					x = wt * a
				}
				if e.method == Generalized {
					tot += pw
				} else {
					tot += x
				}
				if c := column[v]; c >= 0 {
					row[c] = x
				} else {
					ent = append(ent, entry{br: sparse[v], loc: uint8(s - lo), val: x})
					if e.method == Generalized {
						pws = append(pws, pw)
					}
				}
			}
			e.total[s] = tot
		}
		e.blocks[b] = makeBlock(ent, pws, e.method != Unweighted, &w.cnt)
		w.ent, w.pws = ent, pws
	})
}

type entry struct {
	br  int32
	loc uint8
	val float64
}

// makeBlock sorts the entries by branch, keeping the order of the samples
// within a branch, and packs them into a block; pws, when not empty, holds
// the entries' generalized terms.
func makeBlock(ent []entry, pws []float64, withVal bool, scratch *[]int32) block {
	withPow := len(pws) > 0
	var b block
	if len(ent) == 0 {
		b.ptr = []int32{0}
		return b
	}
	// Distinct branches in increasing order, by a counting pass over a
	// compacted key range.
	maxBr := int32(0)
	for _, x := range ent {
		maxBr = max(maxBr, x.br)
	}
	if cap(*scratch) < int(maxBr)+2 {
		*scratch = make([]int32, maxBr+2)
	}
	cnt := (*scratch)[:maxBr+2]
	clear(cnt)
	for _, x := range ent {
		cnt[x.br+1]++
	}
	for i := int32(0); i <= maxBr; i++ {
		if cnt[i+1] > 0 {
			b.br = append(b.br, i)
		}
	}
	for i := int32(1); i < int32(len(cnt)); i++ {
		cnt[i] += cnt[i-1]
	}
	b.loc = make([]uint8, len(ent))
	if withVal {
		b.val = make([]float64, len(ent))
	}
	if withPow {
		b.pw = make([]float64, len(ent))
	}
	b.ptr = make([]int32, 0, len(b.br)+1)
	for _, br := range b.br {
		b.ptr = append(b.ptr, cnt[br])
	}
	b.ptr = append(b.ptr, int32(len(ent)))
	for i, x := range ent {
		j := cnt[x.br]
		cnt[x.br]++
		b.loc[j] = x.loc
		if withVal {
			b.val[j] = x.val
		}
		if withPow {
			b.pw[j] = pws[i]
		}
	}
	return b
}
