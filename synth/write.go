package synth

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/internal/atomicfile"
)

// File names written by WriteDir.
const (
	TreeFile  = "tree.txt"    // the tree, edge-list format of package tree
	TrainFile = "train.jsonl" // the training samples, JSON Lines of package dataset
	TestFile  = "test.jsonl"  // the test samples, when there are any
	MetaFile  = "synth.json"  // Meta: the configuration and seed used
)

// MetaFormat identifies the JSON of MetaFile.
const MetaFormat = "twl-synth/1"

// Meta is what MetaFile records: enough to generate the same data again.
type Meta struct {
	Format       string            `json:"format"`
	Seed         uint64            `json:"seed"`
	Config       Config            `json:"config"` // defaults filled in
	Train        int               `json:"train"`
	Test         int               `json:"test"`
	Files        map[string]string `json:"files"`
	TrainSummary Summary           `json:"train_summary"`
	TestSummary  *Summary          `json:"test_summary,omitempty"`
}

// Meta returns the description of d that WriteDir writes to MetaFile.
func (d *Data) Meta() Meta {
	m := Meta{
		Format: MetaFormat, Seed: d.Seed, Config: d.Config, Train: d.Train.Len(),
		Files:        map[string]string{"tree": TreeFile, "train": TrainFile},
		TrainSummary: Summarize(d.TrainInfo),
	}
	if d.Test != nil {
		m.Test = d.Test.Len()
		m.Files["test"] = TestFile
		s := Summarize(d.TestInfo)
		m.TestSummary = &s
	}
	return m
}

// WriteDir writes d to the directory dir: TreeFile, TrainFile, TestFile
// (if d has a test set) and MetaFile. It writes all or nothing. A dir that
// does not exist is written as a temporary folder beside it (".NAME.tmp…")
// and renamed to dir at the end, so that it appears complete or not at
// all; the missing parents of dir are created. Into a dir that exists, each
// file goes to a temporary file beside its destination, and all are
// renamed into place at the end, MetaFile last, so that a directory with a
// MetaFile holds complete data. On an error no temporary folder or file is
// left, and an existing dir keeps its files as they were.
//
// The tree file reads back (tree.ReadFile) with the same node order as
// d.Tree, and the JSON Lines files read back (dataset.ReadJSONL on that
// tree) bit for bit.
func (d *Data) WriteDir(dir string) error {
	files, err := d.render()
	if err != nil {
		return err
	}
	fi, err := os.Stat(dir)
	switch {
	case err == nil && !fi.IsDir():
		return fmt.Errorf("write %s: not a directory", dir)
	case err == nil:
		return replaceFiles(dir, files)
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	return createDir(dir, files)
}

// file is one rendered output file.
type file struct {
	name string
	data []byte
}

// render returns the files of d in the order they are written, MetaFile
// last.
func (d *Data) render() ([]file, error) {
	var files []file
	var b bytes.Buffer
	if err := d.Tree.Write(&b); err != nil {
		return nil, err
	}
	files = append(files, file{TreeFile, bytes.Clone(b.Bytes())})
	for _, s := range []struct {
		name string
		ds   *dataset.Dataset
	}{{TrainFile, d.Train}, {TestFile, d.Test}} {
		if s.ds == nil {
			continue
		}
		b.Reset()
		if err := dataset.WriteJSONL(&b, s.ds, d.Tree); err != nil {
			return nil, fmt.Errorf("%s: %w", s.name, err)
		}
		files = append(files, file{s.name, bytes.Clone(b.Bytes())})
	}
	meta, err := json.MarshalIndent(d.Meta(), "", "  ")
	if err != nil {
		return nil, err
	}
	return append(files, file{MetaFile, append(meta, '\n')}), nil
}

// createDir writes files into a temporary folder beside dir, which does not
// exist, and renames it to dir.
func createDir(dir string, files []file) (err error) {
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(filepath.Clean(dir))+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", dir, unwrapPath(err))
	}
	// Registered, so that atomicfile.RemoveTemps (a process exiting at once
	// on a second signal, without running this deferred clean-up) removes
	// it; forgotten once renamed to dir or removed.
	atomicfile.RegisterDir(tmp)
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
		atomicfile.UnregisterDir(tmp)
	}()
	if testHookTempDir != nil {
		testHookTempDir(tmp)
	}
	for _, f := range files {
		if err := writeSynced(filepath.Join(tmp, f.name), f.data); err != nil {
			return fmt.Errorf("write %s: %w", filepath.Join(dir, f.name), unwrapPath(err))
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil { // MkdirTemp's folder is private
		return fmt.Errorf("write %s: %w", dir, unwrapPath(err))
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("write %s: %w", dir, unwrapPath(err))
	}
	return nil
}

// testHookTempDir, when not nil, is called with the temporary folder of
// createDir once it is made, before anything is written into it (tests).
var testHookTempDir func(tmp string)

// writeSynced writes data to a new file and syncs it.
func writeSynced(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// replaceFiles writes files into the existing directory dir: each to a
// temporary file, then all renamed into place in order.
func replaceFiles(dir string, files []file) error {
	out := make([]*atomicfile.File, 0, len(files))
	defer func() {
		for _, f := range out {
			f.Abort() // nothing after Commit
		}
	}()
	for _, f := range files {
		a, err := atomicfile.Create(filepath.Join(dir, f.name), 0o644)
		if err != nil {
			return err
		}
		out = append(out, a)
		if _, err := a.Write(f.data); err != nil {
			return err
		}
	}
	for _, a := range out {
		if err := a.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// unwrapPath drops the *os.PathError or *os.LinkError around err, whose
// path would be a temporary one.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
