// Package underflow tells which numbers are too small for float64 to hold
// in full precision: those other than zero whose magnitude is below
// Smallest, 2⁻¹⁰²² (about 2.2e-308), the smallest normal float64. Below
// it a float64 is subnormal and holds fewer than 53 bits (7e-324 reads as
// 5e-324), and below half of 2⁻¹⁰⁷⁴ (about 2.5e-324) a number written in
// decimal reads as zero (1e-400 reads as 0, and a branch of that length
// would silently vanish).
//
// twl refuses such branch lengths, tree weights and counts where they
// would make a result silently wrong (docs/formats.md); Decimal finds them
// in a file's text, Value in a number already held.
//
// Both take O(len(s)) time at most and allocate nothing.
package underflow
