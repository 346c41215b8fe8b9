package treesliced

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
)

// TestJSONKeys pins the keys of treesliced.json and their order, written
// out by hand from the format's fields: readers of the file rely on both.
func TestJSONKeys(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want []string
	}{
		{&Result{CPU: "x"}, []string{"date", "machine", "cpu", "config", "seconds", "cells"}},
		{&Cell{}, []string{"d", "n", "w1_mean", "w1_min", "w1_max", "cost_seconds", "simplex_seconds", "exact_seconds",
			"rows", "pairs"}},
		{&Row{}, []string{"builder", "trees", "corr", "ratio_mean", "ratio_std", "ratio_min", "ratio_max",
			"build_seconds_per_tree", "nodes_per_tree", "eval_seconds", "speedup_eval", "speedup_with_build"}},
		{&PairRecord{}, []string{"index", "shift", "w1", "cost_seconds", "simplex_seconds", "builders"}},
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
