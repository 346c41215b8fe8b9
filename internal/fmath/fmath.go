// Package fmath holds the elementary functions on twl's hot paths: an
// exponential that is about twice as fast as math.Exp and accurate to
// about one unit in the last place, the softmax built on it, and the
// squared Euclidean distance.
//
// Exp reduces x = (k + j/64)·ln 2 + r with |r| ≤ ln2/128, looks 2^(j/64) up
// in a table and evaluates e^r by a degree-5 Taylor polynomial, whose
// truncation error r⁶/720 < 4e-17 is below half an ulp. This is the classic
// table-driven scheme (Tang, "Table-driven implementation of the exponential
// function in IEEE floating-point arithmetic", ACM TOMS 15(2), 1989). The
// rare arguments whose result overflows, underflows into subnormals or is
// NaN are passed to math.Exp, so results are always correct at the edges.
package fmath

import "math"

const (
	tableBits = 6
	tableSize = 1 << tableBits
	// shift rounds to an integer when added: 1.5·2^52.
	shift = 0x1.8p52
	// invLn2N is tableSize/ln2; ln2 over tableSize split in a high part with
	// trailing zero bits (so k·ln2Hi is exact for |k| < 2^20) and the rest.
	invLn2N = tableSize / math.Ln2
	ln2HiN  = 0x1.62e42fefa0000p-7
	ln2LoN  = 0x1.cf79abc9e3b3ap-46
	// Beyond these the result overflows or becomes subnormal.
	expMax = 709.0
	expMin = -708.0
)

// table[j] holds the bits of 2^(j/64).
var table [tableSize]uint64

func init() {
	for j := range table {
		table[j] = math.Float64bits(math.Exp2(float64(j) / tableSize))
	}
}

// Exp returns e^x. Its error is about one ulp, as is math.Exp's; the two
// differ by at most 2 ulps (tested on millions of arguments).
func Exp(x float64) float64 {
	if !(x >= expMin && x <= expMax) {
		return math.Exp(x) // overflow, subnormal, zero, NaN
	}
	// Every product is rounded by a conversion, so that no compiler fuses
	// it into the following sum: the vector kernels (softmax_amd64.s) do
	// the same operations in the same order and must give the same bits.
	z := float64(x * invLn2N)
	kd := z + shift
	ki := math.Float64bits(kd)
	kd -= shift
	r := x - float64(kd*ln2HiN) - float64(kd*ln2LoN)
	// scale = 2^(k/64): table entry with the exponent raised by ⌊k/64⌋,
	// which the wrap-around of the unsigned sum computes for negative k too.
	scale := math.Float64frombits(table[ki%tableSize] + (ki>>tableBits)<<52)
	r2 := r * r
	p := r + float64(r2*(0.5+float64(r*(1.0/6+float64(r*(1.0/24+float64(r*(1.0/120))))))))
	return scale + float64(scale*p)
}

// Softmax stores softmax(z)_i = e^(z_i − m) / Σ_j e^(z_j − m), with m = max z,
// in dst and returns log Σ_j e^(z_j) (the log-partition function). dst may be
// z. It panics if the lengths differ, and returns NaN values if z holds NaN
// or +Inf.
func Softmax(dst, z []float64) (logSumExp float64) {
	if len(dst) != len(z) {
		panic("fmath: len(dst) != len(z)")
	}
	if len(z) == 0 {
		return math.Inf(-1)
	}
	m := maxOf(z)
	s := expShiftSum(dst, z, m)
	scaleAll(dst, 1/s)
	return m + math.Log(s)
}

// Softmax2 is Softmax on two rows, (Softmax(d0, z0), Softmax(d1, z1)) bit
// for bit: where the processor has AVX-512, the exponentials of the two
// rows are computed side by side, so that the two sums, each added in
// index order, overlap. d0 may be z0 and d1 may be z1; the rows must not
// overlap otherwise. It panics unless the four lengths are equal.
func Softmax2(d0, d1, z0, z1 []float64) (logSumExp0, logSumExp1 float64) {
	n := len(z0)
	if len(d0) != n || len(d1) != n || len(z1) != n {
		panic("fmath: Softmax2 with rows of different lengths")
	}
	if n == 0 {
		return math.Inf(-1), math.Inf(-1)
	}
	m0, m1 := maxOf(z0), maxOf(z1)
	s0, s1 := expShiftSum2(d0, d1, z0, z1, m0, m1)
	scaleAll(d0, 1/s0)
	scaleAll(d1, 1/s1)
	return m0 + math.Log(s0), m1 + math.Log(s1)
}

// maxGo returns the largest entry of z (len(z) > 0) by plain comparisons
// from z[0] on: a NaN is never taken, but a NaN z[0] stays (max would
// order NaN and signed zeros, at twice the cost; a NaN anywhere makes
// Softmax's result NaN in any case, through e^(NaN − m) or m itself).
func maxGo(z []float64) float64 {
	m := z[0]
	for _, v := range z[1:] {
		if v > m {
			m = v
		}
	}
	return m
}

// expShiftSumGo stores dst[i] = Exp(z[i] − m) and returns their sum, added
// in index order.
func expShiftSumGo(dst, z []float64, m float64) float64 {
	z = z[:len(dst)]
	var s float64
	for i, v := range z {
		e := Exp(v - m)
		dst[i] = e
		s += e
	}
	return s
}

// scaleGo multiplies every dst[i] by c.
func scaleGo(dst []float64, c float64) {
	for i := range dst {
		dst[i] *= c
	}
}

// SqDist returns the squared Euclidean distance between x and y (len(y) ≥
// len(x)), summed in four lanes combined as (lane0 + lane2) + (lane1 +
// lane3), then the remaining elements: about twice as fast as one running
// sum. The conversions round every product, so that no platform fuses them
// into the additions: the result is the same on every architecture.
func SqDist(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		d0 := x[i] - y[i]
		d1 := x[i+1] - y[i+1]
		d2 := x[i+2] - y[i+2]
		d3 := x[i+3] - y[i+3]
		s0 += float64(d0 * d0)
		s1 += float64(d1 * d1)
		s2 += float64(d2 * d2)
		s3 += float64(d3 * d3)
	}
	s := (s0 + s2) + (s1 + s3)
	for ; i < len(x); i++ {
		e := x[i] - y[i]
		s += float64(e * e)
	}
	return s
}
