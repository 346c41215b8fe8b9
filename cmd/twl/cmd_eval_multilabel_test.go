package main

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// Two predictions over genresTree (user order Fiction, Fantasy, Epic
// Fantasy, Nonfiction, Cooking; a forest under a virtual root) and their
// label sets, closed under ancestors: {Fiction, Fantasy, Epic Fantasy} and
// {Nonfiction, Cooking}.
const (
	mlPred = `{"Epic Fantasy": 0.5, "Fantasy": 0.3, "Fiction": 0.1, "Cooking": 0.1}
{"Cooking": 0.4, "Fiction": 0.4, "Nonfiction": 0.2}
`
	mlSets = "[\"Epic Fantasy\"]\n[\"Cooking\"]\n"
)

// TestEvalMultilabel checks every measure against values worked out by hand
// (k = 2):
//
//   - pseudo-recall: row 1's top 3 are Epic Fantasy, Fantasy and, of the
//     tie at .1, Fiction (the smaller index): 3/3. Row 2's top 2 are, of the
//     tie at .4, Fiction then Cooking: 1/2. Mean .75, std .5/√2.
//   - top-2 cost: row 1's top 2 are in its set: 0. Row 2: Fiction is 2
//     from Nonfiction (through the virtual root), Cooking 0: 1. Mean .5,
//     std 1/√2.
//   - roc_auc_samples: row 1, positives .1 .3 .5 against negatives 0 .1:
//     (1 + ½ + 2 + 2)/6 = 11/12; row 2, positives .2 .4 against .4 0 0:
//     (2 + ½ + 2)/6 = 3/4. Mean 5/6, std (1/6)/√2.
//   - roc_auc (micro): 5 positives against 5 negatives, 21 of 25 pairs
//     won (ties half): .84.
//   - roc_auc_macro: per label over the two rows, Fiction 0 (.1 against
//     .4) and the others 1: mean .8, std √(.8/4).
//   - wasserstein against the uniform targets: row 1 .1 + 2/15 + 1/6 + .1
//   - .1 = .6 (edges above Fiction, Fantasy, Epic Fantasy, Nonfiction,
//     Cooking), row 2 .4 + .4 + .1 = .9; mean .75.
func TestEvalMultilabel(t *testing.T) {
	dir := write(t, map[string]string{"g.tree": genresTree, "p.jsonl": mlPred, "y.jsonl": mlSets,
		"docs.jsonl": `{"text": "a", "labels": ["Epic Fantasy"]}` + "\n" + `{"text": "b", "labels": "Cooking"}` + "\n"})
	want := map[string]float64{
		"rows": 2, "k": 2,
		"pseudo_recall": .75, "pseudo_recall_std": .5 / math.Sqrt2,
		"top_k_cost": .5, "top_k_cost_std": 1 / math.Sqrt2,
		"roc_auc_samples": 5.0 / 6, "roc_auc_samples_std": (1.0 / 6) / math.Sqrt2,
		"roc_auc":       .84,
		"roc_auc_macro": .8, "roc_auc_macro_std": math.Sqrt(.8 / 4),
		"wasserstein": .75, "wasserstein_std": .3 / math.Sqrt2,
		"roc_auc_macro_skipped_labels": 0, "roc_auc_samples_skipped_rows": 0,
	}
	// The labels as label sets, and as a corpus file with text.
	for _, labels := range []string{"y.jsonl", "docs.jsonl"} {
		obj := evalJSON(t, "", "--multilabel", "--k", "2", "--tree", filepath.Join(dir, "g.tree"),
			filepath.Join(dir, "p.jsonl"), filepath.Join(dir, labels))
		for key, w := range want {
			if g := jsonNumber(t, obj[key]); math.Abs(g-w) > 1e-12 {
				t.Errorf("%s: %s = %v, want %v", labels, key, g, w)
			}
		}
		if _, ok := obj["roc_auc_std"]; ok {
			t.Error("roc_auc_std: the micro AUC is not a mean")
		}
		if obj["target"] != "uniform" {
			t.Errorf("target %v", obj["target"])
		}
	}
	code, out, errOut := twl(t, "", "eval", "--multilabel", "--k", "2", "--tree", filepath.Join(dir, "g.tree"),
		filepath.Join(dir, "p.jsonl"), filepath.Join(dir, "y.jsonl"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, w := range []string{"pseudo_recall ↑", "top_2_cost ↓", "0.84            —", "wasserstein ↓", "2 rows"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	// Specific targets: row 1 all on Epic Fantasy, row 2 on Cooking;
	// wasserstein row 1 .1 + .2 + .5 + .1 + .1 = 1, row 2 .4 + .4 + .6 =
	// 1.4 (edges above Fiction, Nonfiction, Cooking).
	obj := evalJSON(t, "", "--multilabel", "--target", "specific", "--tree", filepath.Join(dir, "g.tree"),
		filepath.Join(dir, "p.jsonl"), filepath.Join(dir, "y.jsonl"))
	if g := jsonNumber(t, obj["wasserstein"]); math.Abs(g-1.2) > 1e-12 {
		t.Errorf("specific: wasserstein %v, want 1.2", g)
	}
	if jsonNumber(t, obj["k"]) != 5 {
		t.Errorf("default k %v", obj["k"])
	}
}

func TestEvalMultilabelErrors(t *testing.T) {
	dir := write(t, map[string]string{"g.tree": genresTree, "p.jsonl": mlPred, "y.jsonl": mlSets,
		"short.jsonl": "[\"Poetry\"]\n", "one.jsonl": "[\"Cooking\"]\n", "bad.jsonl": "[\"Cooking\"]\n[]\n"})
	for _, c := range []struct {
		args     []string
		status   int
		msgs     []string
		withLine bool
	}{
		{[]string{"--multilabel", "--k", "6", "--tree", "$D/g.tree", "$D/p.jsonl", "$D/y.jsonl"}, 2, []string{"--k must be between 1 and the 5 labels"}, false},
		{[]string{"--k", "2", "--tree", "$D/g.tree", "$D/p.jsonl", "$D/y.jsonl"}, 2, []string{"--k applies only with --multilabel"}, false},
		{[]string{"--multilabel", "--target", "leaves", "--tree", "$D/g.tree", "$D/p.jsonl", "$D/y.jsonl"}, 2, []string{"--target must be uniform or specific"}, false},
		{[]string{"--multilabel", "--tree", "$D/g.tree", "$D/p.jsonl", "$D/short.jsonl"}, 1, []string{"$D/short.jsonl:1: unknown label", `"Poetry"`}, true},
		{[]string{"--multilabel", "--tree", "$D/g.tree", "$D/p.jsonl", "$D/one.jsonl"}, 1, []string{"$D/p.jsonl:2: row 2 has no partner"}, true},
		{[]string{"--multilabel", "--tree", "$D/g.tree", "$D/p.jsonl", "$D/bad.jsonl"}, 1, []string{"$D/bad.jsonl:2: no labels"}, true},
	} {
		args := []string{"eval"}
		for _, a := range c.args {
			args = append(args, strings.ReplaceAll(a, "$D", dir))
		}
		code, out, errOut := twl(t, "", args...)
		expectFailure(t, code, out, errOut, c.status, c.msgs, dir, c.withLine)
	}
}
