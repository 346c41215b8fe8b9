package unifrac

import "math/bits"

// Unweighted blocks hold their sparse branches by group: the sparse
// branches 8g … 8g+7 make group g, and an entry says which of them one
// sample reaches, as the bits of a byte (bit i for branch 8g+i). A pair's
// shared length is then added group by group, in increasing g, each group's
// term being the lengths of the branches both samples reach in it, summed
// in increasing order from zero: a table of the 256 sums (groupSums) turns
// the AND of two samples' bytes into that term with one look-up. A sample's
// total adds its own groups' terms in the same order, so two samples that
// reach the same branches have a total equal to their shared length.

// groupBits is the number of sparse branches in a group.
const groupBits = 8

// groupBlock turns the branch index of an Unweighted block (entries sorted
// by branch, then by place in the block) into its group index: br[k] is
// then a group, and loc[j], bits[j] for j in [ptr[k], ptr[k+1]) are the
// block's samples reaching branches of the group, in increasing place, and
// the branches they reach.
func groupBlock(b *block) {
	if len(b.br) == 0 {
		return
	}
	var gr, ptr []int32
	n := 0 // group entries
	var seen [blockSize / 64]uint64
	var set [blockSize]uint8
	// First pass: count the groups and their entries.
	ng := 0
	for k := 0; k < len(b.br); {
		g := b.br[k] / groupBits
		clear(seen[:])
		for ; k < len(b.br) && b.br[k]/groupBits == g; k++ {
			for _, l := range b.loc[b.ptr[k]:b.ptr[k+1]] {
				seen[l/64] |= 1 << (l % 64)
			}
		}
		for _, s := range seen {
			n += bits.OnesCount64(s)
		}
		ng++
	}
	gr = make([]int32, 0, ng)
	ptr = make([]int32, 0, ng+1)
	loc := make([]uint8, 0, n)
	bit := make([]uint8, 0, n)
	for k := 0; k < len(b.br); {
		g := b.br[k] / groupBits
		gr = append(gr, g)
		ptr = append(ptr, int32(len(loc)))
		clear(seen[:])
		for ; k < len(b.br) && b.br[k]/groupBits == g; k++ {
			m := uint8(1) << (b.br[k] % groupBits)
			for _, l := range b.loc[b.ptr[k]:b.ptr[k+1]] {
				if seen[l/64]&(1<<(l%64)) == 0 {
					seen[l/64] |= 1 << (l % 64)
					set[l] = 0
				}
				set[l] |= m
			}
		}
		for w, s := range seen {
			for s != 0 {
				l := w*64 + bits.TrailingZeros64(s)
				s &= s - 1
				loc = append(loc, uint8(l))
				bit = append(bit, set[l])
			}
		}
	}
	ptr = append(ptr, int32(len(loc)))
	b.br, b.ptr, b.loc, b.bits = gr, ptr, loc, bit
}

// groupLens returns the lengths of the branches of group g (zero past the
// last sparse branch).
func groupLens(wsp []float64, g int32) (w [groupBits]float64) {
	copy(w[:], wsp[int(g)*groupBits:min(int(g+1)*groupBits, len(wsp))])
	return w
}

// groupTerm returns the sum of w[i] over the bits i of m, in increasing i,
// from zero.
func groupTerm(w *[groupBits]float64, m uint8) float64 {
	var s float64
	for m != 0 {
		s += w[bits.TrailingZeros8(m)]
		m &= m - 1
	}
	return s
}

// groupSums sets t[m] = groupTerm(w, m) for every byte m.
func groupSums(t *[256]float64, w *[groupBits]float64) {
	t[0] = 0
	for m := 1; m < 256; m++ {
		h := bits.Len8(uint8(m)) - 1
		t[m] = t[m&^(1<<h)] + w[h]
	}
}

// groupTotals adds to t[l] the shared length of each sample l of the
// Unweighted block bk with itself: its groups' terms, in increasing group.
func groupTotals(t *[blockSize]float64, bk *block, wsp []float64) {
	for k, g := range bk.br {
		w := groupLens(wsp, g)
		for j := bk.ptr[k]; j < bk.ptr[k+1]; j++ {
			t[bk.loc[j]] += groupTerm(&w, bk.bits[j])
		}
	}
}

// lutMin is the number of pairs of a group in a tile from which a table of
// its 256 terms pays.
const lutMin = 64

// sparseGroups is sparseMin for Unweighted blocks: for each group that
// samples of both blocks reach, it adds each pair's term into acc. With
// upper (bi and bj are one block), only pairs i < j.
func sparseGroups(acc []float64, bi, bj *block, wsp []float64, upper bool) {
	var lut [256]float64
	do := func(g int32, p0, p1, q0, q1 int32) {
		w := groupLens(wsp, g)
		np := int(p1 - p0)
		nq := int(q1 - q0)
		if upper {
			nq = np / 2
		}
		if np*nq < lutMin {
			for p := p0; p < p1; p++ {
				r := (*[blockSize]float64)(acc[int(bi.loc[p])*blockSize:])
				bp := bi.bits[p]
				if upper {
					q0 = p + 1
				}
				for q := q0; q < q1; q++ {
					if m := bp & bj.bits[q]; m != 0 {
						r[bj.loc[q]] += groupTerm(&w, m)
					}
				}
			}
			return
		}
		groupSums(&lut, &w)
		for p := p0; p < p1; p++ {
			if upper {
				q0 = p + 1
			}
			addGroup(acc, bi.loc[p], bi.bits[p], &lut, bj.loc[q0:q1], bj.bits[q0:q1])
		}
	}
	if upper {
		for k, g := range bi.br {
			do(g, bi.ptr[k], bi.ptr[k+1], bi.ptr[k], bi.ptr[k+1])
		}
		return
	}
	p, q := 0, 0
	for p < len(bi.br) && q < len(bj.br) {
		a, b := bi.br[p], bj.br[q]
		if a < b {
			p++
			continue
		}
		if a > b {
			q++
			continue
		}
		do(a, bi.ptr[p], bi.ptr[p+1], bj.ptr[q], bj.ptr[q+1])
		p++
		q++
	}
}

// addGroup adds lut[m & bits[t]] to acc[row*blockSize+cols[t]] for each t.
// Adding lut[0] = 0 leaves a sum unchanged.
func addGroup(acc []float64, row uint8, m uint8, lut *[256]float64, cols, bits []uint8) {
	r := (*[blockSize]float64)(acc[int(row)*blockSize:])
	bits = bits[:len(cols)]
	for t, l := range cols {
		r[l] += lut[m&bits[t]]
	}
}
