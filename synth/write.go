package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// WriteDir writes d to the directory dir, creating it if needed: TreeFile,
// TrainFile, TestFile (if d has a test set) and MetaFile, each atomically,
// MetaFile last, so that a directory with a MetaFile holds complete data.
// The tree file reads back (tree.ReadFile) with the same node order as
// d.Tree, and the JSON Lines files read back (dataset.ReadJSONL on that
// tree) bit for bit.
func (d *Data) WriteDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// Render every file first, and check that none of the destinations is
	// a directory, so that an error leaves the folder as it was rather than
	// a tree from one run beside samples from another.
	var files []struct {
		name string
		data []byte
	}
	add := func(name string, data []byte) {
		files = append(files, struct {
			name string
			data []byte
		}{name, data})
	}
	var b bytes.Buffer
	if err := d.Tree.Write(&b); err != nil {
		return err
	}
	add(TreeFile, bytes.Clone(b.Bytes()))
	for _, s := range []struct {
		name string
		ds   *dataset.Dataset
	}{{TrainFile, d.Train}, {TestFile, d.Test}} {
		if s.ds == nil {
			continue
		}
		b.Reset()
		if err := dataset.WriteJSONL(&b, s.ds, d.Tree); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		add(s.name, bytes.Clone(b.Bytes()))
	}
	meta, err := json.MarshalIndent(d.Meta(), "", "  ")
	if err != nil {
		return err
	}
	add(MetaFile, append(meta, '\n'))
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			return fmt.Errorf("write %s: is a directory", path)
		}
	}
	for _, f := range files {
		if err := atomicfile.WriteFile(filepath.Join(dir, f.name), f.data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
