package main

import (
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/twl-ldl/twl/internal/atomicfile"
	"github.com/twl-ldl/twl/internal/human"
	"github.com/twl-ldl/twl/tree"
)

// flags is a subcommand's flag set with its help text. Flags are written
// --name or -name, before or after the positional arguments; "--" ends the
// flags.
//
// Its Int, IntVar, Int64, Uint64 and Uint64Var replace those of
// flag.FlagSet, so that every integer flag of every command reads the same
// forms, 100000 or 1e5 (see parseInt), as the lists of intList do.
type flags struct {
	*flag.FlagSet
	synopsis string // the usage line(s) after "Usage:"
	// stderr receives warnings about the command's inputs (a tree file
	// that looks space-separated); parse sets it.
	stderr io.Writer
	// readLimit is the --max-memory that bounds reading (maxMemoryFlag).
	readLimit *byteSize
}

// newFlags returns the flags of the command "twl NAME", whose help is
// help/NAME.txt (see helpOf).
func newFlags(name, synopsis string) *flags {
	fs := flag.NewFlagSet("twl "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors and help are printed by report
	fs.Usage = func() {}
	return &flags{FlagSet: fs, synopsis: synopsis}
}

// help holds the help of every command: help/NAME.txt for "twl NAME" (a
// space as a dash: text-train.txt), its description, a line "Examples:",
// then the examples. A {{PART}} in it stands for the text of help/PART.txt.
//
//go:embed help/*.txt
var help embed.FS

var helpPart = regexp.MustCompile(`\{\{[a-z-]+\}\}`)

// helpOf returns the description and the examples of the command name
// ("text train").
func helpOf(name string) (about, examples string) {
	about, examples, _ = strings.Cut(helpFile(strings.ReplaceAll(name, " ", "-")), "\nExamples:\n")
	return about, examples
}

// helpFile returns help/NAME.txt with its parts filled in.
func helpFile(name string) string {
	b, _ := help.ReadFile("help/" + name + ".txt") // embedded: present
	return helpPart.ReplaceAllStringFunc(string(b), func(p string) string { return strings.TrimSuffix(helpFile(p[2:len(p)-2]), "\n") })
}

// parse parses args and returns the positional arguments. For --help it
// prints the help to standard output and returns flag.ErrHelp.
func (f *flags) parse(e *env, args []string) ([]string, error) {
	f.stderr = e.stderr
	if e.onFlags != nil {
		e.onFlags(f)
	}
	var pos []string
	for {
		err := f.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			f.usage(e.stdout)
			return nil, flag.ErrHelp
		}
		if err != nil {
			// The flag package writes flags with one dash; twl's help uses two.
			msg := strings.NewReplacer("flag -", "flag --", "defined: -", "defined: --", "argument: -", "argument: --").Replace(err.Error())
			return nil, &usageError{fs: f, msg: msg}
		}
		rest := f.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), f.checkOutputs()
		}
		if len(rest) == 0 {
			return pos, f.checkOutputs()
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// outPath is the value of an output flag, made by OutFile or OutDir: a
// file or a folder the command writes. Every command reads its flags with
// parse, which checks each output before it returns, so that no command
// reads an input or computes anything before its outputs are known to be
// writable.
type outPath struct {
	p   *string
	dir bool // a folder, created if needed, rather than a file
}

func (o *outPath) String() string {
	if o.p == nil {
		return "" // the zero outPath that the flag package makes to find defaults
	}
	return *o.p
}

func (o *outPath) Set(s string) error { *o.p = s; return nil }

// OutFile defines a flag naming a file the command writes ("-" or "" for
// standard output, or for none); parse checks that it can be written.
func (f *flags) OutFile(name, usage string) *string {
	p := new(string)
	f.OutFileVar(p, name, usage)
	return p
}

// OutFileVar is OutFile storing the value in *p, which starts empty.
func (f *flags) OutFileVar(p *string, name, usage string) {
	*p = ""
	f.Var(&outPath{p: p}, name, usage)
}

// OutDirVar defines a flag naming a folder the command writes into,
// created if needed ("" for none), with the default value; parse checks
// that it can be written.
func (f *flags) OutDirVar(p *string, name, value, usage string) {
	*p = value
	f.Var(&outPath{p: p, dir: true}, name, usage)
}

// OutDir is OutDirVar returning a new string.
func (f *flags) OutDir(name, value, usage string) *string {
	p := new(string)
	f.OutDirVar(p, name, value, usage)
	return p
}

// checkOutputs checks every output flag's value, given or default: a file
// that can be created or replaced, a folder that exists or can be created,
// and that accepts a new file. It creates nothing that stays.
func (f *flags) checkOutputs() error {
	var err error
	f.VisitAll(func(fl *flag.Flag) {
		o, ok := fl.Value.(*outPath)
		if !ok || err != nil || *o.p == "" || *o.p == "-" && !o.dir {
			return
		}
		if o.dir {
			err = atomicfile.CheckDir(*o.p)
		} else {
			err = atomicfile.CheckWritable(*o.p)
		}
	})
	return err
}

// files returns the overwrite check of the command (atomicfile.Files)
// holding every output flag's value, given or default: OutFile flags as
// files, OutDir flags as folders the command writes into. The command adds
// its inputs and any other file it writes (a sidecar, a default name),
// then calls checkFiles, before it reads anything.
func (f *flags) files() *atomicfile.Files {
	files := new(atomicfile.Files)
	f.VisitAll(func(fl *flag.Flag) {
		if o, ok := fl.Value.(*outPath); ok && o.dir {
			files.OutputDir("--"+fl.Name, *o.p)
		} else if ok {
			files.Output("--"+fl.Name, *o.p)
		}
	})
	return files
}

// checkFiles refuses, as a mistake on the command line, an output that
// would overwrite an input or another output (atomicfile.Files.Check).
func (f *flags) checkFiles(files *atomicfile.Files) error {
	if err := files.Check(); err != nil {
		return f.fail("%v", err)
	}
	return nil
}

// inputTree adds the file of the tree spec of flag name (edges:FILE,
// taxonomy:FILE, FILE; none for chain, star, chain:N, star:N) to files.
func inputTree(files *atomicfile.Files, name, spec string) {
	if spec != "chain" && spec != "star" {
		files.Input(name, tree.SpecFile(spec))
	}
}

// inputTrees adds the files of --tree and of --trees (a comma-separated
// list) to files.
func inputTrees(files *atomicfile.Files, treePath, treeList string) {
	inputTree(files, "--tree", treePath)
	if treeList != "" {
		for _, path := range strings.Split(treeList, ",") {
			files.Input("--trees", path)
		}
	}
}

// orList writes items as "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// warn writes a warning about the command's input to standard error.
func (f *flags) warn(msg string) {
	if f.stderr != nil {
		fmt.Fprintf(f.stderr, "%s: warning: %s\n", f.Name(), msg)
	}
}

// fail returns a usage error for the command.
func (f *flags) fail(format string, args ...any) error {
	return &usageError{fs: f, msg: fmt.Sprintf(format, args...)}
}

// isSet reports whether the flag name was given on the command line (with
// any value, its default included).
func (f *flags) isSet(name string) bool {
	set := false
	f.Visit(func(fl *flag.Flag) {
		if fl.Name == name {
			set = true
		}
	})
	return set
}

// usage prints the command's help: synopsis, description, flags and
// examples.
func (f *flags) usage(w io.Writer) {
	about, examples := helpOf(strings.TrimPrefix(f.Name(), "twl "))
	fmt.Fprintf(w, "Usage:\n  %s\n", f.synopsis)
	fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(about))
	fmt.Fprint(w, "\nFlags:\n")
	const indent = 24
	f.VisitAll(func(fl *flag.Flag) {
		arg, text := flag.UnquoteUsage(fl)
		if _, ok := fl.Value.(*intFlag); ok && arg == "value" {
			arg = "int" // as the flag package names its own integer flags
		}
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
	fmt.Fprintf(w, "\nExamples:\n%s\n", strings.TrimRight(examples, "\n"))
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

// intFlag is an integer flag of type int, int64 or uint64, read by
// parseInt or parseUint: 100000 and 1e5 are the same value.
type intFlag struct {
	p any // *int, *int64 or *uint64
}

func (v *intFlag) String() string {
	switch p := v.p.(type) {
	case *int:
		return strconv.Itoa(*p)
	case *int64:
		return strconv.FormatInt(*p, 10)
	case *uint64:
		return strconv.FormatUint(*p, 10)
	}
	return "0" // the zero intFlag that the flag package makes to find defaults
}

func (v *intFlag) Set(s string) error {
	s = strings.TrimSpace(s)
	switch p := v.p.(type) {
	case *int:
		i, err := parseInt(s, strconv.IntSize)
		if err != nil {
			return err
		}
		*p = int(i)
	case *int64:
		i, err := parseInt(s, 64)
		if err != nil {
			return err
		}
		*p = i
	case *uint64:
		u, err := parseUint(s)
		if err != nil {
			return err
		}
		*p = u
	}
	return nil
}

var (
	errNotInteger = errors.New("not an integer")
	errIntRange   = errors.New("integer out of range")
	errNegative   = errors.New("not an integer ≥ 0")
)

// parseInt reads s as a signed integer of the given bit size: decimal
// digits (100000, -3), or a number in exponent form whose value is an
// integer (1e5, 2.5e3). Anything else (1.5, 1.5e0, 0x10, 1_000, NaN) is
// errNotInteger, and a value beyond the bit size errIntRange.
func parseInt(s string, bits int) (int64, error) {
	i, err := strconv.ParseInt(s, 10, bits)
	if err == nil {
		return i, nil
	}
	if errors.Is(err, strconv.ErrRange) {
		return 0, errIntRange
	}
	f, err := parseIntegral(s)
	if err != nil {
		return 0, err
	}
	if lim := math.Ldexp(1, bits-1); !(f >= -lim && f < lim) {
		return 0, errIntRange
	}
	return int64(f), nil
}

// parseUint is parseInt for a 64-bit unsigned integer; a negative value is
// errNegative.
func parseUint(s string) (uint64, error) {
	u, err := strconv.ParseUint(s, 10, 64)
	if err == nil {
		return u, nil
	}
	if _, ierr := strconv.ParseInt(s, 10, 64); ierr == nil || errors.Is(ierr, strconv.ErrRange) && strings.HasPrefix(s, "-") {
		return 0, errNegative
	}
	if errors.Is(err, strconv.ErrRange) {
		return 0, errIntRange
	}
	f, err := parseIntegral(s)
	if err != nil {
		return 0, err
	}
	if f < 0 {
		return 0, errNegative
	}
	if !(f < math.Ldexp(1, 64)) {
		return 0, errIntRange
	}
	return uint64(f), nil
}

// parseIntegral reads a decimal number whose value is an integer, or an
// infinity for one out of range; hexadecimal floats are refused.
func parseIntegral(s string) (float64, error) {
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange), strings.ContainsAny(s, "xX_"):
		return 0, errNotInteger
	case math.IsInf(f, 0):
		return f, nil
	case f != math.Trunc(f): // NaN too
		return 0, errNotInteger
	}
	return f, nil
}

// IntVar defines an int flag that reads the forms of intFlag.
func (f *flags) IntVar(p *int, name string, value int, usage string) {
	*p = value
	f.Var(&intFlag{p}, name, usage)
}

// Int defines an int flag that reads the forms of intFlag.
func (f *flags) Int(name string, value int, usage string) *int {
	p := new(int)
	f.IntVar(p, name, value, usage)
	return p
}

// Int64 defines an int64 flag that reads the forms of intFlag.
func (f *flags) Int64(name string, value int64, usage string) *int64 {
	p := new(int64)
	*p = value
	f.Var(&intFlag{p}, name, usage)
	return p
}

// Uint64Var defines a uint64 flag that reads the forms of intFlag.
func (f *flags) Uint64Var(p *uint64, name string, value uint64, usage string) {
	*p = value
	f.Var(&intFlag{p}, name, usage)
}

// Uint64 defines a uint64 flag that reads the forms of intFlag.
func (f *flags) Uint64(name string, value uint64, usage string) *uint64 {
	p := new(uint64)
	f.Uint64Var(p, name, value, usage)
	return p
}

// intList is a flag holding a comma-separated list of positive integers,
// each read by parseInt (100000 or 1e5).
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
		v, err := parseInt(f, 64)
		if err != nil || v < 1 || v > 1<<31-2 {
			return fmt.Errorf("%q is not a positive integer", f)
		}
		out = append(out, int(v))
	}
	*l = out
	return nil
}

// byteSize is a flag holding a number of bytes, read by human.ParseSize
// (512MiB, 2GB) and written by human.Size.
type byteSize int64

func (b byteSize) String() string { return human.Size(int64(b)) }

func (b *byteSize) Set(s string) error {
	v, err := human.ParseSize(s)
	if err == nil {
		*b = byteSize(v)
	}
	return err
}

// formatBytes writes a byte count as twl's messages do: human.Bytes.
func formatBytes(v float64) string { return human.Bytes(v) }
