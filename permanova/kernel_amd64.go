//go:build amd64 && !purego

package permanova

import "golang.org/x/sys/cpu"

// hasAVX512 selects the AVX-512 kernels: AVX-512 F for the vectors, DQ
// for the byte-wide mask loads; else hasAVX2 the AVX2 kernel.
var (
	hasAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ
	hasAVX2   = cpu.X86.HasAVX2
)

// maskSum2AVX2 sets s[q] to maskSumGo of row and mq for q < 2, on raw
// pointers, for chunks ≥ 1.
//
//go:noescape
func maskSum2AVX2(s *[2]float64, row *float64, m0, m1 *byte, chunks int)

// maskSumAVX512 is maskSumGo on raw pointers, for chunks ≥ 1.
//
//go:noescape
func maskSumAVX512(row *float64, mask *byte, chunks int) float64

// maskSum4AVX512 is maskSum4Go on raw pointers, for chunks ≥ 1: the four
// sums share each load of the row.
//
//go:noescape
func maskSum4AVX512(s *[4]float64, row *float64, m0, m1, m2, m3 *byte, chunks int)

// maskSum returns maskSumGo(row, mask), bit for bit. The assembly trusts
// its arguments; the check here makes a caller's mistake panic instead of
// reading out of bounds.
func maskSum(row []float64, mask []byte) float64 {
	if !hasAVX512 && !hasAVX2 || len(mask) == 0 {
		return maskSumGo(row, mask)
	}
	if len(row) < 8*len(mask) {
		panic("permanova: kernel arguments out of bounds")
	}
	if !hasAVX512 {
		var s [2]float64
		maskSum2AVX2(&s, &row[0], &mask[0], &mask[0], len(mask))
		return s[0]
	}
	return maskSumAVX512(&row[0], &mask[0], len(mask))
}

// maskSum4 is maskSum4Go, bit for bit; the four masks have one length.
func maskSum4(s *[4]float64, row []float64, m0, m1, m2, m3 []byte) {
	c := len(m0)
	if !hasAVX512 && !hasAVX2 || c == 0 {
		maskSum4Go(s, row, m0, m1, m2, m3)
		return
	}
	if len(row) < 8*c || len(m1) != c || len(m2) != c || len(m3) != c {
		panic("permanova: kernel arguments out of bounds")
	}
	if !hasAVX512 {
		maskSum4AVX2(s, row, m0, m1, m2, m3)
		return
	}
	maskSum4AVX512(s, &row[0], &m0[0], &m1[0], &m2[0], &m3[0], c)
}

// maskSum4AVX2 is maskSum4Go by two calls of the AVX2 kernel, for masks
// of c ≥ 1 bytes and a row of at least 8c values.
func maskSum4AVX2(s *[4]float64, row []float64, m0, m1, m2, m3 []byte) {
	var a, b [2]float64
	c := len(m0)
	maskSum2AVX2(&a, &row[0], &m0[0], &m1[0], c)
	maskSum2AVX2(&b, &row[0], &m2[0], &m3[0], c)
	s[0], s[1], s[2], s[3] = a[0], a[1], b[0], b[1]
}
