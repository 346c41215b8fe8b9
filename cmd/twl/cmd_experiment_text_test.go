package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExperimentTextZeroFlags: a value typed is used or refused, never
// read as "the protocol's value".
func TestExperimentTextZeroFlags(t *testing.T) {
	dir := write(t, map[string]string{"g.tree": genresTree, "d.jsonl": toyDocs(20)})
	for _, flag := range []string{"--seeds", "--epochs", "--batch", "--hidden", "--max-len"} {
		code, out, errOut := twl(t, "", "experiment", "text", "--train", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, "g.tree"),
			"--out", filepath.Join(dir, "r"), flag, "0")
		want := flag + " 0: must be from 1"
		if code != 2 || out != "" || !strings.Contains(errOut, want) {
			t.Errorf("%s 0: exit %d, stderr %q; want 2 and %q", flag, code, errOut, want)
		}
	}
}

// TestExperimentTextVectors runs the experiment with word vectors for the
// four genre words of the toy documents (toyDocs: each in half of them,
// far more than twice in any seed's training part) and checks that the
// report gives the coverage of the vectors used: by hand, 4 words of each
// seed's vocabulary found, none from subwords, the rest random.
func TestExperimentTextVectors(t *testing.T) {
	vec := "4 2\ndragons 1 0\nswords 1 0.1\nsoup 0 1\nrecipe 0.1 1\n"
	dir := write(t, map[string]string{"g.tree": genresTree, "d.jsonl": toyDocs(50), "v.vec": vec})
	out := filepath.Join(dir, "report")
	code, stdout, errOut := twl(t, "", "experiment", "text", "--train", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, "g.tree"),
		"--emb", filepath.Join(dir, "v.vec"), "--losses", "kl", "--seeds", "2", "--epochs", "1", "--hidden", "4", "--out", out, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(filepath.Join(out, "text.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Runs []struct {
			Seed     int `json:"seed"`
			Vocab    int `json:"vocab"`
			Coverage struct {
				InVocab int `json:"in_vocabulary"`
				Subword int `json:"from_subwords"`
				Random  int `json:"random"`
			} `json:"coverage"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 2 {
		t.Fatalf("%d runs, want 2", len(res.Runs))
	}
	for _, run := range res.Runs {
		c := run.Coverage
		if c.InVocab != 4 || c.Subword != 0 || c.Random != run.Vocab-4 {
			t.Errorf("seed %d: coverage %+v of %d words, want 4 found, the rest random", run.Seed, c, run.Vocab)
		}
		if !strings.Contains(stdout, "seed "+string(rune('0'+run.Seed))+": 4 of the ") {
			t.Errorf("text.md lacks the coverage of seed %d:\n%s", run.Seed, stdout)
		}
	}
	if strings.Contains(stdout, "(0 words of the vocabulary found") {
		t.Errorf("text.md reports no vector found")
	}
}
