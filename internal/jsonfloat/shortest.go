package jsonfloat

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"strconv"

	"github.com/twl-ldl/twl/internal/jsonscan"
)

// AppendShortest appends v in the shortest form that reads back to v,
// exactly as strconv.AppendFloat(dst, v, 'g', -1, 64) does, to dst: the
// same bytes for every float64, in about half the time for the finite
// non-zero ones, which it converts itself (zeros, infinities and NaN go to
// strconv). The digits are those of the shortest decimal in the interval
// of reals that round to v, the nearest to v where several are shortest,
// found with one 128-bit product per bound (R. Giulietti, "The Schubfach
// way to render doubles", 2020, whose round-to-odd products decide every
// comparison exactly).
func AppendShortest(dst []byte, v float64) []byte {
	u := math.Float64bits(v)
	bq := int(u>>52) & 0x7ff
	t := u & (1<<52 - 1)
	if bq == 0x7ff || bq == 0 && t < 3 {
		// Zeros, infinities, NaN, and the two smallest subnormals, too
		// small a significand for the product's precision.
		return strconv.AppendFloat(dst, v, 'g', -1, 64)
	}
	if u>>63 != 0 {
		dst = append(dst, '-')
	}
	var f uint64
	var k int
	if bq != 0 {
		c := 1<<52 | t
		mq := 1075 - bq // v = c·2^−mq
		if 0 < mq && mq < 53 && c&(1<<mq-1) == 0 {
			// An integer below 2^53: its own digits.
			f, k = c>>mq, 0
		} else {
			f, k = toDecimal(-mq, c)
		}
	} else {
		f, k = toDecimal(-1074, t)
	}
	return appendDigits(dst, f, k)
}

// toDecimal returns the shortest decimal f·10^k in the rounding interval
// of c·2^q (c ≥ 3), the nearest to it where several are.
func toDecimal(q int, c uint64) (uint64, int) {
	out := c & 1 // an odd significand excludes the interval's bounds
	cb := c << 2
	cbr := cb + 2
	var cbl uint64
	var k int
	if c != 1<<52 || q == -1074 {
		cbl = cb - 2
		k = flog10Pow2(q)
	} else {
		// The power of two: the lower bound is nearer.
		cbl = cb - 1
		k = flog10ThreeQuartersPow2(q)
	}
	h := q + flog2Pow10(-k) + 2
	g1, g0 := pow10Ceil(-k)
	vb := rop(g1, g0, cb<<h)
	vbl := rop(g1, g0, cbl<<h)
	vbr := rop(g1, g0, cbr<<h)
	s := vb >> 2
	if s >= 10 {
		// A multiple of ten in the interval has fewer digits: there is
		// at most one, as the interval is narrower than 10^(k+1).
		sp10 := s / 10 * 10
		tp10 := sp10 + 10
		upin := vbl+out <= sp10<<2
		wpin := tp10<<2+out <= vbr
		if upin != wpin {
			if upin {
				return sp10, k
			}
			return tp10, k
		}
	}
	tt := s + 1
	uin := vbl+out <= s<<2
	win := tt<<2+out <= vbr
	if uin != win {
		if uin {
			return s, k
		}
		return tt, k
	}
	// Both in: the nearer, the even one at a tie.
	cmp := int64(vb - (s+tt)<<1)
	if cmp < 0 || cmp == 0 && s&1 == 0 {
		return s, k
	}
	return tt, k
}

// rop returns the product g·cp/2^127, g = g1·2^63 + g0, rounded to odd:
// the integer part with its lowest bit set where the fraction is not 0.
func rop(g1, g0, cp uint64) uint64 {
	x1, _ := bits.Mul64(g0, cp)
	y1, y0 := bits.Mul64(g1, cp)
	z := y0>>1 + x1
	vbp := y1 + z>>63
	return vbp | (z&(1<<63-1)+(1<<63-1))>>63
}

// pow10Ceil returns ⌊10^e·2^−r⌋ + 1, of 126 bits (r = ⌊e·log₂10⌋ − 125),
// as its high 63 bits and low 63 bits, from jsonscan's table of 10^e in
// 128 bits, rounded down.
func pow10Ceil(e int) (g1, g0 uint64) {
	hi, lo := jsonscan.Pow10(e)
	gh, gl := hi>>2, hi<<62|lo>>2
	gl++
	if gl == 0 {
		gh++
	}
	return gh<<1 | gl>>63, gl & (1<<63 - 1)
}

// flog10Pow2 returns ⌊q·log₁₀2⌋ for |q| ≤ 5456721.
func flog10Pow2(q int) int { return (q * 661_971_961_083) >> 41 }

// flog10ThreeQuartersPow2 returns ⌊log₁₀(¾·2^q)⌋ for |q| ≤ 5456721.
func flog10ThreeQuartersPow2(q int) int { return (q*661_971_961_083 - 274_743_187_321) >> 41 }

// flog2Pow10 returns ⌊e·log₂10⌋ for |e| ≤ 1233.
func flog2Pow10(e int) int { return (e * 913_124_641_741) >> 38 }

// digitPairs holds "00" to "99".
const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

// put8 writes the eight decimal digits of x < 10^8, with its leading
// zeros, to b: the four lanes of two digits, then the eight lanes of one,
// split at once in one 64-bit word (divisions by 100 and by 10 as
// multiplications that are exact over the lanes' ranges).
func put8(b []byte, x uint32) {
	hi, lo := uint64(x/10000), uint64(x%10000)
	v := hi | lo<<32                            // two lanes of 32 bits, < 10^4
	q := (v * 10486 >> 20) & 0x0000007f0000007f // lane / 100
	v = q | (v-q*100)<<16                       // four lanes of 16 bits, < 100
	q = (v * 103 >> 10) & 0x000f000f000f000f    // lane / 10
	v = q | (v-q*10)<<8                         // eight lanes of 8 bits, < 10
	binary.LittleEndian.PutUint64(b, v|0x3030303030303030)
}

// appendDigits appends f·10^k (f > 0, at most 20 digits) as strconv's 'g'
// format with the shortest precision writes it: the digits of f without
// its trailing zeros, in %e form where the decimal exponent is below −4
// or at least 6 (the exponent signed and of at least two digits), else in
// %f form.
func appendDigits(dst []byte, f uint64, k int) []byte {
	for f%10 == 0 {
		f /= 10
		k++
	}
	// The digits in blocks of eight, the first block without its
	// leading zeros.
	var buf [24]byte
	var blocks [2]uint32
	nb := 0
	for f >= 1e8 {
		blocks[nb] = uint32(f % 1e8)
		f /= 1e8
		nb++
	}
	put8(buf[0:8], uint32(f))
	for j := range nb {
		put8(buf[8+8*j:16+8*j], blocks[nb-1-j])
	}
	lead := bits.Len32(uint32(f)) * 1233 >> 12 // ⌊log₁₀ f⌋ or one less
	if uint32(f) >= pow10u32[lead] {
		lead++
	}
	d := buf[8-lead : 8+8*nb]
	nd := len(d)
	dp := nd + k // the decimal point's place after the first digit of d
	exp := dp - 1
	if exp < -4 || exp >= 6 {
		dst = append(dst, d[0])
		if nd > 1 {
			dst = append(dst, '.')
			dst = append(dst, d[1:]...)
		}
		dst = append(dst, 'e')
		if exp < 0 {
			dst = append(dst, '-')
			exp = -exp
		} else {
			dst = append(dst, '+')
		}
		switch {
		case exp < 10:
			return append(dst, '0', byte('0'+exp))
		case exp < 100:
			return append(dst, digitPairs[2*exp], digitPairs[2*exp+1])
		}
		return append(dst, byte('0'+exp/100), digitPairs[2*(exp%100)], digitPairs[2*(exp%100)+1])
	}
	switch {
	case dp <= 0:
		dst = append(dst, '0', '.')
		for ; dp < 0; dp++ {
			dst = append(dst, '0')
		}
		return append(dst, d...)
	case dp >= nd:
		dst = append(dst, d...)
		for ; dp > nd; dp-- {
			dst = append(dst, '0')
		}
		return dst
	}
	n := len(dst)
	dst = slices.Grow(dst, nd+1)[:n+nd+1]
	copy(dst[n:], d[:dp])
	dst[n+dp] = '.'
	copy(dst[n+dp+1:], d[dp:])
	return dst
}

// pow10u32 holds 10^0 to 10^8.
var pow10u32 = [...]uint32{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8}
