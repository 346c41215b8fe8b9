package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// flags is a subcommand's flag set with its help text. Flags are written
// --name or -name, before or after the positional arguments; "--" ends the
// flags.
type flags struct {
	*flag.FlagSet
	synopsis string // the usage line(s) after "Usage:"
	about    string // what the command does
	examples string // example command lines, with comments
}

func newFlags(name, synopsis, about, examples string) *flags {
	fs := flag.NewFlagSet("twl "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors and help are printed by report
	fs.Usage = func() {}
	return &flags{FlagSet: fs, synopsis: synopsis, about: about, examples: examples}
}

// parse parses args and returns the positional arguments. For --help it
// prints the help to standard output and returns flag.ErrHelp.
func (f *flags) parse(e *env, args []string) ([]string, error) {
	var pos []string
	for {
		err := f.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			f.usage(e.stdout, true)
			return nil, flag.ErrHelp
		}
		if err != nil {
			// The flag package writes flags with one dash; twl's help uses two.
			msg := strings.NewReplacer("flag -", "flag --", "defined: -", "defined: --", "argument: -", "argument: --").Replace(err.Error())
			return nil, &usageError{fs: f, msg: msg}
		}
		rest := f.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// fail returns a usage error for the command.
func (f *flags) fail(format string, args ...any) error {
	return &usageError{fs: f, msg: fmt.Sprintf(format, args...)}
}

// usage prints the command's help: synopsis, description, flags and
// examples; or, for a mistake in the command line, the synopsis and flags.
func (f *flags) usage(w io.Writer, full bool) {
	fmt.Fprintf(w, "Usage:\n  %s\n", f.synopsis)
	if full {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(f.about))
	}
	fmt.Fprint(w, "\nFlags:\n")
	const indent = 24
	f.VisitAll(func(fl *flag.Flag) {
		arg, text := flag.UnquoteUsage(fl)
		head := "  --" + fl.Name
		if arg != "" {
			head += " " + arg
		}
		if fl.DefValue != "" && fl.DefValue != "false" && fl.DefValue != "0" {
			text += " (default " + fl.DefValue + ")"
		}
		if len(head) >= indent-1 {
			fmt.Fprintln(w, head)
			head = ""
		}
		for i, line := range wrap(text, 79-indent) {
			if i > 0 {
				head = ""
			}
			fmt.Fprintf(w, "%-*s%s\n", indent, head, line)
		}
	})
	if full {
		fmt.Fprintf(w, "\nExamples:\n%s\n", strings.TrimRight(f.examples, "\n"))
	} else {
		fmt.Fprintf(w, "\nRun '%s --help' for more.\n", f.Name())
	}
}

// wrap splits text into lines of at most width bytes, at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len(line)+1+len(word) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	return append(lines, line)
}

// intList is a flag holding a comma-separated list of positive integers,
// which may be written in exponent form (1e5).
type intList []int

func (l *intList) String() string {
	s := make([]string, len(*l))
	for i, v := range *l {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ",")
}

func (l *intList) Set(s string) error {
	var out intList
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || v != math.Trunc(v) || v < 1 || v > 1<<31-2 {
			return fmt.Errorf("%q is not a positive integer", f)
		}
		out = append(out, int(v))
	}
	*l = out
	return nil
}

// byteSize is a flag holding a number of bytes, with an optional unit:
// B, kB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024).
type byteSize int64

var units = []struct {
	suffix string
	scale  float64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12}, {"b", 1},
}

func (b *byteSize) String() string {
	v := int64(*b)
	for i, u := range []string{"TiB", "GiB", "MiB", "KiB"} {
		if scale := int64(1) << (10 * (4 - i)); v >= scale && v%scale == 0 {
			return strconv.FormatInt(v/scale, 10) + u
		}
	}
	return strconv.FormatInt(v, 10) + "B"
}

func (b *byteSize) Set(s string) error {
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
		return fmt.Errorf("%q is not a size such as 512MiB or 2GB", s)
	}
	*b = byteSize(v * scale)
	return nil
}

// formatBytes writes a byte count with a binary unit and 3 significant
// digits: "512 B", "1.5 KiB", "240 MiB".
func formatBytes(v float64) string {
	if v < 1024 {
		return strconv.FormatFloat(v, 'f', 0, 64) + " B"
	}
	for _, u := range []string{"KiB", "MiB", "GiB", "TiB", "PiB"} {
		v /= 1024
		if v < 1024 || u == "PiB" {
			return sig3(v) + " " + u
		}
	}
	panic("unreachable")
}

// sig3 formats v ≥ 1 with 3 significant digits, without exponent for v
// below 1000: "1.23", "12.3", "123", "1234".
func sig3(v float64) string {
	switch {
	case v < 10:
		return strconv.FormatFloat(v, 'f', 2, 64)
	case v < 100:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

// formatSeconds writes a duration in seconds with 3 significant digits and
// a unit: "152 ns", "1.23 µs", "45.6 ms", "2.10 s".
func formatSeconds(s float64) string {
	switch {
	case s < 1e-6:
		return sig3(s*1e9) + " ns"
	case s < 1e-3:
		return sig3(s*1e6) + " µs"
	case s < 1:
		return sig3(s*1e3) + " ms"
	}
	return sig3(s) + " s"
}

// formatRate writes a rate with an SI prefix: "658 M", "1.23 G".
func formatRate(v float64) string {
	for _, p := range []string{"", "k", "M", "G", "T", "P"} {
		if v < 1000 || p == "P" {
			if v < 1 {
				return strings.TrimSpace(strconv.FormatFloat(v, 'g', 3, 64) + " " + p)
			}
			return strings.TrimSpace(sig3(v) + " " + p)
		}
		v /= 1000
	}
	panic("unreachable")
}
