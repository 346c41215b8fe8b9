package synthetic

import (
	"fmt"
	"math"
	"strconv"
)

// Float is a float64 that JSON can hold whatever its value: finite values
// are numbers in shortest round-trip form, NaN and the infinities (a
// standard deviation over one seed, a kl that is +Inf) the strings "NaN",
// "+Inf" and "-Inf", which Go's strconv.ParseFloat and Python's float()
// read back.
type Float float64

// MarshalJSON implements json.Marshaler.
func (f Float) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte(`"` + strconv.FormatFloat(v, 'g', -1, 64) + `"`), nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (f *Float) UnmarshalJSON(b []byte) error {
	s := string(b)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
		switch s {
		case "NaN", "+Inf", "-Inf":
		default:
			return fmt.Errorf("synthetic: %q is not a number", s)
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("synthetic: %s is not a number", b)
	}
	*f = Float(v)
	return nil
}
