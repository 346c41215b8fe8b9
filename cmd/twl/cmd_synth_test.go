package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/synth"
)

func TestSynth(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	code, out, errOut := twl(t, "", "synth", "--nodes", "40", "--samples", "30", "--test", "10", "--features", "6",
		"--hidden", "5", "--seed", "7", "--sign", "grow", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, errOut)
	}
	if !strings.Contains(out, "wrote "+dir+": tree.txt (40 nodes), train.jsonl (30 samples), test.jsonl (10 samples), synth.json") ||
		!strings.Contains(out, "sign grow") {
		t.Errorf("stdout:\n%s", out)
	}
	if !strings.Contains(errOut, "synth: tree of 40 nodes") {
		t.Errorf("stderr:\n%s", errOut)
	}
	b, err := os.ReadFile(filepath.Join(dir, synth.MetaFile))
	if err != nil {
		t.Fatal(err)
	}
	var m synth.Meta
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.Seed != 7 || m.Config.Nodes != 40 || m.Config.Sign != synth.Grow || m.Train != 30 || m.Test != 10 {
		t.Errorf("synth.json: %+v", m)
	}
	// The files are what twl reads everywhere else: eval a data set
	// against itself through its labels.
	train := filepath.Join(dir, "train.jsonl")
	tree := filepath.Join(dir, "tree.txt")
	code, _, errOut = twl(t, "", "train", "--data", train, "--tree", tree, "--epochs", "1", "--quiet", "--out", filepath.Join(dir, "m.model"))
	if code != 0 {
		t.Fatalf("twl train on synth's files: exit %d:\n%s", code, errOut)
	}

	// Same seed, same files.
	dir2 := filepath.Join(t.TempDir(), "again")
	twl(t, "", "synth", "--nodes", "40", "--samples", "30", "--test", "10", "--features", "6",
		"--hidden", "5", "--seed", "7", "--sign", "grow", "--quiet", "--out", dir2)
	for _, f := range []string{"tree.txt", "train.jsonl", "test.jsonl", "synth.json"} {
		a, _ := os.ReadFile(filepath.Join(dir, f))
		b, _ := os.ReadFile(filepath.Join(dir2, f))
		if len(a) == 0 || string(a) != string(b) {
			t.Errorf("%s differs between two runs with the same seed", f)
		}
	}
	// --test 0 writes no test file.
	dir3 := filepath.Join(t.TempDir(), "notest")
	if code, _, errOut := twl(t, "", "synth", "--nodes", "10", "--samples", "3", "--test", "0", "--quiet", "--out", dir3); code != 0 {
		t.Fatal(errOut)
	}
	if _, err := os.Stat(filepath.Join(dir3, "test.jsonl")); err == nil {
		t.Error("test.jsonl written with --test 0")
	}
}

func TestSynthDegenerate(t *testing.T) {
	dir := t.TempDir()
	code, out, _ := twl(t, "", "synth", "--nodes", "50", "--samples", "20", "--test", "0", "--quiet",
		"--x-dist", "uniform", "--w1-dist", "uniform", "--w2-dist", "uniform", "--out", dir)
	if code != 0 || !strings.Contains(out, "degenerate") {
		t.Errorf("exit %d, stdout:\n%s", code, out)
	}
}

func TestSynthUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"synth"}, "--out is required"},
		{[]string{"synth", "--out", "x", "extra"}, "takes no arguments"},
		{[]string{"synth", "--out", "x", "--nodes", "1"}, "--nodes must be between 2"},
		{[]string{"synth", "--out", "x", "--samples", "0"}, "--samples must be between 1"},
		{[]string{"synth", "--out", "x", "--test", "-1"}, "--test must be between 0"},
		{[]string{"synth", "--out", "x", "--x-dist", "cauchy"}, `unknown distribution "cauchy" (want normal, uniform or symmetric)`},
		{[]string{"synth", "--out", "x", "--sign", "up"}, `unknown sign "up"`},
		{[]string{"synth", "--out", "x", "--input", "y"}, `unknown input "y"`},
		{[]string{"synth", "--out", "x", "--scale", "0"}, "--scale must be positive"},
		{[]string{"synth", "--out", "x", "--features", "0"}, "--features and --hidden must be positive"},
		{[]string{"synth", "--out", "x", "--nodes", "100000", "--samples", "100000"}, "ask for fewer"},
	} {
		code, out, errOut := twl(t, "", tc.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.msg) || !strings.Contains(errOut, "--help'\n") {
			t.Errorf("twl %q: exit %d, stdout %q, stderr:\n%s\nwant exit 2 and %q", tc.args, code, out, errOut, tc.msg)
		}
	}
}

func TestSynthWriteError(t *testing.T) {
	// --out under a regular file cannot be created: exit 1, no panic.
	dir := write(t, map[string]string{"file": "x"})
	code, _, errOut := twl(t, "", "synth", "--nodes", "5", "--samples", "2", "--out", filepath.Join(dir, "file", "sub"))
	if code != 1 || errOut != "twl: cannot create "+filepath.Join(dir, "file", "sub")+": "+filepath.Join(dir, "file")+" is not a directory\n" {
		t.Errorf("exit %d, stderr %q; want one line, before any work", code, errOut)
	}
}

// TestSynthNewFolder: synth writes a new folder whole, with no temporary
// folder left beside it.
func TestSynthNewFolder(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "data")
	if code, _, errOut := twl(t, "", "synth", "--nodes", "8", "--samples", "3", "--test", "2", "--quiet", "--out", out); code != 0 {
		t.Fatal(errOut)
	}
	if names := dirNames(t, dir); len(names) != 1 || names[0] != "data" {
		t.Errorf("beside the output: %q", names)
	}
	if names := dirNames(t, out); strings.Join(names, " ") != "synth.json test.jsonl train.jsonl tree.txt" {
		t.Errorf("the output holds %q", names)
	}
}
