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

// resolve returns the file the kernel reaches for name, so that the
// rename replaces a symbolic link's target (also a dangling link's, whose
// target does not exist yet): the folder part with its links and ".."
// resolved as they are met, then the final name's links followed, a
// relative target taken from the folder the link lies in (b/up → ../x,
// with b a link to a/real, is a/x, not the x beside b). Where a folder
// does not exist, name is returned as it stands, for the write to fail
// there. It gives up after 40 links, as the kernel does.
func resolve(name string) (string, error) {
	for range 40 {
		dir, base := filepath.Split(name)
		if base == "" || base == "." || base == ".." {
			// A folder, not a file to write: resolved whole.
			if real, err := filepath.EvalSymlinks(name); err == nil {
				return real, nil
			}
			return name, nil
		}
		if dir == "" {
			dir = "."
		}
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			return name, nil
		}
		full := filepath.Join(real, base)
		fi, err := os.Lstat(full)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return full, nil
		}
		target, err := os.Readlink(full)
		if err != nil {
			return full, err
		}
		if !filepath.IsAbs(target) {
			// Not cleaned: its ".." is resolved in the next round, after
			// the links before it.
			target = real + string(filepath.Separator) + target
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
