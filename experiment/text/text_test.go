package text

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/loss"
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
	cfg := Config{Train: toyCorpus(t, 80, tr), TreeSource: "genres.tree", ProtocolOptions: ProtocolOptions{Hidden: new(8), Epochs: new(3), Seeds: new(2), LR: new(0.01)}, OutDir: dir}
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
	// One more seed: the runs of seeds 1 and 2 are kept.
	more := cfg
	more.Seeds = new(3)
	three, err := Run(more)
	if err != nil {
		t.Fatal(err)
	}
	if three.Kept != 10 || len(three.Runs) != 15 {
		t.Errorf("three seeds: %d runs, %d kept", len(three.Runs), three.Kept)
	}
	// Other settings in the same directory: refused.
	other := cfg
	other.Epochs = new(4)
	if _, err := Run(other); err == nil || !strings.Contains(err.Error(), "another experiment") {
		t.Errorf("other settings: error %v", err)
	}
}

func TestResolveErrors(t *testing.T) {
	tr, _ := tree.Read(strings.NewReader(genres), "genres.tree", nil)
	c := toyCorpus(t, 8, tr)
	for _, cfg := range []Config{
		{},
		{Train: c, ProtocolOptions: ProtocolOptions{Protocol: "fast"}},
		{Train: c, Dev: c},
		{Train: c, Losses: []string{"kl", "kl+2tw"}},
		{Train: c, Losses: []string{}},
		{Train: c, ProtocolOptions: ProtocolOptions{Epochs: new(-1)}},
		{Train: c, ProtocolOptions: ProtocolOptions{LR: new(-1.0)}},
	} {
		if _, err := cfg.Resolve(); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
}

// crashAt is a progress writer that panics on the second epoch line of the
// second run, after that epoch's checkpoint: a process killed mid-run.
type crashAt struct{ runs, epochs int }

func (c *crashAt) Write(p []byte) (int, error) {
	s := string(p)
	if strings.Contains(s, ": training ") {
		c.runs++
	}
	if c.runs == 2 && strings.Contains(s, "epoch 2/") {
		panic("crash")
	}
	return len(p), nil
}

// TestResumeAfterCrash: an experiment killed in the middle of its second
// run, then run again, keeps the finished first run, resumes the second
// from its checkpoint, and gives the measures and curves of an
// uninterrupted experiment, bit for bit.
func TestResumeAfterCrash(t *testing.T) {
	tr, err := tree.Read(strings.NewReader(genres), "genres.tree", nil)
	if err != nil {
		t.Fatal(err)
	}
	base := Config{Train: toyCorpus(t, 60, tr), TreeSource: "genres.tree", ProtocolOptions: ProtocolOptions{Hidden: new(8), Epochs: new(3), Seeds: new(1), LR: new(0.01)},
		Losses: []string{"kl", "kl+tw"}}
	clean := base
	clean.OutDir = t.TempDir()
	want, err := Run(clean)
	if err != nil {
		t.Fatal(err)
	}
	crashed := base
	crashed.OutDir = t.TempDir()
	crashed.Progress = &crashAt{}
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("the crash writer did not stop the experiment")
			}
		}()
		Run(crashed)
	}()
	crashed.Progress = nil
	got, err := Run(crashed)
	if err != nil {
		t.Fatal(err)
	}
	if got.Kept != 1 {
		t.Errorf("kept %d runs, want 1 (the first, finished before the crash)", got.Kept)
	}
	for i := range want.Runs {
		w, g := want.Runs[i], got.Runs[i]
		for _, name := range Measures {
			if w.Measures[name] != g.Measures[name] && !(w.Measures[name] != w.Measures[name]) {
				t.Errorf("%s: %s %v, uninterrupted %v", w.Loss, name, g.Measures[name], w.Measures[name])
			}
		}
		if fmt.Sprint(w.ValLoss) != fmt.Sprint(g.ValLoss) || fmt.Sprint(w.TrainLoss) != fmt.Sprint(g.TrainLoss) {
			t.Errorf("%s: curves differ", w.Loss)
		}
	}
}

// TestPaperEstimate checks the estimate's arithmetic and its token counts:
// the toy documents (fewer than 200 tokens each) of seed 1's training and
// validation parts, counted by the tokenizer here.
func TestPaperEstimate(t *testing.T) {
	if testing.Short() {
		t.Skip("times training steps of the paper's model")
	}
	tr, _ := tree.Read(strings.NewReader(genres), "genres.tree", nil)
	cfg := Config{Train: toyCorpus(t, 40, tr)}
	e, err := paperEstimate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	trainSet, val, _, _ := split(cfg, 1)
	want := 0
	for _, d := range trainSet.Docs {
		want += len(strings.Fields(strings.NewReplacer(",", " ").Replace(d.Text)))
	}
	if e.TrainTokens != want || e.ValTokens == 0 || val.Len() == 0 || !(e.TokensPerSecond > 0) {
		t.Errorf("%+v, want %d training tokens", e, want)
	}
	epoch := (float64(e.TrainTokens) + float64(e.ValTokens)/3) / float64(e.TokensPerSecond)
	if math.Abs(float64(e.EpochSeconds)-epoch) > 1e-9*epoch || e.RunSeconds != 100*e.EpochSeconds || e.AllSeconds != 50*e.RunSeconds {
		t.Errorf("%+v", e)
	}
}

// TestDifferences pins the phrases of Resolved.Differences, written out by
// hand from Paper and Reduced (Sec. 4.2: hidden 200, 100 epochs, batch 100,
// lr 1e-3, 10 seeds; twl's 200 tokens).
func TestDifferences(t *testing.T) {
	for _, tc := range []struct {
		r    Resolved
		want []string
	}{
		{Resolved{Settings: Paper, Losses: loss.PaperIDs}, nil},
		{Resolved{Settings: Reduced, Losses: loss.PaperIDs}, []string{
			"100 hidden units instead of 200", "18 epochs instead of 100",
			"100 tokens per document at most instead of 200", "3 seeds instead of 10",
			"learning rate 0.004 instead of 0.001"}},
		{Resolved{Settings: Settings{Hidden: 1, Epochs: 1, Batch: 1, LR: 1e-3, MaxLen: 1, MinCount: 2, Seeds: 1, K: 5},
			Losses: []string{"kl", "kl+tw"}}, []string{
			"1 hidden unit instead of 200", "1 epoch instead of 100", "1 document per batch instead of 100",
			"1 token per document at most instead of 200", "1 seed instead of 10", "losses [kl kl+tw] only"}},
	} {
		if got := tc.r.Differences(); !slices.Equal(got, tc.want) {
			t.Errorf("%+v: got %q, want %q", tc.r.Settings, got, tc.want)
		}
	}
}
