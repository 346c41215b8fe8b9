//go:build amd64 && !purego

package fmath

import (
	"math"

	"golang.org/x/sys/cpu"
)

// useAVX2 selects the AVX2 kernels of Softmax. They give the bits of the
// Go forms (maxGo, expShiftSumGo, scaleGo): the same operations in the
// same order, four entries at a time, with the sum of the exponentials
// still added one entry after the other.
var useAVX2 = cpu.X86.HasAVX2

// use512 selects the AVX-512 kernel of Softmax2, which gives the bits of
// expShiftSumAVX2 on each of its rows.
var use512 = useAVX2 && cpu.X86.HasAVX512F

// expConsts holds the constants of Exp, each four times (one AVX2 vector
// a row), in the order softmax_amd64.s reads them.
var expConsts = [11][4]uint64{
	bcast(invLn2N), bcast(shift), bcast(ln2HiN), bcast(ln2LoN),
	bcast(1.0 / 120), bcast(1.0 / 24), bcast(1.0 / 6), bcast(0.5),
	bcast(expMin), bcast(expMax), {tableSize - 1, tableSize - 1, tableSize - 1, tableSize - 1},
}

func bcast(c float64) [4]uint64 {
	b := math.Float64bits(c)
	return [4]uint64{b, b, b, b}
}

// maxAVX2 returns the largest of z[0] and the entries of z[:len(z)&^3] by
// the comparisons of maxGo, lane by lane and then lane after lane.
//
//go:noescape
func maxAVX2(z []float64) float64

// expShiftSumAVX2 stores dst[i] = Exp(z[i] − m) four entries at a time
// from i = 0 while len(dst) − i ≥ 4 and all four arguments lie in
// [expMin, expMax], adding each to s in index order; it returns the sum
// and the number of entries done. len(z) ≥ len(dst).
//
//go:noescape
func expShiftSumAVX2(dst, z []float64, m, s float64, k *[11][4]uint64, tab *[tableSize]uint64) (sum float64, done int)

// expShiftSum2AVX512 is expShiftSumAVX2 on two rows at once, eight
// entries of each at a time: d0[i] = Exp(z0[i] − m0), added to s0 in index
// order, and the same for row 1, from i = 0 while len(d0) − i ≥ 8 and all
// sixteen arguments lie in [expMin, expMax]. It returns the sums and the
// number of entries done in each row. The rows all have length len(d0).
//
//go:noescape
func expShiftSum2AVX512(d0, d1, z0, z1 []float64, m0, m1, s0, s1 float64, k *[11][4]uint64, tab *[tableSize]uint64) (sum0, sum1 float64, done int)

// scaleAVX2 multiplies dst[:len(dst)&^3] by c.
//
//go:noescape
func scaleAVX2(dst []float64, c float64)

func maxOf(z []float64) float64 {
	if !useAVX2 || len(z) < 8 {
		return maxGo(z)
	}
	m := maxAVX2(z)
	for _, v := range z[len(z)&^3:] {
		if v > m {
			m = v
		}
	}
	return m
}

func expShiftSum(dst, z []float64, m float64) float64 {
	if !useAVX2 {
		return expShiftSumGo(dst, z, m)
	}
	z = z[:len(dst)]
	var s float64
	for i := 0; i < len(dst); {
		var k int
		s, k = expShiftSumAVX2(dst[i:], z[i:], m, s, &expConsts, &table)
		i += k
		// The entries the kernel left: a block with an argument out of
		// range, or the last len(dst) mod 4.
		for end := min(i+4, len(dst)); i < end; i++ {
			e := Exp(z[i] - m)
			dst[i] = e
			s += e
		}
	}
	return s
}

// expShiftSum2 is expShiftSum on two rows: the same bits, with the two
// rows' chains of additions overlapping.
func expShiftSum2(d0, d1, z0, z1 []float64, m0, m1 float64) (s0, s1 float64) {
	n := len(d0)
	if !use512 || n < 8 {
		return expShiftSum(d0, z0, m0), expShiftSum(d1, z1, m1)
	}
	d1, z0, z1 = d1[:n], z0[:n], z1[:n]
	for i := 0; i < n; {
		var k int
		s0, s1, k = expShiftSum2AVX512(d0[i:], d1[i:], z0[i:], z1[i:], m0, m1, s0, s1, &expConsts, &table)
		i += k
		// The entries the kernel left: a block with an argument out of
		// range in either row, or the last n mod 8.
		end := min(i+8, n)
		for j := i; j < end; j++ {
			e := Exp(z0[j] - m0)
			d0[j] = e
			s0 += e
		}
		for j := i; j < end; j++ {
			e := Exp(z1[j] - m1)
			d1[j] = e
			s1 += e
		}
		i = end
	}
	return s0, s1
}

func scaleAll(dst []float64, c float64) {
	if !useAVX2 {
		scaleGo(dst, c)
		return
	}
	scaleAVX2(dst, c)
	for i := len(dst) &^ 3; i < len(dst); i++ {
		dst[i] *= c
	}
}

// mixedGradAVX2 computes MixedGrad on g[:len(g)&^3], four entries at a
// time, by the operations of mixedGradGo in its order.
//
//go:noescape
func mixedGradAVX2(g, p, y, gp []float64, inv, lam, dot float64)

// mixedGradVec runs the AVX2 form of MixedGrad on the first entries of g,
// a multiple of four, and returns how many it did.
func mixedGradVec(g, p, y, gp []float64, inv, lam, dot float64) int {
	if !useAVX2 || len(g) < 4 {
		return 0
	}
	mixedGradAVX2(g, p, y, gp, inv, lam, dot)
	return len(g) &^ 3
}
