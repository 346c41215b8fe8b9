package underflow

import (
	"math"
	"strconv"
	"testing"
)

// TestDecimal reads each text with strconv.ParseFloat and checks Decimal
// against the answer worked out by hand: zero however written is not too
// small, a number whose float64 is subnormal (below 0x1p-1022) or zero
// while the text is not is, a normal number is not.
func TestDecimal(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"0", false}, {"-0", false}, {"0.000", false}, {"0e-400", false}, {"00.0E5", false},
		{"1", false}, {"2.2250738585072014e-308", false}, {"1e308", false}, {"-3.5", false},
		{"2.225073858507201e-308", true}, // just below 2⁻¹⁰²²: subnormal
		{"1e-310", true}, {"5e-324", true}, {"7e-324", true}, {"-1e-310", true},
		{"2e-324", true}, {"1e-400", true}, {"-1e-400", true}, {"0.1e-330", true}, {"0.0001E-999999", true},
	} {
		x, err := strconv.ParseFloat(c.s, 64)
		if err != nil {
			t.Fatalf("%s: %v", c.s, err)
		}
		if got := Decimal(c.s, x); got != c.want {
			t.Errorf("Decimal(%q, %v) = %v, want %v", c.s, x, got, c.want)
		}
	}
}

// TestValue: subnormals of either sign are too small; zeros, normals,
// NaN and the infinities are not.
func TestValue(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want bool
	}{
		{0, false}, {math.Copysign(0, -1), false}, {Smallest, false}, {-Smallest, false}, {1, false},
		{math.NaN(), false}, {math.Inf(1), false}, {math.Inf(-1), false},
		{math.Nextafter(Smallest, 0), true}, {5e-324, true}, {-5e-324, true},
	} {
		if got := Value(c.x); got != c.want {
			t.Errorf("Value(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}
