package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updatePin = flag.Bool("update-pin", false, "rewrite testdata/distance_pin.json from the current build")

// pinCase is one command of TestDistancePinned and what it printed.
type pinCase struct {
	Name   string   `json:"name"`
	Args   []string `json:"args"`
	Code   int      `json:"code"`
	Stdout string   `json:"stdout"`
	Stderr string   `json:"stderr"`
}

// pinFiles are the inputs of TestDistancePinned: the trees of
// eval_trees_test.go, Figure 1's tree, and random rows over it.
func pinFiles() map[string]string {
	rng := rand.New(rand.NewPCG(7, 8))
	labels := []string{"animal", "mammal", "reptile", "dog", "cat", "lizard", "snake"}
	rows := func(n int) string {
		var b strings.Builder
		for range n {
			var parts []string
			for _, l := range labels {
				if rng.IntN(2) == 0 {
					parts = append(parts, fmt.Sprintf("%q: %d", l, 1+rng.IntN(9)))
				}
			}
			if len(parts) == 0 {
				parts = append(parts, `"cat": 1`)
			}
			b.WriteString("{" + strings.Join(parts, ", ") + "}\n")
		}
		return b.String()
	}
	return map[string]string{
		"t1.tree": starABC, "t2.tree": deepABC, "fig1.tree": fig1W,
		"p.jsonl":  "[0.5, 0.25, 0.25]\n" + `{"a": 0.5, "b": 0.5}` + "\n" + `{"c": 1}` + "\n",
		"q.jsonl":  `{"b": 0.5, "c": 0.5}` + "\n" + `{"b": 0.5, "a": 0.5}` + "\n" + `{"a": 0.125, "b": 0.875}` + "\n",
		"a.jsonl":  rows(9),
		"b.jsonl":  rows(9),
		"b5.jsonl": rows(5),
	}
}

// TestDistancePinned runs 'twl distance' on the methods, formats and
// memory limits that the other tests do not reach, and compares the exit
// status, standard output and standard error byte for byte with
// testdata/distance_pin.json, recorded from an earlier build (go test
// -run TestDistancePinned -update-pin rewrites it).
func TestDistancePinned(t *testing.T) {
	dir := write(t, pinFiles())
	trees := "--trees=$D/t1.tree,$D/t2.tree"
	fig := []string{"--tree", "$D/fig1.tree", "--normalize"}
	ab := []string{"$D/a.jsonl", "$D/b.jsonl"}
	with := func(parts ...[]string) []string {
		var out []string
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	cases := []pinCase{
		{Name: "tsw rows", Args: []string{trees, "$D/p.jsonl", "$D/q.jsonl"}},
		{Name: "tsw rows json", Args: []string{trees, "--format", "json", "$D/p.jsonl", "$D/q.jsonl"}},
		{Name: "tsw pairwise", Args: []string{trees, "--pairwise", "$D/p.jsonl", "$D/q.jsonl"}},
		{Name: "tsw pairwise json", Args: []string{trees, "--pairwise", "--format", "json", "$D/p.jsonl", "$D/q.jsonl"}},
		{Name: "tsw pairwise embeddings over memory", Args: []string{trees, "--pairwise", "--max-memory", "200", "$D/p.jsonl", "$D/q.jsonl"}},
		{Name: "tsw pairwise B over memory", Args: []string{trees, "--pairwise", "--max-memory", "100", "$D/p.jsonl", "$D/q.jsonl"}},
		{Name: "tw rows", Args: with(fig, ab)},
		{Name: "tw pairwise", Args: with(fig, []string{"--pairwise"}, ab)},
		{Name: "tw pairwise json", Args: with(fig, []string{"--pairwise", "--format", "json", "$D/a.jsonl", "$D/b5.jsonl"})},
		{Name: "tw pairwise B over memory", Args: with(fig, []string{"--pairwise", "--max-memory", "300"}, ab)},
		{Name: "tw pairwise prepared rows over memory", Args: with(fig, []string{"--pairwise", "--max-memory", "1000"}, ab)},
		{Name: "tw sinkhorn flags", Args: with(fig, []string{"--reg", "5", "--tol", "1e-3"}, ab)},
		{Name: "emd rows", Args: with(fig, []string{"--method", "emd"}, ab)},
		{Name: "emd pairwise", Args: with(fig, []string{"--method", "emd", "--pairwise", "--format", "json"}, ab)},
		{Name: "emd over memory", Args: with(fig, []string{"--method", "emd", "--max-memory", "300"}, ab)},
		{Name: "sinkhorn rows", Args: with(fig, []string{"--method", "sinkhorn", "--reg", "20"}, ab)},
		{Name: "sinkhorn fixed iterations", Args: with(fig, []string{"--method", "sinkhorn", "--iters", "10", "--tol", "-1"}, ab)},
		{Name: "sinkhorn pairwise", Args: with(fig, []string{"--method", "sinkhorn", "--pairwise", "$D/a.jsonl", "$D/b5.jsonl"})},
		{Name: "sinkhorn over memory", Args: with(fig, []string{"--method", "sinkhorn", "--max-memory", "600"}, ab)},
		{Name: "sinkhorn not converged", Args: with(fig, []string{"--method", "sinkhorn", "--iters", "2", "--tol", "1e-12"}, ab)},
		{Name: "sinkhorn pairwise not converged", Args: with(fig, []string{"--method", "sinkhorn", "--pairwise", "--iters", "3", "--tol", "1e-12"}, ab)},
	}
	for i := range cases {
		c := &cases[i]
		args := []string{"distance"}
		for _, a := range c.Args {
			args = append(args, strings.ReplaceAll(a, "$D", dir))
		}
		code, out, errOut := twl(t, "", args...)
		c.Code, c.Stdout, c.Stderr = code, strings.ReplaceAll(out, dir, "$D"), strings.ReplaceAll(errOut, dir, "$D")
	}
	path := filepath.Join("testdata", "distance_pin.json")
	if *updatePin {
		b, err := json.MarshalIndent(cases, "", "\t")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want []pinCase
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(cases) {
		t.Fatalf("%d cases, %s has %d", len(cases), path, len(want))
	}
	for i, got := range cases {
		w := want[i]
		if got.Name != w.Name || got.Code != w.Code || got.Stdout != w.Stdout || got.Stderr != w.Stderr {
			t.Errorf("%s: got status %d\nstdout %q\nstderr %q\nwant %s status %d\nstdout %q\nstderr %q",
				got.Name, got.Code, got.Stdout, got.Stderr, w.Name, w.Code, w.Stdout, w.Stderr)
		}
	}
}
