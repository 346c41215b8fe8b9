package labeltrees

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
)

// TestJSONKeys pins the keys of the result's JSON and their order, written
// out by hand from the format's fields: readers of the file rely on both.
func TestJSONKeys(t *testing.T) {
	data, err := json.Marshal(&Result{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"format", "config", "machine", "trees", "runs", "table", "best", "comparisons",
		"seconds", "train_seconds", "kept"}
	if got, err := testutil.JSONKeys(data); err != nil || !slices.Equal(got, want) {
		t.Errorf("keys %q, %v; want %q", got, err, want)
	}
}
