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
		{Seconds(152e-9), "152 ns"},
		{Seconds(1.234e-6), "1.23 µs"},
		{Seconds(0.0456), "45.6 ms"},
		{Seconds(2.1), "2.10 s"},
		{Rate(658e6), "658 M"},
		{Rate(1.234e9), "1.23 G"},
		{Rate(0.5), "0.5"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
