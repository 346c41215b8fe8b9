package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/twl-ldl/twl/internal/atomicfile"
)

// Store keeps the finished runs of a resumable experiment, one JSON file a
// run, in a folder: Dir/ID-seedK.json for the run of condition ID (a loss,
// a tree) on seed K, with the checkpoint of the run in progress beside it,
// Dir/ID-seedK-HASH.ckpt, HASH the KeyHash of the run's key. A run file is
// kept by a later call only if it holds the run of the same key: what
// determines the run's outcome (K, comparable, usually a struct of the
// settings, the seed and hashes of the data).
//
// The zero Dir keeps nothing: Load finds no run, Save writes nothing and
// Checkpoint names no file.
type Store[K comparable, R any] struct {
	// Dir is the folder of the run files; "" keeps none.
	Dir string
	// Experiment names the experiment in errors ("synthetic").
	Experiment string
	// Format is the format string of the experiment's run files.
	Format string
	// Header returns what a run file says of itself: its format and key.
	Header func(run *R) (format string, key K)
	// Complete tells whether a run file read holds a whole run.
	Complete func(run *R) bool
}

// Open creates s.Dir if needed, unless s keeps nothing.
func (s *Store[K, R]) Open() error {
	if s.Dir == "" {
		return nil
	}
	return os.MkdirAll(s.Dir, 0o755)
}

// Path returns the run file of condition id on seed, "" when s keeps
// nothing.
func (s *Store[K, R]) Path(id string, seed int) string {
	if s.Dir == "" {
		return ""
	}
	return filepath.Join(s.Dir, fmt.Sprintf("%s-seed%d.json", id, seed))
}

// Checkpoint returns the checkpoint file of the run of key, condition id
// on seed, "" when s keeps nothing.
func (s *Store[K, R]) Checkpoint(id string, seed int, key K) string {
	if s.Dir == "" {
		return ""
	}
	return filepath.Join(s.Dir, fmt.Sprintf("%s-seed%d-%s.ckpt", id, seed, KeyHash(key)))
}

// Load reads the run file of condition id on seed. It returns nil and no
// error when there is none (or s keeps nothing), and an error when the
// file is not a run file of the experiment, holds the run of another key
// (OtherExperiment) or an incomplete run.
func (s *Store[K, R]) Load(id string, seed int, key K) (*R, error) {
	path := s.Path(id, seed)
	if path == "" {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	// The format names the experiment that wrote the file ("twl-text-run/1"):
	// read it alone first, so that another experiment's run file is told
	// apart from a damaged one.
	var head struct {
		Format string `json:"format"`
	}
	if json.Unmarshal(b, &head) == nil && head.Format != s.Format {
		if other, ok := runFormatExperiment(head.Format); ok {
			return nil, fmt.Errorf("%s was written by twl's %s experiment, not the %s one; remove it or use another output directory",
				path, other, s.Experiment)
		}
	}
	run := new(R)
	err = json.Unmarshal(b, run)
	format, got := s.Header(run)
	switch {
	case err != nil || format != s.Format:
		return nil, fmt.Errorf("%s is not a run file of twl's %s experiment, or is damaged; remove it or use another output directory",
			path, s.Experiment)
	case got != key:
		return nil, OtherExperiment(path, got, key)
	case !s.Complete(run):
		return nil, fmt.Errorf("%s: incomplete run file; remove it to run again", path)
	}
	return run, nil
}

// Save writes run as the run file of condition id on seed, indented JSON,
// atomically, then removes the checkpoint of key, which the finished run
// replaces. It does nothing when s keeps nothing.
func (s *Store[K, R]) Save(id string, seed int, key K, run *R) error {
	path := s.Path(id, seed)
	if path == "" {
		return nil
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, run); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return err
	}
	if err := os.Remove(s.Checkpoint(id, seed, key)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// runFormatExperiment returns the experiment named by the format of a run
// file, "text" for "twl-text-run/1", and whether format is one.
func runFormatExperiment(format string) (string, bool) {
	name, ok := strings.CutPrefix(format, "twl-")
	if i := strings.LastIndex(name, "-run/"); ok && i > 0 {
		return name[:i], true
	}
	return "", false
}

// OtherExperiment is the error for a run file whose key, got, is not the
// key of the run the experiment wants.
func OtherExperiment(path string, got, want any) error {
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	return fmt.Errorf("%s belongs to another experiment:\n  it has %s\n  this is %s\nuse another output directory, or remove %s to run again",
		path, g, w, filepath.Dir(path))
}

// KeyHash returns 8 hexadecimal digits of the FNV-1a hash of key's JSON,
// to name a run's checkpoint.
func KeyHash(key any) string {
	b, _ := json.Marshal(key)
	h := fnv.New32a()
	h.Write(b)
	return fmt.Sprintf("%08x", h.Sum32())
}

// RunDir returns the folder of the run files of an experiment that
// writes to out: out/runs, or "" (keep none) when out is "".
func RunDir(out string) string {
	if out == "" {
		return ""
	}
	return filepath.Join(out, "runs")
}

// Each opens s and makes the runs of an experiment kept there, seed by seed (1 … seeds)
// and id by id: the run of key(id, seed) is loaded when s holds it, else
// made by train, given a tag "[k/n] ID seed S" for its progress and the
// checkpoint file of the run, and saved. It returns every run, in that
// order, and how many were kept; finished gives a run's finish time for
// the progress.
func Each[K comparable, R any](s *Store[K, R], progress io.Writer, seeds int, ids []string, key func(id string, seed int) K,
	finished func(run *R) string, train func(id string, seed int, key K, tag, checkpoint string) (*R, error)) (runs []R, kept int, err error) {
	if err := s.Open(); err != nil {
		return nil, 0, err
	}
	done, total := 0, seeds*len(ids)
	for seed := 1; seed <= seeds; seed++ {
		for _, id := range ids {
			done++
			k := key(id, seed)
			tag := fmt.Sprintf("[%d/%d] %s seed %d", done, total, id, seed)
			run, err := s.Load(id, seed, k)
			if err != nil {
				return nil, 0, err
			}
			if run != nil {
				fmt.Fprintf(progress, "%s: kept from %s (finished %s)\n", tag, s.Path(id, seed), finished(run))
				runs, kept = append(runs, *run), kept+1
				continue
			}
			if run, err = train(id, seed, k, tag, s.Checkpoint(id, seed, k)); err != nil {
				return nil, 0, err
			}
			if err := s.Save(id, seed, k, run); err != nil {
				return nil, 0, err
			}
			runs = append(runs, *run)
		}
	}
	return runs, kept, nil
}
