package jsonscan

import (
	"math"
	"math/bits"
)

// The conversion of a decimal mantissa and exponent to the nearest float64
// without strconv: exactFloat covers mantissas and powers of ten that are
// exact float64 values, eiselLemire nearly all the rest. Both report false
// when they cannot be sure of the correctly rounded result, and the caller
// then asks strconv.ParseFloat, so that every result is bit for bit the one
// strconv.ParseFloat gives.

// maxMantDigits is the number of significant decimal digits that always
// fit in a uint64 (10^19 − 1 < 2^64).
const maxMantDigits = 19

// exactPow10 holds the powers of ten that are exact float64 values.
var exactPow10 = [...]float64{
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
	1e20, 1e21, 1e22,
}

// exactFloat returns ±man·10^exp10 if man and the power of ten are exact
// float64 values, so that one IEEE multiplication or division, correctly
// rounded, gives the correctly rounded result (Clinger's fast path).
func exactFloat(man uint64, exp10 int, neg bool) (float64, bool) {
	if man>>53 != 0 {
		return 0, false
	}
	f := float64(man)
	if neg {
		f = -f
	}
	switch {
	case exp10 == 0:
		return f, true
	case exp10 > 0 && exp10 <= 15+22:
		// man·10^(exp10−22) is still an exact integer if it is at most
		// 10^15: move the surplus zeros into the mantissa.
		if exp10 > 22 {
			f *= exactPow10[exp10-22]
			exp10 = 22
		}
		if f > 1e15 || f < -1e15 {
			return 0, false
		}
		return f * exactPow10[exp10], true
	case exp10 < 0 && exp10 >= -22:
		return f / exactPow10[-exp10], true
	}
	return 0, false
}

// mulLog2Of10 returns ⌊x·log₂10⌋ for −500 ≤ x ≤ 500 (checked by the tests
// against pow10Tab).
func mulLog2Of10(x int) int { return (x * 108853) >> 15 }

// eiselLemire returns ±man·10^exp10 correctly rounded to a normal float64
// (Eisel and Lemire's algorithm: D. Lemire, "Number parsing at a gigabyte
// per second", Software: Practice and Experience 51(8), 2021, with the
// wider 192-bit product of N. Tao's variant). It reports false, leaving
// the answer to an exact method, when the 128-bit product cannot decide
// the rounding, when the result is subnormal, zero from underflow or
// infinite, and when exp10 is out of the table's range.
func eiselLemire(man uint64, exp10 int, neg bool) (float64, bool) {
	if man == 0 {
		if neg {
			return math.Copysign(0, -1), true
		}
		return 0, true
	}
	if exp10 < pow10Min || exp10 > pow10Max {
		return 0, false
	}
	pow := &pow10Tab[exp10-pow10Min]
	// 10^exp10 = pow/2^128 · 2^exp2.
	exp2 := 1 + mulLog2Of10(exp10)

	// Normalize the mantissa to 64 significant bits.
	clz := bits.LeadingZeros64(man)
	man <<= uint(clz)
	// The biased exponent of the result, before the adjustment for the
	// position of the product's top bit; 1086 = 63 + 1023.
	retExp2 := uint64(exp2+1086) - uint64(clz)

	// The top 128 bits of the 192-bit product man·pow.
	xHi, xLo := bits.Mul64(man, pow[0])
	if xHi&0x1FF == 0x1FF && xLo+man < man {
		// The low 64 bits of pow may carry into the bits that decide the
		// rounding: take them into account.
		yHi, yLo := bits.Mul64(man, pow[1])
		mHi, mLo := xHi, xLo+yHi
		if mLo < xLo {
			mHi++
		}
		if mHi&0x1FF == 0x1FF && mLo+1 == 0 && yLo+man < man {
			return 0, false
		}
		xHi, xLo = mHi, mLo
	}

	// Keep 54 bits: the 53 of the result and one to round with.
	msb := xHi >> 63
	m := xHi >> (msb + 9)
	retExp2 -= 1 ^ msb

	// A product that may lie exactly half-way between two float64 values
	// cannot be rounded from the truncated power of ten.
	if xLo == 0 && xHi&0x1FF == 0 && m&3 == 1 {
		return 0, false
	}

	// Round half to even to 53 bits.
	m += m & 1
	m >>= 1
	if m>>53 > 0 {
		m >>= 1
		retExp2++
	}
	// Biased exponents 0 (subnormal) and 0x7FF or more (infinite) are left
	// to the exact method; retExp2 is unsigned, so one comparison does.
	if retExp2-1 >= 0x7FF-1 {
		return 0, false
	}
	b := retExp2<<52 | m&(1<<52-1)
	if neg {
		b |= 1 << 63
	}
	return math.Float64frombits(b), true
}

// subnormal returns ±man·10^exp10 correctly rounded to a subnormal float64
// (or to the smallest normal one, where rounding carries into it), for the
// values that eiselLemire leaves out below 2^−1022. It reports false when
// the value is not in that range, rounds to zero, or lies too close to a
// half-way point between two float64 values to be decided.
//
// With p the table's power, rounded down, and m the mantissa shifted to 64
// bits, the value is T·2^e for a T in [m·p, m·p + 2^64), m·p computed
// exactly in 192 bits: the bits shifted out to leave the result decide its
// rounding unless they lie within 2^64 below a half-way point.
func subnormal(man uint64, exp10 int, neg bool) (float64, bool) {
	if man == 0 || exp10 < pow10Min || exp10 > pow10Max {
		return 0, false
	}
	pow := &pow10Tab[exp10-pow10Min]
	exp2 := 1 + mulLog2Of10(exp10)
	clz := bits.LeadingZeros64(man)
	man <<= uint(clz)

	// P = man·pow = p2·2^128 + p1·2^64 + p0, and the value is P·2^e with
	// e = exp2 − 128 − clz; the result is k·2^−1074, k = P·2^(e+1074)
	// rounded: z bits of P to shift out.
	aHi, aLo := bits.Mul64(man, pow[0])
	bHi, p0 := bits.Mul64(man, pow[1])
	p1, carry := bits.Add64(aLo, bHi, 0)
	p2 := aHi + carry // no overflow: P < 2^192
	z := clz + 128 - exp2 - 1074
	// P ≥ 2^190: a subnormal result has z ≥ 139, and z ≥ 191 leaves
	// k ≤ 1, too close to zero to bother.
	if z < 139 || z >= 191 {
		return 0, false
	}
	s := uint(z - 128) // 11 ≤ s < 63: k comes from p2 alone
	k := p2 >> s
	if k >= 1<<52 {
		return 0, false // a normal float64, eiselLemire's business
	}
	r2 := p2 & (1<<s - 1) // the shifted-out bits are r2·2^128 + p1·2^64 + p0
	h := uint64(1) << (s - 1)
	switch {
	case r2 < h-1 || r2 == h-1 && p1 != math.MaxUint64:
		// Below the half-way point by more than the error: round down.
	case r2 > h || r2 == h && p1|p0 != 0:
		k++ // above it: round up
	default:
		return 0, false
	}
	if k == 0 {
		return 0, false
	}
	// k ≤ 2^52: the bits of a subnormal or, for k = 2^52, of the smallest
	// normal float64.
	if neg {
		k |= 1 << 63
	}
	return math.Float64frombits(k), true
}
