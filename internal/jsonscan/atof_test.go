package jsonscan

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestPow10Tab recomputes every entry of pow10Tab exactly with math/big,
// ⌊10^e·2^s⌋ for the s that puts it in [2^127, 2^128), and checks the binary
// exponent eiselLemire and subnormal derive from mulLog2Of10.
func TestPow10Tab(t *testing.T) {
	if len(pow10Tab) != pow10Max-pow10Min+1 {
		t.Fatalf("%d entries for exponents %d to %d", len(pow10Tab), pow10Min, pow10Max)
	}
	lo128 := new(big.Int).Lsh(big.NewInt(1), 127)
	hi128 := new(big.Int).Lsh(big.NewInt(1), 128)
	for e := pow10Min; e <= pow10Max; e++ {
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(e))), nil)
		// s is such that floor(10^e·2^s) is in [2^127, 2^128).
		var s int
		var got *big.Int
		for s = -1100; s <= 1300; s++ {
			var v *big.Int
			if e >= 0 {
				if s >= 0 {
					v = new(big.Int).Lsh(p, uint(s))
				} else {
					v = new(big.Int).Rsh(p, uint(-s))
				}
			} else {
				if s < 0 {
					continue
				}
				v = new(big.Int).Quo(new(big.Int).Lsh(big.NewInt(1), uint(s)), p)
			}
			if v.Cmp(lo128) >= 0 && v.Cmp(hi128) < 0 {
				got = v
				break
			}
		}
		if got == nil {
			t.Fatalf("1e%d: no scale", e)
		}
		want := new(big.Int).Lsh(new(big.Int).SetUint64(pow10Tab[e-pow10Min][0]), 64)
		want.Or(want, new(big.Int).SetUint64(pow10Tab[e-pow10Min][1]))
		if got.Cmp(want) != 0 {
			t.Fatalf("1e%d: table %x, exact %x", e, want, got)
		}
		// 10^e = pow/2^128 · 2^exp2 with exp2 = 128 − s.
		if exp2 := 1 + mulLog2Of10(e); exp2 != 128-s {
			t.Fatalf("1e%d: exponent %d, want %d", e, exp2, 128-s)
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// checkNumber compares Number on the JSON number in with
// strconv.ParseFloat, the reference: the same bits, the same overflow, and
// the whole text read.
func checkNumber(t *testing.T, in string) {
	t.Helper()
	want, err := strconv.ParseFloat(in, 64)
	s := Scanner{Line: []byte(in)}
	got, e := s.Number()
	switch {
	case s.Pos != len(in):
		t.Fatalf("%q: Pos %d, want %d (error %v)", in, s.Pos, len(in), e)
	case err != nil && (e == nil || e.Code != Overflow):
		t.Fatalf("%q: error %v, strconv.ParseFloat: %v", in, e, err)
	case err == nil && e != nil:
		t.Fatalf("%q: error %v, strconv.ParseFloat: %v", in, e, want)
	case math.Float64bits(got) != math.Float64bits(want):
		t.Fatalf("%q: %v (%#016x), strconv.ParseFloat %v (%#016x)", in, got, math.Float64bits(got), want, math.Float64bits(want))
	}
}

// TestNumberStrconv checks Number bit for bit against strconv.ParseFloat on
// hand-picked hard cases and on about 140,000 generated numbers (35,000
// with -short): every float64 form a writer produces (shortest, fixed
// precisions, 'f'), random digit strings of 1 to 25 digits with exponents
// over the whole float64 range and beyond, subnormals, and decimal strings
// within a few units in the last digit of the points half-way between two
// adjacent float64 values, where rounding is hardest.
func TestNumberStrconv(t *testing.T) {
	for _, in := range []string{
		"0", "-0", "0.0", "-0.0e-5", "0e400", "-0E-400", "1", "-1", "9007199254740992", "9007199254740993",
		"9007199254740993.0000000000000001", "18446744073709551615", "18446744073709551616", "9999999999999999999",
		"10000000000000000000", "99999999999999999999", "1e22", "1e23", "8.98846567431158e307", "1.7976931348623157e308",
		"1.7976931348623158e308", "1.7976931348623159e308", "2e308", "-2e308", "4.9406564584124654e-324",
		"2.4703282292062327e-324", "2.4703282292062328e-324", "2.47032822920623272e-324", "5e-324", "1e-324",
		"3e-324", "7.4e-324", "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308",
		"2.225073858507201136057409796709131975934819546351645648e-308", "4.4501477170144023e-308",
		"1e-320", "4.2080258144e-314", "2.5e-323", "1.5e-323", "1e-400", "123456789e-330", "0.1", "0.2", "0.3",
		"3.0000000000000004", "0.30000000000000004", "1.00000000000000011102230246251565404236316680908203125",
		"1.00000000000000011102230246251565404236316680908203124", "1.00000000000000011102230246251565404236316680908203126",
		"7.3177701707893310e+15", "5.0216813883093446e+289", "1e-22", "1e-23", "123456789012345678e-30",
		"0.00000000000000000000000000000000000001", "1" + strings.Repeat("0", 400), "0." + strings.Repeat("0", 400) + "1",
		"1" + strings.Repeat("0", 400) + "e-400", "0." + strings.Repeat("0", 330) + "4940656458412465441765687928682213723651",
	} {
		checkNumber(t, in)
	}

	rng := rand.New(rand.NewPCG(7, 11))
	n := 20000
	if testing.Short() {
		n = 5000
	}
	var b []byte
	for range n {
		// Every float64 bit pattern that is a finite number, written by
		// strconv in the forms a writer uses.
		f := math.Float64frombits(rng.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		checkNumber(t, string(strconv.AppendFloat(b[:0], f, 'g', -1, 64)))
		checkNumber(t, string(strconv.AppendFloat(b[:0], f, 'e', rng.IntN(22), 64)))
		if math.Abs(f) < 1e30 && math.Abs(f) > 1e-30 {
			checkNumber(t, string(strconv.AppendFloat(b[:0], f, 'f', -1, 64)))
		}
		// Subnormals and values near the bottom of the normal range.
		sub := math.Float64frombits(rng.Uint64N(1<<53) | rng.Uint64()&(1<<63))
		checkNumber(t, string(strconv.AppendFloat(b[:0], sub, 'g', -1, 64)))
		checkNumber(t, string(strconv.AppendFloat(b[:0], sub, 'e', rng.IntN(20), 64)))
		// Random digits, random exponents.
		checkNumber(t, randomNumber(rng, b[:0]))
		// Near the half-way point between f and the next float64 up.
		checkNumber(t, nearHalfway(rng, f))
		checkNumber(t, nearHalfway(rng, sub))
	}
}

// randomNumber returns a JSON number with 1 to 25 random digits, a random
// decimal point and an exponent anywhere from −360 to 360.
func randomNumber(rng *rand.Rand, b []byte) string {
	if rng.IntN(2) == 0 {
		b = append(b, '-')
	}
	nd := 1 + rng.IntN(25)
	digits := make([]byte, nd)
	for i := range digits {
		digits[i] = byte('0' + rng.IntN(10))
	}
	if digits[0] == '0' && nd > 1 {
		digits[0] = byte('1' + rng.IntN(9))
	}
	if dp := rng.IntN(nd + 1); dp > 0 && dp < nd {
		b = append(b, digits[:dp]...)
		b = append(b, '.')
		b = append(b, digits[dp:]...)
	} else {
		b = append(b, digits...)
	}
	if rng.IntN(4) > 0 {
		b = append(b, "eE"[rng.IntN(2)])
		b = strconv.AppendInt(b, int64(rng.IntN(721)-360), 10)
	}
	return string(b)
}

// nearHalfway returns the exact decimal value of the point half-way
// between f and the next float64 away from zero, cut to 15 to 25
// significant digits (of 41 rounded ones) and moved by up to 2 units in the last digit.
func nearHalfway(rng *rand.Rand, f float64) string {
	next := math.Nextafter(f, math.Copysign(math.Inf(1), f))
	if math.IsInf(next, 0) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	// The mid-point has 54 significant bits: exact in 64.
	mid := new(big.Float).SetPrec(64).SetFloat64(f)
	mid.Add(mid, new(big.Float).SetPrec(64).SetFloat64(next))
	mid.SetMantExp(mid, -1)
	s := mid.Text('e', 40) // d.ddd…e±x, 41 digits
	mant, exp, _ := strings.Cut(s, "e")
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimPrefix(mant, "-")
	digits := strings.Replace(mant, ".", "", 1)
	nd := 15 + rng.IntN(11)
	d := new(big.Int)
	d.SetString(digits[:nd], 10)
	d.Add(d, big.NewInt(int64(rng.IntN(5)-2)))
	e, _ := strconv.Atoi(exp)
	out := d.String() + "e" + strconv.Itoa(e-(nd-1))
	if neg {
		out = "-" + out
	}
	return out
}

// TestFastPaths checks exactFloat, eiselLemire and subnormal directly: on
// random mantissas and exponents, each result they accept must be
// strconv.ParseFloat's, bit for bit, and they must accept nearly all.
func TestFastPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	var tried, took [3]int
	for range 200000 {
		man := rng.Uint64() >> rng.IntN(64)
		if man >= 1e19 {
			man /= 10
		}
		exp10 := rng.IntN(2*360+1) - 360
		neg := rng.IntN(2) == 0
		in := strconv.FormatUint(man, 10) + "e" + strconv.Itoa(exp10)
		if neg {
			in = "-" + in
		}
		want, err := strconv.ParseFloat(in, 64)
		for i, fn := range []func(uint64, int, bool) (float64, bool){exactFloat, eiselLemire, subnormal} {
			got, ok := fn(man, exp10, neg)
			if !ok {
				continue
			}
			if err != nil || math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("path %d: %s gives %v, strconv.ParseFloat %v, %v", i, in, got, want, err)
			}
			took[i]++
		}
		a := math.Abs(want)
		switch {
		case man>>53 == 0 && exp10 >= -22 && exp10 <= 22:
			tried[0]++
		case err == nil && a >= 0x1p-1022:
			tried[1]++
		case a > 0 && a < 0x1p-1022 && a > 0x1p-1073:
			tried[2]++
		}
	}
	// The exact path takes every case it is meant for; the others leave
	// out only the rare inputs too close to a half-way point.
	if took[0] < tried[0] || float64(took[1]) < 0.999*float64(tried[1]) || float64(took[2]) < 0.99*float64(tried[2]) {
		t.Errorf("fast paths took %v of %v", took, tried)
	}
	t.Logf("fast paths took %v; meant for %v", took, tried)
}

// FuzzNumber builds a JSON number from the fuzzer's mantissa digits,
// decimal point, exponent and sign, and checks Number against
// strconv.ParseFloat bit for bit.
func FuzzNumber(f *testing.F) {
	f.Add(uint64(17976931348623157), uint8(1), int16(292), false, uint8(0))
	f.Add(uint64(24703282292062327), uint8(1), int16(-340), false, uint8(0))
	f.Add(uint64(5), uint8(1), int16(-324), true, uint8(0))
	f.Add(uint64(9007199254740993), uint8(16), int16(0), false, uint8(3))
	f.Add(uint64(1), uint8(1), int16(23), false, uint8(0))
	f.Fuzz(func(t *testing.T, man uint64, dp uint8, exp int16, neg bool, zeros uint8) {
		digits := strconv.FormatUint(man, 10) + strings.Repeat("0", int(zeros%30))
		var b strings.Builder
		if neg {
			b.WriteByte('-')
		}
		if k := int(dp) % (len(digits) + 1); k > 0 && k < len(digits) && digits[0] != '0' {
			b.WriteString(digits[:k] + "." + digits[k:])
		} else if digits[0] == '0' {
			b.WriteString("0." + digits)
		} else {
			b.WriteString(digits)
		}
		b.WriteString("e" + strconv.Itoa(int(exp)))
		checkNumber(t, b.String())
	})
}

// TestEightDigits compares eightDigits with strconv.ParseUint on random
// digit strings, and checks that it refuses every string in which one
// byte, at any of the eight places, is any of the 246 bytes that are not
// digits.
func TestEightDigits(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	word := func(s []byte) uint64 {
		var u uint64
		for i := 7; i >= 0; i-- {
			u = u<<8 | uint64(s[i])
		}
		return u
	}
	s := make([]byte, 8)
	for range 100000 {
		for i := range s {
			s[i] = byte('0' + rng.IntN(10))
		}
		want, err := strconv.ParseUint(string(s), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := eightDigits(word(s))
		if !ok || got != want {
			t.Fatalf("%q: %d, %v; want %d", s, got, ok, want)
		}
		pos, c := rng.IntN(8), byte(rng.IntN(256))
		for c >= '0' && c <= '9' {
			c = byte(rng.IntN(256))
		}
		s[pos] = c
		if _, ok := eightDigits(word(s)); ok {
			t.Fatalf("%q taken for digits", s)
		}
	}
	for pos := range 8 {
		for c := range 256 {
			if c >= '0' && c <= '9' {
				continue
			}
			copy(s, "99999999")
			s[pos] = byte(c)
			if _, ok := eightDigits(word(s)); ok {
				t.Fatalf("%q taken for digits", s)
			}
		}
	}
}
