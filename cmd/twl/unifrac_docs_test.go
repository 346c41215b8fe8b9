package main

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// docBlock returns the fenced or indented block of the markdown file path
// that follows the first line holding after: the lines of the next fenced
// block (``` … ```), or of the next run of lines indented by four spaces.
func docBlock(t *testing.T, path, after string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	i := 0
	for i < len(lines) && !strings.Contains(lines[i], after) {
		i++
	}
	for i++; i < len(lines); i++ {
		switch {
		case strings.HasPrefix(lines[i], "```"):
			var out []string
			for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
				out = append(out, lines[i])
			}
			return strings.Join(out, "\n") + "\n"
		case strings.HasPrefix(lines[i], "    "):
			var out []string
			for ; i < len(lines) && strings.HasPrefix(lines[i], "    "); i++ {
				out = append(out, lines[i][4:])
			}
			return strings.Join(out, "\n") + "\n"
		}
	}
	t.Fatalf("%s: no block after %q", path, after)
	return ""
}

// docCommand returns the arguments of the first "twl …" command of block,
// continuation lines joined.
func docCommand(t *testing.T, block string) []string {
	t.Helper()
	line := strings.ReplaceAll(block, "\\\n", " ")
	for _, l := range strings.Split(line, "\n") {
		if f := strings.Fields(l); len(f) > 1 && f[0] == "twl" {
			return f[1:]
		}
	}
	t.Fatalf("no twl command in %q", block)
	return nil
}

// TestDocumentedUnifracOutputs runs the commands of docs/unifrac.md and
// docs/ordination.md from the repository's root, as a user would, and
// compares what they write with the outputs the pages show, so that the
// pages cannot drift from the program.
func TestDocumentedUnifracOutputs(t *testing.T) {
	tmp := t.TempDir()
	t.Chdir("../..")

	// docs/unifrac.md: the 3-sample TSV and the command it names.
	const page = "docs/unifrac.md"
	cmd := docBlock(t, page, "3-sample table of")
	if !strings.HasPrefix(cmd, "twl unifrac ") {
		t.Fatalf("%s: the TSV example is not preceded by its command: %q", page, cmd)
	}
	want := docBlock(t, page, "writes, byte for byte")
	if code, got, errOut := twl(t, "", docCommand(t, cmd)...); code != 0 || got != want {
		t.Errorf("%s: %q: exit %d %s\n%s\nthe page shows\n%s", page, cmd, code, errOut, got, want)
	}

	// docs/ordination.md: the command and its coordinates table.
	const opage = "docs/ordination.md"
	args := docCommand(t, docBlock(t, opage, "## On the command line"))
	outs := map[string]string{}
	for i := 1; i < len(args); i++ {
		if f := args[i-1]; f == "--out" || f == "--plot" || f == "--pcoa-out" {
			outs[args[i]] = filepath.Join(tmp, args[i])
			args[i] = outs[args[i]]
		}
	}
	if code, _, errOut := twl(t, "", args...); code != 0 {
		t.Fatalf("%s: %q: exit %d: %s", opage, args, code, errOut)
	}
	written := regexp.MustCompile("writes `([^`]+)`, `([^`]+)` and `([^`]+)`").FindStringSubmatch(mustRead(t, opage))
	if written == nil {
		t.Fatalf("%s: no \"writes `A`, `B` and `C`\"", opage)
	}
	for _, name := range written[1:] {
		if _, err := os.Stat(filepath.Join(tmp, name)); err != nil {
			t.Errorf("%s says the command writes %s: %v", opage, name, err)
		}
	}
	got := mustRead(t, filepath.Join(tmp, "dm.pcoa.tsv"))
	if table := docBlock(t, opage, "## The coordinates table"); !sameTable(got, table) {
		t.Errorf("%s: the coordinates table differs from the command's dm.pcoa.tsv:\n%s\nthe page shows\n%s", opage, got, table)
	}
}

// sameTable reports whether the table a command wrote is the one a page
// shows: byte for byte on amd64, where the page's table was made; on
// other architectures, whose compilers may fuse multiply-adds, with the
// numbers equal to 12 significant digits.
func sameTable(got, doc string) bool {
	if runtime.GOARCH == "amd64" || got == doc {
		return got == doc
	}
	g, d := strings.Fields(got), strings.Fields(doc)
	if len(g) != len(d) {
		return false
	}
	for i := range g {
		x, err1 := strconv.ParseFloat(g[i], 64)
		y, err2 := strconv.ParseFloat(d[i], 64)
		if err1 != nil || err2 != nil {
			if g[i] != d[i] {
				return false
			}
		} else if math.Abs(x-y) > 1e-12*(1+math.Abs(y)) {
			return false
		}
	}
	return true
}
