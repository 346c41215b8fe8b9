package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestFilesCheck builds each way two paths can name one file (the same
// name, another spelling, a symbolic link, a hard link, ".." through a
// linked folder, a dangling link whose target is another output) and each
// way they can look alike and not be (".." that the kernel takes through a
// link where a lexical clean would not, a device written twice), and
// checks Check's answer and its message.
func TestFilesCheck(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	write := func(name string) {
		if err := os.WriteFile(at(name), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must := func(err error) {
		if err != nil {
			t.Skip("cannot make links here:", err)
		}
	}
	write("table.biom")
	write("other.tsv")
	if err := os.MkdirAll(at("a/real"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("a/x.tsv")
	write("y.tsv")
	must(os.Symlink("table.biom", at("link.biom")))
	must(os.Link(at("table.biom"), at("hard.biom")))
	must(os.Symlink("a/real", at("b")))                // b/.. is a, not dir
	must(os.Symlink("later.tsv", at("dangling.tsv")))  // target not written yet
	must(os.Symlink("a", at("report-link")))           // a folder through a link
	must(os.Symlink("../table.biom", at("a/up.biom"))) // a relative link with ..

	for _, c := range []struct {
		name string
		in   []string // flag, path, flag, path, ...
		out  []string
		dirs []string
		want string // "" for no error
	}{
		{"distinct", []string{"--table", at("table.biom")}, []string{"--out", at("d.tsv")}, nil, ""},
		{"same name", []string{"--table", at("table.biom")}, []string{"--out", at("table.biom")},
			nil, "--out " + at("table.biom") + " would overwrite --table " + at("table.biom")},
		{"other spelling", []string{"--table", at("table.biom")}, []string{"--out", dir + "/./a/../table.biom"},
			nil, "--out " + dir + "/./a/../table.biom would overwrite --table " + at("table.biom")},
		{"symbolic link", []string{"--table", at("table.biom")}, []string{"--pcoa-out", at("link.biom")},
			nil, "--pcoa-out " + at("link.biom") + " would overwrite --table " + at("table.biom") + " (the same file)"},
		{"relative link with ..", []string{"--table", at("table.biom")}, []string{"--plot", at("a/up.biom")},
			nil, "--plot " + at("a/up.biom") + " would overwrite --table"},
		{"hard link", []string{"--table", at("table.biom")}, []string{"--out", at("hard.biom")},
			nil, "--out " + at("hard.biom") + " would overwrite --table " + at("table.biom") + " (the same file)"},
		{".. through a link", []string{"--table", at("a/x.tsv")}, []string{"--out", dir + "/b/../x.tsv"},
			nil, "--out " + dir + "/b/../x.tsv" + " would overwrite --table " + at("a/x.tsv")},
		// Lexically b/../y.tsv is y.tsv; the kernel reaches a/y.tsv.
		{".. lexically alike", []string{"--table", at("y.tsv")}, []string{"--out", dir + "/b/../y.tsv"}, nil, ""},
		{"two outputs", []string{"--table", at("table.biom")}, []string{"--out", at("w.tsv"), "--pcoa-out", at("w.tsv")},
			nil, "--pcoa-out " + at("w.tsv") + " would overwrite --out " + at("w.tsv")},
		{"two outputs, one a dangling link", nil, []string{"--out", at("later.tsv"), "--plot", at("dangling.tsv")},
			nil, "--plot " + at("dangling.tsv") + " would overwrite --out " + at("later.tsv") + " (the same file)"},
		{"two new outputs through ..", nil, []string{"--out", at("a/n.tsv"), "--plot", dir + "/b/../n.tsv"},
			nil, "--plot " + dir + "/b/../n.tsv" + " would overwrite --out " + at("a/n.tsv")},
		{"a device twice", []string{"--table", at("table.biom")}, []string{"--out", "/dev/null", "--pcoa-out", "/dev/null"}, nil, ""},
		{"standard streams", []string{"A", "-"}, []string{"--out", "-"}, nil, ""},
		{"input in a report folder", []string{"--train", at("a/x.tsv")}, nil, []string{"--out", at("a")},
			"--out " + at("a") + " could overwrite --train " + at("a/x.tsv") + ", which is inside that folder"},
		{"input in a report folder through a link", []string{"--train", at("a/x.tsv")}, nil, []string{"--out", at("report-link")},
			"--out " + at("report-link") + " could overwrite --train"},
		{"input beside a report folder", []string{"--train", at("other.tsv")}, nil, []string{"--out", at("a")}, ""},
		{"a folder whose name begins another's", []string{"--train", at("a/x.tsv")}, nil, []string{"--out", at("a/r")}, ""},
	} {
		var f Files
		for i := 0; i+1 < len(c.in); i += 2 {
			f.Input(c.in[i], c.in[i+1])
		}
		for i := 0; i+1 < len(c.out); i += 2 {
			f.Output(c.out[i], c.out[i+1])
		}
		for i := 0; i+1 < len(c.dirs); i += 2 {
			f.OutputDir(c.dirs[i], c.dirs[i+1])
		}
		err := f.Check()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && err == nil:
			t.Errorf("%s: no error, want %q", c.name, c.want)
		case c.want != "" && !errors.Is(err, ErrOverwrite):
			t.Errorf("%s: %v is not ErrOverwrite", c.name, err)
		case c.want != "" && (len(err.Error()) < len(c.want) || err.Error()[:len(c.want)] != c.want):
			t.Errorf("%s: %q, want it to start %q", c.name, err, c.want)
		}
	}
	if entries, _ := os.ReadDir(at("a")); len(entries) != 3 { // real, x.tsv, up.biom
		t.Errorf("Check created files: %v", entries)
	}
}
