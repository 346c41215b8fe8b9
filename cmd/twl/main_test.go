package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// twl runs the command in-process and returns its exit status and output.
func twl(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	// Whatever happens, a user never sees a Go panic.
	if s := errb.String(); strings.Contains(s, "goroutine ") || strings.Contains(s, "panic") ||
		strings.Contains(s, "internal error") {
		t.Fatalf("twl %q: panic or internal error:\n%s", args, s)
	}
	return code, out.String(), errb.String()
}

// write writes the named files (name → contents) into a temporary directory
// and returns the directory.
func write(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// fileLine matches a "FILE:LINE: " prefix in an error message.
var fileLine = regexp.MustCompile(`\S+:\d+: `)

// expectFailure checks a run of twl that should fail: exit status want,
// nothing on standard output, and on standard error each of msgs (with $D
// replaced by dir); for status 1, standard error starts with "twl: " and,
// when withLine is set, names a FILE:LINE.
func expectFailure(t *testing.T, code int, out, errOut string, want int, msgs []string, dir string, withLine bool) {
	t.Helper()
	if code != want || out != "" {
		t.Errorf("exit %d, stdout %q; want exit %d and no output", code, out, want)
	}
	for _, m := range msgs {
		if m = strings.ReplaceAll(m, "$D", dir); !strings.Contains(errOut, m) {
			t.Errorf("stderr %q lacks %q", errOut, m)
		}
	}
	if code == 1 && !strings.HasPrefix(errOut, "twl: ") {
		t.Errorf("stderr %q does not start with \"twl: \"", errOut)
	}
	if code == 1 && withLine && !fileLine.MatchString(errOut) {
		t.Errorf("stderr %q has no FILE:LINE:", errOut)
	}
}

func TestMainHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}} {
		code, out, errOut := twl(t, "", args...)
		if code != 0 || errOut != "" {
			t.Errorf("twl %q: exit %d, stderr %q", args, code, errOut)
		}
		for _, c := range []string{"demo", "distance", "bench", "help"} {
			if !strings.Contains(out, "\n  "+c+" ") {
				t.Errorf("twl %q does not list %s:\n%s", args, c, out)
			}
		}
	}
}

func TestCommandHelp(t *testing.T) {
	for _, c := range commands {
		for _, args := range [][]string{{"help", c.name}, {c.name, "--help"}, {c.name, "-h"}} {
			code, out, errOut := twl(t, "", args...)
			if code != 0 || errOut != "" {
				t.Errorf("twl %q: exit %d, stderr %q", args, code, errOut)
			}
			for _, want := range []string{"Usage:\n  twl " + c.name, "Flags:\n", "Examples:\n  ", "\n  twl " + c.name + " "} {
				if !strings.Contains(out, want) {
					t.Errorf("twl %q: help lacks %q:\n%s", args, want, out)
				}
			}
		}
	}
}

// TestUsageErrors checks that a mistake on the command line is exit status
// 2 and two lines on standard error: the message, then where the help is.
// (twl once printed the synopsis between them, 4 to 6 lines, and the whole
// command list after an unknown command.)
func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string // the first line, in full
		help string // the second
	}{
		{[]string{"nope"}, `twl: unknown command "nope"`, "see 'twl help'"},
		{[]string{"help", "nope"}, `twl help: unknown command "nope"`, "see 'twl help'"},
		{[]string{"help", "distance", "extra"}, `twl help: unknown command "distance extra"`, "see 'twl help'"},
		{[]string{"help", "text", "nope"}, `twl help: unknown command "text nope"`, "see 'twl help'"},
		{[]string{"distance", "--nope"}, "twl distance: flag provided but not defined: --nope", "see 'twl distance --help'"},
		{[]string{"bench", "--format"}, "twl bench: flag needs an argument: --format", "see 'twl bench --help'"},
		{[]string{"demo", "--labels", "x"}, `twl demo: invalid value "x" for flag --labels: not an integer`, "see 'twl demo --help'"},
		{[]string{"demo", "--labels", "1.5e0"}, `twl demo: invalid value "1.5e0" for flag --labels: not an integer`, "see 'twl demo --help'"},
		{[]string{"demo", "extra"}, `twl demo: demo takes no arguments, got ["extra"]`, "see 'twl demo --help'"},
		{[]string{"train"}, "twl train: --data is required", "see 'twl train --help'"},
		{[]string{"experiment"}, "twl experiment: missing the experiment name", "see 'twl experiment --help'"},
		{[]string{"experiment", "nope"}, `twl experiment: unknown experiment "nope"; the experiments are efficiency, synthetic, text, tsw, docknn, labeltrees, all`, "see 'twl experiment --help'"},
		{[]string{"text", "stats", "--nope"}, "twl text stats: flag provided but not defined: --nope", "see 'twl text stats --help'"},
	} {
		code, out, errOut := twl(t, "", tc.args...)
		if want := tc.msg + "\n" + tc.help + "\n"; code != 2 || out != "" || errOut != want {
			t.Errorf("twl %q: exit %d, stdout %q, stderr:\n%s\nwant exit 2 and stderr:\n%s", tc.args, code, out, errOut, want)
		}
	}
	// No command at all: the main usage, on standard error.
	if code, out, errOut := twl(t, ""); code != 2 || out != "" || !strings.Contains(errOut, "Usage:\n  twl <command>") {
		t.Errorf("twl: exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
}

// TestIntegerFlags checks that integer flags read 1e3 as 1000 in every
// command (integer flags of the flag package once refused it with a bare
// "parse error").
func TestIntegerFlags(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"demo", "--labels", "1e3"},
		{"synth", "--nodes", "1e1", "--samples", "2e0", "--test", "0", "--seed", "1e2", "--quiet", "--out", filepath.Join(dir, "s")},
		{"bench", "--labels", "1e2", "--batch", "2e0", "--time", "1ms", "--order", "bfs"},
	} {
		if code, _, errOut := twl(t, "", args...); code != 0 {
			t.Errorf("twl %q: exit %d, %s", args, code, errOut)
		}
	}
}

// twlStopped runs the command in-process with a context already cancelled
// as SIGINT cancels it, and returns its exit status and output.
func twlStopped(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(&stopSignal{syscall.SIGINT})
	var out, errb bytes.Buffer
	code = runContext(ctx, args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// dirNames lists the names in dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestStopped checks that every long command asked to stop (SIGINT before
// it starts its work) exits with status 130, says so, and leaves nothing in
// its output folder: no output, no temporary file, no checkpoint.
func TestStopped(t *testing.T) {
	dir := write(t, map[string]string{"t.tree": ldlTree, "d.jsonl": ldlRows(30, 2, 1), "g.tree": genresTree, "docs.jsonl": toyDocs(20)})
	p := func(name string) string { return filepath.Join(dir, name) }
	before := dirNames(t, dir)
	for _, args := range [][]string{
		append([]string{"train", "--data", p("d.jsonl"), "--tree", p("t.tree"), "--checkpoint", p("ck"), "--out", p("m")}, quick...),
		append([]string{"cv", "--data", p("d.jsonl"), "--tree", p("t.tree"), "--folds", "3", "--repeats", "1", "--out", p("cv.txt")}, quick...),
		{"synth", "--nodes", "10", "--samples", "3", "--test", "2", "--quiet", "--out", p("synth")},
		{"bench", "--labels", "50", "--time", "1ms"},
		{"bench", "lstm", "--labels", "3", "--batch", "2", "--len", "3", "--dim", "2", "--hidden", "2", "--vocab", "10", "--time", "1ms"},
		{"text", "train", "--model", "lstm", "--train", p("docs.jsonl"), "--tree", p("g.tree"), "--hidden", "4", "--emb-dim", "3", "--epochs", "2",
			"--min-count", "1", "--quiet", "--checkpoint", p("tck"), "--out", p("tm")},
		{"text", "train", "--train", p("docs.jsonl"), "--tree", p("g.tree"), "--emb-dim", "3", "--epochs", "2",
			"--min-count", "1", "--quiet", "--checkpoint", p("tck"), "--out", p("tm")},
		{"experiment", "synthetic", "--nodes", "5", "--epochs", "1", "--seeds", "1", "--train", "4", "--test", "4", "--quiet", "--out", p("rep")},
		{"experiment", "efficiency", "--labels", "10", "--repeats", "1", "--no-rss", "--out", p("rep")},
		{"experiment", "all", "--quick", "--quiet", "--out", p("rep")},
	} {
		code, _, errOut := twlStopped(t, args...)
		if code != 130 || !strings.Contains(errOut, "stopped by SIGINT; no file is left half-written") {
			t.Errorf("twl %q: exit %d, stderr %q; want 130 and a word on the stop", args[:2], code, errOut)
		}
		if after := dirNames(t, dir); !slices.Equal(after, before) {
			t.Errorf("twl %q: the folder holds %q, held %q", args[:2], after, before)
		}
	}
}

// TestOutputsCheckedFirst checks that an output location that cannot be
// written (here under a regular file, which even root cannot write into)
// is an error before any work: no progress, no data read.
func TestOutputsCheckedFirst(t *testing.T) {
	dir := write(t, map[string]string{"t.tree": ldlTree, "d.jsonl": ldlRows(30, 2, 1), "g.tree": genresTree,
		"docs.jsonl": toyDocs(20), "file": "x"})
	p := func(name string) string { return filepath.Join(dir, name) }
	bad := p("file/sub")
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"train", "--data", p("d.jsonl"), "--tree", p("t.tree"), "--out", bad}, "cannot write " + bad + ": " + p("file") + " is not a directory"},
		{[]string{"train", "--data", p("d.jsonl"), "--tree", p("t.tree"), "--out", p("m"), "--checkpoint", p("no/ck")},
			"cannot write " + p("no/ck") + ": directory " + p("no") + " does not exist"},
		{[]string{"train", "--data", p("d.jsonl"), "--tree", p("t.tree"), "--out", dir}, "cannot write " + dir + ": it is a directory"},
		{[]string{"cv", "--data", p("d.jsonl"), "--tree", p("t.tree"), "--out", bad}, "cannot write " + bad},
		{[]string{"text", "train", "--train", p("docs.jsonl"), "--tree", p("g.tree"), "--out", bad}, "cannot write " + bad},
		{[]string{"synth", "--out", bad + "/deeper"}, "cannot create " + bad + "/deeper: " + p("file") + " is not a directory"},
		{[]string{"synth", "--out", p("file")}, "cannot write to " + p("file") + ": it is not a directory"},
		{[]string{"experiment", "synthetic", "--out", bad}, "cannot create " + bad},
		{[]string{"experiment", "efficiency", "--out", bad}, "cannot create " + bad},
		{[]string{"experiment", "all", "--out", bad}, "cannot create " + bad},
		{[]string{"experiment", "text", "--train", p("docs.jsonl"), "--tree", p("g.tree"), "--out", bad}, "cannot create " + bad},
	} {
		code, out, errOut := twl(t, "", tc.args...)
		if code != 1 || out != "" || !strings.HasPrefix(errOut, "twl: "+tc.msg) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("twl %q: exit %d, stdout %q, stderr %q; want exit 1 and one line %q…", tc.args, code, out, errOut, tc.msg)
		}
	}
}

// TestTreeSpacesWarning: a tree file separated by spaces is read (a name
// may have spaces) but draws a warning naming the likely mistake.
func TestTreeSpacesWarning(t *testing.T) {
	dir := write(t, map[string]string{"sp.tree": "animal mammal\nmammal cat\n",
		"d.jsonl": `{"x": [1], "y": {"animal mammal": 1}}` + "\n" + `{"x": [2], "y": {"mammal cat": 1}}` + "\n"})
	code, _, errOut := twl(t, "", append([]string{"train", "--data", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, "sp.tree"),
		"--out", filepath.Join(dir, "m")}, quick...)...)
	want := "twl train: warning: " + filepath.Join(dir, "sp.tree") + ":1: no line has a TAB: each of the 2 lines with spaces, " +
		`such as "animal mammal", was read as the name of one node without edges; separate parent and child with a TAB, not spaces`
	if code != 0 || !strings.HasPrefix(errOut, want) {
		t.Errorf("exit %d, stderr %q; want %q", code, errOut, want)
	}
}

// TestPanicIsReported checks that a bug (a panic) reaches the user as one
// line and exit status 1, not as a stack trace.
func TestPanicIsReported(t *testing.T) {
	saved := commands
	defer func() { commands = saved }()
	commands = append(commands[:len(commands):len(commands)], &command{
		name: "boom", run: func(*env, []string) error { panic("boom") },
	})
	var out, errb bytes.Buffer
	code := run([]string{"boom"}, strings.NewReader(""), &out, &errb)
	if code != 1 || !strings.HasPrefix(errb.String(), "twl: internal error: boom\n") || strings.Contains(errb.String(), "goroutine") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

// TestWriteError checks that a failing standard output is an error.
func TestWriteError(t *testing.T) {
	dir := write(t, map[string]string{"t.tree": "a\tb\n", "a.jsonl": `{"a": 1}` + "\n"})
	var errb bytes.Buffer
	code := run([]string{"distance", "--tree", filepath.Join(dir, "t.tree"), filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "a.jsonl")},
		strings.NewReader(""), failWriter{}, &errb)
	if code != 1 || !strings.Contains(errb.String(), "twl: disk full") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestMain runs the command line it is given instead of the tests when it
// is started as a child of 'twl bench cli' (benchChildEnv set), so that the
// benchmark can run the test binary as it runs twl.
//
// A child that has peakFileEnv set writes its peak resident memory there
// as it ends (see peakRSS).
func TestMain(m *testing.M) {
	if os.Getenv(benchChildEnv) == "1" {
		code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
		if p := os.Getenv(peakFileEnv); p != "" {
			writePeak(p)
		}
		os.Exit(code)
	}
	os.Exit(m.Run())
}
