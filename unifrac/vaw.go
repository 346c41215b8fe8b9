package unifrac

import (
	"math"
	"slices"

	"github.com/twl-ldl/twl/internal/parallel"
)

// Variance-adjusted UniFrac (Options.VarianceAdjusted) divides the term of
// branch e of the pair (s, t) by v_e = √(m_e (m − m_e)), m_e = c_s(e) +
// c_t(e) the pair's counts below e and m = C_s + C_t their totals. The
// divisor depends on both samples, so the sums are split differently
// from the plain methods'. On a branch that sample s reaches and t does
// not, the term is the one-sided
//
//	o_s(e; C_t) = w_e·a_s(e) / √(c_s(e)·((C_s − c_s(e)) + C_t))   (weighted)
//	              w_e / √(…)                                     (unweighted)
//	              w_e·(a_s(e)/√(…))^α                            (generalized)
//
// the same in the numerator and the denominator, a function of sample s
// and the other sample's total C_t only. So
//
//	num(s, t) = (U_s(C_t) + U_t(C_s) − Σ_{e reached by both} (o_s(e; C_t) + o_t(e; C_s))) + Σ_{e reached by both} full_e
//
// (the same for the denominator with its full terms), where U_s(C) =
// Σ_{e reached by s} o_s(e; C) is summed once per sample and distinct
// total count C of the table (a class): U is an N×D table, D the number
// of distinct totals (1 for a rarefied table). The pair's own work is
// then on the branches its two samples share, as for the other methods,
// at three square roots each, with the number of those branches. When the table would take more than
// vawGlobalMax values and more than the prepared samples' own memory, the
// one-sided sums are computed for each tile instead, for the distinct
// totals of its other block: the same sums, bit for bit, at more work
// (as much as the global table's when D is near N, up to N/256 times
// more when D is small).
//
// Each term is computed by one function of its operands and each sum
// added in a fixed order (U_s over the sample's branches in increasing
// order; the corrections over the shared branches in increasing order;
// then U_s(C_t) + U_t(C_s), then that less the shared one-sided terms,
// then plus the full terms), all symmetric in s and t, so the values do
// not depend on the tiling or the number of workers. The difference
// U_s + U_t − Σ_shared (o_s + o_t) is the sum over the branches that one
// sample reaches and the other does not: when there are none (the two
// samples reach the same branches, as equal samples do) it is 0 and the
// pair's sums are its full terms alone, so equal samples are at distance
// exactly 0; otherwise its error is relative to U_s + U_t, as the plain
// methods' is to S_s + S_t.

// kindVaw is the kind (see kindOf) of the variance-adjusted methods: every
// branch sparse, each entry holding the sample's count c below the
// branch (val) and its mass a (pw), the side's total the sample's total
// count.
const kindVaw Method = 1 << 8

// vawGlobalMax is the number of values (64 MiB) that the global table of
// one-sided sums may always take; beyond, it may take as much memory as
// the prepared samples.
var vawGlobalMax = 1 << 23

// vawPerTile makes every engine compute the one-sided sums per tile (for
// the tests).
var vawPerTile = false

// vawForm is the shape of a method's variance-adjusted terms.
type vawForm int

const (
	vawWeighted vawForm = iota
	vawUnweighted
	vawGeneralized
)

func formOf(m Method) vawForm {
	switch m {
	case Unweighted, UnweightedUnnormalized:
		return vawUnweighted
	case Generalized:
		return vawGeneralized
	}
	return vawWeighted
}

// vaw holds an engine's variance-adjusted state: the classes of totals
// and, when global, the one-sided sums.
type vaw struct {
	form  vawForm
	alpha float64
	// class[s] is the index in totals of sample s's total count; totals
	// are the distinct totals, increasing.
	class  []int32
	totals []float64
	// u[s*len(totals)+d] is U_s(totals[d]), or nil when computed per
	// tile.
	u []float64
}

// one returns o_s(e; co) for a sample with count c and mass a below a
// branch of length w and total count cs, against a total co.
func (v *vaw) one(c, a, w, cs, co float64) float64 {
	r := math.Sqrt(c * ((cs - c) + co))
	if !(r > 0) {
		return 0
	}
	switch v.form {
	case vawUnweighted:
		return w / r
	case vawGeneralized:
		return math.Pow(a/r, v.alpha) * w
	}
	return a * w / r
}

// full returns the terms of a branch of length w that both samples reach
// (counts c1, c2, masses a1, a2, totals adding up to m) in the numerator
// and the denominator.
func (v *vaw) full(c1, a1, c2, a2, w, m float64) (num, den float64) {
	mi := c1 + c2
	r := math.Sqrt(mi * (m - mi))
	if !(r > 0) {
		return 0, 0
	}
	switch v.form {
	case vawUnweighted:
		return 0, w / r
	case vawGeneralized:
		s := (a1 + a2) / r
		p := math.Pow(s, v.alpha) * w
		return p * ((math.Abs(a1-a2) / r) / s), p
	}
	return math.Abs(a1-a2) * w / r, (a1 + a2) * w / r
}

// oneSided sets dst[l*len(cls)+d] to U_s(cls[d]) for each sample s = lo+l
// of block bk (whose total counts are tot[l]), the sums over the sample's
// entries in increasing branch order. The terms are those of one, with
// its operations in the same order (the weighted and unweighted loops
// compute one's expression with the branch's factors hoisted); a
// class of total 0 (an empty sample, with Raw) goes through one itself.
func (v *vaw) oneSided(dst []float64, bk *block, tot []float64, wsp, cls []float64) {
	nd := len(cls)
	clear(dst)
	d0 := 0
	if nd > 0 && !(cls[0] > 0) {
		d0 = 1
	}
	for k, br := range bk.br {
		w := wsp[br]
		for j := bk.ptr[k]; j < bk.ptr[k+1]; j++ {
			l := int(bk.loc[j])
			c, a, cs := bk.val[j], bk.pw[j], tot[l]
			row := dst[l*nd : (l+1)*nd]
			if d0 > 0 {
				row[0] += v.one(c, a, w, cs, cls[0])
			}
			// c > 0 (the sample reaches the branch) and co > 0: the
			// root is positive.
			K := cs - c
			switch v.form {
			case vawWeighted:
				g := a * w
				oneSidedRow(row[d0:], cls[d0:], c, K, g)
			case vawUnweighted:
				oneSidedRow(row[d0:], cls[d0:], c, K, w)
			default:
				for d := d0; d < nd; d++ {
					row[d] += v.one(c, a, w, cs, cls[d])
				}
			}
		}
	}
}

// oneSidedRowGo adds g/√(c·(K+cls[d])) to row[d] for each d: the weighted
// (g = a·w) and unweighted (g = w) one-sided terms of one.
func oneSidedRowGo(row, cls []float64, c, K, g float64) {
	row = row[:len(cls)]
	for d, co := range cls {
		row[d] += g / math.Sqrt(c*(K+co))
	}
}

// setup computes the classes of the totals of side s and, unless it is
// too large (see vawGlobalMax), the global table of one-sided sums.
func (v *vaw) setup(s *side, wsp []float64, workers int) {
	v.totals = slices.Clone(s.total)
	slices.Sort(v.totals)
	v.totals = slices.Compact(v.totals)
	v.class = make([]int32, s.n)
	for i, c := range s.total {
		d, _ := slices.BinarySearch(v.totals, c)
		v.class[i] = int32(d)
	}
	nd := len(v.totals)
	if need := int64(s.n) * int64(nd); vawPerTile || need > int64(vawGlobalMax) && 8*need > s.bytes(len(wsp)) {
		return
	}
	v.u = make([]float64, s.n*nd)
	parallel.Each(len(s.blocks), workers, func(b int) {
		lo, hi := b*blockSize, min((b+1)*blockSize, s.n)
		v.oneSided(v.u[lo*nd:hi*nd], &s.blocks[b], s.total[lo:hi], wsp, v.totals)
	})
}

// bytes returns the memory of the classes and the global table.
func (v *vaw) bytes() int64 {
	if v == nil {
		return 0
	}
	return int64(len(v.class))*4 + int64(len(v.totals)+len(v.u))*8
}

// vawAcc holds a tile's variance-adjusted sums over the branches that
// the pair's two samples share, each blockSize × blockSize: the full
// terms of the numerator (fn) and denominator (fd), the one-sided terms
// (o, the two samples' added), and the number of those branches (cnt).
type vawAcc struct {
	fn, fd, o []float64
	cnt       []int32
}

// reset makes the sums zero, allocating them on first use.
func (a *vawAcc) reset() {
	if a.fn == nil {
		a.fn = make([]float64, blockSize*blockSize)
		a.fd = make([]float64, blockSize*blockSize)
		a.o = make([]float64, blockSize*blockSize)
		a.cnt = make([]int32, blockSize*blockSize)
		return
	}
	clear(a.fn)
	clear(a.fd)
	clear(a.o)
	clear(a.cnt)
}

// dist returns the distance by method m of a pair whose one-sided sums
// add up to u, with shared sums fn, fd, o over cnt branches, the samples
// reaching ns and nt branches. When both reach only the shared branches,
// u − o is 0 exactly (every one-sided term is subtracted again) and the
// full terms alone are the sums: no cancellation, so equal samples are at
// distance 0 exactly.
func (v *vaw) dist(m Method, u, fn, fd, o float64, cnt, ns, nt int32) float64 {
	num, den := fn, fd
	if cnt != ns || cnt != nt {
		r := u - o
		num, den = r+fn, r+fd
	}
	return vawDist(m, num, den)
}

// sparseVaw adds into a, for each branch reached by samples of both
// blocks, its full and one-sided terms and counts it. ti and tj are the
// total counts of the blocks' samples. With upper (the blocks are one),
// only pairs i < j.
func (v *vaw) sparseVaw(a *vawAcc, bi, bj *block, ti, tj, wsp []float64, upper bool) {
	if v.form == vawGeneralized {
		v.sparseGeneralizedVaw(a, bi, bj, ti, tj, wsp, upper)
		return
	}
	// For each shared branch, the column entries' totals side by side;
	// then, row entry by row entry, the terms of its pairs (vawTermsW or
	// vawTermsU) added into the row's cells.
	var t2, tn, td, to [blockSize]float64
	branch := func(p0, p1 int32, bq *block, q0, q1 int32, w float64, tri bool) {
		for q := q0; q < q1; q++ {
			t2[q-q0] = tj[bq.loc[q]]
		}
		for p := p0; p < p1; p++ {
			qs := q0
			if tri {
				qs = p + 1
			}
			if qs >= q1 {
				continue
			}
			l := bi.loc[p]
			c1, C1 := bi.val[p], ti[l]
			K1 := C1 - c1
			m := int(q1 - qs)
			cols, ct := bq.loc[qs:q1], t2[qs-q0:int(qs-q0)+m]
			off := int(l) * blockSize
			fn := (*[blockSize]float64)(a.fn[off:])
			fd := (*[blockSize]float64)(a.fd[off:])
			fo := (*[blockSize]float64)(a.o[off:])
			cn := (*[blockSize]int32)(a.cnt[off:])
			if v.form == vawWeighted {
				a1 := bi.pw[p]
				vawTermsW(tn[:m], td[:m], to[:m], bq.val[qs:q1], bq.pw[qs:q1], ct, c1, a1, C1, w, a1*w, K1)
				for t, lq := range cols {
					fn[lq] += tn[t]
					fd[lq] += td[t]
					fo[lq] += to[t]
					cn[lq]++
				}
			} else {
				vawTermsU(td[:m], to[:m], bq.val[qs:q1], ct, c1, C1, w, K1)
				for t, lq := range cols {
					fd[lq] += td[t]
					fo[lq] += to[t]
					cn[lq]++
				}
			}
		}
	}
	if upper {
		for k, br := range bi.br {
			branch(bi.ptr[k], bi.ptr[k+1], bi, bi.ptr[k], bi.ptr[k+1], wsp[br], true)
		}
		return
	}
	eachShared(bi, bj, func(p, q int) {
		branch(bi.ptr[p], bi.ptr[p+1], bj, bj.ptr[q], bj.ptr[q+1], wsp[bi.br[p]], false)
	})
}

// vawTermsWGo is the reference form of vawTermsW: for the weighted
// methods, the terms of a row entry (count c1, mass a1, total C1 of its
// sample; g1 = a1·w, K1 = C1 − c1) with each column entry t (c2[t],
// a2[t], total t2[t]) on a branch of length w: the full terms fn[t],
// fd[t] (0 where the divisor is 0) and the two one-sided ones added, o[t].
func vawTermsWGo(fn, fd, o, c2, a2, t2 []float64, c1, a1, C1, w, g1, K1 float64) {
	n := len(fn)
	fd, o, c2, a2, t2 = fd[:n], o[:n], c2[:n], a2[:n], t2[:n]
	for t := range n {
		// one's terms, as oneSided sums them.
		o[t] = g1/math.Sqrt(c1*(K1+t2[t])) + a2[t]*w/math.Sqrt(c2[t]*((t2[t]-c2[t])+C1))
		mi := c1 + c2[t]
		var n, d float64
		if x := math.Sqrt(mi * ((C1 + t2[t]) - mi)); x > 0 {
			n, d = math.Abs(a1-a2[t])*w/x, (a1+a2[t])*w/x
		}
		fn[t], fd[t] = n, d
	}
}

// vawTermsUGo is the reference form of vawTermsU, the unweighted methods'
// vawTermsWGo (whose full numerator term is 0): fd[t] and o[t].
func vawTermsUGo(fd, o, c2, t2 []float64, c1, C1, w, K1 float64) {
	n := len(fd)
	o, c2, t2 = o[:n], c2[:n], t2[:n]
	for t := range n {
		o[t] = w/math.Sqrt(c1*(K1+t2[t])) + w/math.Sqrt(c2[t]*((t2[t]-c2[t])+C1))
		mi := c1 + c2[t]
		var d float64
		if x := math.Sqrt(mi * ((C1 + t2[t]) - mi)); x > 0 {
			d = w / x
		}
		fd[t] = d
	}
}

// sparseGeneralizedVaw is sparseVaw for Generalized.
func (v *vaw) sparseGeneralizedVaw(a *vawAcc, bi, bj *block, ti, tj, wsp []float64, upper bool) {
	pair := func(p int32, bq *block, q0, q1 int32, w float64) {
		l := bi.loc[p]
		c1, a1, C1 := bi.val[p], bi.pw[p], ti[l]
		off := int(l) * blockSize
		for q := q0; q < q1; q++ {
			lq := bq.loc[q]
			c2, a2, C2 := bq.val[q], bq.pw[q], tj[lq]
			fn, fd := v.full(c1, a1, c2, a2, w, C1+C2)
			k := off + int(lq)
			a.fn[k] += fn
			a.fd[k] += fd
			a.o[k] += v.one(c1, a1, w, C1, C2) + v.one(c2, a2, w, C2, C1)
			a.cnt[k]++
		}
	}
	if upper {
		for k, br := range bi.br {
			p0, p1 := bi.ptr[k], bi.ptr[k+1]
			for p := p0; p < p1; p++ {
				pair(p, bi, p+1, p1, wsp[br])
			}
		}
		return
	}
	eachShared(bi, bj, func(p, q int) {
		for r := bi.ptr[p]; r < bi.ptr[p+1]; r++ {
			pair(r, bj, bj.ptr[q], bj.ptr[q+1], wsp[bi.br[p]])
		}
	})
}

// rowDists sets d[t] to the distance by method m between a row sample
// (total count ct, n entries) and the column j0+t (totals tot[t], entry
// counts nent[t]), from the tile's shared sums at cells base+t and the
// one-sided sums u(t).
func (v *vaw) rowDists(m Method, d []float64, a *vawAcc, base int, nr int32, nent []int32, u func(t int) float64) {
	n := len(d)
	fn, fd, o, cnt := a.fn[base:base+n], a.fd[base:base+n], a.o[base:base+n], a.cnt[base:base+n]
	nent = nent[:n]
	for t := range d {
		d[t] = v.dist(m, u(t), fn[t], fd[t], o[t], cnt[t], nr, nent[t])
	}
}

// vawSums holds a tile's one-sided sums when they are not global: those
// of the rows against the columns' classes and of the columns against the
// rows'.
type vawSums struct {
	ur, uc   []float64
	cr, cc   []float64 // the classes: distinct totals of the rows, of the columns
	kr, kc   []int32   // each row's, each column's class in cr, cc
	scratchT []float64
}

// classesOf sets cls to the distinct values of tot, increasing, and k[i]
// to the index of tot[i] in it.
func classesOf(cls *[]float64, k *[]int32, tot []float64) {
	*cls = append((*cls)[:0], tot...)
	slices.Sort(*cls)
	*cls = slices.Compact(*cls)
	*k = (*k)[:0]
	for _, c := range tot {
		d, _ := slices.BinarySearch(*cls, c)
		*k = append(*k, int32(d))
	}
}

// tileSums computes the one-sided sums of a tile whose row block br
// (totals tr) meets column block bc (totals tc) into w.
func (v *vaw) tileSums(w *vawSums, br, bc *block, tr, tc, wsp []float64) {
	classesOf(&w.cr, &w.kr, tr)
	classesOf(&w.cc, &w.kc, tc)
	w.ur = grow(w.ur, len(tr)*len(w.cc))
	w.uc = grow(w.uc, len(tc)*len(w.cr))
	v.oneSided(w.ur, br, tr, wsp, w.cc)
	v.oneSided(w.uc, bc, tc, wsp, w.cr)
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// vawDist returns the distance of method m from the variance-adjusted
// numerator and denominator.
func vawDist(m Method, num, den float64) float64 {
	var d float64
	switch m {
	case WeightedUnnormalized, UnweightedUnnormalized:
		d = num
	default:
		if den == 0 {
			return 0
		}
		d = num / den
	}
	if d < 0 {
		return 0
	}
	return d
}
