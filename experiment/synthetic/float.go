package synthetic

import "github.com/twl-ldl/twl/experiment/internal/expstat"

// Float is a float64 that JSON can hold whatever its value: finite values
// are numbers in shortest round-trip form, NaN and the infinities the
// strings "NaN", "+Inf" and "-Inf" (expstat.Float).
type Float = expstat.Float
