package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type toyKey struct {
	Data string `json:"data"`
}

type toyRun struct {
	Format string `json:"format"`
	toyKey
	Done bool `json:"done"`
}

// TestStoreForeignRunFile: a run file of another experiment, or a damaged
// one, is named in the user's words, without Go type names. Main said
// "not a run file of twl's text experiment (json: cannot unmarshal object
// into Go struct field LossRun.RunKey.data of type string)".
func TestStoreForeignRunFile(t *testing.T) {
	dir := t.TempDir()
	s := &Store[toyKey, toyRun]{Dir: dir, Experiment: "text", Format: "twl-text-run/1",
		Header:   func(r *toyRun) (string, toyKey) { return r.Format, r.toyKey },
		Complete: func(r *toyRun) bool { return r.Done }}
	path := s.Path("kl", 1)
	for _, tc := range []struct{ content, want string }{
		// The synthetic experiment's run file: its "data" is an object.
		{`{"format": "twl-synthetic-run/1", "data": {"n": 3}}`,
			path + " was written by twl's synthetic experiment, not the text one; remove it or use another output directory"},
		{`garbage`, path + " is not a run file of twl's text experiment, or is damaged; remove it or use another output directory"},
		{`{"format": "twl-text-run/1", "data": {"n": 3}}`,
			path + " is not a run file of twl's text experiment, or is damaged; remove it or use another output directory"},
		{`{"format": "something/1"}`,
			path + " is not a run file of twl's text experiment, or is damaged; remove it or use another output directory"},
	} {
		if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := s.Load("kl", 1, toyKey{"x"})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v\nwant %s", tc.content, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "Go struct") {
			t.Errorf("%s: %v names Go types", tc.content, err)
		}
	}
	// A run file of this experiment is still read.
	if err := os.WriteFile(path, []byte(`{"format": "twl-text-run/1", "data": "x", "done": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	run, err := s.Load("kl", 1, toyKey{"x"})
	if err != nil || run == nil || !run.Done || filepath.Dir(path) != dir {
		t.Errorf("own run file: %v, %v", run, err)
	}
}
