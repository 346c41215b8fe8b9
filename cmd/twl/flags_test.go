package main

import (
	"testing"
)

func TestFlagValues(t *testing.T) {
	var l intList
	if err := l.Set("100, 1e3,2000000"); err != nil || l.String() != "100,1000,2000000" {
		t.Errorf("intList: %v, %v", l, err)
	}
	for _, bad := range []string{"", "0", "-1", "1.5", "x", "1e10", "NaN"} {
		if err := l.Set(bad); err == nil {
			t.Errorf("intList accepted %q", bad)
		}
	}
	for in, want := range map[string]int64{
		"1GiB": 1 << 30, "512 MiB": 512 << 20, "2GB": 2e9, "1.5kB": 1500, "100": 100, "7b": 7, "1TiB": 1 << 40,
	} {
		var b byteSize
		if err := b.Set(in); err != nil || int64(b) != want {
			t.Errorf("byteSize %q: %d, %v; want %d", in, b, err, want)
		}
	}
	for _, bad := range []string{"", "x", "-1GB", "1 parsec", "NaN", "1e30TiB"} {
		var b byteSize
		if err := b.Set(bad); err == nil {
			t.Errorf("byteSize accepted %q", bad)
		}
	}
}

func TestFormatters(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{formatSeconds(152e-9), "152 ns"},
		{formatSeconds(1.234e-6), "1.23 µs"},
		{formatSeconds(45.6e-3), "45.6 ms"},
		{formatSeconds(2.1), "2.10 s"},
		{formatRate(658e6), "658 M"},
		{formatRate(12), "12.0"},
		{formatBytes(512), "512 B"},
		{formatBytes(1536), "1.50 KiB"},
		{formatBytes(240 << 20), "240 MiB"},
		{(func() string { b := byteSize(1 << 30); return b.String() })(), "1GiB"},
		{(func() string { b := byteSize(1536); return b.String() })(), "1536B"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
