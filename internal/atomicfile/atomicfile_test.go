package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "out.tsv")
	if err := WriteFile(name, []byte("one\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(name, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(name, []byte("two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(name)
	if err != nil || string(got) != "two\n" {
		t.Fatalf("got %q, %v", got, err)
	}
	if fi, _ := os.Stat(name); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the old file's 0600", fi.Mode().Perm())
	}

	// A failed write (the destination is a directory) keeps the old
	// contents and leaves no temporary file.
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(sub, []byte("x"), 0o644); err == nil {
		t.Error("writing over a directory succeeded")
	}
	if err := WriteFile(filepath.Join(dir, "missing", "x"), []byte("x"), 0o644); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v, want only out.tsv and sub", names)
	}
}

// TestSpecialDestinations checks that a symbolic link is followed (its
// target replaced, the link kept, also when the target does not exist yet)
// and that a device is written through, not replaced by a regular file.
func TestSpecialDestinations(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.txt")
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink("real.txt", link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	for _, content := range []string{"first\n", "second\n"} { // dangling, then existing target
		if err := WriteFile(link, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(target); string(got) != content {
			t.Errorf("target holds %q, want %q", got, content)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("the link was replaced: %v %v", fi, err)
		}
	}
	if fi, err := os.Stat("/dev/null"); err == nil && fi.Mode()&os.ModeDevice != 0 {
		if err := WriteFile("/dev/null", []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat("/dev/null"); err != nil || fi.Mode()&os.ModeDevice == 0 {
			t.Fatalf("/dev/null is no longer a device: %v %v", fi, err)
		}
	}
	if err := WriteFile(dir, []byte("x"), 0o644); err == nil {
		t.Error("writing over a directory: want an error")
	}
}

// TestLinkThroughLinkedFolder writes through a link whose relative target
// starts with "..", reached through a linked folder: b → a/real, and
// b/up → ../x.txt. The kernel takes ".." from the folder the link lies in,
// a/real, so the link names a/x.txt (what os.ReadFile through it reads
// once written), not the x.txt beside b that a lexical clean of b/../x.txt
// gives. WriteFile and Create must write where the kernel says, and the
// overwrite check must see the same file: x.txt, an input, stays as it
// was.
func TestLinkThroughLinkedFolder(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	if err := os.MkdirAll(at("a/real"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(at("x.txt"), []byte("input"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a/real", at("b")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink("../x.txt", at("a/real/up")); err != nil {
		t.Fatal(err)
	}
	var files Files
	files.Input("--data", at("x.txt"))
	files.Output("--out", at("b/up"))
	if err := files.Check(); err != nil {
		t.Errorf("Check: %v (b/up is a/x.txt, another file)", err)
	}
	for _, write := range []func(name string, data []byte) error{
		func(name string, data []byte) error { return WriteFile(name, data, 0o644) },
		func(name string, data []byte) error {
			f, err := Create(name, 0o644)
			if err != nil {
				return err
			}
			f.Write(data)
			return f.Commit()
		},
	} {
		os.Remove(at("a/x.txt"))
		if err := write(at("b/up"), []byte("output")); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(at("x.txt")); string(got) != "input" {
			t.Errorf("x.txt holds %q, want the input left as it was", got)
		}
		if got, err := os.ReadFile(at("b/up")); string(got) != "output" {
			t.Errorf("reading through the link: %q, %v; want the output", got, err)
		}
		if fi, err := os.Lstat(at("a/real/up")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("the link was replaced: %v", err)
		}
	}
}
