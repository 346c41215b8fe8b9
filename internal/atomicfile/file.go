package atomicfile

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// File is an output file written as it goes and published all or nothing:
// the bytes go to a temporary file beside the destination, which Commit
// renames over it and Abort removes. Until Commit the destination is
// untouched. A File is buffered; it is not safe for concurrent use.
//
// The temporary file is created when the first bytes leave the buffer (64
// KiB of them, or at Commit), not by Create: a command that creates its
// outputs before it reads its inputs leaves nothing behind if it then dies
// while reading, even where no deferred Abort runs (the runtime out of
// memory).
//
// Every temporary file is recorded until it is committed or aborted, so
// that RemoveTemps can delete them all when the process must stop at once
// (a second interrupt).
type File struct {
	name  string // the destination, symbolic links resolved
	shown string // the destination as given, for messages
	perm  os.FileMode
	f     *os.File // nil when writing through to a non-regular file, or before the first bytes
	raw   *os.File // the non-regular destination, when writing through
	w     *bufio.Writer
	tmp   string // "" until the temporary file is created
	err   error  // the first write error
	done  bool
}

// Create starts writing the named file atomically, with permissions perm
// for a new file (an existing regular file keeps its own). It fails at once
// if the destination's directory is not writable (a probe file is created
// there and removed) or the destination is a directory, so that a command
// can check its outputs before it works; the temporary file itself is
// created with the first bytes written.
// A destination that exists and is not a regular file (/dev/null, a pipe)
// is written directly, as WriteFile does.
func Create(name string, perm os.FileMode) (*File, error) {
	shown := name
	if fi, err := os.Stat(name); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		// A device or a pipe, also through a link such as /dev/stdout →
		// /proc/self/fd/1 → pipe:[N], whose target is no path: opened by
		// the name given.
		raw, err := os.OpenFile(name, os.O_WRONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("write %s: %w", shown, unwrapPath(err))
		}
		return &File{name: name, shown: shown, raw: raw, w: bufio.NewWriterSize(raw, 1<<16)}, nil
	}
	name, err := resolve(name)
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", shown, err)
	}
	a := &File{name: name, shown: shown, perm: perm}
	if fi, err := os.Stat(name); err == nil {
		switch {
		case fi.Mode().IsRegular():
			a.perm = fi.Mode().Perm()
		case fi.IsDir():
			return nil, fmt.Errorf("write %s: is a directory", shown)
		}
	}
	probe, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", shown, unwrapPath(err))
	}
	probe.Close()
	os.Remove(probe.Name())
	a.w = bufio.NewWriterSize(&early{a: a}, 1<<16)
	return a, nil
}

// open creates the temporary file, once.
func (a *File) open() error {
	if a.f != nil {
		return nil
	}
	f, err := os.CreateTemp(filepath.Dir(a.name), "."+filepath.Base(a.name)+".tmp*")
	if err != nil {
		return err
	}
	a.f, a.tmp = f, f.Name()
	register(a.tmp)
	return nil
}

// writebackBytes is how much a File writes before it asks the kernel to
// start writing it to the device.
const writebackBytes = 2 << 20

// early writes to a temporary file and starts the writeback of each
// writebackBytes written, so that the device writes the file while the
// rest is produced and the final sync has less to wait for.
type early struct {
	a         *File // whose temporary file is created at the first Write
	off, sent int64 // bytes written; bytes whose writeback has started
}

func (e *early) Write(p []byte) (int, error) {
	if err := e.a.open(); err != nil {
		return 0, err
	}
	n, err := e.a.f.Write(p)
	e.off += int64(n)
	if e.off-e.sent >= writebackBytes {
		startWriteback(e.a.f, e.sent, e.off-e.sent)
		e.sent = e.off
	}
	return n, err
}

// Name returns the destination as it was given to Create.
func (a *File) Name() string { return a.shown }

// Write writes p to the temporary file. An error names the destination,
// not the temporary file.
func (a *File) Write(p []byte) (int, error) {
	if a.done {
		return 0, fmt.Errorf("write %s: already committed or aborted", a.shown)
	}
	if a.err != nil {
		return 0, a.err
	}
	n, err := a.w.Write(p)
	if err != nil {
		a.err = fmt.Errorf("write %s: %w", a.shown, unwrapPath(err))
	}
	return n, a.err
}

// WriteString writes s, as Write.
func (a *File) WriteString(s string) (int, error) { return a.Write([]byte(s)) }

// Commit flushes, syncs and renames the temporary file over the
// destination. After an error nothing is left behind: the temporary file is
// removed and the destination untouched.
func (a *File) Commit() error {
	if a.done {
		return fmt.Errorf("write %s: already committed or aborted", a.shown)
	}
	a.done = true
	if a.raw != nil {
		err := a.err
		if err == nil {
			err = a.w.Flush()
		}
		if cerr := a.raw.Close(); err == nil {
			err = cerr
		}
		if err != nil && err != a.err {
			err = fmt.Errorf("write %s: %w", a.shown, unwrapPath(err))
		}
		return err
	}
	err := a.err
	if err == nil {
		err = a.w.Flush()
	}
	if err == nil {
		err = a.open() // an empty file: nothing written yet
	}
	if a.f == nil {
		if err != nil && err != a.err {
			err = fmt.Errorf("write %s: %w", a.shown, unwrapPath(err))
		}
		return err
	}
	if err == nil {
		err = a.f.Chmod(a.perm)
	}
	if err == nil {
		err = a.f.Sync()
	}
	if cerr := a.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(a.tmp, a.name)
	}
	if err != nil {
		os.Remove(a.tmp)
	}
	unregister(a.tmp)
	if err != nil && err != a.err {
		err = fmt.Errorf("write %s: %w", a.shown, unwrapPath(err))
	}
	return err
}

// Abort removes the temporary file, leaving the destination as it was. It
// does nothing after Commit or a first Abort, so it can be deferred.
func (a *File) Abort() {
	if a.done {
		return
	}
	a.done = true
	if a.raw != nil {
		a.w.Flush()
		a.raw.Close()
		return
	}
	if a.f == nil {
		return // no temporary file yet
	}
	a.f.Close()
	os.Remove(a.tmp)
	unregister(a.tmp)
}

// unwrapPath drops the *os.PathError around err, whose path would be the
// temporary file's name.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	if le, ok := err.(*os.LinkError); ok {
		return le.Err
	}
	return err
}

var temps struct {
	sync.Mutex
	names map[string]struct{}
	dirs  map[string]struct{}
}

// RegisterDir records a temporary directory that RemoveTemps must remove,
// with everything in it: the folder a command fills before renaming it into
// place, or a scratch folder. UnregisterDir forgets it once it has been
// renamed or removed.
func RegisterDir(dir string) {
	temps.Lock()
	defer temps.Unlock()
	if temps.dirs == nil {
		temps.dirs = make(map[string]struct{})
	}
	temps.dirs[dir] = struct{}{}
}

// UnregisterDir forgets a directory recorded by RegisterDir.
func UnregisterDir(dir string) {
	temps.Lock()
	defer temps.Unlock()
	delete(temps.dirs, dir)
}

func register(name string) {
	temps.Lock()
	defer temps.Unlock()
	if temps.names == nil {
		temps.names = make(map[string]struct{})
	}
	temps.names[name] = struct{}{}
}

func unregister(name string) {
	temps.Lock()
	defer temps.Unlock()
	delete(temps.names, name)
}

// RemoveTemps removes every temporary file of this package that is still
// open: those of Files not yet committed or aborted and of WriteFile calls
// in progress, and the directories recorded by RegisterDir. It is meant for a process about to exit at once, on a
// second interrupt, when deferred Aborts will not run; the destinations are
// untouched.
func RemoveTemps() {
	temps.Lock()
	defer temps.Unlock()
	for name := range temps.names {
		os.Remove(name)
	}
	for dir := range temps.dirs {
		os.RemoveAll(dir)
	}
	temps.names, temps.dirs = nil, nil
}
