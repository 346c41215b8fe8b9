package tree

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/twl-ldl/twl/internal/race"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
)

// eachLineScanner is the reference for eachLine: the line reader it
// replaced, through bufio.Scanner, a line at a time. It calls fn with the 1-based number and the TAB-separated, trimmed
// fields of every line of r that is not blank or a comment, after the text
// checks common to both formats; it stops at fn's first error or b's.
func eachLineScanner(r io.Reader, file string, b *Builder, fn func(line int, fields []string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), maxLine)
	line := 0
	for sc.Scan() {
		line++
		b.lineNo = line
		text := sc.Text()
		if line == 1 {
			text = strings.TrimPrefix(text, "\ufeff") // UTF-8 byte-order mark
		}
		text = strings.TrimSuffix(text, "\r")
		if msg := notText(text); msg != "" {
			return &Error{File: file, Line: line, Err: ErrSyntax, Msg: msg}
		}
		trimmed := strings.TrimSpace(text)
		if trimmed == "" || trimmed[0] == '#' {
			continue
		}
		fields := strings.Split(text, "\t")
		for i := range fields {
			fields[i] = strings.TrimSpace(fields[i])
			if fields[i] == "" {
				return &Error{File: file, Line: line, Err: ErrSyntax, Msg: fmt.Sprintf("field %d is empty", i+1)}
			}
		}
		if err := fn(line, fields); err != nil {
			return err
		}
		if b.err != nil {
			return b.err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return &Error{File: file, Line: line + 1, Err: ErrSyntax, Msg: fmt.Sprintf("line longer than %d bytes", maxLine)}
		}
		return fmt.Errorf("%s: %w", file, err)
	}
	b.lineNo = 0
	return nil
}

// notText reports a NUL byte or invalid UTF-8 in a line, the marks of a
// file that is not text (a binary file given by mistake), or "" if there is
// none. Other control characters are left to the name checks.

// eachLine0 is eachLine without a limit, for the edge list.
func eachLine0(r io.Reader, file string, b *Builder, fn func(line int, fields []string) error) error {
	return eachLine(r, file, b, 0, edgeListBytes, fn)
}

// lineCalls returns what eachLine-like read gives for in: the calls of fn,
// one a line, and the error.
func lineCalls(read func(io.Reader, string, *Builder, func(int, []string) error) error, r io.Reader) string {
	var b Builder
	var out strings.Builder
	err := read(r, "in.tree", &b, func(line int, fields []string) error {
		fmt.Fprintf(&out, "%d %q\n", line, fields)
		if fields[0] == "stop" {
			return errors.New("stop at line " + fmt.Sprint(line))
		}
		return nil
	})
	fmt.Fprintf(&out, "error: %v", err)
	return out.String()
}

// TestEachLine checks eachLine against the scanner it replaced
// (eachLineScanner) on random lines of the characters that matter (TAB,
// spaces, CR, '#', NUL, invalid UTF-8, a byte order mark), on lines about
// the length limit, and on a reader that fails.
func TestEachLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "b", "\t", " ", "\r", "\n", "\n", "#", "\x00", "\xff", "\ufeff", "stop", "é", "\r\n"}
	runs, deltas := 20000, []int{-3, -2, -1, 0, 1}
	if race.Enabled {
		runs, deltas = 2000, []int{-1, 0}
	}
	for n := range runs {
		var in strings.Builder
		for range rng.IntN(12) {
			in.WriteString(pieces[rng.IntN(len(pieces))])
		}
		if n%7 == 0 {
			in.WriteString("\n")
		}
		s := in.String()
		got := lineCalls(eachLine0, strings.NewReader(s))
		want := lineCalls(eachLineScanner, strings.NewReader(s))
		if got != want {
			t.Fatalf("%q:\n got %s\nwant %s", s, got, want)
		}
		if got := lineCalls(eachLine0, &text{s: s}); got != want {
			t.Fatalf("%q as a string:\n got %s\nwant %s", s, got, want)
		}
	}
	for _, d := range deltas {
		for _, end := range []string{"", "\n", "\r\n", "\r\r\n", "\nb\tc\n"} {
			s := "a\tb\n" + strings.Repeat("x", maxLine+d) + end
			got := lineCalls(eachLine0, strings.NewReader(s))
			want := lineCalls(eachLineScanner, strings.NewReader(s))
			if got != want {
				t.Fatalf("line of %d bytes, then %q:\n got %s\nwant %s", maxLine+d, end, got, want)
			}
			if got := lineCalls(eachLine0, &text{s: s}); got != want {
				t.Fatalf("line of %d bytes, then %q, as a string:\n got %s\nwant %s", maxLine+d, end, got, want)
			}
		}
	}
	bad := func() io.Reader {
		return io.MultiReader(strings.NewReader("a\tb\nb\tc\nc\t"), iotest.ErrReader(errors.New("disk on fire")))
	}
	if got, want := lineCalls(eachLine0, bad()), lineCalls(eachLineScanner, bad()); got != want {
		t.Fatalf("failing reader:\n got %s\nwant %s", got, want)
	}
}

// FuzzEachLine checks eachLine against the scanner it replaced
// (eachLineScanner) on any input.
func FuzzEachLine(f *testing.F) {
	f.Add("a\tb\t1\n# c\n\n\ufeffb\tc\r\n")
	f.Add("\ufeffa\t\tb\r\r\nstop\n\xff")
	f.Fuzz(func(t *testing.T, s string) {
		got := lineCalls(eachLine0, strings.NewReader(s))
		want := lineCalls(eachLineScanner, strings.NewReader(s))
		if got != want {
			t.Fatalf("%q:\n got %s\nwant %s", s, got, want)
		}
	})
}

// BenchmarkRead reads the edge list of a random tree of 100,000 nodes
// named as a phylogeny's nodes ("t12", "<node 7>"), with weights of six
// decimals: 2.7 MB, the form of 'twl distance --tree' inputs.
func BenchmarkRead(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 100_000
	name := func(i int) string {
		if i%2 == 0 {
			return fmt.Sprintf("t%d", i/2)
		}
		return fmt.Sprintf("<node %d>", i/2)
	}
	var in strings.Builder
	for i := 1; i < n; i++ {
		fmt.Fprintf(&in, "%s\t%s\t%.6f\n", name(rng.IntN(i)), name(i), rng.Float64())
	}
	data := in.String()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(strings.NewReader(data), "bench.tree", nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRootLine checks rootLine on the first, a middle and a last line
// without an end, after a byte order mark, and on none, against the
// lines counted by hand.
func TestRootLine(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{"Root\tx\n", 1},
		{"\ufeffRoot\tx", 1},
		{"a\tb\n\nRoot\tc\n", 3},
		{"a\tb\nRoot\tc", 2},
		{"a\tb\nRoot c\nRootx\t", 0},
		{"", 0},
	} {
		if got := rootLine(c.in); got != c.want {
			t.Errorf("rootLine(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}
