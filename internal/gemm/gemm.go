package gemm

import (
	"runtime"

	"github.com/twl-ldl/twl/internal/parallel"
)

// Cache blocking, chosen by measurement (see doc.go). kc alone enters the
// arithmetic: it fixes where the sums over k are cut; mc and nc only
// change the order in which tiles are computed.
const (
	kc = 256  // largest depth of a block of k (a panel of op(B), kc×nr, fills half of L1)
	mc = 96   // rows of C run against a panel of op(B) in turn, a multiple of mr (mc×kc of A in L2)
	nc = 4096 // columns of C done in one pass (op(B) packed for them), a multiple of nr
)

// wholeB is the most floats of op(B), all blocks of k for nc columns,
// packed at once so that rows of C go through all blocks of k before the
// next rows (a variable for the tests).
var wholeB = 128 << 10

// kBlocks returns the number of blocks [0, k) is cut into: ⌈k/kc⌉, block t
// being [t·k/nb, (t+1)·k/nb), so that all have nearly the same depth.
func kBlocks(k int) int { return (k + kc - 1) / kc }

// minPartFlops is the least work (floating-point operations) worth a part
// of a parallel loop: handing a part to another core costs a few
// microseconds.
var minPartFlops = 400_000

// packCost is the cost of packing an element of op(B), and loopCost that
// of a parallel loop, in floating-point operations of the kernel (about
// 0.4 ns and 2 µs at 100 GFLOPS), for choosing how to split the work.
const (
	packCost = 40
	loopCost = 200_000
)

// Workspace holds the packing buffers of Mul and MulPacked, so that the
// products allocate nothing once the buffers have grown to the largest
// shapes seen. A Workspace is not safe for concurrent use. The zero value
// is NewWorkspace(0).
type Workspace struct {
	workers int
	bbuf    []float32 // one block of op(B), packed by Mul for all parts
	parts   []partBuf // scratch of each part of the parallel loop
	job     job
	// The loops' bodies, made once so that passing them allocates nothing.
	packFn   func(lo, hi int)
	sharedFn func(part, lo, hi int)
	rowsFn   func(part, lo, hi int)
	tilesFn  func(part, lo, hi int)
}

// partBuf is one part's scratch: the last row panel of op(A) and a block
// of op(B), packed.
type partBuf struct {
	a, b []float32
}

// job is the product in progress.
type job struct {
	c, a, b        []float32
	ldc, lda, ldb  int
	transA, transB bool
	m, n, k        int
	accumulate     bool
	packed         *Packed // op(B) packed, or nil
	// The current block, in the loops over blocks that share a packed
	// block of op(B) (Workspace.shared).
	t, jc int
}

// NewWorkspace returns a workspace whose products run on at most workers
// goroutines (workers ≤ 0: runtime.GOMAXPROCS(0) at each call), on the
// team of internal/parallel.
func NewWorkspace(workers int) *Workspace {
	w := &Workspace{workers: workers}
	w.init()
	return w
}

// init makes the loops' bodies.
func (w *Workspace) init() {
	w.packFn = w.packShared
	w.sharedFn = w.shared
	w.rowsFn = w.rows
	w.tilesFn = w.tiles
}

// Mul computes C = op(A)·op(B), or C += op(A)·op(B) when accumulate is
// true, for row-major matrices: C is m×n with leading dimension ldc
// (element (i, j) at c[i·ldc+j]); op(A) is m×k, A itself being m×k (lda
// ≥ k) or, when transA, k×m (lda ≥ m); op(B) is k×n, B being k×n (ldb ≥
// n) or, when transB, n×k (ldb ≥ k). The arithmetic is the fixed order
// of doc.go, so the result does not depend on the number of workers.
//
// A and B are not modified; C must not overlap A or B. k = 0 sets C to
// zero (or leaves it as it is, when accumulating). Negative sizes, leading
// dimensions smaller than the rows they hold (and than 1), and slices
// too short for their matrices panic.
func (w *Workspace) Mul(c []float32, ldc int, a []float32, lda int, transA bool, b []float32, ldb int, transB bool, m, n, k int, accumulate bool) {
	checkSizes(m, n, k)
	checkMatrix("C", c, ldc, m, n)
	checkOperand("A", a, lda, transA, m, k)
	checkOperand("B", b, ldb, transB, k, n)
	w.job = job{c: c, ldc: ldc, a: a, lda: lda, transA: transA, b: b, ldb: ldb, transB: transB, m: m, n: n, k: k, accumulate: accumulate}
	w.run()
}

// MulPacked is Mul with op(B) taken from p (k×n as packed): C = op(A)·op(B)
// or C += op(A)·op(B), C being m×p.N() and op(A) m×p.K(). The result
// equals Mul's bit for bit. A is not modified; C must not overlap A.
// Shape mistakes panic as in Mul.
func (w *Workspace) MulPacked(c []float32, ldc int, a []float32, lda int, transA bool, p *Packed, m int, accumulate bool) {
	n, k := p.n, p.k
	checkSizes(m, n, k)
	checkMatrix("C", c, ldc, m, n)
	checkOperand("A", a, lda, transA, m, k)
	w.job = job{c: c, ldc: ldc, a: a, lda: lda, transA: transA, m: m, n: n, k: k, accumulate: accumulate, packed: p}
	w.run()
}

// run computes the product in w.job. The tiles of C are split over the
// parts of a parallel loop by row panels or, when that balances the parts
// better (few rows), by ranges of tiles; each tile is computed the same
// way whichever part computes it.
func (w *Workspace) run() {
	j := &w.job
	defer func() { *j = job{} }() // drop the caller's slices
	if w.rowsFn == nil {
		w.init() // the zero Workspace
	}
	m, n, k := j.m, j.n, j.k
	if m == 0 || n == 0 {
		return
	}
	if k == 0 {
		if !j.accumulate {
			for i := range m {
				clear(j.c[i*j.ldc : i*j.ldc+n])
			}
		}
		return
	}
	workers := w.workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	mPanels, nPanels := (m+mr-1)/mr, (n+nr-1)/nr
	// The cost of the work in floating-point operations, packing an
	// element of op(B) counted as packCost of them.
	work := 2 * float64(m) * float64(n) * float64(k)
	pack := 0.0
	if j.packed == nil {
		pack = packCost * float64(k) * float64(n)
	}
	// Parts of at least minPartFlops each: of row panels, or of tiles
	// (mr×nr, in column-major order).
	tiles := mPanels * nPanels
	mChunk := max(1, int(float64(minPartFlops)/(work/float64(mPanels))))
	tChunk := max(1, int(float64(minPartFlops)/((work+pack)/float64(tiles))))
	mParts := parallel.Parts(mPanels, workers, mChunk)
	tParts := parallel.Parts(tiles, workers, tChunk)
	// The busiest part's share of the row panels (each of mr rows, the
	// last fewer) or of the tiles.
	mLoad := float64((mPanels+mParts-1)/mParts) / float64(mPanels)
	tLoad := float64((tiles+tParts-1)/tParts) / float64(tiles)
	// The busiest part's cost in each way of splitting: by row panels,
	// each part packs all of op(B) (when it fits wholeB, or in the loop
	// order for larger ones); by tiles, its own columns and at most two
	// more panels; shared, the parts pack op(B) together, in two loops per
	// block of k. Splitting by row panels is preferred when close, as the
	// parts then read disjoint parts of A.
	split, cost := splitRows, mLoad*work+pack
	if c := tLoad * (work + pack); c < 0.97*cost {
		split, cost = splitTiles, c
	}
	if c := mLoad*work + pack/float64(mParts) + float64(2*kBlocks(k)*loopCost); j.packed == nil && mParts > 1 && c < cost {
		split = splitShared
	}
	if forceSplit != splitAuto {
		split = forceSplit
		if split == splitShared && j.packed != nil {
			split = splitRows
		}
	}
	switch split {
	case splitTiles:
		w.reserve(tParts)
		parallel.ForParts(tiles, workers, tChunk, w.tilesFn)
	case splitRows:
		w.reserve(mParts)
		parallel.ForParts(mPanels, workers, mChunk, w.rowsFn)
	default:
		// Split by rows, with op(B) packed once for all parts, block by
		// block (when op(B) is too large for each part to pack it whole).
		w.reserve(mParts)
		nb := kBlocks(k)
		for jc := 0; jc < n; jc += nc {
			jn := min(nc, n-jc)
			for t := range nb {
				j.t, j.jc = t, jc
				kb := (t+1)*k/nb - t*k/nb
				w.bbuf = grow(w.bbuf, (jn+nr-1)/nr*kb*nr)
				parallel.For((jn+nr-1)/nr, workers, max(1, 4096/(kb*nr)), w.packFn)
				parallel.ForParts(mPanels, workers, mChunk, w.sharedFn)
			}
		}
	}
}

// The ways run splits the tiles of C over the parts of a parallel loop.
const (
	splitAuto   = iota // run chooses (forceSplit only)
	splitRows          // by row panels, each part packing op(B) for itself
	splitTiles         // by tiles, in column-major order
	splitShared        // by row panels, op(B) packed by all parts together
)

// forceSplit, when not splitAuto, overrides run's choice (for the tests).
var forceSplit = splitAuto

// reserve makes sure there is scratch for parts parts.
func (w *Workspace) reserve(parts int) {
	for len(w.parts) < parts {
		w.parts = append(w.parts, partBuf{})
	}
}

// packShared packs the panels [lo, hi) of the current block of op(B) into
// the shared buffer.
func (w *Workspace) packShared(lo, hi int) {
	j := &w.job
	nb := kBlocks(j.k)
	p0, p1 := j.t*j.k/nb, (j.t+1)*j.k/nb
	kb := p1 - p0
	for q := lo; q < hi; q++ {
		j0 := j.jc + q*nr
		packBPanel(w.bbuf[q*kb*nr:(q+1)*kb*nr], j.b, j.ldb, j.transB, p0, p1, j0, min(nr, j.n-j0))
	}
}

// shared computes the row panels [lo, hi) of the current block, op(B)
// being packed in the shared buffer.
func (w *Workspace) shared(part, lo, hi int) {
	j := &w.job
	w.block(&w.parts[part], lo*mr, min(hi*mr, j.m), j.jc, min(j.jc+nc, j.n), j.t, w.bbuf)
}

// rows computes the row panels [lo, hi) of C.
func (w *Workspace) rows(part, lo, hi int) {
	w.region(&w.parts[part], lo*mr, min(hi*mr, w.job.m), 0, w.job.n)
}

// tiles computes the tiles [lo, hi) of C, numbered in column-major
// order (tile (r, q), rows [r·mr, r·mr+mr) and columns [q·nr, q·nr+nr),
// is number q·⌈m/mr⌉ + r): a part of a column panel, whole column panels,
// and a part of one more.
func (w *Workspace) tiles(part, lo, hi int) {
	j := &w.job
	pb := &w.parts[part]
	mPanels := (j.m + mr - 1) / mr
	for lo < hi {
		q, r := lo/mPanels, lo%mPanels
		if r == 0 && hi-lo >= mPanels {
			q1 := q + (hi-lo)/mPanels
			w.region(pb, 0, j.m, q*nr, min(q1*nr, j.n))
			lo = q1 * mPanels
			continue
		}
		r1 := min(mPanels, r+hi-lo)
		w.region(pb, r*mr, min(r1*mr, j.m), q*nr, min(q*nr+nr, j.n))
		lo += r1 - r
	}
}

// region computes the rows [i0, i1) (i0 a multiple of mr) of columns
// [j0, j1) (j0 a multiple of nr) of C, taking op(B) from the packed one or
// packing it into pb. When all of op(B) for nc columns fits wholeB, the
// rows are taken mc at a time through every block of k (C's rows and A's
// stay in cache); otherwise every row goes through a block of k before the
// next block (op(B)'s block stays in cache).
func (w *Workspace) region(pb *partBuf, i0, i1, j0, j1 int) {
	j := &w.job
	nb := kBlocks(j.k)
	for jc := j0; jc < j1; jc += nc {
		jn := min(nc, j1-jc)
		panels := (jn + nr - 1) / nr
		if j.k*panels*nr <= wholeB {
			if j.packed == nil {
				pb.b = grow(pb.b, j.k*panels*nr)
				for t := range nb {
					w.packBlock(pb.b[t*j.k/nb*panels*nr:], jc, jn, t)
				}
			}
			for r := i0; r < i1; r += mc {
				for t := range nb {
					bblk := w.packedBlock(jc, jn, t)
					if bblk == nil {
						bblk = pb.b[t*j.k/nb*panels*nr:]
					}
					w.block(pb, r, min(r+mc, i1), jc, jc+jn, t, bblk)
				}
			}
			continue
		}
		for t := range nb {
			bblk := w.packedBlock(jc, jn, t)
			if bblk == nil {
				pb.b = grow(pb.b, ((t+1)*j.k/nb-t*j.k/nb)*panels*nr)
				w.packBlock(pb.b, jc, jn, t)
				bblk = pb.b
			}
			w.block(pb, i0, i1, jc, jc+jn, t, bblk)
		}
	}
}

// packBlock packs block t of k of columns [jc, jc+jn) of op(B) into buf,
// panel after panel.
func (w *Workspace) packBlock(buf []float32, jc, jn, t int) {
	j := &w.job
	nb := kBlocks(j.k)
	p0, p1 := t*j.k/nb, (t+1)*j.k/nb
	kb := p1 - p0
	for q := range (jn + nr - 1) / nr {
		c0 := jc + q*nr
		packBPanel(buf[q*kb*nr:(q+1)*kb*nr], j.b, j.ldb, j.transB, p0, p1, c0, min(nr, j.n-c0))
	}
}

// packedBlock returns the panels of block t of k of columns [jc, jc+jn)
// of op(B) packed by Packed, or nil for Mul.
func (w *Workspace) packedBlock(jc, jn, t int) []float32 {
	p := w.job.packed
	if p == nil {
		return nil
	}
	nb := kBlocks(p.k)
	p0, p1 := t*p.k/nb, (t+1)*p.k/nb
	kb := p1 - p0
	off := p0*p.panels*nr + jc/nr*kb*nr
	return p.data[off : off+(jn+nr-1)/nr*kb*nr]
}

// block computes, for block t of k, the rows [i0, i1) (i0 a multiple of
// mr) of columns [j0, j1) of C, the panels of op(B) for those columns
// being packed in bblk.
func (w *Workspace) block(pb *partBuf, i0, i1, j0, j1, t int, bblk []float32) {
	j := &w.job
	nb := kBlocks(j.k)
	p0, p1 := t*j.k/nb, (t+1)*j.k/nb
	kb := p1 - p0
	store := t == 0 && !j.accumulate
	panels := (j1 - j0 + nr - 1) / nr
	// op(A) is read in place (the kernel takes its strides), except for a
	// last row panel of fewer than mr rows, packed zero-padded.
	if last := j.m / mr * mr; last < j.m && last < i1 && last >= i0 {
		pb.a = grow(pb.a, mr*kb)
		packAPanel(pb.a, j.a, j.lda, j.transA, last, j.m-last, p0, p1)
	}
	for r0 := i0; r0 < i1; r0 += mc {
		r1 := min(r0+mc, i1)
		for q := range panels {
			bp := bblk[q*kb*nr : (q+1)*kb*nr]
			c0 := j0 + q*nr
			cols := min(nr, j.n-c0)
			for i := r0; i < r1; {
				rows := min(mr, j.m-i)
				ap, rsa, csa := pb.a, 1, mr
				switch {
				case rows < mr:
				case j.transA:
					ap, rsa, csa = j.a[p0*j.lda+i:], 1, j.lda
				default:
					ap, rsa, csa = j.a[i*j.lda+p0:], j.lda, 1
				}
				if use512 && i+2*mr <= min(r1, j.m) {
					// Two full row panels, read in place.
					kernel2(kb, ap, rsa, csa, bp, nr, j.c[i*j.ldc+c0:], j.ldc, cols, !store)
					i += 2 * mr
					continue
				}
				kernel(kb, ap, rsa, csa, bp, nr, j.c[i*j.ldc+c0:], j.ldc, rows, cols, !store)
				i += mr
			}
		}
	}
}

// grow returns s with length n, reusing its memory when it can.
func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

func checkSizes(m, n, k int) {
	if m < 0 || n < 0 || k < 0 {
		panic("gemm: negative dimension")
	}
}

// checkMatrix panics unless s holds a rows×cols row-major matrix with
// leading dimension ld.
func checkMatrix(name string, s []float32, ld, rows, cols int) {
	if ld < max(1, cols) {
		panic("gemm: leading dimension of " + name + " too small")
	}
	if rows > 0 && cols > 0 && len(s) < (rows-1)*ld+cols {
		panic("gemm: " + name + " too short")
	}
}

// checkOperand checks an operand whose op is rows×cols.
func checkOperand(name string, s []float32, ld int, trans bool, rows, cols int) {
	if trans {
		rows, cols = cols, rows
	}
	checkMatrix(name, s, ld, rows, cols)
}
