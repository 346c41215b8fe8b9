package underflow

import "math"

// Smallest is the smallest positive normal float64, 2⁻¹⁰²².
const Smallest = 0x1p-1022

// Value reports whether x is neither zero nor at least Smallest in
// magnitude: a subnormal float64. NaN and the infinities are not.
func Value(x float64) bool { return x != 0 && math.Abs(x) < Smallest }

// Decimal reports whether the decimal number s, which reads as x
// (strconv.ParseFloat), is not zero but below Smallest in magnitude: x is
// subnormal, or zero where s writes a number that is not (a digit other
// than 0 before its exponent, as in 1e-400 or 0.1e-330).
func Decimal(s string, x float64) bool {
	if x != 0 {
		return Value(x)
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == 'e' || c == 'E':
			return false
		case c >= '1' && c <= '9':
			return true
		}
	}
	return false
}
