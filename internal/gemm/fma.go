package gemm

import "math"

// fma32 returns a·b + c rounded once to float32, to nearest with ties to
// even: the value of the processor's single-precision fused multiply-add
// (VFMADD231SS), which Go does not offer (math.FMA is float64, and
// float32(math.FMA(…)) rounds twice).
//
// The product of two float32 values is exact in float64 (24 + 24 bits), so
// s = p + c in float64 is a·b + c rounded once to 53 bits, and float32(s)
// rounds it a second time. That second rounding equals the single rounding
// of the exact value except when s lies exactly halfway between two
// float32 neighbours while the exact value does not (the first rounding
// landed on the midpoint): the exact sum then lies on the side of the
// midpoint given by the sign of the first rounding's error e, which TwoSum
// recovers exactly. The fast path tests the midpoint on the bits of s in
// the normal float32 range (the 29 low significand bits are 1000…0); the
// rest (midpoints, subnormal and zero results, overflow, Inf, NaN) take
// fma32Slow. NaN results are NaN, with no promise about the payload.
func fma32(a, b, c float32) float32 {
	// Whether or not the compiler fuses the multiply and the add, s is the
	// same: the product is exact.
	s := float64(a)*float64(b) + float64(c)
	if roundsOnce(s) {
		return float32(s)
	}
	return fma32Slow(a, b, c, s)
}

// roundsOnce reports whether float32(s) is the value of fma32 whose sum
// rounded to float64 is s: whether s is in float32's normal range and not
// halfway between two float32 values.
func roundsOnce(s float64) bool {
	// Biased float64 exponents 897 … 1150 are float32's normal range
	// 2⁻¹²⁶ ≤ |s| < 2¹²⁸ (the subtraction wraps the smaller ones above).
	bits := math.Float64bits(s)
	return (bits>>52&0x7ff)-897 <= 1150-897 && bits&(1<<29-1) != 1<<28
}

// fma32Slow returns fma32(a, b, c), s being a·b + c rounded to float64.
func fma32Slow(a, b, c32 float32, s float64) float32 {
	p, c := float64(a)*float64(b), float64(c32)
	f := float32(s)
	if math.IsInf(s, 0) || math.IsNaN(s) {
		return f
	}
	// TwoSum: e = (p + c) − s exactly.
	bv := s - p
	e := (p - (s - bv)) + (c - bv)
	if e == 0 || float64(f) == s {
		// Exact, or s a float32 value (so that |e|, below half an ulp of
		// s in float64, cannot move the exact value to another float32).
		return f
	}
	// s lies strictly between the float32 neighbours lo < s < hi.
	lo, hi := f, f
	if float64(f) < s {
		hi = math.Nextafter32(f, float32(math.Inf(1)))
	} else {
		lo = math.Nextafter32(f, float32(math.Inf(-1)))
	}
	if s != (finite(lo)+finite(hi))/2 { // exact: adjacent float32 values
		return f
	}
	if e > 0 {
		return hi
	}
	return lo
}

// finite returns x as float64, with ±Inf replaced by ±2¹²⁸ (the value
// float32 would give the next number above its largest if it had one).
func finite(x float32) float64 {
	if math.IsInf(float64(x), 0) {
		return math.Copysign(0x1p128, float64(x))
	}
	return float64(x)
}
