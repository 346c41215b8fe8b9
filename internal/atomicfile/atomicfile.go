// Package atomicfile writes files all or nothing: the data goes to a
// temporary file in the destination's directory, which is synced and then
// renamed over the destination. A reader (or a crash) sees either the old
// file or the complete new one, never a half-written file, and a failed
// write leaves no temporary file behind.
//
// Rename is atomic on POSIX file systems within one directory; a symbolic
// link at the destination is replaced, not followed.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteFile writes data to the named file atomically, creating it with
// permissions perm, or replacing it and keeping its permissions if it is a
// regular file that exists.
func WriteFile(name string, data []byte, perm os.FileMode) (err error) {
	if fi, err := os.Stat(name); err == nil && fi.Mode().IsRegular() {
		perm = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
			err = fmt.Errorf("write %s: %w", name, err)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}
