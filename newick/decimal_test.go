package newick

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestShortDecimal: every string shortDecimal accepts parses to the bits
// strconv.ParseFloat gives it, on random decimals of every length and
// position of the point and on edge cases; and it declines what it must
// leave to strconv.
func TestShortDecimal(t *testing.T) {
	check := func(s string) {
		f, ok := shortDecimal(s)
		if !ok {
			return
		}
		g, err := strconv.ParseFloat(s, 64)
		if err != nil || math.Float64bits(f) != math.Float64bits(g) {
			t.Fatalf("shortDecimal(%q) = %v, strconv %v (%v)", s, f, g, err)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200000 {
		n := 1 + rng.IntN(24)
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + rng.IntN(10))
		}
		if rng.IntN(4) == 0 {
			for i := range rng.IntN(n) {
				b[i] = '0'
			}
		}
		s := string(b)
		if d := rng.IntN(n + 1); d < n || rng.IntN(2) == 0 {
			s = s[:d] + "." + s[d:]
		}
		check(s)
	}
	for _, s := range []string{"0", "0.0", "1", "1.", ".5", "0.457252", "9007199254740993", "999999999999999",
		"0.000000000000000000001", "123456789012345.6", "1.7976931348623157", "00000000000000000000001.5"} {
		check(s)
	}
	for _, s := range []string{"", ".", "1e5", "-1", "+1", "1.2.3", "0x1p3", "1_0", "Inf", "NaN",
		"1234567890123456", "0.1234567890123456", "1." + strings.Repeat("0", 23)} {
		if _, ok := shortDecimal(s); ok {
			t.Errorf("shortDecimal(%q) accepted", s)
		}
	}
}
