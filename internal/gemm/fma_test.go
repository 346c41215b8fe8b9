package gemm

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// exactFMA32 is the oracle for fma32: a·b + c computed exactly with
// math/big and rounded once to float32 (to nearest, ties to even, with
// subnormals and overflow as IEEE 754 has them).
func exactFMA32(a, b, c float32) float32 {
	if r := float64(a)*float64(b) + float64(c); math.IsNaN(r) || math.IsInf(r, 0) {
		return float32(r)
	}
	x := new(big.Float).SetPrec(1200).SetFloat64(float64(a))
	x.Mul(x, new(big.Float).SetFloat64(float64(b)))
	x.Add(x, new(big.Float).SetFloat64(float64(c)))
	if x.Sign() == 0 {
		// big.Float has signed zeros but does not follow IEEE's rule for
		// an exact zero sum: +0 unless both addends are −0.
		p := float64(a) * float64(b)
		return float32(p + float64(c))
	}
	f, _ := x.Float32()
	return f
}

// randFloat32 returns a float32 of random sign and significand with an
// exponent drawn from [lo, hi] (subnormals and zero where the exponent
// falls below float32's range).
func randFloat32(rng *rand.Rand, lo, hi int) float32 {
	m := 1 + rng.Float64()
	if rng.IntN(2) == 0 {
		m = -m
	}
	return float32(math.Ldexp(m, lo+rng.IntN(hi-lo+1)))
}

// doubleRoundingCases returns inputs whose float64 sum a·b + c lands
// exactly on a float32 midpoint while the exact sum does not: a = 2^e(1 + x),
// b = ±(1 − x) with x = k·2⁻²³, k < 2⁸, so a·b = ±2^e(1 − x²), and c has
// an ulp of 2^(e+1) (the midpoint is c ± 2^e) and an odd significand (so
// that ties to even picks the wrong side); the remainder ∓2^e·x² falls below
// float64's precision at c. The cases cover both signs and exponents
// from the subnormal range to the top of float32's.
func doubleRoundingCases(rng *rand.Rand, n int) [][3]float32 {
	var cs [][3]float32
	for len(cs) < n {
		k := 1 + rng.IntN(255)
		x := float64(k) * 0x1p-23
		e := rng.IntN(250) - 149 // product exponent
		ce := e + 24             // c in [2^ce, 2^(ce+1)): ulp 2^(e+1)
		if ce > 127 {
			continue
		}
		sig := int64(1<<23 | rng.Int64N(1<<22)<<1 | 1) // odd, 24 bits
		c := float32(math.Ldexp(float64(sig), ce-23))
		a := float32(math.Ldexp(1+x, e))
		b := float32(1 - x)
		if float64(a) != math.Ldexp(1+x, e) {
			continue // 1 + x lost bits in the subnormal range
		}
		switch rng.IntN(4) {
		case 0:
		case 1:
			b = -b // p < 0: midpoint below c
		case 2:
			a, c = -a, -c
		case 3:
			a, b, c = -a, -b, -c
		}
		cs = append(cs, [3]float32{a, b, c})
	}
	return cs
}

// specialCases are hand-picked inputs: signed zeros, exact cancellation,
// subnormal products and sums, overflow and the largest finite values,
// infinities, and large exponent gaps between the product and c.
func specialCases() [][3]float32 {
	max32, tiny := float32(math.MaxFloat32), float32(math.SmallestNonzeroFloat32)
	inf := float32(math.Inf(1))
	negz := float32(math.Copysign(0, -1))
	return [][3]float32{
		{0, 0, 0}, {negz, 0, 0}, {negz, 0, negz}, {0, 0, negz}, {1, -1, 1}, {-1, -1, -1},
		{1, negz, negz}, {2, 3, -6}, {-2, 3, 6}, {tiny, tiny, 0}, {tiny, tiny, negz},
		{tiny, 0.5, 0}, {tiny, 1.5, 0}, {tiny, 2.5, 0}, {-tiny, 0.5, 0}, {-tiny, 1.5, negz},
		{tiny, 0.5, tiny}, {0x1p-75, 0x1p-75, 0}, {0x1p-75, 0x1.8p-75, 0}, {0x1p-126, 0.5, 0},
		{0x1p-126, 0x1.fffffep-1, 0}, {0x1p-126, -0.5, 0x1p-149}, {1, 0x1p-126, -0x1p-127},
		{max32, 1, max32}, {max32, 2, -max32}, {max32, 0x1p-24, max32}, {max32, 0x1p-25, max32},
		{max32, 0x1.000002p-25, max32}, {0x1p64, 0x1p64, max32}, {0x1p100, 0x1p100, -max32},
		{inf, 1, 1}, {inf, 1, -inf}, {inf, 0, 1}, {1, 1, inf}, {0x1p-149, 0x1p-149, 1},
		{0x1p-149, 0x1p-149, -1}, {1, 1, 0x1p-149}, {0x1p127, 0x1p127, 0x1p-149},
		{1 + 0x1p-23, 1 - 0x1p-23, -1}, {1 + 0x1p-12, 1 + 0x1p-12, -1}, {3, 1.0 / 3, -1},
	}
}

// TestFMA32Exact checks fma32 against the exact oracle on the special
// cases, the constructed double-rounding cases, and random inputs of every
// magnitude. It runs with every build tag: the oracle is math/big.
func TestFMA32Exact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := append(specialCases(), doubleRoundingCases(rng, 20000)...)
	for range 100000 {
		cases = append(cases, randomFMACase(rng))
	}
	wrongByDouble := 0
	for _, c := range cases {
		want := exactFMA32(c[0], c[1], c[2])
		got := fma32(c[0], c[1], c[2])
		if !sameFloat32(got, want) {
			t.Fatalf("fma32(%x, %x, %x) = %x, exact %x", c[0], c[1], c[2], got, want)
		}
		if dr := float32(math.FMA(float64(c[0]), float64(c[1]), float64(c[2]))); !sameFloat32(dr, want) {
			wrongByDouble++
		}
	}
	// The constructed cases must really be cases that rounding twice gets
	// wrong, or they test nothing.
	if wrongByDouble < 20000 {
		t.Errorf("only %d cases where float32(math.FMA(…)) is wrong; want at least 20000", wrongByDouble)
	}
}

// randomFMACase returns random inputs: all three of similar magnitude
// (cancellation), the product far above or below c, subnormal products,
// or values near overflow.
func randomFMACase(rng *rand.Rand) [3]float32 {
	switch rng.IntN(5) {
	case 0:
		return [3]float32{randFloat32(rng, -3, 3), randFloat32(rng, -3, 3), randFloat32(rng, -6, 6)}
	case 1:
		return [3]float32{randFloat32(rng, -40, 40), randFloat32(rng, -40, 40), randFloat32(rng, -90, 90)}
	case 2:
		return [3]float32{randFloat32(rng, -100, -60), randFloat32(rng, -100, -60), randFloat32(rng, -160, -120)}
	case 3:
		return [3]float32{randFloat32(rng, 60, 64), randFloat32(rng, 60, 64), randFloat32(rng, 120, 127)}
	default:
		a, b := randFloat32(rng, -20, 20), randFloat32(rng, -20, 20)
		// c within a few ulps of −a·b: near-total cancellation.
		c := -float32(float64(a) * float64(b))
		c = math.Float32frombits(math.Float32bits(c) + uint32(rng.IntN(5)) - 2)
		return [3]float32{a, b, c}
	}
}

// sameFloat32 reports whether x and y have the same bits, or are both NaN.
func sameFloat32(x, y float32) bool {
	return math.Float32bits(x) == math.Float32bits(y) || (x != x && y != y)
}
