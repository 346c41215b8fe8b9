package main

import (
	"bytes"
	"strings"
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

// TestIntFlag checks the forms every integer flag reads: decimal digits and
// exponent forms of integers, and the messages for anything else.
func TestIntFlag(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		err  string // "" for none
	}{
		{"100000", 100000, ""}, {"1e5", 100000, ""}, {"1E5", 100000, ""}, {"2.5e3", 2500, ""}, {" 7 ", 7, ""},
		{"-3", -3, ""}, {"-1e2", -100, ""}, {"+4", 4, ""}, {"9223372036854775807", 1<<63 - 1, ""},
		{"1e18", 1e18, ""}, {"0", 0, ""}, {"0e0", 0, ""},
		{"1.5", 0, "not an integer"}, {"1.5e0", 0, "not an integer"}, {"x", 0, "not an integer"},
		{"", 0, "not an integer"}, {"NaN", 0, "not an integer"}, {"0x10", 0, "not an integer"},
		{"1_000", 0, "not an integer"}, {"0x1p4", 0, "not an integer"},
		{"1e19", 0, "integer out of range"}, {"9223372036854775808", 0, "integer out of range"},
		{"1e400", 0, "integer out of range"}, {"-Inf", 0, "integer out of range"},
	} {
		fs := newFlags("x", "")
		n := fs.Int64("n", 0, "")
		err := fs.Set("n", tc.in)
		switch {
		case tc.err == "" && (err != nil || *n != tc.want):
			t.Errorf("%q: %d, %v; want %d", tc.in, *n, err, tc.want)
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("%q: %d, %v; want the error %q", tc.in, *n, err, tc.err)
		}
	}
	// int and uint64 flags: the same forms, their own ranges.
	fs := newFlags("x", "")
	i := fs.Int("i", 3, "")
	var u uint64
	fs.Uint64Var(&u, "u", 5, "")
	if *i != 3 || u != 5 {
		t.Errorf("defaults %d, %d", *i, u)
	}
	for in, want := range map[string]string{"1e3": "", "1.5e0": "not an integer"} {
		if err := fs.Set("i", in); err == nil != (want == "") || err != nil && err.Error() != want {
			t.Errorf("int %q: %v", in, err)
		}
	}
	for in, want := range map[string]string{"1e19": "", "18446744073709551615": "", "-1": "not an integer ≥ 0",
		"-1e3": "not an integer ≥ 0", "1e20": "integer out of range", "2.5": "not an integer"} {
		if err := fs.Set("u", in); err == nil != (want == "") || err != nil && err.Error() != want {
			t.Errorf("uint64 %q: %v, want %q", in, err, want)
		}
	}
	if *i != 1000 || u != 18446744073709551615 && u != 1e19 {
		t.Errorf("values %d, %d", *i, u)
	}
	// The help names the type of a flag without a `NAME` in its text.
	var b bytes.Buffer
	fs.usage(&b)
	if !strings.Contains(b.String(), "  --i int ") || !strings.Contains(b.String(), "(default 3)") {
		t.Errorf("help:\n%s", b.String())
	}
}
