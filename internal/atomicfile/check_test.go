package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestChecks(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		err  error
		want string // "" for none, else a part of the message
	}{
		{CheckWritable(filepath.Join(dir, "new")), ""},
		{CheckWritable("-"), ""},
		{CheckWritable(dir), "it is a directory"},
		{CheckWritable(filepath.Join(dir, "no", "x")), "does not exist"},
		{CheckWritable(filepath.Join(file, "x")), "is not a directory"},
		{CheckDir(dir), ""},
		{CheckDir(filepath.Join(dir, "a", "b")), ""}, // can be created
		{CheckDir(file), "it is not a directory"},
		{CheckDir(filepath.Join(file, "sub")), "is not a directory"},
	} {
		if c.want == "" && c.err != nil || c.want != "" && (c.err == nil || !strings.Contains(c.err.Error(), c.want)) {
			t.Errorf("err = %v, want %q", c.err, c.want)
		}
	}
	// Nothing is left behind: the directory holds f only.
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Errorf("left %d entries", len(es))
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(file, link); err != nil {
		t.Skip(err)
	}
	if !SameFile(file, link) || !SameFile(file, filepath.Join(dir, ".", "f")) || SameFile(file, filepath.Join(dir, "new")) || SameFile("", "") {
		t.Error("SameFile")
	}
}
