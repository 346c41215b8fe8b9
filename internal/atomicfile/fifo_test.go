//go:build unix

package atomicfile

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestFIFO writes through a named pipe, reached directly and through a
// symbolic link to it (as /dev/stdout leads to a pipe), with Create and
// WriteFile: the reader gets the bytes and the pipe stays a pipe.
func TestFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes:", err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{fifo, link} {
		for _, viaCreate := range []bool{true, false} {
			got := make(chan string)
			go func() {
				f, err := os.Open(fifo)
				if err != nil {
					got <- err.Error()
					return
				}
				b, _ := io.ReadAll(f)
				f.Close()
				got <- string(b)
			}()
			var err error
			if viaCreate {
				var f *File
				if f, err = Create(name, 0o644); err == nil {
					f.WriteString("rows\n")
					err = f.Commit()
				}
			} else {
				err = WriteFile(name, []byte("rows\n"), 0o644)
			}
			if err != nil {
				t.Fatalf("%s (Create %v): %v", name, viaCreate, err)
			}
			if s := <-got; s != "rows\n" {
				t.Errorf("%s (Create %v): the reader got %q", name, viaCreate, s)
			}
		}
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe was replaced: %v %v", fi, err)
	}
	assertOnly(t, dir, "link", "pipe")
}
