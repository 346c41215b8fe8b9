package main

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var updateHelp = flag.Bool("update-help", false, "rewrite testdata/help/*.golden from the current build")

// TestHelpGolden compares the --help of every command, subcommand and group
// (and the main usage) with testdata/help/*.golden, recorded from a build
// by go test -run TestHelpGolden -update-help: the help text is data, and
// moving or editing it must change the output only on purpose.
func TestHelpGolden(t *testing.T) {
	paths := [][]string{{"help"}}
	for _, l := range leaves(t) {
		paths = append(paths, append(slices.Clone(l.path), "--help"))
	}
	for _, g := range groups {
		paths = append(paths, []string{g.name, "--help"})
	}
	seen := map[string]bool{}
	for _, p := range paths {
		name := strings.Join(slices.DeleteFunc(slices.Clone(p), func(s string) bool { return s == "--help" }), "-")
		seen[name+".golden"] = true
		code, out, errOut := twl(t, "", p...)
		if code != 0 || errOut != "" {
			t.Errorf("twl %s: exit %d, stderr %q", strings.Join(p, " "), code, errOut)
		}
		file := filepath.Join("testdata", "help", name+".golden")
		if *updateHelp {
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if out != string(want) {
			t.Errorf("twl %s differs from %s", strings.Join(p, " "), file)
		}
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "help", "*.golden"))
	for _, f := range files {
		if !seen[filepath.Base(f)] {
			t.Errorf("%s: no such command", f)
		}
	}
	// Every help file is a command's or a part that one names.
	texts, _ := filepath.Glob(filepath.Join("help", "*.txt"))
	var all strings.Builder
	for _, f := range texts {
		b, _ := os.ReadFile(f)
		all.Write(b)
	}
	for _, f := range texts {
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		if !seen[name+".golden"] && !strings.Contains(all.String(), "{{"+name+"}}") {
			t.Errorf("%s: neither a command's help nor a part of one", f)
		}
	}
}
