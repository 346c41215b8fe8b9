package human

import "testing"

// The expected strings are worked by hand from the rules of each function.
func TestFormats(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Bytes(512), "512 B"},
		{Bytes(1536), "1.50 KiB"},     // 1536/1024
		{Bytes(240 << 20), "240 MiB"}, // exact
		{Size(4 << 30), "4GiB"},
		{Size(3e9), "3GB"}, // not a multiple of 1024
		{Size(1000), "1kB"},
		{Size(1001), "1001B"},
		{Seconds(0), "0 s"}, // nothing left: main wrote "0 ns"
		{Seconds(152e-9), "152 ns"},
		{Seconds(1.234e-6), "1.23 µs"},
		{Seconds(0.0456), "45.6 ms"},
		{Seconds(2.1), "2.10 s"},
		{Rate(658e6), "658 M"},
		{Rate(1.234e9), "1.23 G"},
		{Rate(0.5), "0.5"},
		{Sig3(9.994), "9.99"},  // 3 digits below the rounding edge
		{Sig3(9.996), "10.0"},  // rounds into the next decade: 3 digits, not "10.00"
		{Sig3(99.96), "100"},   // likewise, not "100.0"
		{Sig3(-4.5), "-4.50"},  // the sign does not count as a digit
		{Sig3(1234.4), "1234"}, // no exponent
		{Seconds(9.996), "10.0 s"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	for _, c := range []struct {
		s     float64
		unit  string
		scale float64
	}{{5e-7, "ns", 1e9}, {5e-4, "µs", 1e6}, {0.5, "ms", 1e3}, {1, "s", 1}} {
		if unit, scale := SecondsUnit(c.s); unit != c.unit || scale != c.scale {
			t.Errorf("SecondsUnit(%g) = %q, %g; want %q, %g", c.s, unit, scale, c.unit, c.scale)
		}
	}
}
