package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
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
	for _, c := range compatCommands {
		paths = append(paths, []string{c.name, "--help"})
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

// TestHelpWidth: no line of any --help output (nor the main usage) is
// wider than 80 columns, counted in runes, except a URL, which cannot be
// broken, and none names Go code (a package or a method such as
// Workspace.DistanceGrad): help is for people at a shell. Main had lines
// up to 122 columns (twl experiment text --help), and twl bench --help named
// tree.BreadthFirst and Batch.LogitGrad.
func TestHelpWidth(t *testing.T) {
	goName := regexp.MustCompile(`\b(tree|tw|tsw|pointtree|ldl|labeldist|Workspace|Batch)\.[A-Z]|\bpackage [a-z]+\b|SparseDistance`)
	paths := [][]string{{"help"}}
	for _, l := range leaves(t) {
		paths = append(paths, append(slices.Clone(l.path), "--help"))
	}
	for _, g := range groups {
		paths = append(paths, []string{g.name, "--help"})
	}
	for _, c := range compatCommands {
		paths = append(paths, []string{c.name, "--help"})
	}
	for _, p := range paths {
		_, out, _ := twl(t, "", p...)
		for i, line := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(line); n > 80 && !strings.Contains(line, "://") {
				t.Errorf("twl %s: line %d has %d columns: %q", strings.Join(p, " "), i+1, n, line)
			}
			if m := goName.FindString(line); m != "" {
				t.Errorf("twl %s: line %d names Go code (%q): %q", strings.Join(p, " "), i+1, m, line)
			}
		}
	}
}
