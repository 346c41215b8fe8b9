package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
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

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{nil, "Usage:\n  twl <command>"},
		{[]string{"nope"}, `unknown command "nope"`},
		{[]string{"help", "nope"}, `unknown command "nope"`},
		{[]string{"help", "distance", "extra"}, "unknown command"},
		{[]string{"distance", "--nope"}, "flag provided but not defined: --nope"},
		{[]string{"bench", "--format"}, "flag needs an argument: --format"},
		{[]string{"demo", "--labels", "x"}, `invalid value "x" for flag --labels`},
		{[]string{"demo", "extra"}, "demo takes no arguments"},
	} {
		code, out, errOut := twl(t, "", tc.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.msg) || !strings.Contains(errOut, "Usage:") {
			t.Errorf("twl %q: exit %d, stdout %q, stderr:\n%s\nwant exit 2 and %q with the usage on stderr", tc.args, code, out, errOut, tc.msg)
		}
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
