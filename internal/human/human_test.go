package human

import (
	"strings"
	"testing"
)

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

// The expected counts are worked by hand from the units; every count Size
// writes reads back as itself.
func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{
		"1GiB": 1 << 30, "512 MiB": 512 << 20, "2GB": 2e9, "1.5kB": 1500, "100": 100, "7b": 7, "1TiB": 1 << 40, " 3 kib ": 3072,
	} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "x", "-1GB", "1 parsec", "NaN", "1e30TiB", "GiB"} {
		if _, err := ParseSize(bad); err == nil || !strings.Contains(err.Error(), "512MiB") {
			t.Errorf("ParseSize(%q): error %v", bad, err)
		}
	}
	for _, v := range []int64{0, 1, 1000, 1001, 1024, 3e9, 5 << 40, 7e12} {
		if got, err := ParseSize(Size(v)); err != nil || got != v {
			t.Errorf("ParseSize(Size(%d)) = %d, %v", v, got, err)
		}
	}
}
