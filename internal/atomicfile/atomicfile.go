// Package atomicfile writes files all or nothing: the data goes to a
// temporary file in the destination's directory, which is synced and then
// renamed over the destination. A reader (or a crash) sees either the old
// file or the complete new one, never a half-written file, and a failed
// write leaves no temporary file behind.
//
// Rename is atomic on POSIX file systems within one directory. A symbolic
// link at the destination is followed: the file it points to is replaced,
// and the link kept. A destination that exists and is not a regular file (a
// device such as /dev/null or /dev/stdout, a named pipe) cannot be replaced
// atomically and must not be replaced at all: the data is written to it
// directly.
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
	if fi, err := os.Stat(name); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		// A device or a pipe, also through a link such as /dev/stdout →
		// /proc/self/fd/1 → pipe:[N], whose target is no path.
		return writeThrough(name, data)
	}
	name, err = resolve(name)
	if err != nil {
		return fmt.Errorf("write %s: %w", name, unwrapPath(err))
	}
	if fi, err := os.Stat(name); err == nil {
		switch {
		case fi.Mode().IsRegular():
			perm = fi.Mode().Perm()
		case fi.IsDir():
			return fmt.Errorf("write %s: is a directory", name)
		default:
			return writeThrough(name, data)
		}
	}
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", name, unwrapPath(err))
	}
	tmp := f.Name()
	register(tmp)
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
			err = fmt.Errorf("write %s: %w", name, unwrapPath(err))
		}
		unregister(tmp)
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

// resolve follows symbolic links at name, also dangling ones (whose target
// does not exist yet), so that the rename replaces the link's target. It
// gives up after 40 links, as the kernel does.
func resolve(name string) (string, error) {
	for range 40 {
		fi, err := os.Lstat(name)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return name, nil
		}
		target, err := os.Readlink(name)
		if err != nil {
			return name, err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(name), target)
		}
		name = target
	}
	return name, fmt.Errorf("too many levels of symbolic links")
}

// writeThrough writes data to an existing file that is not a regular one.
func writeThrough(name string, data []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("write %s: %w", name, unwrapPath(err))
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", name, unwrapPath(err))
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", name, unwrapPath(err))
	}
	return nil
}
