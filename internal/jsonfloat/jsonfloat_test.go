package jsonfloat

import (
	"math"
	"testing"
)

// TestRoundTrip: finite values are numbers, NaN and the infinities
// strings, and each reads back to itself.
func TestRoundTrip(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0, "0"}, {-1.5, "-1.5"}, {1e-300, "1e-300"}, {0.1, "0.1"}, {1e21, "1e+21"},
		{math.NaN(), `"NaN"`}, {math.Inf(1), `"+Inf"`}, {math.Inf(-1), `"-Inf"`},
	} {
		b := Append(nil, c.v)
		if string(b) != c.want {
			t.Errorf("Append(%v) = %s, want %s", c.v, b, c.want)
		}
		back, err := Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		if !(back == c.v || math.IsNaN(c.v) && math.IsNaN(back)) {
			t.Errorf("%v → %s → %v", c.v, b, back)
		}
	}
	for _, bad := range []string{`"x"`, `"1"`, `true`, ``} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%s) succeeded", bad)
		}
	}
}
