package emd

import (
	"fmt"
	"math"
	"slices"
)

// Pricing: the choice of the entering arc.
//
// Block search on the whole dense n×m cost matrix, as in LEMON and POT,
// streams the matrix from memory many times over (about 19 matrix volumes
// per solve at n = m = 3000 in our measurements). Here the pivots search a
// shortlist of candidate arcs instead, kept small enough to stay in cache,
// and the full matrix is priced only to refill it (the shortlist idea of
// Gottschlich & Schuhmacher 2014, with partial pricing passes):
//
//   - The first shortlist holds the shortK0 cheapest arcs of every row and of
//     every column; the starting plan (init.go) is the greedy least-cost plan
//     on it.
//   - Pivots use the block search rule (Grigoriadis 1986) on the shortlist:
//     it is scanned cyclically in blocks of about √(its length) arcs, and the
//     most negative arc of the first block holding one enters.
//   - When no shortlisted arc has a negative reduced cost, a pricing pass
//     scans the rows of the matrix cyclically and adds the shortK1 most
//     negative arcs of each row, stopping after a full row once
//     passStop·(n+m) arcs were added. A pass that goes through all n rows
//     without finding a negative arc proves optimality: no pivot happens
//     during a pass, so it checks every arc against the same potentials.
//
// Arcs in the shortlist all have reduced costs ≥ −eps when a pass starts,
// so a pass never adds an arc that is already listed. When the shortlist
// outgrows shortCap·(n+m) arcs, the half with the largest reduced costs is
// dropped.
const (
	shortK0  = 8
	shortK1  = 32
	passStop = 0.5
	shortCap = 32
)

// sarc is a shortlisted arc: from row i to column j, with cost c.
type sarc struct {
	c    float64
	i, j int32
}

// findEntering returns an arc whose reduced cost is below −eps, or ok =
// false when there is none (the tree is optimal).
func (w *network) findEntering() (a sarc, ok bool) {
	for {
		if a, ok := w.searchShort(); ok {
			return a, true
		}
		if !w.pricingPass() {
			return sarc{}, false
		}
	}
}

// isTree reports whether the arc from row i to column j is in the tree. Tree
// arcs have zero reduced cost up to rounding; this check keeps one whose
// reduced cost drifted below −eps from being chosen to enter.
func (w *network) isTree(i, j int32) bool {
	e := int(i)*w.m + int(j)
	return w.pred[i] == e || w.pred[w.n+int(j)] == e
}

// searchShort is the block search over the shortlist.
func (w *network) searchShort() (sarc, bool) {
	short := w.short
	L := len(short)
	if L == 0 {
		return sarc{}, false
	}
	pi := w.pi
	piCol := pi[w.n:]
	best := -w.eps
	bk := -1
	k := w.next
	cnt := w.block
	for seen := 0; seen < L; seen++ {
		a := short[k]
		if rc := a.c + pi[a.i] - piCol[a.j]; rc < best && !w.isTree(a.i, a.j) {
			best, bk = rc, k
		}
		k++
		if k == L {
			k = 0
		}
		cnt--
		if cnt == 0 {
			if bk >= 0 {
				break
			}
			cnt = w.block
		}
	}
	w.next = k
	if bk < 0 {
		return sarc{}, false
	}
	return short[bk], true
}

// pricingPass scans rows of the cost matrix for arcs with negative reduced
// cost and adds the most negative ones of each row to the shortlist. It
// reports whether it found any; false means the tree is optimal.
func (w *network) pricingPass() bool {
	n, m := w.n, w.m
	if len(w.short) > shortCap*(n+m) {
		w.prune()
	}
	K := shortK1
	topD, topJ := w.topD[:K], w.topJ[:K]
	piCol := w.pi[n : n+m]
	target := int(passStop * float64(n+m))
	added := 0
	for rows := 0; rows < n && added < target; rows++ {
		i := w.passRow
		if w.passRow++; w.passRow == n {
			w.passRow = 0
		}
		row := w.cost[w.rowOff[i] : w.rowOff[i]+m]
		pu := w.pi[i]
		// The K most negative reduced costs of the row, as
		// d = C[i,j] − piCol[j] < −eps − pu.
		cnt := selectNeg(row, piCol[:len(row)], -w.eps-pu, topD, topJ)
		tree := 0
		for t := range cnt {
			if j := topJ[t]; !w.isTree(int32(i), j) {
				w.short = append(w.short, sarc{row[j], int32(i), j})
				added++
			} else {
				tree++
			}
		}
		if tree > 0 && cnt == K {
			// Tree arcs whose reduced cost drifted below −eps took places
			// in a full selection; look for a real candidate they hid.
			if j := w.bestNonTree(i, topD[K-1]+pu, topJ); j >= 0 {
				w.short = append(w.short, sarc{row[j], int32(i), int32(j)})
				added++
			}
		}
	}
	w.setBlock()
	return added > 0
}

// bestNonTree returns the column of the most negative arc of row i that is
// not in the tree, not in skip, and has a reduced cost in [lo, −eps), or -1.
func (w *network) bestNonTree(i int, lo float64, skip []int32) int {
	n := w.n
	best, bj := -w.eps, -1
	row := w.cost[w.rowOff[i] : w.rowOff[i]+w.m]
	for j, c := range row {
		if rc := c + w.pi[i] - w.pi[n+j]; rc >= lo && rc < best &&
			!w.isTree(int32(i), int32(j)) && !slices.Contains(skip, int32(j)) {
			best, bj = rc, j
		}
	}
	return bj
}

// selectNeg returns in topD[:cnt], topJ[:cnt] (ascending) the len(topD)
// smallest values d = row[j] − pc[j] below thr, with their indices j. It is
// the inner loop of the pricing passes, unrolled by four since values below
// the threshold are rare.
func selectNeg(row, pc []float64, thr float64, topD []float64, topJ []int32) (cnt int) {
	K := len(topD)
	pc = pc[:len(row)]
	j := 0
	for ; j+4 <= len(row); j += 4 {
		r := row[j : j+4 : j+4]
		p := pc[j : j+4 : j+4]
		d0 := r[0] - p[0]
		d1 := r[1] - p[1]
		d2 := r[2] - p[2]
		d3 := r[3] - p[3]
		if d0 < thr || d1 < thr || d2 < thr || d3 < thr {
			for t, d := range [4]float64{d0, d1, d2, d3} {
				if d < thr {
					cnt = insertTop(topD, topJ, cnt, d, int32(j+t))
					if cnt == K {
						thr = topD[K-1]
					}
				}
			}
		}
	}
	for ; j < len(row); j++ {
		if d := row[j] - pc[j]; d < thr {
			cnt = insertTop(topD, topJ, cnt, d, int32(j))
			if cnt == K {
				thr = topD[K-1]
			}
		}
	}
	return cnt
}

// nextEvent returns the first index k ≥ j at which row[k] needs attention
// in buildShort: it is below thr or ct[k], or its bits exceed maxBits
// (for non-negative floats the bit patterns are ordered like the values,
// and negative numbers, infinities and NaNs all have larger patterns than
// any finite non-negative maxC). It returns len(row) if there is none.
func nextEvent(row, ct []float64, j int, thr float64, maxBits uint64) int {
	ct = ct[:len(row)]
	for ; j+2 <= len(row); j += 2 {
		r := row[j : j+2 : j+2]
		t := ct[j : j+2 : j+2]
		c0, c1 := r[0], r[1]
		if math.Float64bits(c0) > maxBits || c0 < thr || c0 < t[0] {
			return j
		}
		if math.Float64bits(c1) > maxBits || c1 < thr || c1 < t[1] {
			return j + 1
		}
	}
	for ; j < len(row); j++ {
		if c := row[j]; math.Float64bits(c) > maxBits || c < thr || c < ct[j] {
			return j
		}
	}
	return j
}

// insertTop inserts (d, j) into the ascending list topD[:cnt], topJ[:cnt]
// of capacity len(topD), dropping the largest entry when it is full, and
// returns the new length.
func insertTop(topD []float64, topJ []int32, cnt int, d float64, j int32) int {
	p := cnt
	if cnt < len(topD) {
		cnt++
	} else {
		p--
	}
	for p > 0 && topD[p-1] > d {
		topD[p] = topD[p-1]
		topJ[p] = topJ[p-1]
		p--
	}
	topD[p] = d
	topJ[p] = j
	return cnt
}

// prune drops from the shortlist about half of its arcs, those with the
// largest reduced costs (the median is estimated from a sample).
func (w *network) prune() {
	pi, piCol := w.pi, w.pi[w.n:]
	short := w.short
	if len(short) == 0 {
		return
	}
	const samples = 1023
	step := max(len(short)/samples, 1)
	sample := w.sample[:0]
	for k := 0; k < len(short); k += step {
		a := short[k]
		sample = append(sample, a.c+pi[a.i]-piCol[a.j])
	}
	slices.Sort(sample)
	median := sample[len(sample)/2]
	w.sample = sample
	k := 0
	for _, a := range short {
		if a.c+pi[a.i]-piCol[a.j] <= median {
			short[k] = a
			k++
		}
	}
	w.short = short[:k]
	w.next = 0
}

// setBlock sets the block size of the shortlist search to √(its length).
func (w *network) setBlock() {
	w.block = max(int(math.Sqrt(float64(len(w.short)))), 10)
	if w.next >= len(w.short) {
		w.next = 0
	}
}

// buildShort fills the first shortlist with the shortK0 cheapest arcs of
// every row and every column. It also checks the costs, which it is the
// first to read, and returns the largest, or an error for a negative, NaN or
// infinite cost. Errors name the cost by its index in the caller's matrix,
// of width origM, in which reduced row i and column j are rows[i] and
// cols[j].
func (s *Solver) buildShort(rows, cols []int, origM int) (maxC float64, err error) {
	w := &s.w
	n, m := w.n, w.m
	K := min(shortK0, m)
	Kc := min(shortK0, n)
	colD := growF(&s.colD, m*Kc)
	colI := grow32(&s.colI, m*Kc)
	colCnt := grow32(&s.colCnt, m)
	clear(colCnt)
	colThr := growF(&s.colThr, m)
	for j := range colThr {
		colThr[j] = inf
	}
	topD, topJ := w.topD[:K], w.topJ[:K]
	short := w.short[:0]
	var maxBits uint64 // bits of maxC
	for i := range n {
		row := w.cost[w.rowOff[i] : w.rowOff[i]+m]
		thr := inf
		cnt := 0
		ct := colThr[:len(row)]
		for j := 0; ; j++ {
			if j = nextEvent(row, ct, j, thr, maxBits); j == len(row) {
				break
			}
			c := row[j]
			if math.Float64bits(c) > maxBits {
				if !(c >= 0 && c <= math.MaxFloat64) {
					w.short = short
					return 0, fmt.Errorf("%w: cost[%d] = %v", ErrBadValue, rows[i]*origM+cols[j], c)
				}
				if c > maxC { // not −0
					maxC, maxBits = c, math.Float64bits(c)
				}
			}
			if c < thr {
				cnt = insertTop(topD, topJ, cnt, c, int32(j))
				if cnt == K {
					thr = topD[K-1]
				}
			}
			if c < ct[j] {
				o := j * Kc
				cc := insertTop(colD[o:o+Kc], colI[o:o+Kc], int(colCnt[j]), c, int32(i))
				colCnt[j] = int32(cc)
				if cc == Kc {
					ct[j] = colD[o+Kc-1]
				}
			}
		}
		for t := range cnt {
			short = append(short, sarc{topD[t], int32(i), topJ[t]})
		}
	}
	// Column candidates, less those already listed for their row (row i's
	// candidates are short[i*K : i*K+K], as every row has at least K arcs).
	for j := range m {
		o := j * Kc
	next:
		for t := range int(colCnt[j]) {
			i := colI[o+t]
			for _, a := range short[int(i)*K : int(i)*K+K] {
				if a.j == int32(j) {
					continue next
				}
			}
			short = append(short, sarc{colD[o+t], i, int32(j)})
		}
	}
	w.short = short
	w.next = 0
	w.passRow = 0
	w.setBlock()
	return maxC, nil
}
