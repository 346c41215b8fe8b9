package text

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/tree"
)

const genres = "Fiction\tFantasy\nFantasy\tEpic Fantasy\nFiction\tMystery\nNonfiction\tCooking\nNonfiction\tTravel\n"

// toyCorpus returns n documents whose words give away their genre.
func toyCorpus(t *testing.T, n int, tr *tree.Tree) *corpus.Corpus {
	words := map[string]string{"Epic Fantasy": "dragons swords", "Mystery": "murder detective", "Cooking": "soup recipe", "Travel": "trains maps"}
	var lines []string
	g := []string{"Epic Fantasy", "Mystery", "Cooking", "Travel"}
	for i := range n {
		genre := g[i%len(g)]
		lines = append(lines, fmt.Sprintf(`{"text": "a book of %s and more %s, number %d", "labels": [%q]}`, words[genre], words[genre], i%7, genre))
	}
	c, err := corpus.Read(strings.NewReader(strings.Join(lines, "\n")), "toy.jsonl", tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestRun runs all five losses on two seeds of a toy corpus split 64/16/20,
// checks the result's shape and the report files, then runs again and
// finds every run kept.
func TestRun(t *testing.T) {
	tr, err := tree.Read(strings.NewReader(genres), "genres.tree", nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := Config{Train: toyCorpus(t, 80, tr), TreeSource: "genres.tree", Hidden: 8, Epochs: 3, Seeds: 2, LR: 0.01, OutDir: dir}
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 10 || res.Kept != 0 || len(res.Comparisons) != 4*len(Measures) {
		t.Fatalf("%d runs, %d kept, %d comparisons", len(res.Runs), res.Kept, len(res.Comparisons))
	}
	for _, run := range res.Runs {
		if run.Docs != [3]int{51, 13, 16} || len(run.TrainLoss) != 3 || run.TokensPerSecond <= 0 {
			t.Errorf("%s seed %d: documents %v, %d epochs, %v tokens/s", run.Loss, run.Seed, run.Docs, len(run.TrainLoss), run.TokensPerSecond)
		}
		if pr := float64(run.Measures["pseudo_recall"]); !(pr >= 0 && pr <= 1) {
			t.Errorf("pseudo-recall %v", pr)
		}
	}
	// Same seed, same initial weights and batches: the first epoch's
	// training loss of KL + ½TW and KL + TW differ only by the TW term,
	// so their KL parts cannot be compared here; the runs of one loss on
	// two seeds must differ.
	if res.Runs[0].TrainLoss[0] == res.Runs[5].TrainLoss[0] {
		t.Error("seeds 1 and 2 gave the same first epoch")
	}
	files, err := res.WriteFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	md := res.Markdown()
	for _, want := range []string{"## Table 2", "| KL + TW | twl |", "| | paper | 0.678 ± 0.009 | 0.991 ± 0.017 | 0.970 ± 0.001 |", "random 64/16/20 split"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	again, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if again.Kept != 10 || again.Table["kl+tw"]["roc_auc"] != res.Table["kl+tw"]["roc_auc"] {
		t.Errorf("second call kept %d runs", again.Kept)
	}
	// Other settings in the same directory: refused.
	other := cfg
	other.Epochs = 4
	if _, err := Run(other); err == nil || !strings.Contains(err.Error(), "another experiment") {
		t.Errorf("other settings: error %v", err)
	}
}

func TestResolveErrors(t *testing.T) {
	tr, _ := tree.Read(strings.NewReader(genres), "genres.tree", nil)
	c := toyCorpus(t, 8, tr)
	for _, cfg := range []Config{
		{},
		{Train: c, Protocol: "fast"},
		{Train: c, Dev: c},
		{Train: c, Losses: []string{"kl", "kl+2tw"}},
		{Train: c, Losses: []string{}},
		{Train: c, Epochs: -1},
		{Train: c, LR: -1},
	} {
		if _, err := cfg.Resolve(); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
}
