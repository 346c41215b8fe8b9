package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// CheckWritable fails early, before a long computation, when the file path
// cannot be written: its directory is missing or not writable, or path is
// a directory. It creates a temporary file beside path and removes it;
// path itself is untouched. "" and "-" (standard output) pass.
func CheckWritable(path string) error {
	if path == "" || path == "-" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("cannot write %s: it is a directory", path)
	}
	f, err := Create(path, 0o644)
	if err != nil {
		dir := filepath.Dir(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return fmt.Errorf("cannot write %s: directory %s does not exist", path, dir)
		case errors.Is(err, syscall.ENOTDIR):
			return fmt.Errorf("cannot write %s: %s is not a directory", path, dir)
		}
		if inner := errors.Unwrap(err); inner != nil {
			err = inner // the error without "write PATH: "
		}
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	f.Abort()
	return nil
}

// CheckDir fails early when the directory dir cannot be written: it is not
// a directory, or not writable, or it does not exist and cannot be created
// because its nearest existing ancestor is not a writable directory.
// Nothing is created.
func CheckDir(dir string) error {
	d := filepath.Clean(dir)
	for {
		fi, err := os.Stat(d)
		if err == nil {
			if !fi.IsDir() {
				if d == filepath.Clean(dir) {
					return fmt.Errorf("cannot write to %s: it is not a directory", dir)
				}
				return fmt.Errorf("cannot create %s: %s is not a directory", dir, d)
			}
			probe, err := os.CreateTemp(d, ".twl-probe*")
			if err != nil {
				return fmt.Errorf("cannot write to %s: %w", dir, errors.Unwrap(err))
			}
			probe.Close()
			return os.Remove(probe.Name())
		}
		if !errors.Is(err, os.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return fmt.Errorf("cannot write to %s: %w", dir, err)
		}
		up := filepath.Dir(d)
		if up == d {
			return fmt.Errorf("cannot write to %s: %w", dir, err)
		}
		d = up
	}
}

// SameFile reports whether the paths a and b name the same file: the same
// cleaned absolute path (a file not yet written), or the same existing file
// under two names. An empty path names no file.
func SameFile(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	aa, err1 := filepath.Abs(a)
	ab, err2 := filepath.Abs(b)
	if err1 == nil && err2 == nil && aa == ab {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}
