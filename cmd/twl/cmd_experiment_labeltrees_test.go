package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// labelTreesFiles writes a toy corpus over a two-level hierarchy, words
// that give away the label, and vectors of those words and the labels'
// names.
func labelTreesFiles(t *testing.T) (train, test, hier, vec string) {
	t.Helper()
	words := map[string]string{"fruit.apple": "apple", "fruit.pear": "pear", "tool.saw": "saw", "tool.drill": "drill"}
	labels := []string{"fruit.apple", "fruit.pear", "tool.saw", "tool.drill"}
	doc := func(i int) string {
		l := labels[i%4]
		b, _ := json.Marshal(map[string]any{"text": fmt.Sprintf("the %s and the %s, %d", words[l], words[l], i%5), "labels": []string{l}})
		return string(b) + "\n"
	}
	var tr, te strings.Builder
	for i := range 40 {
		tr.WriteString(doc(i))
	}
	for i := range 12 {
		te.WriteString(doc(i + 1))
	}
	dir := write(t, map[string]string{
		"train.jsonl": tr.String(),
		"test.jsonl":  te.String(),
		"h.tree":      "fruit\tfruit.apple\nfruit\tfruit.pear\ntool\ttool.saw\ntool\ttool.drill\n",
		"words.vec":   "apple 1 0\npear 1 0.1\nsaw 0 1\ndrill 0.1 1\nfruit 1 0.05\ntool 0.05 1\nthe 0.5 0.5\n",
	})
	p := func(f string) string { return filepath.Join(dir, f) }
	return p("train.jsonl"), p("test.jsonl"), p("h.tree"), p("words.vec")
}

func TestExperimentLabelTrees(t *testing.T) {
	train, test, hier, vec := labelTreesFiles(t)
	out := filepath.Join(t.TempDir(), "report")
	args := []string{"experiment", "labeltrees", "--train", train, "--test", test, "--tree", hier, "--emb", vec,
		"--hidden", "4", "--epochs", "2", "--seeds", "2", "--out", out}
	code, stdout, stderr := twl(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	for _, want := range []string{"# Labels without a hierarchy", "| KL + TW, tree of label names |", "| KL + TW, tree of label centroids |",
		"| names | 2 |", "pseudo-recall is the accuracy"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	for _, f := range []string{"labeltrees.md", "labeltrees.json", "labeltrees_top_k_cost.svg", "trees/names-seed2.tree", "runs/star-seed1.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	// Again: every run kept.
	code, _, stderr = twl(t, "", args...)
	if code != 0 || strings.Count(stderr, "kept from") != 10 {
		t.Errorf("second call: exit %d, %d runs kept:\n%s", code, strings.Count(stderr, "kept from"), stderr)
	}
}

func TestExperimentLabelTreesUsage(t *testing.T) {
	train, _, hier, _ := labelTreesFiles(t)
	out := filepath.Join(t.TempDir(), "r")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--tree", hier, "--out", out}, "--train is required"},
		{[]string{"--train", train, "--tree", hier, "--conditions", "kl+tw:oak", "--out", out}, `--conditions kl+tw:oak: unknown "kl+tw:oak"`},
		{[]string{"--train", train, "--tree", hier, "--conditions", "kl+tw:names", "--out", out}, "needs vectors for the label names"},
		{[]string{"--train", train, "--tree", hier, "--conditions", ",", "--out", out}, "--conditions: names none"},
		{[]string{"--train", train, "--tree", hier, "--lambda", "0", "--out", out}, "--lambda 0: must be positive"},
		// A value typed is used or refused, never read as "the protocol's".
		{[]string{"--train", train, "--tree", hier, "--seeds", "0", "--out", out}, "--seeds 0: must be from 1"},
		{[]string{"--train", train, "--tree", hier, "--epochs", "0", "--out", out}, "--epochs 0: must be from 1"},
		{[]string{"--train", train, "--tree", hier, "--batch", "0", "--out", out}, "--batch 0: must be from 1"},
		{[]string{"--train", train, "--tree", hier, "--hidden", "0", "--out", out}, "--hidden 0: must be from 1"},
		{[]string{"--train", train, "--tree", hier, "--max-len", "0", "--out", out}, "--max-len 0: must be from 1"},
	} {
		code, _, stderr := twl(t, "", append([]string{"experiment", "labeltrees"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}
