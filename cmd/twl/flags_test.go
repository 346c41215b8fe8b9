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

func TestByteSizeString(t *testing.T) {
	// The largest unit that divides the count, by hand (3e9 = 3·2^9·5^9:
	// no KiB).
	for _, tc := range []struct {
		b    byteSize
		want string
	}{{1 << 30, "1GiB"}, {1536, "1536B"}, {3e9, "3GB"}} {
		if got := tc.b.String(); got != tc.want {
			t.Errorf("byteSize(%d): %q, want %q", int64(tc.b), got, tc.want)
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
