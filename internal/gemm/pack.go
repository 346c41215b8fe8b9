package gemm

// Packed holds op(B) packed for MulPacked: a k×n matrix cut into the blocks
// of k of the arithmetic order (kBlocks) and panels of nr columns, each
// panel stored row after row (nr values per row, the columns past n zero).
// Packing once saves the packing of every Mul that uses the same B. The
// zero value is an empty 0×0 matrix. MulPacked only reads a Packed, so
// several may use one at once (each with its own Workspace), but not
// while Pack rewrites it.
type Packed struct {
	k, n   int
	panels int // ⌈n/nr⌉
	data   []float32
}

// K and N return the shape of op(B) as packed.
func (p *Packed) K() int { return p.k }
func (p *Packed) N() int { return p.n }

// Pack packs op(B), k×n: B itself k×n (ldb ≥ n), or n×k (ldb ≥ k) when
// transB, reusing p's memory. B is not modified, nor read again by
// MulPacked. Shape mistakes panic as in Mul.
func (p *Packed) Pack(b []float32, ldb int, transB bool, k, n int) {
	checkSizes(0, n, k)
	checkOperand("B", b, ldb, transB, k, n)
	p.k, p.n = k, n
	p.panels = (n + nr - 1) / nr
	p.data = grow(p.data, k*p.panels*nr)
	nb := kBlocks(k)
	for t := range nb {
		p0, p1 := t*k/nb, (t+1)*k/nb
		kb := p1 - p0
		blk := p.data[p0*p.panels*nr : p1*p.panels*nr]
		for q := range p.panels {
			j0 := q * nr
			packBPanel(blk[q*kb*nr:(q+1)*kb*nr], b, ldb, transB, p0, p1, j0, min(nr, n-j0))
		}
	}
}

// packBPanel stores in dst rows p0 … p1−1 of columns j0 … j0+cols−1 of
// op(B), nr values a row, zero past cols.
func packBPanel(dst, b []float32, ldb int, transB bool, p0, p1, j0, cols int) {
	kb := p1 - p0
	dst = dst[:kb*nr]
	switch {
	case !transB && cols == nr:
		for p := p0; p < p1; p++ {
			*(*[nr]float32)(dst[(p-p0)*nr:]) = *(*[nr]float32)(b[p*ldb+j0:])
		}
	case !transB:
		for p := p0; p < p1; p++ {
			d := dst[(p-p0)*nr : (p-p0+1)*nr]
			copy(d, b[p*ldb+j0:p*ldb+j0+cols])
			clear(d[cols:])
		}
	case cols == nr:
		// op(B)(p, j) = B(j, p): the panel's columns are rows of B, read
		// sixteen at once, one element of each per row of the panel.
		var r [nr][]float32
		for jj := range r {
			r[jj] = b[(j0+jj)*ldb+p0 : (j0+jj)*ldb+p1]
		}
		r0, r1, r2, r3, r4, r5, r6, r7 := r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]
		r8, r9, r10, r11, r12, r13, r14, r15 := r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15]
		for pp := range kb {
			d := (*[nr]float32)(dst[pp*nr:])
			d[0], d[1], d[2], d[3] = r0[pp], r1[pp], r2[pp], r3[pp]
			d[4], d[5], d[6], d[7] = r4[pp], r5[pp], r6[pp], r7[pp]
			d[8], d[9], d[10], d[11] = r8[pp], r9[pp], r10[pp], r11[pp]
			d[12], d[13], d[14], d[15] = r12[pp], r13[pp], r14[pp], r15[pp]
		}
	default:
		clear(dst)
		for jj := range cols {
			src := b[(j0+jj)*ldb+p0 : (j0+jj)*ldb+p1]
			for pp, v := range src {
				dst[pp*nr+jj] = v
			}
		}
	}
}

// packAPanel stores in dst columns p0 … p1−1 of rows i0 … i0+rows−1 of
// op(A), mr values a column, zero past rows.
func packAPanel(dst, a []float32, lda int, transA bool, i0, rows, p0, p1 int) {
	kb := p1 - p0
	if transA {
		// op(A)(i, p) = A(p, i): row p of A holds column p of the panel.
		for p := p0; p < p1; p++ {
			d := dst[(p-p0)*mr : (p-p0+1)*mr]
			copy(d, a[p*lda+i0:p*lda+i0+rows])
			clear(d[rows:])
		}
		return
	}
	for r := range rows {
		src := a[(i0+r)*lda+p0 : (i0+r)*lda+p1]
		d := dst[r : (kb-1)*mr+r+1]
		for pp, v := range src {
			d[pp*mr] = v
		}
	}
	if rows < mr {
		for pp := range kb {
			clear(dst[pp*mr+rows : (pp+1)*mr])
		}
	}
}
