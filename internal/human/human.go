// Package human formats byte counts, durations and rates for people, as
// twl's tables and messages show them.
package human

import (
	"math"
	"strconv"
	"strings"
)

// Bytes writes a byte count with a binary unit and 3 significant digits:
// "512 B", "1.50 KiB", "240 MiB".
func Bytes(v float64) string {
	if v < 1024 {
		return strconv.FormatFloat(v, 'f', 0, 64) + " B"
	}
	for _, u := range []string{"KiB", "MiB", "GiB", "TiB", "PiB"} {
		v /= 1024
		if v < 1024 || u == "PiB" {
			return Sig3(v) + " " + u
		}
	}
	panic("unreachable")
}

// Size writes a byte count exactly, in the largest unit that divides it:
// "4GiB", "512MB", "1000B".
func Size(v int64) string {
	for i, u := range []string{"TiB", "GiB", "MiB", "KiB"} {
		if scale := int64(1) << (10 * (4 - i)); v >= scale && v%scale == 0 {
			return strconv.FormatInt(v/scale, 10) + u
		}
	}
	for i, u := range []string{"TB", "GB", "MB", "kB"} {
		scale := int64(1)
		for range 4 - i {
			scale *= 1000
		}
		if v >= scale && v%scale == 0 {
			return strconv.FormatInt(v/scale, 10) + u
		}
	}
	return strconv.FormatInt(v, 10) + "B"
}

// Sig3 formats v with 3 significant digits, without exponent while |v|
// is below 999.5: "1.23", "12.3", "123", "1234", "-4.50". A value that
// rounds up to the next power of ten takes that decade's digits: 9.996 is
// "10.0", 99.96 is "100".
func Sig3(v float64) string {
	a := math.Abs(v)
	switch {
	case a < 9.995:
		return strconv.FormatFloat(v, 'f', 2, 64)
	case a < 99.95:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

// Seconds writes a duration in seconds with 3 significant digits and a
// unit: "152 ns", "1.23 µs", "45.6 ms", "2.10 s".
func Seconds(s float64) string {
	if s == 0 {
		return "0 s"
	}
	unit, scale := SecondsUnit(s)
	return Sig3(s*scale) + " " + unit
}

// SecondsUnit returns the unit that Seconds writes a duration s in and the
// factor from seconds to it: ("ms", 1e3) for 0.0456. A column of times can
// share the unit of its largest.
func SecondsUnit(s float64) (unit string, scale float64) {
	switch {
	case s < 1e-6:
		return "ns", 1e9
	case s < 1e-3:
		return "µs", 1e6
	case s < 1:
		return "ms", 1e3
	}
	return "s", 1
}

// Rate writes a rate with an SI prefix: "658 M", "1.23 G".
func Rate(v float64) string {
	for _, p := range []string{"", "k", "M", "G", "T", "P"} {
		if v < 1000 || p == "P" {
			if v < 1 {
				return strings.TrimSpace(strconv.FormatFloat(v, 'g', 3, 64) + " " + p)
			}
			return strings.TrimSpace(Sig3(v) + " " + p)
		}
		v /= 1000
	}
	panic("unreachable")
}
