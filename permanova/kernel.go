package permanova

// The kernel of the permutation test: the sum of the values of one row of
// the squared-distance triangle at the columns a bitset selects.
//
// A row is a whole number of chunks of 8 values and its bitset holds one
// byte a chunk, bit k of byte t selecting value 8t+k. The sum is formed in
// a fixed order that the assembly follows exactly: two banks of 8 lane
// sums, chunk t adding its selected values into bank t mod 2, lane k
// taking value 8t+k; then v_k = bank0_k + bank1_k and the result
// ((v0+v4) + (v2+v6)) + ((v1+v5) + (v3+v7)). Every value is ≥ 0 and the
// banks start at +0, so an unselected value, or a selected value that is
// 0 (the padding), leaves the sum's bits as they are.

// maskSumGo returns the sum of row[8t+k] over the bits k set in mask[t],
// in the order described above. len(row) must be 8·len(mask).
func maskSumGo(row []float64, mask []byte) float64 {
	var bank [2][8]float64
	row = row[:8*len(mask)]
	for t, m := range mask {
		if m == 0 {
			continue
		}
		a := &bank[t&1]
		r := row[8*t : 8*t+8 : 8*t+8]
		for k := range 8 {
			if m&(1<<k) != 0 {
				a[k] += r[k]
			}
		}
	}
	var v [8]float64
	for k := range 8 {
		v[k] = bank[0][k] + bank[1][k]
	}
	return ((v[0] + v[4]) + (v[2] + v[6])) + ((v[1] + v[5]) + (v[3] + v[7]))
}

// maskSum4Go sets s[q] to maskSumGo(row, m[q]) for q < 4.
func maskSum4Go(s *[4]float64, row []float64, m0, m1, m2, m3 []byte) {
	s[0] = maskSumGo(row, m0)
	s[1] = maskSumGo(row, m1)
	s[2] = maskSumGo(row, m2)
	s[3] = maskSumGo(row, m3)
}
