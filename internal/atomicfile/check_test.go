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
}

// TestCheckMessages checks the messages of CheckWritable and CheckDir
// against what each path is, set up by hand here, and that neither leaves
// anything behind.
func TestCheckMessages(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	p := func(s string) string { return filepath.Join(dir, s) }
	for _, tc := range []struct {
		name, want string // want "" for no error
	}{
		{p("new.txt"), ""},
		{file, ""}, // replaced
		{p("sub/new.txt"), ""},
		{sub, "cannot write " + sub + ": it is a directory"},
		{p("no/x"), "cannot write " + p("no/x") + ": directory " + p("no") + " does not exist"},
		{p("no/deeper/x"), "cannot write " + p("no/deeper/x") + ": directory " + p("no/deeper") + " does not exist"},
		// Under a regular file: the file is what is wrong, however deep.
		{p("file/x"), "cannot write " + p("file/x") + ": " + file + " is not a directory"},
		{p("file/a/b/x"), "cannot write " + p("file/a/b/x") + ": " + file + " is not a directory"},
	} {
		err := CheckWritable(tc.name)
		if got := errString(err); got != tc.want {
			t.Errorf("CheckWritable(%s) = %q, want %q", tc.name, got, tc.want)
		}
	}
	for _, tc := range []struct {
		name, want string
	}{
		{sub, ""},
		{p("new/deeper"), ""}, // created when written
		{file, "cannot write to " + file + ": it is not a directory"},
		{p("file/a/b"), "cannot create " + p("file/a/b") + ": " + file + " is not a directory"},
	} {
		if got := errString(CheckDir(tc.name)); got != tc.want {
			t.Errorf("CheckDir(%s) = %q, want %q", tc.name, got, tc.want)
		}
	}
	assertOnly(t, dir, "file", "sub")
	assertOnly(t, sub)
	if fi, err := os.Stat("/proc/version"); err == nil && fi.Mode().IsRegular() {
		// /proc exists and takes no new file: the folder is not called
		// missing.
		want := "cannot write /proc/x: cannot create a file in /proc: no such file or directory"
		if got := errString(CheckWritable("/proc/x")); got != want {
			t.Errorf("CheckWritable(/proc/x) = %q, want %q", got, want)
		}
		// A folder to create under /proc: the message names the missing
		// folder (main said only "cannot create a file in /proc").
		want = "cannot write to /proc/nonexistent/x: directory /proc/nonexistent does not exist and cannot be created in /proc: no such file or directory"
		if got := errString(CheckDir("/proc/nonexistent/x")); got != want {
			t.Errorf("CheckDir(/proc/nonexistent/x) = %q, want %q", got, want)
		}
	}
	if fi, err := os.Stat("/dev/null"); err == nil && fi.Mode()&os.ModeDevice != 0 {
		if err := CheckWritable("/dev/null"); err != nil {
			t.Errorf("CheckWritable(/dev/null): %v", err)
		}
	}
}

// TestWriteThroughError checks that a failed write to a device names it
// once: "write /dev/full: no space left on device".
func TestWriteThroughError(t *testing.T) {
	fi, err := os.Stat("/dev/full")
	if err != nil || fi.Mode()&os.ModeDevice == 0 {
		t.Skip("no /dev/full")
	}
	err = WriteFile("/dev/full", []byte("x"), 0o644)
	if err == nil || strings.Count(err.Error(), "/dev/full") != 1 {
		t.Errorf("WriteFile(/dev/full) = %v, want an error naming /dev/full once", err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
