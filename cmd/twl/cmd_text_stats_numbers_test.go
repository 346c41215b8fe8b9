package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTextStatsNumbers checks one number format in the token line and the
// singular of one word: one document of 10⁶ tokens, all the word "w", has
// (by hand) mean and median 1000000 tokens and a vocabulary of 1 word.
func TestTextStatsNumbers(t *testing.T) {
	doc := `{"text": "` + strings.Repeat("w ", 1000000) + `", "labels": ["Cooking"]}` + "\n"
	dir := write(t, map[string]string{"g.tree": genresTree, "d.jsonl": doc})
	code, out, errOut := twl(t, "", "text", "stats", "--data", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, "g.tree"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"mean 1000000.00, median 1000000.0,", "; 1 word kept"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
}
