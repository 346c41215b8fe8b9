package unifrac

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
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
	// Alpha is the exponent of the generalized method, in [0, 1] as Chen
	// et al. (2012) define it; New refuses other values. Other methods
	// ignore it.
	Alpha float64
	// Workers bounds the goroutines that prepare and compute; ≤ 0 means
	// runtime.GOMAXPROCS(0). Results do not depend on it.
	Workers int
	// Raw uses each sample's counts as its masses, as they are, instead of
	// dividing them by the sample's total: the branch mass a_e is then the
	// sum of the counts below the branch, and a sample may have no
	// positive count (its masses are all zero). With Raw, the weighted
	// unnormalized distance is the tree-Wasserstein distance of package tw
	// between the two count vectors, whatever their totals.
	Raw bool
	// MaxBytes, when positive, bounds the memory NewColumns prepares (see
	// Columns.Bytes): a larger need is refused with a *MemoryError before
	// the memory is allocated. New ignores it.
	MaxBytes int64
	// Progress, when not nil, is called after each tile of the output
	// with the number of tiles done and their total. Calls are serialized
	// and done increases, but they come from the worker goroutines.
	Progress func(done, total int)
}

// Tiling constants. blockSize samples make a block (a tile is blockSize ×
// blockSize pairs; local sample numbers fit a byte); dense columns are
// reduced in chunks of chunkLen (the last one shorter: a multiple of 4), each
// summed in four lanes.
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
	method  Method
	alpha   float64
	workers int
	prog    func(done, total int)
	ids     []string
	// perm[k] is the table index of the engine's sample k (samples are
	// grouped by where in the tree they lie); nil for the table's order.
	perm []int32

	layout
	side

	// spaces keeps the tiles' workspaces between calls.
	spaces sync.Pool
}

// layout is the split of the branches that a set of samples reaches into
// dense columns and sparse ids.
type layout struct {
	// code[k] for tree position k: c ≥ 0 is dense column c, c ≤ −2 is
	// sparse branch −2−c, −1 is a branch no sample reaches (or the root).
	code []int32
	// dense is the number of dense columns; dp is dense rounded up to a
	// multiple of 4.
	dense, dp int
	// wsp[b] is the length of sparse branch b (Unweighted and Generalized).
	wsp []float64
	// perSample is the mean number of sparse branches a sample reaches.
	perSample float64
}

// side is a set of samples prepared on a layout.
type side struct {
	n int
	// total[s] is S_s = Σ_e v_s(e) over the branches sample s reaches
	// (for Generalized, Σ_e w_e a_e^α).
	total []float64
	// x[s*dp+c] is the value of sample s on dense column c (zero when it
	// does not reach it).
	x []float64
	// blocks index the sparse branches, by block of blockSize samples.
	blocks []block
}

// block is the inverted index of the sparse branches of samples
// [lo, lo+blockSize): branch br[k] is reached by the samples lo+loc[j]
// (in increasing order) with values val[j], for j in [ptr[k], ptr[k+1]).
// For Generalized, val holds a_e and pw holds w_e·a_e^α; for Unweighted,
// val is nil (every value of branch b is its length wsp[b]) and the index
// is by group of branches (see makeGroupBlock): br[k] is a group and bits[j]
// the branches of it that sample lo+loc[j] reaches.
type block struct {
	br   []int32
	ptr  []int32
	loc  []uint8
	bits []groupMask
	val  []float64
	pw   []float64
}

// New prepares the samples of tab on t for method m. It does not keep tab.
// It panics if t or tab is nil and returns an error for a table whose
// content does not fit the tree (see the package documentation).
func New(t *tree.Tree, tab *Table, m Method, opts *Options) (*Engine, error) {
	return newEngine(t, tab, m, opts, defaultDense, true)
}

// checkArgs validates the arguments common to New and NewColumns and
// returns the options with their defaults filled in.
func checkArgs(t *tree.Tree, tab *Table, m Method, opts *Options) (Options, error) {
	if t == nil || tab == nil {
		panic("unifrac: nil tree or table")
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	if m < WeightedUnnormalized || m > Generalized {
		return o, fmt.Errorf("unifrac: unknown method %d", int(m))
	}
	if m == Generalized && !(o.Alpha >= 0 && o.Alpha <= 1) { // also NaN
		return o, fmt.Errorf("unifrac: generalized alpha %g is outside [0, 1]", o.Alpha)
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if err := tab.check(t.Len(), o.Raw); err != nil {
		return o, err
	}
	return o, checkUnderflow(t, tab, m, o.Raw)
}

// ErrUnderflow is wrapped by the error of New and NewColumns, for the
// weighted normalized and generalized methods, for branch lengths and
// masses so small that their products would fall below 2.2e-308, the
// smallest normal float64, where a number holds fewer than 53 bits: these
// distances are ratios of such sums, and would be silently wrong (all
// branch lengths 5e-324 would give weighted normalized 1 for a true 2/3 on
// the tree of TestTinyBranchLengths).
var ErrUnderflow = errors.New("branch lengths times masses underflow float64")

// checkUnderflow returns an error wrapping ErrUnderflow when the shortest
// positive branch of t times the smallest positive mass of a sample of tab
// (its least count over its total, or with raw the count) is below
// 2⁻¹⁰²²: below that, a product of a length and a mass that weighted
// normalized and generalized UniFrac sum could lose bits, and their ratio
// (unchanged when every length is multiplied by the same power of two)
// would be wrong. Unweighted sums lengths alone. Weighted unnormalized,
// the tree-Wasserstein distance with Raw, is not a ratio: an underflowing
// product is off by less than 2⁻¹⁰⁷⁴, and only a distance that small
// itself, beyond float64's full precision, is affected.
func checkUnderflow(t *tree.Tree, tab *Table, m Method, raw bool) error {
	if m != WeightedNormalized && m != Generalized {
		return nil
	}
	short := math.Inf(1)
	for _, w := range t.Order().Weight[1:] { // position 0 is the root
		if w > 0 {
			short = min(short, w)
		}
	}
	if math.IsInf(short, 1) {
		return nil
	}
	for s := range tab.Len() {
		sum, least := 0.0, math.Inf(1)
		for _, v := range tab.Values[tab.Indptr[s]:tab.Indptr[s+1]] {
			if v > 0 {
				sum += v
				least = min(least, v)
			}
		}
		if sum == 0 {
			continue
		}
		mass := least
		if !raw {
			mass = least / sum
		}
		if short*mass < 0x1p-1022 {
			return fmt.Errorf("unifrac: %w: the shortest branch, %g long, times the smallest mass of sample %s, %g, is below 2.2e-308, the smallest normal float64 (scale the branch lengths up)",
				ErrUnderflow, short, tab.name(s), mass)
		}
	}
	return nil
}

// newEngine is New with the dense fraction: branches reached by at least
// denseFrac·N samples are dense (0 makes every reached branch dense, a
// value above 1 none); group orders the samples by clade (cladeOrder).
func newEngine(t *tree.Tree, tab *Table, m Method, opts *Options, denseFrac float64, group bool) (*Engine, error) {
	o, err := checkArgs(t, tab, m, opts)
	if err != nil {
		return nil, err
	}
	e := &Engine{method: m, alpha: o.Alpha, workers: o.Workers, prog: o.Progress}
	if tab.IDs != nil {
		e.ids = append([]string(nil), tab.IDs...)
	}
	ord := t.Order()
	p := &prep{o: &ord, m: m, alpha: o.Alpha, raw: o.Raw, workers: o.Workers}
	if group && tab.Len() > blockSize {
		e.perm = cladeOrder(&ord, tab, o.Workers, m == Unweighted)
		p.perm = e.perm
	}
	e.layout = p.classify(p.reach(tab), tab.Len(), denseFrac)
	e.side = p.fill(tab, &e.layout)
	e.code = nil
	return e, nil
}

// cladeOrder returns the samples of tab ordered by the count-weighted mean
// preorder number of their nodes (ties by index), so that samples of the
// same part of the tree share blocks: a tile of two blocks from distant
// clades then meets few shared branches, and one within a clade meets
// branches that many of its samples reach. Within a block, the samples
// reaching a branch then lie close together, and their entries share
// windows (minWin); with byIndex (for Unweighted, whose groups do not use
// windows), the samples of a block are put back in the table's order
// instead, which BenchmarkCladeCondensed measured about 5% faster for its
// groups. A pair's sums are symmetric in its two samples and added in an
// order that does not depend on the blocks, so the order changes no bit of
// a result. The keys are computed on workers goroutines.
func cladeOrder(o *tree.Order, tab *Table, workers int, byIndex bool) []int32 {
	n := tab.Len()
	key := make([]float64, n)
	perm := make([]int32, n)
	parallel.For(n, workers, 64, func(lo, hi int) {
		for s := lo; s < hi; s++ {
			var num, den float64
			for k := tab.Indptr[s]; k < tab.Indptr[s+1]; k++ {
				c := math.Abs(tab.Values[k])
				num += c * float64(o.Pre[o.Position[tab.Indices[k]]])
				den += c
			}
			if den > 0 {
				key[s] = num / den
			}
			perm[s] = int32(s)
		}
	})
	slices.SortFunc(perm, func(a, b int32) int {
		if c := cmp.Compare(key[a], key[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	for lo := 0; byIndex && lo < n; lo += blockSize {
		slices.Sort(perm[lo:min(lo+blockSize, n)])
	}
	return perm
}

// Len returns the number of samples.
func (e *Engine) Len() int { return e.n }

// Method returns the engine's method.
func (e *Engine) Method() Method { return e.method }

// IDs returns a copy of the sample ids, or nil if the table had none.
func (e *Engine) IDs() []string { return append([]string(nil), e.ids...) }

// walker finds the branches one sample reaches (mark), and holds the
// scratch space of the preparation of a block of samples.
type walker struct {
	up   []link   // each position's parent and stamp, side by side
	tag  int32    // the current call's tag
	path []int32  // positions reached, as upward segments
	seg  []int32  // start of each segment in path
	word []uint64 // newBlock's bits of 64 samples on each position
	next []int32  // newBlock's count, then next entry, on each position
	ent  entries  // an Unweighted block's entries, sample by sample
	cnt  []int32  // makeGroupBlock's scratch

	// sweep's scratch: the block's counts by position, the lists of
	// samples and masses of the positions, and where each starts.
	ownAt, listAt []int32
	ownLoc        []uint8
	ownVal        []float64
	loc           [2][]uint8
	mass          [2][]float64
	reach         []int32 // the block's samples reaching each position
}

// link is a position's parent and its stamp (stamp == tag when the
// position was reached in the current call). Keeping them together makes
// a step up a path one memory access.
type link struct{ parent, stamp int32 }

// mark stamps the positions on the root paths of sample s's nodes with a
// positive count, recording them in w.path as segments: each node's path up
// to the first position already stamped.
func (w *walker) mark(o *tree.Order, tab *Table, s int) {
	if w.up == nil { // the first call: the parents
		w.up = make([]link, len(o.Parent))
		for k, p := range o.Parent {
			w.up[k].parent = p
		}
	}
	if w.tag == math.MaxInt32 {
		for k := range w.up {
			w.up[k].stamp = 0
		}
		w.tag = 0
	}
	w.tag++
	tag := w.tag
	up := w.up
	lo, hi := tab.Indptr[s], tab.Indptr[s+1]
	w.path, w.seg = w.path[:0], w.seg[:0]
	for k := lo; k < hi; k++ {
		if tab.Values[k] == 0 {
			continue
		}
		v := o.Position[tab.Indices[k]]
		if v == 0 || up[v].stamp == tag {
			continue
		}
		w.seg = append(w.seg, int32(len(w.path)))
		for v > 0 {
			l := &up[v]
			if l.stamp == tag {
				break
			}
			l.stamp = tag
			w.path = append(w.path, v)
			v = l.parent
		}
	}
}

// prep holds what preparing samples needs: the tree's order, the method
// and the walkers, kept (unlike a sync.Pool's, which a collection empties)
// so that their buffers grow once.
type prep struct {
	o *tree.Order
	// perm, when not nil, orders the samples that fill prepares: its
	// sample k is the table's sample perm[k].
	perm    []int32
	m       Method
	alpha   float64
	raw     bool
	workers int

	// kids[k] is the first child of position k, and depth[k] its depth,
	// with depth[L] = −1 (see children).
	kids, depth []int32

	mu   sync.Mutex
	free []*walker
}

// get returns a free walker, or a new one.
func (p *prep) get() *walker {
	p.mu.Lock()
	defer p.mu.Unlock()
	if k := len(p.free); k > 0 {
		w := p.free[k-1]
		p.free = p.free[:k-1]
		return w
	}
	return &walker{}
}

// put gives back a walker that get returned.
func (p *prep) put(w *walker) {
	p.mu.Lock()
	p.free = append(p.free, w)
	p.mu.Unlock()
}

// reach returns the number of samples of tab reaching each position k ≥ 1
// (those with a nonzero count at a node of k's subtree, the root aside);
// reach[0] is 0. It takes the cheaper of two ways: reachBits when the
// samples are many for the tree's size, else reachPaths.
func (p *prep) reach(tab *Table) []int32 {
	L, n := len(p.o.Parent), tab.Len()
	// reachBits sweeps the tree once per 64 samples; reachPaths takes a
	// step per branch each sample reaches, at least one per nonzero count,
	// and a step (a load that waits for the one before) costs about four
	// of the sweep's.
	if int64((n+63)/64)*int64(L) <= 4*int64(len(tab.Values)) {
		return p.reachBits(tab)
	}
	return p.reachPaths(tab)
}

// reachBits counts the samples reaching each position 64 samples at a
// time, each a bit of a word per position: the bit is set at the nodes
// where the sample has a nonzero count, the words are or-ed into their
// parents' from the last position to the first (a child comes after its
// parent), and each position adds the bits of its word once its children's
// are in.
func (p *prep) reachBits(tab *Table) []int32 {
	L, n := len(p.o.Parent), tab.Len()
	groups := (n + 63) / 64
	parts := parallel.Parts(groups, p.workers, 1)
	counts := make([][]int32, parts)
	parent, pos := p.o.Parent, p.o.Position
	parallel.ForParts(groups, p.workers, 1, func(part, lo, hi int) {
		c := make([]int32, L)
		word := make([]uint64, L)
		for g := lo; g < hi; g++ {
			for s := g * 64; s < min(g*64+64, n); s++ {
				bit := uint64(1) << (s & 63)
				for k := tab.Indptr[s]; k < tab.Indptr[s+1]; k++ {
					if tab.Values[k] != 0 {
						word[pos[tab.Indices[k]]] |= bit
					}
				}
			}
			for k := L - 1; k > 0; k-- {
				if w := word[k]; w != 0 {
					word[k] = 0
					word[parent[k]] |= w
					c[k] += int32(bits.OnesCount64(w))
				}
			}
			word[0] = 0
		}
		counts[part] = c
	})
	return sumCounts(counts)
}

// reachPaths counts the samples reaching each position by walking each
// sample's root paths.
func (p *prep) reachPaths(tab *Table) []int32 {
	L := len(p.o.Parent)
	n := tab.Len()
	parts := parallel.Parts(n, p.workers, 64)
	counts := make([][]int32, parts)
	parallel.ForParts(n, p.workers, 64, func(part, lo, hi int) {
		w := p.get()
		c := make([]int32, L)
		for s := lo; s < hi; s++ {
			w.mark(p.o, tab, s)
			for _, v := range w.path {
				c[v]++
			}
		}
		counts[part] = c
		p.put(w)
	})
	return sumCounts(counts)
}

// sumCounts adds the parts' counts into the first one and returns it.
func sumCounts(counts [][]int32) []int32 {
	reach := counts[0]
	for _, c := range counts[1:] {
		for k, x := range c {
			reach[k] += x
		}
	}
	return reach
}

// classify splits the reached branches of n samples: those reached by at
// least denseFrac·n samples are dense (none for Generalized), the others
// sparse. It reuses reach for the layout's codes.
func (p *prep) classify(reach []int32, n int, denseFrac float64) layout {
	var lay layout
	limit := denseFrac * float64(n)
	if p.m == Generalized {
		limit = math.Inf(1)
	}
	var nd, ns int32
	// Unweighted numbers its branches in preorder, so that a group of
	// consecutive sparse branches (see makeGroupBlock) holds pieces of root
	// paths, which a sample reaches together; the other methods in the
	// order of positions.
	var order []int32
	if p.m == Unweighted {
		order = make([]int32, len(reach))
		for k, q := range p.o.Pre {
			order[q] = int32(k)
		}
	}
	for i := range reach {
		k := i
		if order != nil {
			k = int(order[i])
		}
		r := reach[k]
		switch {
		case r == 0:
			reach[k] = -1
		case float64(r) >= limit:
			reach[k] = nd
			nd++
		default:
			lay.perSample += float64(r)
			reach[k] = -2 - ns
			if p.m == Generalized || p.m == Unweighted {
				lay.wsp = append(lay.wsp, p.o.Weight[k])
			}
			ns++
		}
	}
	lay.code = reach
	lay.perSample /= float64(max(n, 1))
	lay.dense = int(nd)
	lay.dp = (lay.dense + 3) &^ 3
	return lay
}

// fill prepares the samples of tab on lay: their dense rows, sparse blocks
// and totals. Branches outside lay (reached by none of the samples lay was
// made from) count in the totals only. A sample's total is summed in the
// order in which a pair's shared sum adds its terms (dense chunks, then
// sparse branches in increasing order, then the branches outside lay), so
// that two samples with equal values have a total equal to their shared
// sum (twice it for Generalized's terms, exactly) and a distance of
// exactly zero, as the definition gives.
func (p *prep) fill(tab *Table, lay *layout) side {
	n := tab.Len()
	s := side{n: n, total: make([]float64, n)}
	if lay.dp > 0 {
		s.x = make([]float64, n*lay.dp)
	}
	nb := (n + blockSize - 1) / blockSize
	s.blocks = make([]block, nb)
	dp := lay.dp
	p.children()
	parallel.Each(nb, p.workers, func(b int) {
		w := p.get()
		defer p.put(w)
		lo, hi := b*blockSize, min((b+1)*blockSize, n)
		// The masses are summed by a sweep of the block's positions (see
		// sweep); Unweighted, whose values are the branches' lengths,
		// takes each sample's root paths instead and packs its entries by
		// group (makeGroupBlock).
		var bk block
		if p.m == Unweighted {
			p.paths(w, tab, lay, &s, lo, hi)
			bk = makeGroupBlock(&w.ent, &w.cnt)
		} else {
			var next []int32
			bk, next = p.newBlock(w, tab, lay, lo, hi)
			p.sweep(w, tab, lay, &s, &bk, next, lo, hi)
		}
		s.blocks[b] = bk
		var t [blockSize]float64
		for smp := lo; smp < hi; smp++ {
			row := s.x[smp*dp : (smp+1)*dp]
			for c := 0; c < dp; c += chunkLen {
				cl := min(chunkLen, dp-c)
				t[smp-lo] += minSum(row[c:c+cl], row[c:c+cl])
			}
		}
		if bk.val == nil {
			groupTotals(&t, &bk, lay.wsp)
		}
		for k := range bk.br {
			for j := bk.ptr[k]; j < bk.ptr[k+1]; j++ {
				switch {
				case bk.pw != nil:
					t[bk.loc[j]] += bk.pw[j]
				case bk.val != nil:
					t[bk.loc[j]] += bk.val[j]
				}
			}
		}
		for smp := lo; smp < hi; smp++ {
			s.total[smp] = t[smp-lo] + s.total[smp]
		}
	})
	return s
}

// paths puts into w.ent the Unweighted entries of fill's samples lo..hi−1
// (in fill's order), sample by sample, each in the order of its root paths,
// and their dense values into s.x; s.total gets the lengths of the branches
// outside lay that each reaches.
func (p *prep) paths(w *walker, tab *Table, lay *layout, s *side, lo, hi int) {
	w.ent.reserve(int(lay.perSample*1.25*float64(hi-lo))+64, false, false)
	weight, code, dp := p.o.Weight, lay.code, lay.dp
	for smp := lo; smp < hi; smp++ {
		ts := smp // the sample's row in tab
		if p.perm != nil {
			ts = int(p.perm[smp])
		}
		w.mark(p.o, tab, ts)
		var row []float64
		if dp > 0 {
			row = s.x[smp*dp : (smp+1)*dp]
		}
		var out float64
		end := len(w.path)
		for g := len(w.seg) - 1; g >= 0; g-- {
			start := int(w.seg[g])
			for _, v := range w.path[start:end] {
				wt := weight[v]
				if !(wt > 0) {
					continue
				}
				switch c := code[v]; {
				case c >= 0:
					row[c] = wt
				case c <= -2:
					w.ent.add(-2-c, uint8(smp-lo), 0, 0)
				default:
					out += wt
				}
			}
			end = start
		}
		s.total[smp] = out
	}
}

// children sets p.kids, where the children of position k are the
// positions [kids[k], kids[k+1]) (positions are breadth-first: a node's
// children are contiguous, in the order of their parents), and p.depth,
// each position's depth (non-decreasing, as breadth-first), and −1 at L.
func (p *prep) children() {
	if p.kids != nil {
		return
	}
	L := len(p.o.Parent)
	kids := make([]int32, L+1)
	depth := make([]int32, L+1)
	for k, pa := range p.o.Parent[1:] {
		kids[pa+1]++
		depth[k+1] = depth[pa] + 1
	}
	kids[0] = 1
	for k := range L {
		kids[k+1] += kids[k]
	}
	depth[L] = -1
	p.kids, p.depth = kids, depth
}

// sweep computes the masses of fill's samples lo..hi−1 (in fill's order)
// on the positions they reach and writes their values: into bk (made by
// newBlock, its entries placed at next), into the dense rows s.x, and into
// s.total for the branches outside lay. The positions are taken children
// first (from the last to the first); each gets the list of the block's
// samples reaching it and their masses, in increasing sample order: its own
// counts (a sample's proportions, or with raw its counts) and then its
// children's lists from the last child to the first, added into one sum
// per sample. A mass is so
// summed in an order that depends only on the tree, never on the sample,
// and samples with equal proportions get equal masses, bit for bit.
func (p *prep) sweep(w *walker, tab *Table, lay *layout, s *side, bk *block, next []int32, lo, hi int) {
	o := p.o
	L := len(o.Parent)
	weight, code, dp, kids := o.Weight, lay.code, lay.dp, p.kids
	gen := p.m == Generalized
	// The samples' counts by position, a counting sort of the nonzero
	// counts of the block's rows: position v's are own[ownAt[v]:ownAt[v+1]].
	if len(w.ownAt) < L+1 {
		w.ownAt = make([]int32, L+1)
		w.listAt = make([]int32, L+1)
	}
	ownAt, listAt := w.ownAt[:L+1], w.listAt[:L+1]
	clear(ownAt)
	for smp := lo; smp < hi; smp++ {
		ts := smp
		if p.perm != nil {
			ts = int(p.perm[smp])
		}
		for k := tab.Indptr[ts]; k < tab.Indptr[ts+1]; k++ {
			if tab.Values[k] != 0 {
				ownAt[o.Position[tab.Indices[k]]+1]++
			}
		}
	}
	for v := range L {
		ownAt[v+1] += ownAt[v]
	}
	nown := int(ownAt[L])
	if cap(w.ownLoc) < nown {
		w.ownLoc, w.ownVal = make([]uint8, nown), make([]float64, nown)
	}
	ownLoc, ownVal := w.ownLoc[:nown], w.ownVal[:nown]
	for smp := lo; smp < hi; smp++ {
		ts := smp
		if p.perm != nil {
			ts = int(p.perm[smp])
		}
		for k := tab.Indptr[ts]; k < tab.Indptr[ts+1]; k++ {
			if c := tab.Values[k]; c != 0 {
				v := o.Position[tab.Indices[k]]
				j := ownAt[v]
				ownAt[v] = j + 1
				ownLoc[j], ownVal[j] = uint8(smp-lo), c
			}
		}
	}
	// ownAt[v] is now where v+1's counts start: shift back.
	copy(ownAt[1:], ownAt[:L])
	ownAt[0] = 0
	// A sample's counts on one node (a row may list a node more than
	// once) are added into one, smallest first, and a sample's total is
	// summed over its nodes by position: both orders are set by the counts
	// and the tree, not by the order of the row, so that two rows listing
	// the same counts in any order get the same proportions, bit for bit.
	var sums [blockSize]float64
	nown = 0
	for v := range L {
		j, end := ownAt[v], ownAt[v+1]
		ownAt[v] = int32(nown)
		for j < end {
			l, e := ownLoc[j], j+1
			for e < end && ownLoc[e] == l {
				e++
			}
			if e-j > 1 {
				slices.Sort(ownVal[j:e])
			}
			c := ownVal[j]
			for _, x := range ownVal[j+1 : e] {
				c += x
			}
			ownLoc[nown], ownVal[nown] = l, c
			sums[l] += c
			nown++
			j = e
		}
	}
	ownAt[L] = int32(nown)
	if !p.raw {
		for j, l := range ownLoc[:nown] {
			ownVal[j] /= sums[l]
		}
	}
	// The lists, position after position: position k's (when the block
	// reaches it) is loc/mass[d][listAt[k]:listAt[k]+reach[k]], d the
	// parity of its depth. A level's lists are read by the level above
	// only, so two arenas take turns, each sized for the largest level.
	reach := w.reach[:L] // the block's samples reaching each position (newBlock)
	depth := p.depth
	most, level := 0, 0
	for k := L - 1; k > 0; k-- {
		if depth[k] != depth[k+1] {
			most, level = max(most, level), 0
		}
		level += int(reach[k])
	}
	most = max(most, level)
	for d := range w.loc {
		if cap(w.loc[d]) < most {
			w.loc[d], w.mass[d] = make([]uint8, most), make([]float64, most)
		}
	}
	var acc [blockSize]float64
	var out [blockSize]float64
	var seen [blockSize / 64]uint64
	var loc, kidLoc []uint8
	var mass, kidMass []float64
	at := int32(0)
	for k := L - 1; k > 0; k-- {
		if depth[k] != depth[k+1] { // depth[L] is −1
			// A new level: its children's lists are the ones just made.
			d := depth[k] & 1
			loc, mass = w.loc[d][:most], w.mass[d][:most]
			kidLoc, kidMass = w.loc[1-d][:most], w.mass[1-d][:most]
			at = 0
		}
		if reach[k] == 0 {
			continue
		}
		for j := ownAt[k]; j < ownAt[k+1]; j++ {
			l := ownLoc[j]
			acc[l] += ownVal[j]
			seen[l>>6] |= 1 << (l & 63)
		}
		for c := kids[k+1] - 1; c >= kids[k]; c-- {
			if reach[c] == 0 {
				continue
			}
			a := listAt[c]
			cl, cm := kidLoc[a:a+reach[c]], kidMass[a:a+reach[c]]
			for t, l := range cl {
				acc[l] += cm[t]
				seen[l>>6] |= 1 << (l & 63)
			}
		}
		listAt[k] = at
		wt, cd := weight[k], code[k]
		slot := int32(-1)
		if cd <= -2 && wt > 0 {
			slot = next[k]
		}
		for g, word := range seen {
			for ; word != 0; word &= word - 1 {
				l := uint8(g<<6 + bits.TrailingZeros64(word))
				a := acc[l]
				acc[l] = 0
				loc[at], mass[at] = l, a
				at++
				if !(wt > 0) {
					continue
				}
				var x, pw float64
				if gen {
					x, pw = a, wt*math.Pow(a, p.alpha)
				} else {
					x = wt * a
				}
				switch {
				case cd >= 0:
					s.x[(lo+int(l))*dp+int(cd)] = x
				case slot >= 0:
					bk.loc[slot] = l
					bk.val[slot] = x
					if bk.pw != nil {
						bk.pw[slot] = pw
					}
					slot++
				case gen:
					out[l] += pw
				default:
					out[l] += x
				}
			}
			seen[g] = 0
		}
	}
	for smp := lo; smp < hi; smp++ {
		s.total[smp] = out[smp-lo]
	}
}

// newBlock returns the block of fill's samples lo..hi−1 (in fill's order)
// sized for their entries, its branches and their bounds set, and next,
// where next[k] is the index of the first entry of sparse branch k (a
// tree position). A sample's entry is on each sparse branch of positive
// length it reaches; the samples reaching each position are counted as
// reachBits counts them, 64 at a time.
func (p *prep) newBlock(w *walker, tab *Table, lay *layout, lo, hi int) (block, []int32) {
	L := len(p.o.Parent)
	if len(w.word) < L {
		w.word, w.next = make([]uint64, L), make([]int32, L)
	}
	word, next := w.word[:L], w.next[:L]
	clear(next)
	parent, pos, weight, code := p.o.Parent, p.o.Position, p.o.Weight, lay.code
	for g := lo; g < hi; g += 64 {
		for smp := g; smp < min(g+64, hi); smp++ {
			s := smp
			if p.perm != nil {
				s = int(p.perm[smp])
			}
			bit := uint64(1) << (smp - g)
			for k := tab.Indptr[s]; k < tab.Indptr[s+1]; k++ {
				if tab.Values[k] != 0 {
					word[pos[tab.Indices[k]]] |= bit
				}
			}
		}
		for k := L - 1; k > 0; k-- {
			if x := word[k]; x != 0 {
				word[k] = 0
				word[parent[k]] |= x
				next[k] += int32(bits.OnesCount64(x))
			}
		}
		word[0] = 0
	}
	// The counts, for sweep: next becomes the entries' places.
	w.reach = append(w.reach[:0], next...)
	var m, nbr int
	for k, c := range next {
		if c > 0 && code[k] <= -2 && weight[k] > 0 {
			m += int(c)
			nbr++
		}
	}
	var b block
	if m == 0 {
		b.ptr = []int32{0}
		return b, next
	}
	b.br, b.ptr = make([]int32, 0, nbr), make([]int32, 0, nbr+1)
	b.loc = make([]uint8, m)
	if p.m != Unweighted {
		b.val = make([]float64, m)
	}
	if p.m == Generalized {
		b.pw = make([]float64, m)
	}
	var off int32
	for k, c := range next {
		if c > 0 && code[k] <= -2 && weight[k] > 0 {
			b.br = append(b.br, -2-code[k])
			b.ptr = append(b.ptr, off)
			next[k] = off
			off += c
		}
	}
	b.ptr = append(b.ptr, off)
	return b, next
}

// entries are a block's sparse entries, side by side: branch br[i] is
// reached by the block's sample loc[i] with value val[i] (not kept for
// Unweighted) and generalized term pw[i] (kept for Generalized only).
type entries struct {
	br      []int32
	loc     []uint8
	val, pw []float64
	withVal bool
	withPow bool
}

// reserve empties e for entries with or without values and terms, with
// room for n of them.
func (e *entries) reserve(n int, withVal, withPow bool) {
	e.withVal, e.withPow = withVal, withPow
	if cap(e.br) < n {
		e.br, e.loc = make([]int32, 0, n), make([]uint8, 0, n)
		e.val, e.pw = nil, nil
	}
	if withVal && cap(e.val) < n {
		e.val = make([]float64, 0, n)
	}
	if withPow && cap(e.pw) < n {
		e.pw = make([]float64, 0, n)
	}
	e.br, e.loc, e.val, e.pw = e.br[:0], e.loc[:0], e.val[:0], e.pw[:0]
}

// add appends an entry; val and pw are dropped unless kept.
func (e *entries) add(br int32, loc uint8, val, pw float64) {
	e.br = append(e.br, br)
	e.loc = append(e.loc, loc)
	if e.withVal {
		e.val = append(e.val, val)
	}
	if e.withPow {
		e.pw = append(e.pw, pw)
	}
}

// makeBlock sorts the entries by branch, keeping their order within a
// branch, and packs them into a block, with their values and generalized
// terms when ent keeps them; Unweighted entries (without values) make a
// block indexed by group (makeGroupBlock).
func makeBlock(ent *entries, scratch *[]int32) block {
	withVal, withPow := ent.withVal, ent.withPow
	if !withVal {
		return makeGroupBlock(ent, scratch)
	}
	var b block
	if len(ent.br) == 0 {
		b.ptr = []int32{0}
		return b
	}
	// Distinct branches in increasing order, by a counting pass over a
	// compacted key range.
	maxBr := int32(0)
	for _, br := range ent.br {
		maxBr = max(maxBr, br)
	}
	if cap(*scratch) < int(maxBr)+2 {
		*scratch = make([]int32, maxBr+2)
	}
	cnt := (*scratch)[:maxBr+2]
	clear(cnt)
	for _, br := range ent.br {
		cnt[br+1]++
	}
	distinct := 0
	for _, c := range cnt[1:] {
		if c > 0 {
			distinct++
		}
	}
	b.br = make([]int32, 0, distinct)
	for i := int32(0); i <= maxBr; i++ {
		if cnt[i+1] > 0 {
			b.br = append(b.br, i)
		}
	}
	for i := int32(1); i < int32(len(cnt)); i++ {
		cnt[i] += cnt[i-1]
	}
	m := len(ent.br)
	b.loc = make([]uint8, m)
	if withVal {
		b.val = make([]float64, m)
	}
	if withPow {
		b.pw = make([]float64, m)
	}
	b.ptr = make([]int32, 0, len(b.br)+1)
	for _, br := range b.br {
		b.ptr = append(b.ptr, cnt[br])
	}
	b.ptr = append(b.ptr, int32(m))
	for i, br := range ent.br {
		j := cnt[br]
		cnt[br]++
		b.loc[j] = ent.loc[i]
		if withVal {
			b.val[j] = ent.val[i]
		}
		if withPow {
			b.pw[j] = ent.pw[i]
		}
	}
	return b
}
