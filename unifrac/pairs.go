package unifrac

import (
	"cmp"
	"context"
	"math"
	"math/bits"
	"slices"
	"sync"

	"github.com/twl-ldl/twl/internal/parallel"
)

// Condensed writes the distances of all pairs i < j to dst in row order
// (the condensed form of scipy's squareform: pair (i, j) at
// i·N − i(i+1)/2 + j − i − 1). It panics unless len(dst) = N(N−1)/2.
func (e *Engine) Condensed(ctx context.Context, dst []float64) error {
	e.checkLen(len(dst), e.n*(e.n-1)/2)
	return e.run(ctx, out{kind: condensed, f64: dst}, 0, e.n)
}

// Matrix writes the full symmetric N×N matrix of distances, row-major, with
// zeros on the diagonal. It panics unless len(dst) = N².
func (e *Engine) Matrix(ctx context.Context, dst []float64) error {
	e.checkLen(len(dst), e.n*e.n)
	return e.run(ctx, out{kind: full, f64: dst}, 0, e.n)
}

// Rows writes rows [i0, i1) of the N×N matrix: the distance between
// samples i and j at dst[(i−i0)·N + j]. The values equal those of Matrix bit
// for bit, so shards of rows computed apart assemble into the same matrix.
// It panics unless 0 ≤ i0 ≤ i1 ≤ N and len(dst) = (i1−i0)·N.
func (e *Engine) Rows(ctx context.Context, dst []float64, i0, i1 int) error {
	e.checkRows(i0, i1)
	e.checkLen(len(dst), (i1-i0)*e.n)
	return e.run(ctx, out{kind: rows, f64: dst, i0: i0}, i0, i1)
}

// Condensed32 is Condensed with each distance rounded to float32.
func (e *Engine) Condensed32(ctx context.Context, dst []float32) error {
	e.checkLen(len(dst), e.n*(e.n-1)/2)
	return e.run(ctx, out{kind: condensed, f32: dst}, 0, e.n)
}

// Matrix32 is Matrix with each distance rounded to float32.
func (e *Engine) Matrix32(ctx context.Context, dst []float32) error {
	e.checkLen(len(dst), e.n*e.n)
	return e.run(ctx, out{kind: full, f32: dst}, 0, e.n)
}

// Rows32 is Rows with each distance rounded to float32.
func (e *Engine) Rows32(ctx context.Context, dst []float32, i0, i1 int) error {
	e.checkRows(i0, i1)
	e.checkLen(len(dst), (i1-i0)*e.n)
	return e.run(ctx, out{kind: rows, f32: dst, i0: i0}, i0, i1)
}

func (e *Engine) checkLen(got, want int) {
	if got != want {
		panic("unifrac: destination has the wrong length")
	}
}

func (e *Engine) checkRows(i0, i1 int) {
	if i0 < 0 || i1 < i0 || i1 > e.n {
		panic("unifrac: row range out of bounds")
	}
}

type outKind int

const (
	full outKind = iota
	condensed
	rows
)

// out is a destination: exactly one of f64 and f32 is set.
type out struct {
	kind outKind
	f64  []float64
	f32  []float32
	i0   int // first row of a rows destination
}

// tile is one task: the pairs of row block bi with column block bj. For a
// symmetric destination only bi ≤ bj are tiles, and a diagonal tile computes
// the pairs i < j.
type tile struct{ bi, bj int32 }

// workspace is one goroutine's scratch space.
type workspace struct {
	acc  []float64 // blockSize × blockSize pair sums
	acc2 []float64 // second sums (Generalized)
	va   vawAcc    // a tile's shared sums (variance adjusted)
	vs   vawSums   // a tile's one-sided sums (variance adjusted)
	tot  [blockSize]float64
}

func newWorkspace(m Method) *workspace {
	w := &workspace{acc: make([]float64, blockSize*blockSize)}
	if m == Generalized {
		w.acc2 = make([]float64, blockSize*blockSize)
	}
	return w
}

func (e *Engine) run(ctx context.Context, dst out, i0, i1 int) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if i1 <= i0 {
		return ctx.Err()
	}
	if dst.kind == rows {
		return e.runRows(ctx, dst, i0, i1)
	}
	tiles := largestFirst(e.blocks, e.n, e.dp)
	var mu sync.Mutex
	done := 0
	parallel.Each(len(tiles), e.workers, func(t int) {
		if ctx.Err() != nil {
			return
		}
		w, _ := e.spaces.Get().(*workspace)
		if w == nil {
			w = newWorkspace(e.kind)
		}
		e.tile(w, tiles[t], dst)
		e.spaces.Put(w)
		if e.prog != nil {
			mu.Lock()
			done++
			e.prog(done, len(tiles))
			mu.Unlock()
		}
	})
	return ctx.Err()
}

// largestFirst returns the tiles of the pairs of blocks (bi ≤ bj) of n
// samples with dp dense columns, by decreasing estimated work (ties in
// order): the workers that take them in turn then finish together, where
// in order the largest tile (a diagonal one, in a table whose samples
// cluster by clade) may come last and leave the others idle.
func largestFirst(blocks []block, n, dp int) []tile {
	nb := len(blocks)
	type est struct {
		t    tile
		work int64
	}
	all := make([]est, 0, nb*(nb+1)/2)
	for bi := range nb {
		for bj := bi; bj < nb; bj++ {
			rows := int64(min(blockSize, n-bi*blockSize))
			cols := int64(min(blockSize, n-bj*blockSize))
			all = append(all, est{tile{int32(bi), int32(bj)}, sharedWork(&blocks[bi], &blocks[bj], bi == bj) + rows*cols*int64(dp)/4})
		}
	}
	slices.SortStableFunc(all, func(a, b est) int { return cmp.Compare(b.work, a.work) })
	tiles := make([]tile, len(all))
	for k, a := range all {
		tiles[k] = a.t
	}
	return tiles
}

// sharedWork returns the number of pairs of entries on the branches (or
// groups) that blocks a and b share: the sparse terms of their tile, half
// of them on a diagonal tile (same).
func sharedWork(a, b *block, same bool) int64 {
	var w int64
	if same {
		for k := range a.br {
			m := int64(a.ptr[k+1] - a.ptr[k])
			w += m * (m - 1) / 2
		}
		return w
	}
	eachShared(a, b, func(p, q int) {
		w += int64(a.ptr[p+1]-a.ptr[p]) * int64(b.ptr[q+1]-b.ptr[q])
	})
	return w
}

// eachShared calls fn(p, q) for each branch (or group) that blocks a and b
// both index, a.br[p] = b.br[q], in increasing order.
func eachShared(a, b *block, fn func(p, q int)) {
	for p, q := 0, 0; p < len(a.br) && q < len(b.br); {
		switch x, y := a.br[p], b.br[q]; {
		case x < y:
			p++
		case x > y:
			q++
		default:
			fn(p, q)
			p++
			q++
		}
	}
}

// tile computes one tile of a symmetric destination and writes it to dst.
func (e *Engine) tile(w *workspace, t tile, dst out) {
	bi, bj := int(t.bi), int(t.bj)
	rlo, rhi := bi*blockSize, min((bi+1)*blockSize, e.n)
	clo, chi := bj*blockSize, min((bj+1)*blockSize, e.n)
	// A diagonal tile computes the pairs i < j only.
	upper := bi == bj
	acc := w.acc
	clear(acc)
	switch e.kind {
	case Generalized:
		clear(w.acc2)
		sparseGeneralized(acc, w.acc2, &e.blocks[bi], &e.blocks[bj], e.wsp, e.alpha, upper, upper)
	case kindVaw:
		w.va.reset()
		e.vw.sparseVaw(&w.va, &e.blocks[bi], &e.blocks[bj], e.total[rlo:rhi], e.total[clo:chi], e.wsp, upper)
		if e.vw.u == nil {
			e.vw.tileSums(&w.vs, &e.blocks[bi], &e.blocks[bj], e.total[rlo:rhi], e.total[clo:chi], e.wsp)
		}
	default:
		denseTile(acc, e.x, e.x, e.dp, rlo, rhi, clo, chi, upper)
		sparseMin(acc, &e.blocks[bi], &e.blocks[bj], e.wsp, upper, upper)
	}
	e.write(w, dst, rlo, rhi, clo, chi, upper)
}

// runRows computes the rows [i0, i1) of the table: their samples, in the
// engine's order, are gathered into blocks of their own (gather) and each
// of those is reduced against every block of the engine, as Columns.Query
// does. A pair's sums are added in the same order as in a symmetric tile,
// so the values are those of Matrix, bit for bit.
func (e *Engine) runRows(ctx context.Context, dst out, i0, i1 int) error {
	var sel []int32
	for k := range e.n {
		if i := e.orig(k); i >= i0 && i < i1 {
			sel = append(sel, int32(k))
		}
	}
	q := e.gather(sel)
	nb := len(e.blocks)
	total := len(q.blocks) * nb
	var mu sync.Mutex
	done := 0
	parallel.Each(total, e.workers, func(t int) {
		if ctx.Err() != nil {
			return
		}
		w, _ := e.spaces.Get().(*workspace)
		if w == nil {
			w = newWorkspace(e.kind)
		}
		e.rowsTile(w, &q, sel, t/nb, t%nb, dst)
		e.spaces.Put(w)
		if e.prog != nil {
			mu.Lock()
			done++
			e.prog(done, total)
			mu.Unlock()
		}
	})
	return ctx.Err()
}

// gather returns the engine's samples sel as a side of their own: their
// dense rows and sparse blocks (blockSize samples of sel each).
func (e *Engine) gather(sel []int32) side {
	n := len(sel)
	q := side{n: n}
	if e.dp > 0 {
		q.x = make([]float64, n*e.dp)
		for r, k := range sel {
			copy(q.x[r*e.dp:(r+1)*e.dp], e.x[int(k)*e.dp:(int(k)+1)*e.dp])
		}
	}
	var want [blockSize]int16 // 1 + place in the gathered block, or 0
	// Room for a block of samples that reach the mean number of sparse
	// branches, and a quarter more.
	room := int(e.perSample*1.25*float64(min(n, blockSize))) + 64
	var ent entries
	var scratch []int32
	for lo := 0; lo < n; lo += blockSize {
		hi := min(lo+blockSize, n)
		ent.reserve(room, e.kind != Unweighted, e.kind == Generalized || e.kind == kindVaw)
		for r := lo; r < hi; {
			// The samples of one engine block.
			eb := int(sel[r]) / blockSize
			clear(want[:])
			for ; r < hi && int(sel[r])/blockSize == eb; r++ {
				want[int(sel[r])%blockSize] = int16(r - lo + 1)
			}
			b := &e.blocks[eb]
			for k, br := range b.br {
				for j := b.ptr[k]; j < b.ptr[k+1]; j++ {
					nl := want[b.loc[j]]
					if nl == 0 {
						continue
					}
					if b.bits != nil {
						// An Unweighted group: its branches, in order.
						for m := b.bits[j]; m != 0; m &= m - 1 {
							ent.add(br*groupBits+int32(lowBit(m)), uint8(nl-1), 0, 0)
						}
						continue
					}
					var v, pw float64
					if b.val != nil {
						v = b.val[j]
					}
					if b.pw != nil {
						pw = b.pw[j]
					}
					ent.add(br, uint8(nl-1), v, pw)
				}
			}
		}
		q.blocks = append(q.blocks, makeBlock(&ent, &scratch))
	}
	return q
}

// rowsTile computes the pairs of gathered block ri of q (the engine's
// samples sel) with the engine's block bj and writes them to dst.
func (e *Engine) rowsTile(w *workspace, q *side, sel []int32, ri, bj int, dst out) {
	rlo, rhi := ri*blockSize, min((ri+1)*blockSize, q.n)
	clo, chi := bj*blockSize, min((bj+1)*blockSize, e.n)
	acc := w.acc
	clear(acc)
	var acc2 []float64
	switch e.kind {
	case Generalized:
		clear(w.acc2)
		sparseGeneralized(acc, w.acc2, &q.blocks[ri], &e.blocks[bj], e.wsp, e.alpha, false, false)
	case kindVaw:
		w.va.reset()
		tr := w.tot[:rhi-rlo]
		for r := rlo; r < rhi; r++ {
			tr[r-rlo] = e.total[sel[r]]
		}
		e.vw.sparseVaw(&w.va, &q.blocks[ri], &e.blocks[bj], tr, e.total[clo:chi], e.wsp, false)
		if e.vw.u == nil {
			e.vw.tileSums(&w.vs, &q.blocks[ri], &e.blocks[bj], tr, e.total[clo:chi], e.wsp)
		}
	default:
		denseTile(acc, q.x, e.x, e.dp, rlo, rhi, clo, chi, false)
		sparseMin(acc, &q.blocks[ri], &e.blocks[bj], e.wsp, false, false)
	}
	n := e.n
	var row [blockSize]float64
	for r := rlo; r < rhi; r++ {
		k := int(sel[r])
		base := (r - rlo) * blockSize
		acc2 = nil
		if e.kind == Generalized {
			acc2 = w.acc2[base : base+chi-clo]
		}
		d := row[:chi-clo]
		if e.kind == kindVaw {
			e.vawRow(w, d, k, r-rlo, clo)
		} else {
			distRow(e.method, d, e.total[k], e.total[clo:chi], acc[base:base+chi-clo], acc2)
		}
		if clo <= k && k < chi {
			d[k-clo] = 0
		}
		at := (e.orig(k) - dst.i0) * n
		for t, x := range d {
			dst.set(at+e.orig(clo+t), x)
		}
	}
}

// orig returns the table index of the engine's sample k.
func (e *Engine) orig(k int) int {
	if e.perm == nil {
		return k
	}
	return int(e.perm[k])
}

// denseTile adds the dense min-sums of the pairs of rows [rlo, rhi) of xr
// and columns [clo, chi) of xc (row i at xr[i*dp:], column j at
// xc[j*dp:]) into acc (row i−rlo, column j−clo), chunk by chunk. With
// upper, only pairs i < j are needed; the kernel may compute a few more.
func denseTile(acc, xr, xc []float64, dp, rlo, rhi, clo, chi int, upper bool) {
	if dp == 0 {
		return
	}
	for c := 0; c < dp; c += chunkLen {
		cl := min(chunkLen, dp-c)
		for i := rlo; i < rhi; i += 2 {
			ni := min(2, rhi-i)
			j0 := clo
			if upper {
				j0 = max(clo, (i+1)&^3)
			}
			x0 := xr[i*dp+c : i*dp+c+cl]
			x1 := x0
			if ni == 2 {
				x1 = xr[(i+1)*dp+c : (i+1)*dp+c+cl]
			}
			a := acc[(i-rlo)*blockSize:]
			for j := j0; j < chi; j += 4 {
				nj := min(4, chi-j)
				y := xc[j*dp+c:]
				if ni == 2 && nj == 4 {
					minSum2x4(a[j-clo:], blockSize, x0, x1, y, dp)
					continue
				}
				for r := range ni {
					xr := x0
					if r == 1 {
						xr = x1
					}
					for q := range nj {
						a[r*blockSize+j-clo+q] += minSum(xr, y[q*dp:q*dp+cl])
					}
				}
			}
		}
	}
}

// minSum returns Σ_k min(x[k], y[k]) for len(x) a multiple of 4, summed in
// four lanes (lane l takes k ≡ l mod 4 in increasing k), then
// (lane0 + lane2) + (lane1 + lane3). It defines the kernels' arithmetic.
func minSum(x, y []float64) float64 {
	var s0, s1, s2, s3 float64
	y = y[:len(x)]
	for k := 0; k+3 < len(x); k += 4 {
		s0 += fmin(x[k], y[k])
		s1 += fmin(x[k+1], y[k+1])
		s2 += fmin(x[k+2], y[k+2])
		s3 += fmin(x[k+3], y[k+3])
	}
	return (s0 + s2) + (s1 + s3)
}

// fmin is min as the MINPD instruction computes it: x if x < y, else y.
func fmin(x, y float64) float64 {
	if x < y {
		return x
	}
	return y
}

// minSum2x4Go is the reference form of minSum2x4: for rows r of {x0, x1}
// and columns q < 4 of y (row q at y[q*ys:]), it adds minSum(x_r, y_q) to
// acc[r*ld+q].
func minSum2x4Go(acc []float64, ld int, x0, x1, y []float64, ys int) {
	n := len(x0)
	for q := range 4 {
		yq := y[q*ys : q*ys+n]
		acc[q] += minSum(x0, yq)
		acc[ld+q] += minSum(x1, yq)
	}
}

// sparseMin adds, for each sparse branch reached by samples of both blocks,
// the min of each pair's values into acc; Unweighted blocks (without
// values) add their groups' terms instead (sparseGroups). With upper (the
// two blocks are one and only pairs i < j are wanted), it visits those
// pairs only; same says the blocks are the same.
func sparseMin(acc []float64, bi, bj *block, wsp []float64, upper, same bool) {
	if bi.val == nil {
		sparseGroups(acc, bi, bj, wsp, upper)
		return
	}
	var win [blockSize / 8]uint64
	if same {
		for k := range bi.br {
			p0, p1 := bi.ptr[k], bi.ptr[k+1]
			if upper && p1-p0 >= minWinEntries {
				loc, val := bi.loc[p0:p1], bi.val[p0:p1]
				// A row takes half of the windows on average. The windows
				// are found only where the entries' span leaves room for
				// few enough.
				if winCost*spanWindows(loc) < len(loc) {
					nw := windows(&win, loc)
					minWin(acc, loc, val, win[:nw], val, true)
					continue
				}
			}
			for p := p0; p < p1; p++ {
				q0 := p0
				if upper {
					q0 = p + 1
				}
				addMins(acc, bi.loc[p], bi.val[p], bi.loc[q0:p1], bi.val[q0:p1])
			}
		}
		return
	}
	eachShared(bi, bj, func(p, q int) {
		q0, q1 := bj.ptr[q], bj.ptr[q+1]
		cols := bj.loc[q0:q1]
		vals := bj.val[q0:q1]
		r0, r1 := bi.ptr[p], bi.ptr[p+1]
		if nr := int(r1 - r0); len(cols) >= minWinEntries && nr > minRows {
			if len(cols)+winCost*nr*spanWindows(cols) < nr*len(cols) {
				nw := windows(&win, cols)
				minWin(acc, bi.loc[r0:r1], bi.val[r0:r1], win[:nw], vals, false)
				return
			}
		}
		for r := r0; r < r1; r++ {
			addMins(acc, bi.loc[r], bi.val[r], cols, vals)
		}
	})
}

// spanWindows returns the most windows that entries loc (sorted, not
// empty) can fill: those their span meets.
func spanWindows(loc []uint8) int {
	return int(loc[len(loc)-1]>>3) - int(loc[0]>>3) + 1
}

// A branch's column entries are taken by windows of 8 samples (see
// windows and minWin) when they are at least minWinEntries and the windows
// cost less than the entries taken one at a time: a window costs about
// winCost entries (measured by BenchmarkWin), and finding the windows about
// an entry each; they are found only where the windows the entries' span
// meets (spanWindows) would cost less, so that scattered entries cost no
// search. Between two blocks, the windows of a branch's columns are
// taken only for more than minRows rows: with fewer, BenchmarkCladeRows
// measured no gain.
const (
	minWinEntries = 8
	winCost       = 2
	minRows       = 16
)

// windows sets win[w] for each window of 8 consecutive block samples that
// holds some of the entries loc (sorted, distinct), in order, and returns
// their number: bits 0–7 of win[w] mark the window's samples that are
// entries, bits 8–15 are the lowest c bits for its c entries, bits 16–31
// hold the byte offset of the window's first sample in a row of a tile
// (8·8·window), and bits 32–63 the byte offset of its first entry's value
// (8·index).
func windows(win *[blockSize / 8]uint64, loc []uint8) int {
	// The entries 64 samples at a time as a word of bits, then one record
	// for each of its nonzero bytes.
	nw, t, e := 0, uint64(0), 0
	for g := range blockSize / 64 {
		var word uint64
		for ; e < len(loc) && int(loc[e])>>6 == g; e++ {
			word |= 1 << (loc[e] & 63)
		}
		for word != 0 {
			b := uint(bits.TrailingZeros64(word)) &^ 7 // the byte's first bit
			mask := word >> b & 0xFF
			word &^= 0xFF << b
			c := uint64(bits.OnesCount64(mask))
			win[nw] = mask | (1<<c-1)<<8 | uint64(g*64+int(b))*8<<16 | t*8<<32
			nw++
			t += c
		}
	}
	return nw
}

// minWinGo is the reference form of minWin: for each row entry r (sample
// rl[r], value rv[r]) it adds min(rv[r], cv[t]) to acc[rl[r]·blockSize +
// loc_t] for each column entry t, the entries given by their windows win
// (see windows) and values cv; with tri, the rows are the columns and only
// entries t > r are taken. Each sum gets one addition per entry, as
// addMins adds them, so the results are addMins' bit for bit.
func minWinGo(acc []float64, rl []uint8, rv []float64, win []uint64, cv []float64, tri bool) {
	wi := 0
	for r, x := range rl {
		row := (*[blockSize]float64)(acc[int(x)*blockSize:])
		v := rv[r]
		first := 0
		if tri {
			// The window holding entry r, and its entries after r.
			for wi+1 < len(win) && int(win[wi+1]>>35) <= r {
				wi++
			}
			w := win[wi]
			mask := w & 0xFF & (0xFE << (x & 7))
			addWindow(row, v, mask, int(uint32(w)>>19), cv[r+1:])
			first = wi + 1
		}
		for _, w := range win[first:] {
			addWindow(row, v, w&0xFF, int(uint32(w)>>19), cv[w>>35:])
		}
	}
}

// addWindow adds min(v, cv[i]) to row[s+b] for the i-th set bit b of mask.
func addWindow(row *[blockSize]float64, v float64, mask uint64, s int, cv []float64) {
	i := 0
	for ; mask != 0; mask &= mask - 1 {
		row[s+bits.TrailingZeros64(mask)] += min(v, cv[i])
		i++
	}
}

// addMins adds min(v, vals[t]) to acc[row*blockSize+cols[t]] for each t.
// The values are never NaN nor −0, so the builtin min (branch-free) agrees
// with fmin.
func addMins(acc []float64, row uint8, v float64, cols []uint8, vals []float64) {
	r := (*[blockSize]float64)(acc[int(row)*blockSize:])
	vals = vals[:len(cols)]
	for t, l := range cols {
		r[l] += min(v, vals[t])
	}
}

// sparseGeneralized adds, for each branch reached by samples of both
// blocks, the corrections of the generalized sums (see dist) into num and
// den; wsp holds the branches' lengths.
func sparseGeneralized(num, den []float64, bi, bj *block, wsp []float64, alpha float64, upper, same bool) {
	pair := func(p int32, bq *block, q0, q1 int32, br int32) {
		w := wsp[br]
		a, pa := bi.val[p], bi.pw[p]
		off := int(bi.loc[p]) * blockSize
		for q := q0; q < q1; q++ {
			b, pb := bq.val[q], bq.pw[q]
			s := a + b
			ws := w * math.Pow(s, alpha)
			k := off + int(bq.loc[q])
			num[k] += pa + pb - ws*(math.Abs(a-b)/s)
			den[k] += pa + pb - ws
		}
	}
	if same {
		for k := range bi.br {
			p0, p1 := bi.ptr[k], bi.ptr[k+1]
			for p := p0; p < p1; p++ {
				q0 := p0
				if upper {
					q0 = p + 1
				}
				pair(p, bi, q0, p1, bi.br[k])
			}
		}
		return
	}
	eachShared(bi, bj, func(p, q int) {
		for r := bi.ptr[p]; r < bi.ptr[p+1]; r++ {
			pair(r, bj, bj.ptr[q], bj.ptr[q+1], bi.br[p])
		}
	})
}

// dist turns the pair sums m and m2 of two samples whose totals add up to
// s into their distance by method meth.
func dist(meth Method, s, m, m2 float64) float64 {
	var d float64
	switch meth {
	case WeightedUnnormalized:
		d = s - 2*m
	case WeightedNormalized:
		if s == 0 {
			return 0
		}
		d = (s - 2*m) / s
	case Unweighted:
		u := s - m
		if u == 0 {
			return 0
		}
		d = (s - 2*m) / u
	case UnweightedUnnormalized:
		d = s - 2*m
	case Generalized:
		den := s - m2
		if den == 0 {
			return 0
		}
		d = (s - m) / den
	}
	if d < 0 {
		return 0
	}
	return d
}

// write finishes a symmetric tile's pairs and stores them.
func (e *Engine) write(w *workspace, dst out, rlo, rhi, clo, chi int, upper bool) {
	n := e.n
	var row [blockSize]float64
	for i := rlo; i < rhi; i++ {
		oi := e.orig(i)
		j0 := clo
		if upper {
			j0 = i + 1
		}
		base := (i-rlo)*blockSize - clo
		var acc2 []float64
		if e.kind == Generalized {
			acc2 = w.acc2[base+j0 : base+chi]
		}
		d := row[:chi-j0]
		if e.kind == kindVaw {
			e.vawRow(w, d, i, i-rlo, j0)
		} else {
			distRow(e.method, d, e.total[i], e.total[j0:chi], w.acc[base+j0:base+chi], acc2)
		}
		if j0 <= i && i < chi {
			d[i-j0] = 0
		}
		switch {
		case dst.kind == condensed && dst.f64 != nil && e.perm == nil:
			k0 := oi*n - oi*(oi+1)/2 - oi - 1
			copy(dst.f64[k0+j0:k0+chi], d)
		case dst.kind == condensed:
			for t, x := range d {
				oj := e.orig(j0 + t)
				a, b := min(oi, oj), max(oi, oj)
				dst.set(a*n-a*(a+1)/2+b-a-1, x)
			}
		default:
			for t, x := range d {
				oj := e.orig(j0 + t)
				dst.set(oi*n+oj, x)
				dst.set(oj*n+oi, x)
			}
		}
		if upper && dst.kind == full {
			dst.set(oi*n+oi, 0)
		}
	}
}

// vawRow sets d[t] to the variance-adjusted distance between the engine's
// samples i (row ri of the tile) and j0+t (a column of the tile's column
// block), from the tile's shared sums (w.va) and the one-sided sums of the
// global table or, without one, of the tile (w.vs).
func (e *Engine) vawRow(w *workspace, d []float64, i, ri, j0 int) {
	v := e.vw
	clo := j0 &^ (blockSize - 1)
	base := ri*blockSize + j0 - clo
	nent := e.nent[j0 : j0+len(d)]
	if v.u != nil {
		nd := len(v.totals)
		ui, ci := v.u[i*nd:(i+1)*nd], int(v.class[i])
		v.rowDists(e.method, d, &w.va, base, e.nent[i], nent, func(t int) float64 {
			j := j0 + t
			return ui[v.class[j]] + v.u[j*nd+ci]
		})
		return
	}
	vs := &w.vs
	ncc, ncr := len(vs.cc), len(vs.cr)
	ui, ci := vs.ur[ri*ncc:(ri+1)*ncc], int(vs.kr[ri])
	v.rowDists(e.method, d, &w.va, base, e.nent[i], nent, func(t int) float64 {
		jl := j0 + t - clo
		return ui[vs.kc[jl]] + vs.uc[jl*ncr+ci]
	})
}

// distRow sets d[t] = dist(meth, ti+tot[t], acc[t], acc2[t]) (acc2 only
// for Generalized).
func distRow(meth Method, d []float64, ti float64, tot, acc, acc2 []float64) {
	tot, acc = tot[:len(d)], acc[:len(d)]
	switch meth {
	case WeightedUnnormalized:
		for t := range d {
			x := ti + tot[t] - 2*acc[t]
			if x < 0 {
				x = 0
			}
			d[t] = x
		}
	case WeightedNormalized:
		for t := range d {
			s := ti + tot[t]
			var x float64
			if s != 0 {
				x = (s - 2*acc[t]) / s
			}
			if x < 0 {
				x = 0
			}
			d[t] = x
		}
	default:
		if acc2 == nil {
			acc2 = acc
		}
		acc2 = acc2[:len(d)]
		for t := range d {
			d[t] = dist(meth, ti+tot[t], acc[t], acc2[t])
		}
	}
}

func (o *out) set(k int, d float64) {
	if o.f64 != nil {
		o.f64[k] = d
	} else {
		o.f32[k] = float32(d)
	}
}
