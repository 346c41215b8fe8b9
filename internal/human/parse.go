package human

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseSize reads a byte count such as Size writes, or with a fraction, a
// space or another case: a number of bytes with an optional unit, B, kB, MB,
// GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024): "512MiB",
// "2 GB", "1.5kb", "100". A negative, non-numeric or too large (2^62 bytes
// or more) value is an error.
func ParseSize(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	scale := 1.0
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, scale = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.scale
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || !(v >= 0) || v*scale >= 1<<62 {
		return 0, fmt.Errorf("%q is not a size such as 512MiB or 2GB", s)
	}
	return int64(v * scale), nil
}

// units are the suffixes of ParseSize, lower case, each before any suffix
// of it.
var units = []struct {
	suffix string
	scale  float64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12}, {"b", 1},
}
