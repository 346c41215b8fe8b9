package human

import (
	"strings"
	"testing"
)

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
