package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// TestFlagsWithoutEffect: a flag that does nothing beside the others
// given, or a value that twl would replace by another, is a mistake in the
// command line (exit 2) whose message names what the flag applies to.
// Main warned and went on for the first three (distance --reg, text stats
// --tree, text train --val), ran --workers -7 on one and two goroutines,
// and trained --loss kl+tw --lambda 0 reporting "loss kl".
func TestFlagsWithoutEffect(t *testing.T) {
	dir := write(t, map[string]string{"g.tree": genresTree, "d.jsonl": toyDocs(40), "dev.jsonl": toyDocs(10),
		"u.jsonl": "{\"text\": \"a b c\"}\n", "t.tree": "r\ta\nr\tb\n", "a.jsonl": "{\"a\": 1}\n"})
	D := func(s string) string { return filepath.Join(dir, s) }
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"distance", "--tree", D("t.tree"), "--reg", "5", D("a.jsonl"), D("a.jsonl")},
			"twl distance: --reg applies only with --method sinkhorn, not --method tw"},
		{[]string{"distance", "--tree", D("t.tree"), "--method", "emd", "--iters", "5", D("a.jsonl"), D("a.jsonl")},
			"twl distance: --iters applies only with --method sinkhorn, not --method emd"},
		{[]string{"distance", "--tree", D("t.tree"), "--tol", "-1", D("a.jsonl"), D("a.jsonl")},
			"twl distance: --tol applies only with --method sinkhorn, not --method tw"},
		{[]string{"text", "stats", "--data", D("u.jsonl"), "--unlabeled", "--tree", D("g.tree")},
			"twl text stats: --tree applies only to labelled documents, not with --unlabeled"},
		{trainArgs(dir, "--quiet", "--dev", D("dev.jsonl"), "--val", "0.3"),
			"twl text train: --val applies only without --dev: --dev " + D("dev.jsonl") + " gives the validation documents"},
		{trainArgs(dir, "--val", "1"), "twl text train: --val 1: must be at least 0 and less than 1 (or give --dev)"},
		{[]string{"bench", "tw", "--labels", "100", "--workers", "-7", "--format", "json"}, "twl bench: --workers -7 is negative"},
		{[]string{"train", "--data", D("a.jsonl"), "--tree", D("t.tree"), "--loss", "kl+tw", "--lambda", "0"},
			"twl train: --lambda 0 turns the tw term off: use --loss kl"},
		{[]string{"cv", "--data", D("a.jsonl"), "--tree", D("t.tree"), "--loss", "kl+sinkhorn", "--lambda", "0"},
			"twl cv: --lambda 0 turns the sinkhorn term off: use --loss kl"},
		{[]string{"text", "train", "--train", D("d.jsonl"), "--tree", D("g.tree"), "--loss", "kl+tw", "--lambda", "0", "--out", D("m")},
			"twl text train: --lambda 0 turns the tw term off: use --loss kl"},
	} {
		code, out, errOut := twl(t, "", c.args...)
		if code != 2 || out != "" || !strings.HasPrefix(errOut, c.msg+"\n") {
			t.Errorf("twl %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", strings.Join(c.args[:2], " "), code, out, errOut, c.msg)
		}
	}
	if _, err := os.Stat(D("m")); err == nil {
		t.Errorf("a refused text train wrote its model")
	}
}

// TestHelpHelp: twl help --help is the main help, as twl help is (main:
// 'unknown command "--help"', exit 2).
func TestHelpHelp(t *testing.T) {
	_, want, _ := twl(t, "", "help")
	for _, args := range [][]string{{"help", "--help"}, {"help", "-h"}, {"help", "help"}} {
		code, out, errOut := twl(t, "", args...)
		if code != 0 || out != want || errOut != "" {
			t.Errorf("twl %s: exit %d, stderr %q, stdout the main help: %v", strings.Join(args, " "), code, errOut, out == want)
		}
	}
}

// TestVersion: twl version and twl --version print the module version of
// the build, read here from the build information directly ("(devel)" in
// a test binary, which has no module version). Main had neither.
func TestVersion(t *testing.T) {
	want := "twl (devel)"
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		want = "twl " + info.Main.Version
	}
	for _, arg := range []string{"version", "--version"} {
		code, out, errOut := twl(t, "", arg)
		if code != 0 || errOut != "" || !strings.HasPrefix(out, want) || strings.Count(out, "\n") != 1 {
			t.Errorf("twl %s: exit %d, stdout %q, stderr %q; want one line starting %q", arg, code, out, errOut, want)
		}
	}
	if code, _, errOut := twl(t, "", "version", "x"); code != 2 || !strings.Contains(errOut, "takes no arguments") {
		t.Errorf("twl version x: exit %d, stderr %q", code, errOut)
	}
}

// TestFolderOutputMissing: a folder output under a folder that cannot be
// created names the missing folder (main: "cannot create a file in /proc").
func TestFolderOutputMissing(t *testing.T) {
	if fi, err := os.Stat("/proc/version"); err != nil || !fi.Mode().IsRegular() {
		t.Skip("needs /proc")
	}
	code, _, errOut := twl(t, "", "demo", "--dir", "/proc/nonexistent/x")
	want := "directory /proc/nonexistent does not exist"
	if code == 0 || !strings.Contains(errOut, want) {
		t.Errorf("twl demo --dir /proc/nonexistent/x: exit %d, stderr %q; want %q", code, errOut, want)
	}
}

// TestOneOfEach: counts of one are singular. One document of one token
// and one label: "1 distinct token", "1 distinct label set" (main: "1
// distinct tokens", "1 distinct label sets"); synth with one feature, and
// the model trained on it: "1 feature" (main: "1 features (raw)",
// "1 features → 2 labels" with a two-leaf tree).
func TestOneOfEach(t *testing.T) {
	dir := write(t, map[string]string{"one.jsonl": "{\"text\": \"word\", \"labels\": [\"Cooking\"]}\n", "g.tree": genresTree})
	code, out, errOut := twl(t, "", "text", "stats", "--data", filepath.Join(dir, "one.jsonl"), "--tree", filepath.Join(dir, "g.tree"))
	for _, w := range []string{"vocabulary  1 distinct token;", "; 1 distinct label set\n", "per document mean 1.00,"} {
		if code != 0 || !strings.Contains(out, w) {
			t.Errorf("text stats: exit %d, stderr %q, stdout lacks %q:\n%s", code, errOut, w, out)
		}
	}
	s := filepath.Join(dir, "s")
	code, out, errOut = twl(t, "", "synth", "--out", s, "--features", "1", "--nodes", "3", "--samples", "20", "--test", "0", "--quiet")
	if code != 0 || !strings.Contains(out, "3 nodes, 1 feature (raw)") {
		t.Fatalf("synth: exit %d, stderr %q, stdout lacks \"1 feature (raw)\":\n%s", code, errOut, out)
	}
	code, out, errOut = twl(t, "", "train", "--data", filepath.Join(s, "train.jsonl"), "--tree", filepath.Join(s, "tree.txt"),
		"--epochs", "1", "--out", filepath.Join(dir, "m.json"))
	if code != 0 || !strings.Contains(out, ", 1 feature → 3 labels, loss kl") {
		t.Errorf("train: exit %d, stderr %q, stdout lacks \"1 feature → 3 labels\":\n%s", code, errOut, out)
	}
}
