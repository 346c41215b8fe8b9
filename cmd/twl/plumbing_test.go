package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// leaf is a command that runs (not a group): its path (["text", "stats"])
// and its flags, as its --help made them.
type leaf struct {
	path []string
	fs   *flags
}

func (l leaf) String() string { return "twl " + strings.Join(l.path, " ") }

// leaves runs every command and subcommand (of groups and moreCommands)
// with --help and returns the commands that parse flags. A command whose --help parses no flags must
// be a group listed in groups (app.go), so that the main help lists its
// subcommands and this walk reaches them.
func leaves(t *testing.T) []leaf {
	t.Helper()
	flagsOf := func(path []string, run func(*env, []string) error) *flags {
		var got *flags
		e := &env{ctx: context.Background(), stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard,
			onFlags: func(f *flags) {
				if got == nil {
					got = f
				}
			}}
		if err := run(e, []string{"--help"}); !errors.Is(err, flag.ErrHelp) {
			t.Fatalf("twl %s --help: %v", strings.Join(path, " "), err)
		}
		return got
	}
	var out []leaf
	for _, c := range commands {
		fs, subs := flagsOf([]string{c.name}, c.run), subcommands(c.name)
		switch {
		case fs == nil && subs == nil:
			t.Errorf("twl %s --help parses no flags, and %s is not among the groups of app.go", c.name, c.name)
		case fs != nil && subs != nil:
			t.Errorf("twl %s is among the groups of app.go but parses flags", c.name)
		case fs != nil:
			out = append(out, leaf{[]string{c.name}, fs})
		}
		for _, s := range allSubcommands(c.name) {
			path := []string{c.name, s.name}
			if fs := flagsOf(path, s.run); fs != nil {
				out = append(out, leaf{path, fs})
			} else {
				t.Errorf("twl %s --help parses no flags", strings.Join(path, " "))
			}
		}
	}
	if len(out) < 15 {
		t.Fatalf("found only %d commands: %v", len(out), out)
	}
	// A subcommand in a synopsis ("twl unifrac merge PART...") must be
	// one of those walked here.
	known := map[string]bool{}
	for _, l := range out {
		known[strings.Join(l.path, " ")] = true
	}
	for _, l := range out {
		for _, line := range strings.Split(l.fs.synopsis, "\n") {
			f := strings.Fields(line)
			if n := len(l.path) + 1; len(f) > n && slices.Equal(f[1:n], l.path) && regexp.MustCompile(`^[a-z]+$`).MatchString(f[n]) {
				if sub := strings.Join(f[1:n+1], " "); !known[sub] {
					t.Errorf("%s: the synopsis names twl %s, which is neither a group's subcommand nor in moreCommands (app.go)", l, sub)
				}
			}
		}
	}
	return out
}

// readGuard is a standard input that records whether it was read.
type readGuard struct{ read bool }

func (r *readGuard) Read([]byte) (int, error) { r.read = true; return 0, io.EOF }

// writesOutput matches the help of a flag that names an output: "write
// the model to `FILE`", "save … to `FILE`", "the output `DIR`", "draw … into
// `FILE`".
var writesOutput = regexp.MustCompile("(?i)\\b(write|save|output|draw)\\b[^`]*`(FILE|DIR)`")

// TestOutputsCheckedBeforeWork walks every command and every output flag
// (the flags made by OutFile and OutDir, and any flag whose help says it
// writes a FILE or DIR, which must be one of them) and runs the command
// with that output under a regular file, where nothing can be written, and
// every input named by a flag or an argument missing. The output's error
// must come first, in one line naming the path, with standard input unread.
// Before the check was one step of parse, text stats, text predict, eval
// --multilabel and distance --trees read their inputs first: with missing
// inputs they failed on those, and with real ones after the work.
func TestOutputsCheckedBeforeWork(t *testing.T) {
	dir := write(t, map[string]string{"file": "x"})
	file := filepath.Join(dir, "file")
	bad := filepath.Join(file, "sub")
	missing := filepath.Join(dir, "missing")
	checked := 0
	for _, l := range leaves(t) {
		l.fs.VisitAll(func(fl *flag.Flag) {
			o, isOut := fl.Value.(*outPath)
			if !isOut {
				if writesOutput.MatchString(fl.Usage) {
					t.Errorf("%s --%s (%q) writes an output but is no OutFile or OutDir flag", l, fl.Name, fl.Usage)
				}
				return
			}
			checked++
			args := append(slices.Clone(l.path), "--"+fl.Name, bad)
			l.fs.VisitAll(func(in *flag.Flag) {
				if _, ok := in.Value.(*outPath); !ok && isFileFlag(in) {
					args = append(args, "--"+in.Name, missing+"."+in.Name)
				}
			})
			args = append(args, missing+".a", missing+".b")
			stdin := &readGuard{}
			var stdout, stderr bytes.Buffer
			code := run(args, stdin, &stdout, &stderr)
			want := "twl: cannot write " + bad + ": " + file + " is not a directory\n"
			if o.dir {
				want = "twl: cannot create " + bad + ": " + file + " is not a directory\n"
			}
			if code != 1 || stdout.Len() > 0 || stderr.String() != want || stdin.read {
				t.Errorf("twl %q:\nexit %d, stdout %q, stdin read %v, stderr %q\nwant exit 1 and %q",
					args, code, stdout.String(), stdin.read, stderr.String(), want)
			}
		})
	}
	if checked < 15 {
		t.Errorf("only %d output flags found", checked)
	}
	t.Logf("%d output flags checked", checked)
}

// isFileFlag reports whether fl is a string flag whose value names an
// input file or folder (its help's placeholder is FILE, TREE, MODEL, …).
func isFileFlag(fl *flag.Flag) bool {
	if _, ok := fl.Value.(flag.Getter); !ok || fmt.Sprintf("%T", fl.Value) != "*flag.stringValue" {
		return false
	}
	name, _ := flag.UnquoteUsage(fl)
	return regexp.MustCompile(`FILE|DIR|TREE|MODEL|VEC|DATA|EMB|LABELS|CORPUS`).MatchString(name)
}

// TestOutputMessages checks the messages of outputs that cannot be
// written: the path once, and the part of it that is wrong. Expected
// messages are written by hand from what each path is.
func TestOutputMessages(t *testing.T) {
	dir := write(t, map[string]string{"t.tree": ldlTree, "d.jsonl": ldlRows(30, 2, 1), "file": "x"})
	p := func(name string) string { return filepath.Join(dir, name) }
	train := func(out string) []string {
		return []string{"train", "--data", p("d.jsonl"), "--tree", p("t.tree"), "--epochs", "1", "--quiet", "--out", out}
	}
	cases := []struct {
		args []string
		want string
	}{
		// A missing folder below a regular file: the file is the problem,
		// not the missing folder (main said "DIR/file/a is not a
		// directory").
		{train(p("file/a/m")), "twl: cannot write " + p("file/a/m") + ": " + p("file") + " is not a directory\n"},
		{train(p("no/m")), "twl: cannot write " + p("no/m") + ": directory " + p("no") + " does not exist\n"},
		{train(dir), "twl: cannot write " + dir + ": it is a directory\n"},
	}
	if fi, err := os.Stat("/dev/full"); err == nil && fi.Mode()&os.ModeDevice != 0 {
		// A full device: the path once (main wrote "write /dev/full:
		// write /dev/full: no space left on device").
		cases = append(cases, struct {
			args []string
			want string
		}{train("/dev/full"), "twl: write /dev/full: no space left on device\n"})
	}
	if fi, err := os.Stat("/proc/version"); err == nil && fi.Mode().IsRegular() {
		// /proc exists but takes no new file (main: "directory /proc does
		// not exist"); under /proc/version, a file, the file is named
		// (main: "/proc/version/x is not a directory").
		cases = append(cases, []struct {
			args []string
			want string
		}{
			{train("/proc/x"), "twl: cannot write /proc/x: cannot create a file in /proc: no such file or directory\n"},
			{train("/proc/version/x/y"), "twl: cannot write /proc/version/x/y: /proc/version is not a directory\n"},
			{[]string{"synth", "--out", "/proc/version/x"}, "twl: cannot create /proc/version/x: /proc/version is not a directory\n"},
		}...)
	}
	for _, tc := range cases {
		code, out, errOut := twl(t, "", tc.args...)
		if code != 1 || out != "" || errOut != tc.want {
			t.Errorf("twl %q: exit %d, stdout %q, stderr %q; want exit 1 and %q", tc.args, code, out, errOut, tc.want)
		}
	}
}

// TestOneProblemPerMessage checks that a bad flag value is named alone
// (--patience -1 is not an --epochs or --batch problem) and that --loss
// lists what the command takes: main listed kl+tsw in the --loss and
// --lambda errors of text train, which refuses it, and never mentioned a
// weight in the name.
func TestOneProblemPerMessage(t *testing.T) {
	text := []string{"text", "train", "--train", "d.jsonl", "--tree", "g.tree", "--out", filepath.Join(t.TempDir(), "m")}
	ldl := []string{"train", "--data", "d.jsonl", "--tree", "t.tree", "--out", filepath.Join(t.TempDir(), "m")}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{append(slices.Clone(text), "--patience", "-1"), "twl text train: --patience -1: must be 0 (never stop early) or positive"},
		{append(slices.Clone(text), "--epochs", "0"), "twl text train: --epochs 0: must be at least 1"},
		{append(slices.Clone(text), "--batch", "0"), "twl text train: --batch 0: must be at least 1"},
		{append(slices.Clone(text), "--loss", "kl+w2"), `twl text train: --loss must be kl, kl+tw, kl+sinkhorn or kl+utw, with an optional weight such as kl+0.5tw, not "kl+w2"`},
		{append(slices.Clone(text), "--lambda", "2"), "twl text train: --lambda applies only with --loss kl+tw, kl+sinkhorn or kl+utw"},
		{append(slices.Clone(ldl), "--loss", "kl+w2"), `twl train: --loss must be kl, kl+tw, kl+sinkhorn, kl+utw or kl+tsw, with an optional weight such as kl+0.5tw, not "kl+w2"`},
		{append(slices.Clone(ldl), "--lambda", "2"), "twl train: --lambda applies only with --loss kl+tw, kl+sinkhorn, kl+utw or kl+tsw"},
		{append(slices.Clone(ldl), "--patience", "-1"), "twl train: --patience must be ≥ 0, not -1"},
	} {
		code, out, errOut := twl(t, "", tc.args...)
		want := tc.msg + "\n" + "see '" + strings.SplitN(tc.msg, ":", 2)[0] + " --help'\n"
		if code != 2 || out != "" || errOut != want {
			t.Errorf("twl %q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errOut, want)
		}
	}
	// The help of --loss says the same.
	for _, tc := range []struct{ cmd, list string }{
		{"text train", "kl, kl+tw, kl+sinkhorn or kl+utw; a weight in the name (kl+0.5tw)"},
		{"train", "kl, kl+tw, kl+sinkhorn, kl+utw, or with --trees kl+tsw; a weight in the name (kl+0.5tw)"},
		{"cv", "kl, kl+tw, kl+sinkhorn, kl+utw, or with --trees kl+tsw; a weight in the name (kl+0.5tw)"},
	} {
		_, out, _ := twl(t, "", append(strings.Fields(tc.cmd), "--help")...)
		if got := strings.Join(strings.Fields(out), " "); !strings.Contains(got, tc.list) {
			t.Errorf("twl %s --help: --loss does not list %q", tc.cmd, tc.list)
		}
	}
}

// TestHelpListsEveryCommand checks that twl help lists every command and
// every subcommand of a group, each on a line of its own (main listed
// "text" alone, not "text train" or "text predict").
func TestHelpListsEveryCommand(t *testing.T) {
	_, out, _ := twl(t, "", "help")
	for _, l := range leaves(t) {
		name := strings.Join(l.path, " ")
		if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(name) + `( |$)`).MatchString(out) {
			t.Errorf("twl help does not list %q:\n%s", name, out)
		}
		// twl help CMD SUB is twl CMD SUB --help.
		code, help, errOut := twl(t, "", append([]string{"help"}, l.path...)...)
		if code != 0 || errOut != "" || !strings.HasPrefix(help, "Usage:\n  twl "+name) {
			t.Errorf("twl help %s: exit %d, stderr %q, stdout starts %.40q", name, code, errOut, help)
		}
	}
}

// helpTime matches a wall-clock figure: "43-51 s", "3 to 4 minutes",
// "about 20 minutes", "1.5 minutes".
var helpTime = regexp.MustCompile(`\d(\.\d+)?\s+(s|sec|seconds?|min|minutes?|h|hours?)\b`)

// TestHelpQuotesNoTimes checks that no --help quotes a wall-clock time:
// times depend on the machine, and the docs give them with the machine and
// the date they were measured on (docs/benchmarks.md, docs/results). Main's
// help quoted times that the docs contradicted: "about a minute" for
// experiment efficiency against 26 s in docs/results/paper.md, "3 to 4
// minutes" for experiment synthetic against 2.5 min, "about 5 minutes" for
// experiment all against 3 min.
func TestHelpQuotesNoTimes(t *testing.T) {
	for _, l := range leaves(t) {
		_, out, _ := twl(t, "", append(slices.Clone(l.path), "--help")...)
		if m := helpTime.FindAllString(out, -1); m != nil {
			t.Errorf("%s --help quotes times %q", l, m)
		}
	}
	for _, g := range groups {
		_, out, _ := twl(t, "", g.name, "--help")
		if m := helpTime.FindAllString(out, -1); m != nil {
			t.Errorf("twl %s --help quotes times %q", g.name, m)
		}
	}
}

// documentedLines returns the twl command lines of the README and the
// docs: the lines of their sh code blocks (continued by a trailing
// backslash) and the commands quoted in their text (`twl …`), each with
// where it is.
func documentedLines(t *testing.T) map[string]string {
	t.Helper()
	files, _ := filepath.Glob("../../docs/*.md")
	more, _ := filepath.Glob("../../docs/results/*.md")
	files = append(append(files, "../../README.md"), more...)
	lines := map[string]string{}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		where := strings.TrimPrefix(name, "../../")
		inSh, cont := false, ""
		for i, line := range strings.Split(string(b), "\n") {
			switch {
			case strings.HasPrefix(line, "```sh"):
				inSh = true
			case strings.HasPrefix(line, "```"):
				inSh = false
			case inSh:
				line = cont + strings.TrimSpace(line)
				if cont = ""; strings.HasSuffix(line, `\`) {
					cont = strings.TrimSuffix(line, `\`) + " "
					continue
				}
				if strings.HasPrefix(line, "twl ") {
					lines[line] = fmt.Sprintf("%s:%d", where, i+1)
				}
			}
		}
		// Commands quoted in the text: `twl train --data D --tree T`.
		// In a table, a\|b are alternatives: each is checked.
		for _, m := range regexp.MustCompile("`(twl [^`]*)`").FindAllStringSubmatch(string(b), -1) {
			fields := strings.Fields(m[1])
			alts := []string{strings.Join(fields, " ")}
			for i, f := range fields {
				if strings.Contains(f, `\|`) {
					alts = alts[:0]
					for _, a := range strings.Split(f, `\|`) {
						alts = append(alts, strings.Join(slices.Concat(fields[:i], []string{a}, fields[i+1:]), " "))
					}
					break
				}
			}
			for _, a := range alts {
				lines[a] = where + " (quoted)"
			}
		}
	}
	if len(lines) < 30 {
		t.Fatalf("found only %d command lines in the docs", len(lines))
	}
	return lines
}

// helpLines returns the twl command lines of every command's examples.
func helpLines(t *testing.T) map[string]string {
	lines := map[string]string{}
	add := func(where, help string) {
		_, ex, _ := strings.Cut(help, "\nExamples:\n")
		cont := ""
		for _, line := range strings.Split(ex, "\n") {
			line = cont + strings.TrimSpace(line)
			if cont = ""; strings.HasSuffix(line, `\`) {
				cont = strings.TrimSuffix(line, `\`) + " "
				continue
			}
			if strings.HasPrefix(line, "twl ") {
				lines[line] = where
			}
		}
	}
	for _, l := range leaves(t) {
		_, out, _ := twl(t, "", append(slices.Clone(l.path), "--help")...)
		add(l.String()+" --help", out)
	}
	for _, g := range groups {
		_, out, _ := twl(t, "", g.name, "--help")
		add("twl "+g.name+" --help", out)
	}
	return lines
}

// TestDocumentedCommandLinesParse checks every twl command line of the
// README, the docs and the commands' --help examples against the flags:
// the command exists and every flag it gives is one of the command's. (A
// line may hold placeholders, [optional] parts and shell after it.)
func TestDocumentedCommandLinesParse(t *testing.T) {
	byPath := map[string]*flags{}
	for _, l := range leaves(t) {
		byPath[strings.Join(l.path, " ")] = l.fs
	}
	check := func(line string) (problems []string) {
		// Drop the shell around the command: a comment, a pipe, a
		// redirection, a following command.
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		if i := strings.IndexAny(line, "|>;&"); i >= 0 {
			line = line[:i]
		}
		args := strings.Fields(strings.NewReplacer("[", " ", "]", " ", `"`, "", "'", "").Replace(line))[1:]
		if len(args) == 0 || args[0] == "help" || strings.HasPrefix(args[0], "<") ||
			len(args) == 1 && (args[0] == "version" || args[0] == "--version") {
			return nil
		}
		name := args[0]
		if opts := compatOptions[name]; opts != nil {
			// ssu's options: each a word of its own, a value after some.
			for i := 1; i < len(args); i++ {
				if a := args[i]; strings.HasPrefix(a, "-") && len(a) > 1 {
					takes, ok := opts[a]
					if !ok {
						problems = append(problems, fmt.Sprintf("twl %s has no option %s", name, a))
					} else if takes {
						i++
					}
				}
			}
			return problems
		}
		if subcommands(name) != nil {
			if len(args) < 2 || strings.HasPrefix(args[1], "<") || strings.HasPrefix(args[1], "-") || strings.Contains(args[1], "…") {
				return nil // the group itself, or a placeholder: twl text …: warning
			}
			name += " " + args[1]
		}
		fs := byPath[name]
		if fs == nil {
			return []string{"no command twl " + name}
		}
		for i := 1; i < len(args); i++ {
			a := args[i]
			if a == "--" {
				break
			}
			if !strings.HasPrefix(a, "-") || a == "-" {
				continue
			}
			fname, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
			fl := fs.Lookup(fname)
			if fl == nil {
				if fname != "help" && fname != "h" {
					problems = append(problems, fmt.Sprintf("twl %s has no flag --%s", name, fname))
				}
				continue
			}
			if b, ok := fl.Value.(interface{ IsBoolFlag() bool }); !hasValue && !(ok && b.IsBoolFlag()) {
				i++ // the flag's value
			}
		}
		return problems
	}
	// The check itself finds what is wrong.
	for line, want := range map[string]string{
		"twl train --data d --tree t --epoch 3 --out m":   "twl train has no flag --epoch",
		"twl text train --train d --quiet --nope x":       "twl text train has no flag --nope",
		"twl experiment nope --out report  # a comment":   "no command twl experiment nope",
		"twl eval --tree T --pyldl --format=json --bad a": "twl eval has no flag --bad",
	} {
		if got := check(line); !slices.Equal(got, []string{want}) {
			t.Errorf("check(%q) = %q, want %q", line, got, want)
		}
	}
	n := 0
	for _, set := range []map[string]string{documentedLines(t), helpLines(t)} {
		for line, where := range set {
			for _, p := range check(line) {
				t.Errorf("%s: %q: %s", where, line, p)
			}
			n++
		}
	}
	t.Logf("%d command lines checked", n)
}

// TestPackageDocListsCommands checks that the command's package
// documentation (go doc) lists every command (main's omitted unifrac).
func TestPackageDocListsCommands(t *testing.T) {
	b, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range commands {
		if !regexp.MustCompile(`(?m)^//\t` + c.name + ` `).Match(b) {
			t.Errorf("the package documentation in main.go does not list %s", c.name)
		}
	}
}
