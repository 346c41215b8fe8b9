package atomicfile

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFileCommit(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "out.jsonl")
	if err := os.WriteFile(name, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Create(name, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	for range 10000 {
		if _, err := f.WriteString("0123456789\n"); err != nil {
			t.Fatal(err)
		}
	}
	// Until Commit the destination holds the old content.
	if b, _ := os.ReadFile(name); string(b) != "old\n" {
		t.Fatalf("before Commit the destination holds %q", b)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	f.Abort() // after Commit: does nothing
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Repeat("0123456789\n", 10000); string(b) != want {
		t.Fatalf("the file holds %d bytes, want %d", len(b), len(want))
	}
	if fi, _ := os.Stat(name); fi.Mode().Perm() != 0o600 {
		t.Errorf("permissions %v, want the existing file's 0600", fi.Mode().Perm())
	}
	assertOnly(t, dir, "out.jsonl")
}

func TestFileAbort(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "out.jsonl")
	f, err := Create(name, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("partial")
	f.Abort()
	if _, err := os.Stat(name); !os.IsNotExist(err) {
		t.Errorf("after Abort the destination exists (err %v)", err)
	}
	assertOnly(t, dir)
	if err := f.Commit(); err == nil {
		t.Error("Commit after Abort succeeded")
	}
}

func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	f, err := Create(filepath.Join(dir, "a"), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Create(filepath.Join(dir, "b"), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	g.Commit()
	f.WriteString("x")
	RemoveTemps()
	assertOnly(t, dir, "b")
}

func TestCreateUnwritable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only directories")
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o700)
	name := filepath.Join(dir, "model.json")
	_, err := Create(name, 0o644)
	if err == nil || !strings.Contains(err.Error(), "write "+name+": permission denied") {
		t.Fatalf("Create in a read-only directory: %v, want write %s: permission denied", err, name)
	}
	if strings.Contains(err.Error(), ".tmp") {
		t.Errorf("the error names the temporary file: %v", err)
	}
}

func TestFileDevice(t *testing.T) {
	f, err := Create(os.DevNull, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("discarded")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode().IsRegular() {
		t.Fatalf("%s was replaced: %v %v", os.DevNull, fi, err)
	}
}

// assertOnly checks that dir holds exactly the named files.
func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(names, ",") {
		t.Errorf("%s holds %v, want %v", dir, got, names)
	}
}

func TestRemoveTempsDirs(t *testing.T) {
	dir := t.TempDir()
	scratch := filepath.Join(dir, ".out.tmp1")
	kept := filepath.Join(dir, "kept")
	for _, d := range []string{scratch, kept} {
		if err := os.MkdirAll(filepath.Join(d, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	RegisterDir(scratch)
	RegisterDir(kept)
	UnregisterDir(kept)
	RemoveTemps()
	assertOnly(t, dir, "kept")
}

// TestFileLarge writes several times writebackBytes, in writes of odd
// sizes (some larger than the buffer), so that the writeback starts many
// times: the file holds every byte, in order, compared with the bytes
// given.
func TestFileLarge(t *testing.T) {
	name := filepath.Join(t.TempDir(), "big.tsv")
	f, err := Create(name, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	var want []byte
	for i := 0; len(want) < 5*writebackBytes; i++ {
		p := make([]byte, 1+(i*7919)%(3<<16))
		for k := range p {
			p[k] = byte(i + k)
		}
		want = append(want, p...)
		if _, err := f.Write(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("the file holds %d bytes, not the %d written", len(got), len(want))
	}
}

// TestFileLazyTemp checks that Create leaves nothing in the directory, nor
// do writes that stay in the buffer: the temporary file appears with the
// first bytes flushed, and Commit of nothing written makes an empty file.
func TestFileLazyTemp(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "out.tsv")
	entries := func() int {
		es, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		return len(es)
	}
	f, err := Create(name, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if n := entries(); n != 0 {
		t.Fatalf("after Create: %d entries in the directory", n)
	}
	f.WriteString("small\n")
	if n := entries(); n != 0 {
		t.Fatalf("after a small write: %d entries", n)
	}
	f.Write(make([]byte, 1<<17))
	if n := entries(); n != 1 {
		t.Fatalf("after 128 KiB: %d entries, want the temporary file", n)
	}
	f.Abort()
	if n := entries(); n != 0 {
		t.Fatalf("after Abort: %d entries", n)
	}
	g, err := Create(name, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(name); err != nil || len(b) != 0 {
		t.Fatalf("Commit of nothing: %q, %v", b, err)
	}
}
