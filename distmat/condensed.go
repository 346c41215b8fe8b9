package distmat

// ExpandRows writes rows [i0, i1) of the symmetric n×n matrix whose pairs
// i < j the condensed slice c holds (scipy's squareform order: pair (i, j)
// at i·n − i(i+1)/2 + j − i − 1) to dst, row-major, with zeros on the
// diagonal. It panics unless len(c) = n(n−1)/2, 0 ≤ i0 ≤ i1 ≤ n and
// len(dst) = (i1−i0)·n.
//
// A matrix written from the condensed form costs each pair once; computed
// by stripes of rows, the pairs across two stripes are computed twice.
func ExpandRows(dst, c []float64, n, i0, i1 int) {
	if len(c) != n*(n-1)/2 || i0 < 0 || i0 > i1 || i1 > n || len(dst) != (i1-i0)*n {
		panic("distmat: ExpandRows with wrong lengths")
	}
	// Columns j < i: the pairs (j, i), i in the stripe, lie side by side
	// in row j of the condensed form; read them so, and write them down
	// column j of the stripe.
	for j := 0; j < i1-1; j++ {
		lo := max(i0, j+1)
		base := j*n - j*(j+1)/2 - j - 1 // pair (j, i) at base + i
		col := dst[(lo-i0)*n+j:]
		for k, v := range c[base+lo : base+i1] {
			col[k*n] = v
		}
	}
	for i := i0; i < i1; i++ {
		row := dst[(i-i0)*n : (i-i0+1)*n]
		row[i] = 0
		start := i*n - i*(i+1)/2 - i - 1
		copy(row[i+1:], c[start+i+1:start+n])
	}
}
