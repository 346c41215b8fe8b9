package unifrac

import (
	"context"
	"math"
	"sync"

	"github.com/twl-ldl/twl/internal/parallel"
)

// Self stores the distances between the columns themselves, each pair
// computed once: in dst the pairs i < j in the condensed order of
// Engine.Condensed (pair (i, j) at i·N − i(i+1)/2 + j − i − 1), and in
// diag, when it is not nil, the distance of each column to itself. The
// values are those that Query gives, bit for bit, when its queries are the
// table the columns were prepared from: dst holds its entries (i, j) for
// i < j, diag its entries (i, i).
//
// Query of that table is symmetric, bit for bit, so dst also holds its
// entries (j, i). Both sides are then the same prepared samples, and the
// sums of a pair (i, j) are added in an order fixed by the two samples
// alone (dense chunks in order, each reduced in four lanes of
// min(x_i[k], x_j[k]); then the sparse branches both reach, in increasing
// branch order); min is symmetric on the prepared values (never NaN nor
// −0), and so are the other terms (a + b, |a − b| and w_e·a_e^α of the
// generalized method) and the totals' sum S_i + S_j. Each term of (j, i)
// is then the term of (i, j), added in the same place, and so is the
// distance.
//
// Self panics unless len(dst) = N(N−1)/2 and diag is nil or of length N. It
// returns the context's error, dst then partly written. Options.Progress
// is called after each tile, of the N_b(N_b+1)/2 for N_b blocks.
func (c *Columns) Self(ctx context.Context, dst, diag []float64) error {
	n := c.n
	if len(dst) != n*(n-1)/2 || diag != nil && len(diag) != n {
		panic("unifrac: destination has the wrong length")
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if diag != nil {
		c.diagonal(diag)
	}
	tiles := largestFirst(c.blocks, c.n, c.dp)
	var mu sync.Mutex
	done := 0
	parallel.Each(len(tiles), c.workers, func(t int) {
		if ctx.Err() != nil {
			return
		}
		w, _ := c.spaces.Get().(*workspace)
		if w == nil {
			w = newWorkspace(c.kind)
		}
		c.selfTile(w, int(tiles[t].bi), int(tiles[t].bj), dst)
		c.spaces.Put(w)
		if c.prog != nil {
			mu.Lock()
			done++
			c.prog(done, len(tiles))
			mu.Unlock()
		}
	})
	return ctx.Err()
}

// selfTile computes the pairs i < j of block bi of the columns with block
// bj ≥ bi into the condensed dst. A pair's sums are those of tile (Query):
// the same operands (sample i's values first) in the same order; on a
// diagonal tile (bi = bj) only the pairs i < j are visited, each branch
// adding its one term, as in tile.
func (c *Columns) selfTile(w *workspace, bi, bj int, dst []float64) {
	n := c.n
	rlo, rhi := bi*blockSize, min((bi+1)*blockSize, n)
	clo, chi := bj*blockSize, min((bj+1)*blockSize, n)
	upper := bi == bj
	acc := w.acc
	clear(acc)
	if c.kind == kindVaw {
		c.vawTile(w, &c.side, bi, bj, upper)
		for i := rlo; i < rhi; i++ {
			j0 := clo
			if upper {
				j0 = i + 1
			}
			if j0 >= chi {
				continue
			}
			k0 := i*n - i*(i+1)/2 - i - 1
			c.vawRow(w, dst[k0+j0:k0+chi], c.nent[i], i-rlo, j0)
		}
		return
	}
	if c.kind == Generalized {
		clear(w.acc2)
		sparseGeneralized(acc, w.acc2, &c.blocks[bi], &c.blocks[bj], c.wsp, c.alpha, upper, upper)
	} else {
		denseTile(acc, c.x, c.x, c.dp, rlo, rhi, clo, chi, upper)
		sparseMin(acc, &c.blocks[bi], &c.blocks[bj], c.wsp, upper, upper)
	}
	for i := rlo; i < rhi; i++ {
		j0 := clo
		if upper {
			j0 = i + 1
		}
		if j0 >= chi {
			continue
		}
		k0 := i*n - i*(i+1)/2 - i - 1
		row := dst[k0+j0 : k0+chi]
		base := (i-rlo)*blockSize - clo
		for j := j0; j < chi; j++ {
			var m2 float64
			if w.acc2 != nil {
				m2 = w.acc2[base+j]
			}
			row[j-j0] = dist(c.method, c.total[i]+c.total[j], acc[base+j], m2)
		}
	}
}

// diagonal stores in diag[i] the distance Query gives between column i
// and the same sample as a query: its sums are those of tile's pair
// (i, i), each dense chunk's minSum of the row with itself, then each
// sparse branch the sample reaches, in increasing branch order (for
// Unweighted, each group's term, in increasing group order).
func (c *Columns) diagonal(diag []float64) {
	if c.kind == kindVaw {
		c.vawDiagonal(diag)
		return
	}
	var acc, acc2 [blockSize]float64
	dp := c.dp
	for b := range c.blocks {
		lo, hi := b*blockSize, min((b+1)*blockSize, c.n)
		clear(acc[:])
		clear(acc2[:])
		for i := lo; i < hi && dp > 0; i++ {
			row := c.x[i*dp : (i+1)*dp]
			for ch := 0; ch < dp; ch += chunkLen {
				cl := min(chunkLen, dp-ch)
				acc[i-lo] += minSum(row[ch:ch+cl], row[ch:ch+cl])
			}
		}
		bk := &c.blocks[b]
		if c.kind == Unweighted {
			groupTotals(&acc, bk, c.wsp)
			bk = &block{}
		}
		for k, br := range bk.br {
			for p := bk.ptr[k]; p < bk.ptr[k+1]; p++ {
				l := bk.loc[p]
				switch {
				case c.kind == Generalized:
					a, pa := bk.val[p], bk.pw[p]
					s := a + a
					ws := c.wsp[br] * math.Pow(s, c.alpha)
					acc[l] += pa + pa - ws*(math.Abs(a-a)/s)
					acc2[l] += pa + pa - ws
				default:
					acc[l] += min(bk.val[p], bk.val[p])
				}
			}
		}
		for i := lo; i < hi; i++ {
			diag[i] = dist(c.method, c.total[i]+c.total[i], acc[i-lo], acc2[i-lo])
		}
	}
}

// vawDiagonal is diagonal for the variance-adjusted methods: a sample
// reaches the same branches as itself, so its distance to itself is that
// of its full terms alone (see vaw.dist), each branch's computed as
// sparseVaw computes it, in increasing branch order.
func (c *Columns) vawDiagonal(diag []float64) {
	v := c.vw
	var fn, fd [blockSize]float64
	var one, tn, td, to [1]float64
	for b := range c.blocks {
		lo, hi := b*blockSize, min((b+1)*blockSize, c.n)
		clear(fn[:])
		clear(fd[:])
		bk := &c.blocks[b]
		tot := c.total[lo:hi]
		for k, br := range bk.br {
			w := c.wsp[br]
			for p := bk.ptr[k]; p < bk.ptr[k+1]; p++ {
				l := bk.loc[p]
				c1, a1, C1 := bk.val[p], bk.pw[p], tot[l]
				one[0] = C1
				switch v.form {
				case vawWeighted:
					vawTermsWGo(tn[:], td[:], to[:], bk.val[p:p+1], bk.pw[p:p+1], one[:], c1, a1, C1, w, a1*w, C1-c1)
					fn[l] += tn[0]
					fd[l] += td[0]
				case vawUnweighted:
					vawTermsUGo(td[:], to[:], bk.val[p:p+1], one[:], c1, C1, w, C1-c1)
					fd[l] += td[0]
				default:
					n, d := v.full(c1, a1, c1, a1, w, C1+C1)
					fn[l] += n
					fd[l] += d
				}
			}
		}
		for l := range hi - lo {
			diag[lo+l] = v.dist(c.method, 0, fn[l], fd[l], 0, 0, 0, 0)
		}
	}
}
