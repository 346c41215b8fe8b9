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
