package report

import (
	"fmt"

	"github.com/twl-ldl/twl/internal/jsonfloat"
)

// Float is a float64 that JSON can hold whatever its value: finite values
// are numbers in shortest round-trip form, NaN and the infinities (a
// standard deviation over one seed, a kl that is +Inf) the strings "NaN",
// "+Inf" and "-Inf", which Go's strconv.ParseFloat and Python's float()
// read back.
type Float float64

// MarshalJSON implements json.Marshaler.
func (f Float) MarshalJSON() ([]byte, error) {
	return jsonfloat.Append(nil, float64(f)), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (f *Float) UnmarshalJSON(b []byte) error {
	v, err := jsonfloat.Parse(b)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	*f = Float(v)
	return nil
}
