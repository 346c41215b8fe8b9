package docknn

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
)

// TestJSONKeys pins the keys of docknn.json and their order, written out
// by hand from the format's fields: readers of the file rely on both.
func TestJSONKeys(t *testing.T) {
	m := Method{Name: "TSW cluster T=4", Builder: BuilderCluster, Trees: 4}
	m.CostShare, m.BuildSeconds, m.EmbedSeconds, m.EmbedPairSeconds, m.EmbedSpeedup, m.EmbedDiff, m.TotalSpeedup = 1, 1, 1, 1, 1, 1, 1
	for _, tc := range []struct {
		v    any
		want []string
	}{
		{&Result{}, []string{"format", "config", "machine", "train", "test", "classes", "points", "dim", "methods",
			"cpu_clock", "utilization", "seconds"}},
		{&m, []string{"name", "builder", "trees", "errors", "best_k", "best_error", "seconds", "cpu_seconds",
			"pair_seconds", "speedup", "cost_share", "build_seconds", "embed_seconds", "embed_pair_seconds",
			"embed_speedup", "embed_max_rel_diff", "total_speedup", "nn_agreement", "correlation", "ratio"}},
	} {
		data, err := json.Marshal(tc.v)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := testutil.JSONKeys(data); err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%T: keys %q, %v; want %q", tc.v, got, err, tc.want)
		}
	}
}
