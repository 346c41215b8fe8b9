package jsonscan

// Pow10Min and Pow10Max bound the exponents of Pow10.
const (
	Pow10Min = pow10Min
	Pow10Max = pow10Max
)

// Pow10 returns 10^e scaled by a power of two into [2^127, 2^128) and
// rounded down, as its high and low 64 bits, for Pow10Min ≤ e ≤ Pow10Max:
// the table of the conversions of decimal to binary, shared with those of
// binary to decimal (package jsonfloat). It panics for other e.
func Pow10(e int) (hi, lo uint64) {
	p := &pow10Tab[e-pow10Min]
	return p[0], p[1]
}
