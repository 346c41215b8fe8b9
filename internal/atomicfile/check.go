package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// CheckWritable fails early, before a long computation, when the named
// file could not be written by Create or WriteFile; "" and "-" (standard
// output) pass. It fails when name is a directory, when the directory that
// would hold it is missing or is not a directory, or when no file can be
// created there (permissions, a read-only or virtual file system). A probe
// file is created beside name and removed at once; name is untouched. An
// existing destination that is not a regular file (a device, a named pipe)
// is not opened, since opening a pipe would wait for its reader.
//
// The error says what is wrong in the user's words, naming name once:
// "cannot write out/x.tsv: directory out does not exist".
func CheckWritable(name string) error {
	if name == "" || name == "-" {
		return nil
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("cannot write %s: "+format, append([]any{name}, args...)...)
	}
	if fi, err := os.Stat(name); err == nil {
		switch {
		case fi.IsDir():
			return fail("it is a directory")
		case !fi.Mode().IsRegular():
			return nil // written through (see WriteFile)
		}
	}
	target, err := resolve(name)
	if err != nil {
		return fail("%v", err)
	}
	dir := filepath.Dir(target)
	if err := checkParent(dir); err != nil {
		return fail("%v", err)
	}
	probe, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp*")
	if err != nil {
		return fail("cannot create a file in %s: %v", dir, unwrapPath(err))
	}
	probe.Close()
	os.Remove(probe.Name())
	return nil
}

// CheckDir reports whether files could be written in the directory dir,
// creating it (and its parents) if needed, without creating anything: dir
// must be a directory that accepts a new file, or not exist below a nearest
// existing ancestor that is a directory accepting a new one.
func CheckDir(dir string) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("cannot write to %s: "+format, append([]any{dir}, args...)...)
	}
	d := filepath.Clean(dir)
	missing := "" // the highest missing folder: the one to be created in d
	for {
		fi, err := os.Stat(d)
		switch {
		case err == nil && !fi.IsDir():
			if d == filepath.Clean(dir) {
				return fail("it is not a directory")
			}
			return fmt.Errorf("cannot create %s: %s is not a directory", dir, d)
		case err == nil:
			probe, err := os.CreateTemp(d, ".twl-probe*")
			switch {
			case err != nil && missing != "":
				// Say which folder is missing, not only where it would go.
				return fail("directory %s does not exist and cannot be created in %s: %v", missing, d, unwrapPath(err))
			case err != nil:
				return fail("cannot create a file in %s: %v", d, unwrapPath(err))
			}
			probe.Close()
			os.Remove(probe.Name())
			return nil
		case !errors.Is(err, os.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			return fail("%v", unwrapPath(err))
		}
		up := filepath.Dir(d)
		missing = d
		if up == d {
			return fail("%v", unwrapPath(err))
		}
		d = up
	}
}

// checkParent says what is wrong with dir as the directory of a new file:
// nil when it is an existing directory, else which part of it is missing
// or which ancestor of it is a file.
func checkParent(dir string) error {
	fi, err := os.Stat(dir)
	if err == nil {
		if !fi.IsDir() {
			return fmt.Errorf("%s is not a directory", dir)
		}
		return nil
	}
	if !errors.Is(err, os.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
		return unwrapPath(err)
	}
	// A file among its ancestors is the problem, else dir is missing.
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("%s is not a directory", d)
			}
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return fmt.Errorf("directory %s does not exist", dir)
}
