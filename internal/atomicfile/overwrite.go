package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Files are the files a command reads and writes, each under the name the
// user knows it by (a flag, "--table"; an argument, "PRED"; a derived file,
// "the ids of --out"), collected before any work so that Check can refuse
// an output that would overwrite an input or another output.
//
// Two paths are one file when they name the same existing file, through
// symbolic links, hard links or "..", or, for files not written yet, the
// same place once every link is followed (a dangling link's target
// included). "" (no file) and "-" (standard input or output) are left
// out, as is an existing output that is not a regular file (a device such
// as /dev/null, a named pipe: written through, never replaced).
//
// Use: one Files per run, Input and Output (or OutputDir) for every path
// as soon as the flags are read, then Check; a non-nil error is a mistake
// on the command line.
//
//	var f atomicfile.Files
//	f.Input("--table", table)
//	f.Output("--out", out)
//	f.Output("the ids of --out", distmat.IDsPath(out))
//	if err := f.Check(); err != nil { … }
type Files struct {
	inputs, outputs, dirs []named
}

type named struct{ name, path string }

// Input adds a file the command reads.
func (f *Files) Input(name, path string) { f.inputs = appendNamed(f.inputs, name, path) }

// Output adds a file the command writes.
func (f *Files) Output(name, path string) { f.outputs = appendNamed(f.outputs, name, path) }

// OutputDir adds a folder the command writes files of its own naming into
// (reports, runs, checkpoints): no input may lie in it, at any depth.
// Outputs inside it are the command's own business and are not compared
// with it.
func (f *Files) OutputDir(name, dir string) { f.dirs = appendNamed(f.dirs, name, dir) }

func appendNamed(list []named, name, path string) []named {
	if path == "" || path == "-" {
		return list
	}
	return append(list, named{name, path})
}

// ErrOverwrite is the error of Check, wrapped by an *OverwriteError.
var ErrOverwrite = errors.New("an output would overwrite an input or another output")

// OverwriteError is Check's refusal: Output (a flag such as "--pcoa-out",
// with its path) would overwrite Other (an input, or an output added
// before it), or for a folder (Dir), could overwrite Other inside it.
type OverwriteError struct {
	Output, OutputPath string
	Other, OtherPath   string
	Dir                bool // Output is a folder and Other lies in it
}

func (e *OverwriteError) Error() string {
	if e.Dir {
		return fmt.Sprintf("%s %s could overwrite %s %s, which is inside that folder: keep the inputs out of it",
			e.Output, e.OutputPath, e.Other, e.OtherPath)
	}
	msg := fmt.Sprintf("%s %s would overwrite %s %s", e.Output, e.OutputPath, e.Other, e.OtherPath)
	if filepath.Clean(e.OutputPath) != filepath.Clean(e.OtherPath) {
		msg += " (the same file)"
	}
	return msg
}

func (e *OverwriteError) Unwrap() error { return ErrOverwrite }

// Check returns an *OverwriteError for the first output (in the order
// added) that is one of the inputs or one of the outputs added before it,
// or for an input inside an output folder; nil when every output is a
// file of its own. It reads only the file system's metadata.
func (f *Files) Check() error {
	in := make([]place, len(f.inputs))
	for i, n := range f.inputs {
		in[i] = locate(n.path)
	}
	out := make([]place, len(f.outputs))
	for i, o := range f.outputs {
		out[i] = locate(o.path)
		if out[i].special {
			continue
		}
		for j, n := range f.inputs {
			if out[i].same(in[j]) {
				return &OverwriteError{Output: o.name, OutputPath: o.path, Other: n.name, OtherPath: n.path}
			}
		}
		for j, p := range f.outputs[:i] {
			if out[i].same(out[j]) {
				return &OverwriteError{Output: o.name, OutputPath: o.path, Other: p.name, OtherPath: p.path}
			}
		}
	}
	for _, d := range f.dirs {
		dir := physical(d.path)
		for j, n := range f.inputs {
			if in[j].path == dir || strings.HasPrefix(in[j].path, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator)) {
				return &OverwriteError{Output: d.name, OutputPath: d.path, Other: n.name, OtherPath: n.path, Dir: true}
			}
		}
	}
	return nil
}

// place is where a path leads: its file, if it exists, and the absolute
// path with every link followed.
type place struct {
	fi      os.FileInfo // nil when nothing is there (yet)
	path    string
	special bool // an existing file that is not a regular file
}

func locate(path string) place {
	p := place{path: physical(path)}
	if fi, err := os.Stat(path); err == nil {
		p.fi = fi
		p.special = !fi.Mode().IsRegular() && !fi.IsDir()
	}
	return p
}

// same reports whether p and q are one file: one existing file (also under
// two hard links), or, where one does not exist, the same location.
func (p place) same(q place) bool {
	if p.fi != nil && q.fi != nil {
		return os.SameFile(p.fi, q.fi)
	}
	return p.path == q.path
}

// physical returns the absolute path of the file the kernel reaches for
// path (resolve; after 40 links, where it stands).
func physical(path string) string {
	real, _ := resolve(path)
	abs, _ := filepath.Abs(real)
	return abs
}
