package unifrac

import "math/bits"

// Unweighted blocks hold their sparse branches by group: the sparse
// branches groupBits·g … groupBits·g + groupBits − 1 (numbered in preorder,
// see classify) make group g, and an entry says which of them one sample
// reaches, as the bits of a mask (bit i for branch groupBits·g + i). A
// pair's shared length is added group by group, in increasing g, each
// group's term being the lengths of the branches both samples reach in it:
// for each byte of the mask, the lengths of its branches in increasing
// order, from zero; then the bytes' sums in increasing order, from zero.
// Per-byte tables of the 256 sums (groupSums) turn the AND of two samples'
// masks into that term with one look-up per byte. A sample's total adds its
// own groups' terms in the same order, so two samples that reach the same
// branches have a total equal to their shared length.

// groupBytes is the number of bytes of a group's mask, groupBits its
// number of sparse branches.
const (
	groupBytes = 4
	groupBits  = 8 * groupBytes
)

// groupMask holds the bits of a group.
type groupMask = uint32

// lowBit returns the lowest set bit of m.
func lowBit(m groupMask) int { return bits.TrailingZeros32(m) }

// makeGroupBlock is makeBlock for Unweighted entries: it packs them into
// a block indexed by group, br[k] a group and loc[j], bits[j] for j in
// [ptr[k], ptr[k+1]) the block's samples reaching branches of the group, in
// increasing place, and the branches they reach. The entries of one sample
// and group must be consecutive among those of the sample, and the samples
// come in increasing place within each group (as fill and gather add
// them). scratch is reused.
func makeGroupBlock(ent *entries, scratch *[]int32) block {
	var b block
	m := len(ent.br)
	if m == 0 {
		b.ptr = []int32{0}
		return b
	}
	maxG := int32(0)
	for _, br := range ent.br {
		maxG = max(maxG, br/groupBits)
	}
	// scratch holds each group's count, the place+1 of its last entry and
	// that entry's index, then the entries merged by sample and group:
	// group<<8 | place, and the mask.
	ng := int(maxG) + 1
	need := 3*ng + 1 + 2*m
	if cap(*scratch) < need {
		*scratch = make([]int32, need)
	}
	sc := (*scratch)[:need]
	cnt, stamp, pos := sc[:ng+1], sc[ng+1:2*ng+1], sc[2*ng+1:3*ng+1]
	key, mask := sc[3*ng+1:3*ng+1+m], sc[3*ng+1+m:]
	clear(sc[:3*ng+1])
	c := 0
	locs := ent.loc[:m]
	for i, br := range ent.br {
		g := br / groupBits
		l := int32(locs[i])
		bit := int32(1) << (br % groupBits)
		if stamp[g] == l+1 {
			mask[pos[g]] |= bit
			continue
		}
		stamp[g] = l + 1
		pos[g] = int32(c)
		key[c] = g<<8 | l
		mask[c] = bit
		cnt[g+1]++
		c++
	}
	groups := 0
	for _, n := range cnt[1:] {
		if n > 0 {
			groups++
		}
	}
	b.br = make([]int32, 0, groups)
	b.ptr = make([]int32, 0, groups+1)
	for g := range ng {
		if cnt[g+1] > 0 {
			b.br = append(b.br, int32(g))
		}
		cnt[g+1] += cnt[g]
	}
	for _, g := range b.br {
		b.ptr = append(b.ptr, cnt[g])
	}
	b.ptr = append(b.ptr, int32(c))
	b.loc = make([]uint8, c)
	b.bits = make([]groupMask, c)
	for i, k := range key[:c] {
		g := k >> 8
		j := cnt[g]
		cnt[g]++
		b.loc[j] = uint8(k)
		b.bits[j] = groupMask(mask[i])
	}
	return b
}

// groupLens returns the lengths of the branches of group g (zero past the
// last sparse branch).
func groupLens(wsp []float64, g int32) (w [groupBits]float64) {
	copy(w[:], wsp[int(g)*groupBits:min(int(g+1)*groupBits, len(wsp))])
	return w
}

// groupTerm returns a group's term for the branches m: for each byte of m
// in turn, the sum of the lengths w[i] of its bits i, in increasing i, from
// zero; then the bytes' sums added in increasing order, from zero.
func groupTerm(w *[groupBits]float64, m groupMask) float64 {
	var s float64
	for h := range groupBytes {
		s += byteTerm((*[8]float64)(w[8*h:]), uint8(m>>(8*h)))
	}
	return s
}

// byteTerm returns the sum of w[i] over the bits i of m, in increasing i,
// from zero.
func byteTerm(w *[8]float64, m uint8) float64 {
	var s float64
	for m != 0 {
		s += w[bits.TrailingZeros8(m)&7]
		m &= m - 1
	}
	return s
}

// groupSums sets t[h][m] = byteTerm(w[8h:], m) for the bytes m whose bits
// lie at or below the highest bit of byte h of used, so that
// groupTerm(w, m) is the sum over h of t[h][byte h of m] for every m whose
// bits are all in used.
func groupSums(t *[groupBytes][256]float64, w *[groupBits]float64, used groupMask) {
	for h := range groupBytes {
		t := &t[h]
		t[0] = 0
		n := bits.Len8(uint8(used >> (8 * h)))
		for i := range n {
			wi := w[8*h+i]
			lo, hi := t[:1<<i], t[1<<i:2<<i]
			for m, x := range lo {
				hi[m] = x + wi
			}
		}
	}
}

// sumsCost returns the number of entries groupSums writes for used.
func sumsCost(used groupMask) int {
	n := 0
	for h := range groupBytes {
		n += 1 << bits.Len8(uint8(used>>(8*h)))
	}
	return n
}

// groupTotals adds to t[l] the shared length of each sample l of the
// Unweighted block bk with itself: its groups' terms, in increasing group.
func groupTotals(t *[blockSize]float64, bk *block, wsp []float64) {
	var lut [groupBytes][256]float64
	for k, g := range bk.br {
		w := groupLens(wsp, g)
		p0, p1 := bk.ptr[k], bk.ptr[k+1]
		if p1-p0 < 16 {
			for j := p0; j < p1; j++ {
				t[bk.loc[j]] += groupTerm(&w, bk.bits[j])
			}
			continue
		}
		var used groupMask
		for _, m := range bk.bits[p0:p1] {
			used |= m
		}
		groupSums(&lut, &w, used)
		for j := p0; j < p1; j++ {
			m := bk.bits[j]
			var s float64
			for h := range groupBytes {
				s += lut[h][uint8(m>>(8*h))]
			}
			t[bk.loc[j]] += s
		}
	}
}

// sparseGroups is sparseMin for Unweighted blocks: for each group that
// samples of both blocks reach, it adds each pair's term into acc. With
// upper (bi and bj are one block), only pairs i < j.
func sparseGroups(acc []float64, bi, bj *block, wsp []float64, upper bool) {
	var lut [groupBytes][256]float64
	do := func(g int32, p0, p1, q0, q1 int32) {
		w := groupLens(wsp, g)
		var ur, uc groupMask
		for _, m := range bi.bits[p0:p1] {
			ur |= m
		}
		uc = ur
		if !upper {
			uc = 0
			for _, m := range bj.bits[q0:q1] {
				uc |= m
			}
		}
		used := ur & uc
		if used == 0 {
			return
		}
		pairs := int(p1-p0) * int(q1-q0)
		if upper {
			pairs /= 2
		}
		if pairs < sumsCost(used)/16 {
			// Few pairs: their terms one by one.
			for p := p0; p < p1; p++ {
				r := (*[blockSize]float64)(acc[int(bi.loc[p])*blockSize:])
				bp := bi.bits[p]
				if upper {
					q0 = p + 1
				}
				for q := q0; q < q1; q++ {
					m := bp & bj.bits[q]
					switch {
					case m == 0:
					case m&(m-1) == 0:
						r[bj.loc[q]] += w[lowBit(m)]
					default:
						r[bj.loc[q]] += groupTerm(&w, m)
					}
				}
			}
			return
		}
		groupSums(&lut, &w, used)
		// The bytes of used: a term adds the sums of those bytes only (the
		// others add zeros, which change no sum).
		var hs [groupBytes]int
		nh := 0
		for h := range groupBytes {
			if uint8(used>>(8*h)) != 0 {
				hs[nh] = h
				nh++
			}
		}
		p := p0
		if nh > 2 {
			// Two rows at a time.
			for ; p+1 < p1; p += 2 {
				if upper {
					addGroup(acc, bi.loc[p], bi.bits[p]&used, &lut, bj.loc[p+1:p+2], bj.bits[p+1:p+2])
					q0 = p + 2
				}
				addGroupRows2(acc, bi.loc[p], bi.loc[p+1], bi.bits[p]&used, bi.bits[p+1]&used, &lut, bj.loc[q0:q1], bj.bits[q0:q1])
			}
		}
		for ; p < p1; p++ {
			if upper {
				q0 = p + 1
			}
			m := bi.bits[p] & used
			switch nh {
			case 1:
				addGroup1(acc, bi.loc[p], m, &lut[hs[0]], 8*uint(hs[0]), bj.loc[q0:q1], bj.bits[q0:q1])
			case 2:
				addGroup2(acc, bi.loc[p], m, &lut[hs[0]], &lut[hs[1]], 8*uint(hs[0]), 8*uint(hs[1]), bj.loc[q0:q1], bj.bits[q0:q1])
			default:
				addGroup(acc, bi.loc[p], m, &lut, bj.loc[q0:q1], bj.bits[q0:q1])
			}
		}
	}
	if upper {
		for k, g := range bi.br {
			do(g, bi.ptr[k], bi.ptr[k+1], bi.ptr[k], bi.ptr[k+1])
		}
		return
	}
	eachShared(bi, bj, func(p, q int) {
		do(bi.br[p], bi.ptr[p], bi.ptr[p+1], bj.ptr[q], bj.ptr[q+1])
	})
}

// addGroup adds the term of m & bits[t] (from lut, see groupSums) to
// acc[row*blockSize+cols[t]] for each t. A term of no branch is 0 and
// leaves a sum unchanged.
func addGroup(acc []float64, row uint8, m groupMask, lut *[groupBytes][256]float64, cols []uint8, bits []groupMask) {
	r := (*[blockSize]float64)(acc[int(row)*blockSize:])
	bits = bits[:len(cols)]
	l0, l1, l2, l3 := &lut[0], &lut[1], &lut[2], &lut[3]
	for t, l := range cols {
		x := m & bits[t]
		r[l] += ((l0[uint8(x)] + l1[uint8(x>>8)]) + l2[uint8(x>>16)]) + l3[uint8(x>>24)]
	}
}

// addGroup1 is addGroup for masks whose bits all lie in the byte at shift
// sh, whose sums are t.
func addGroup1(acc []float64, row uint8, m groupMask, t *[256]float64, sh uint, cols []uint8, bits []groupMask) {
	r := (*[blockSize]float64)(acc[int(row)*blockSize:])
	bits = bits[:len(cols)]
	for k, l := range cols {
		r[l] += t[uint8((m&bits[k])>>sh)]
	}
}

// addGroup2 is addGroup for masks whose bits all lie in the bytes at shifts
// s0 < s1, whose sums are t0 and t1.
func addGroup2(acc []float64, row uint8, m groupMask, t0, t1 *[256]float64, s0, s1 uint, cols []uint8, bits []groupMask) {
	r := (*[blockSize]float64)(acc[int(row)*blockSize:])
	bits = bits[:len(cols)]
	for k, l := range cols {
		x := m & bits[k]
		r[l] += t0[uint8(x>>s0)] + t1[uint8(x>>s1)]
	}
}

// addGroupRows2 is addGroup for two rows with the masks m0 and m1.
func addGroupRows2(acc []float64, row0, row1 uint8, m0, m1 groupMask, lut *[groupBytes][256]float64, cols []uint8, bits []groupMask) {
	r0 := (*[blockSize]float64)(acc[int(row0)*blockSize:])
	r1 := (*[blockSize]float64)(acc[int(row1)*blockSize:])
	bits = bits[:len(cols)]
	l0, l1, l2, l3 := &lut[0], &lut[1], &lut[2], &lut[3]
	for t, l := range cols {
		b := bits[t]
		x, y := m0&b, m1&b
		r0[l] += ((l0[uint8(x)] + l1[uint8(x>>8)]) + l2[uint8(x>>16)]) + l3[uint8(x>>24)]
		r1[l] += ((l0[uint8(y)] + l1[uint8(y>>8)]) + l2[uint8(y>>16)]) + l3[uint8(y>>24)]
	}
}
