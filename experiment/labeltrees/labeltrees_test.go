package labeltrees

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/experiment/text"
	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tw"
)

// A hierarchy whose leaves are the labels the documents use; Books and
// Fiction are never used.
const genres = "Books\tFiction\nFiction\tFantasy\nFiction\tMystery\nBooks\tNonfiction\nNonfiction\tCooking\nNonfiction\tTravel\n"

var genreWords = map[string]string{"Fantasy": "dragons swords", "Mystery": "murder detective", "Cooking": "soup recipe", "Travel": "trains maps"}

func readTree(t *testing.T) *tree.Tree {
	tr, err := tree.Read(strings.NewReader(genres), "genres.tree", nil)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// toyCorpus returns n documents whose words give away their genre, read as
// given (no ancestors), as the CLI reads them.
func toyCorpus(t *testing.T, n int, tr *tree.Tree, file string) *corpus.Corpus {
	var lines []string
	g := []string{"Fantasy", "Mystery", "Cooking", "Travel"}
	for i := range n {
		genre := g[i%len(g)]
		lines = append(lines, fmt.Sprintf(`{"text": "a book of %s and more %s, number %d", "labels": [%q]}`, genreWords[genre], genreWords[genre], i%7, genre))
	}
	c, err := corpus.Read(strings.NewReader(strings.Join(lines, "\n")), file, tr, &corpus.Options{AsGiven: true})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// toyVectors gives 2-d vectors to the genres' words (fiction words near
// (1, 0), non-fiction near (0, 1)) and to the label names.
func toyVectors(t *testing.T) embedding.Source {
	words := []string{"dragons", "swords", "murder", "detective", "soup", "recipe", "trains", "maps",
		"fantasy", "mystery", "cooking", "travel"}
	data := []float32{1, 0, 1, 0.1, 0.9, 0, 1, 0.2, 0, 1, 0.1, 1, 0, 0.9, 0.2, 1,
		1, 0.1, 0.9, 0.1, 0.1, 1, 0.1, 0.8}
	v, err := embedding.NewVectors(words, 2, data)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestFlatten checks the flat labels and the remapped label sets against
// the hierarchy, by hand.
func TestFlatten(t *testing.T) {
	tr := readTree(t)
	c := toyCorpus(t, 8, tr, "toy.jsonl")
	fl, err := flatten(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The used labels in the hierarchy's user order: Fantasy (2), Mystery
	// (3), Cooking (5), Travel (6).
	if got := strings.Join(fl.names, ","); got != "Fantasy,Mystery,Cooking,Travel" {
		t.Fatalf("labels %s", got)
	}
	for i, want := range []string{"Fantasy", "Mystery", "Cooking", "Travel"} {
		if tr.Name(fl.toTree[i]) != want {
			t.Errorf("label %d at node %s, want %s", i, tr.Name(fl.toTree[i]), want)
		}
	}
	if !fl.single || fl.star.Len() != 4 || !fl.star.Virtual() {
		t.Errorf("single %v, star of %d nodes (virtual root %v)", fl.single, fl.star.Len(), fl.star.Virtual())
	}
	// Document 2 is Cooking, the third flat label.
	if d := fl.train.Docs[2]; len(d.Labels) != 1 || d.Labels[0] != 2 || fl.train.Labels[2] != "Cooking" {
		t.Errorf("document 2: labels %v", d.Labels)
	}
	// The input corpus is untouched.
	if c.Docs[2].Labels[0] != 5 {
		t.Errorf("the input's labels changed to %v", c.Docs[2].Labels)
	}
	// onTree places rows on the hierarchy's nodes.
	got := fl.onTree([]float64{0.1, 0.2, 0.3, 0.4}, tr)
	want := []float64{0, 0, 0.1, 0.2, 0, 0.3, 0.4}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("onTree = %v, want %v", got, want)
		}
	}
}

// TestConditionLosses checks every condition's loss at one prediction
// against an independent computation: KL(t‖p) + TW on the condition's
// tree, the tree scaled so that the mean distance between labels is 2
// (checked by brute force), TW by package tw's dense sweep on the tree's
// own nodes (the star: Σ|p − t|, by hand).
func TestConditionLosses(t *testing.T) {
	tr := readTree(t)
	c := toyCorpus(t, 40, tr, "toy.jsonl")
	fl, err := flatten(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	src := toyVectors(t)
	names, err := fl.namePoints(src, "toy.vec")
	if err != nil {
		t.Fatal(err)
	}
	hierDist := fl.distances(tr, fl.toTree)
	logits := []float64{0.3, -1, 2, 0.5}
	p := softmax(logits)
	target := []float64{0, 1, 0, 0}
	var klPart float64
	for i, y := range target {
		if y > 0 {
			klPart += y * math.Log(y/p[i])
		}
	}
	for _, id := range Conditions {
		l, info, err := fl.conditionLoss(id, 1, 0.5, tr, fl.train, src, names, hierDist, 100)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		got, err := l.Eval(make([]float64, 4), logits, target)
		if err != nil {
			t.Fatal(err)
		}
		want := klPart
		if id != KL {
			bt := info.tree
			node, err := fl.nodesOf(bt)
			if err != nil {
				t.Fatal(err)
			}
			var sum float64
			for i := range node {
				for j := range node {
					if i != j {
						sum += bt.Distance(node[i], node[j])
					}
				}
			}
			if mean := sum / 12; math.Abs(mean-2) > 1e-12 {
				t.Errorf("%s: mean distance between labels %v, want 2", id, mean)
			}
			P, T := make([]float64, bt.Len()), make([]float64, bt.Len())
			for i, v := range node {
				P[v], T[v] = p[i], target[i]
			}
			d := tw.NewWorkspace(bt).Distance(P, T)
			if id == Star {
				var l1 float64
				for i := range p {
					l1 += math.Abs(p[i] - target[i])
				}
				if math.Abs(d-l1) > 1e-12 {
					t.Errorf("star: TW %v, Σ|p − t| %v", d, l1)
				}
			}
			if id == Given && math.Abs(float64(info.Correlation)-1) > 1e-12 {
				t.Errorf("given: correlation with itself %v", info.Correlation)
			}
			want += 0.5 * d
		}
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s: loss %v, want %v", id, got, want)
		}
	}
}

func softmax(z []float64) []float64 {
	m := math.Inf(-1)
	for _, v := range z {
		m = max(m, v)
	}
	p := make([]float64, len(z))
	var s float64
	for i, v := range z {
		p[i] = math.Exp(v - m)
		s += p[i]
	}
	for i := range p {
		p[i] /= s
	}
	return p
}

// TestNamesTree checks that the names tree of the toy vectors groups the
// fiction labels and the non-fiction labels, as the hierarchy does: its
// distances then correlate with the hierarchy's.
func TestNamesTree(t *testing.T) {
	tr := readTree(t)
	fl, err := flatten(toyCorpus(t, 8, tr, "toy.jsonl"), nil)
	if err != nil {
		t.Fatal(err)
	}
	src := toyVectors(t)
	names, err := fl.namePoints(src, "toy.vec")
	if err != nil {
		t.Fatal(err)
	}
	_, info, err := fl.conditionLoss(Names, 1, 1, tr, fl.train, src, names, fl.distances(tr, fl.toTree), 100)
	if err != nil {
		t.Fatal(err)
	}
	bt := info.tree
	node, _ := fl.nodesOf(bt)
	// Fantasy–Mystery and Cooking–Travel are siblings: closer than across.
	if d0, d1 := bt.Distance(node[0], node[1]), bt.Distance(node[0], node[2]); !(d0 < d1) {
		t.Errorf("Fantasy–Mystery %v, Fantasy–Cooking %v", d0, d1)
	}
	if !(info.Correlation > 0.9) {
		t.Errorf("correlation with the hierarchy %v", info.Correlation)
	}
	// A label whose name has no vector is reported.
	v, _ := embedding.NewVectors([]string{"fantasy"}, 2, []float32{1, 0})
	if _, err := fl.namePoints(v, "small.vec"); err == nil || !strings.Contains(err.Error(), `"Mystery"`) || !strings.Contains(err.Error(), "small.vec") {
		t.Errorf("uncovered label: %v", err)
	}
}

// TestRun runs every condition on two seeds of a toy corpus with a test
// file, checks the result and the files, and runs again to find every run
// kept; then a changed λ is refused as another experiment.
func TestRun(t *testing.T) {
	tr := readTree(t)
	dir := t.TempDir()
	src := toyVectors(t)
	cfg := Config{Train: toyCorpus(t, 60, tr, "train.jsonl"), Test: toyCorpus(t, 20, tr, "test.jsonl"), TreeSource: "genres.tree",
		Emb: src, ProtocolOptions: text.ProtocolOptions{Hidden: new(8), Epochs: new(3), Seeds: new(2), LR: new(0.01)}, OutDir: dir}
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 10 || res.Kept != 0 || len(res.Comparisons) != 4*len(Measures) || len(res.Trees) != 8 {
		t.Fatalf("%d runs, %d kept, %d comparisons, %d trees", len(res.Runs), res.Kept, len(res.Comparisons), len(res.Trees))
	}
	for _, run := range res.Runs {
		if run.Docs != [3]int{48, 12, 20} || len(run.TrainLoss) != 3 {
			t.Errorf("%s seed %d: documents %v, %d epochs", run.Condition, run.Seed, run.Docs, len(run.TrainLoss))
		}
		// The vectors cover the eight genre words of the documents, each in
		// a quarter of them (far more than twice in any seed's training
		// part), and nothing else of the vocabulary.
		if c := run.Coverage; c.InVocab != 8 || c.Subword != 0 || c.Random != run.Vocab-8 {
			t.Errorf("%s seed %d: coverage %+v of %d words, want 8 found, the rest random", run.Condition, run.Seed, c, run.Vocab)
		}
		for _, name := range Measures {
			if v := float64(run.Measures[name]); math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("%s seed %d: %s = %v", run.Condition, run.Seed, name, v)
			}
		}
	}
	for _, ti := range res.Trees {
		if _, err := tree.ReadFile(filepath.Join(dir, ti.File), nil); err != nil {
			t.Errorf("tree file of %s: %v", ti.Condition, err)
		}
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
	for _, want := range []string{"## The trees", "| KL + TW, star |", "pseudo-recall is the accuracy", "| given | 1 | 1.000 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	// Top-k cost ranks the 4 labels: k is the protocol's 5 cut to 4.
	if res.Config.Settings.K != 4 || !strings.Contains(md, "Top-4 cost") {
		t.Errorf("k = %d, want 4, the number of labels", res.Config.Settings.K)
	}
	again, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if again.Kept != 10 || again.Table[Given]["top_k_cost"] != res.Table[Given]["top_k_cost"] {
		t.Errorf("second call kept %d runs", again.Kept)
	}
	// A run file scored otherwise (an earlier version's, without the
	// scoring in its key) is not kept.
	path := filepath.Join(dir, "runs", "star-seed2.json")
	saved, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(string(saved), `"scoring": "`+Scoring+`",`, "", 1)
	if old == string(saved) {
		t.Fatalf("%s has no scoring field", path)
	}
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(cfg); err == nil || !strings.Contains(err.Error(), "another experiment") {
		t.Errorf("a run file without the scoring: %v", err)
	}
	if err := os.WriteFile(path, saved, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Lambda = new(0.5)
	if _, err := Run(cfg); err == nil || !strings.Contains(err.Error(), "another experiment") {
		t.Errorf("another λ in the same folder: %v", err)
	}
}

// TestConfigErrors checks the refused configurations.
func TestConfigErrors(t *testing.T) {
	tr := readTree(t)
	c := toyCorpus(t, 20, tr, "toy.jsonl")
	for _, cfg := range []Config{
		{Train: c, Conditions: []string{"kl+tw:oak"}},
		{Train: c, Conditions: []string{Names}},
		{Train: c, Conditions: []string{Docs}, LabelEmb: toyVectors(t)},
		{Train: c, Conditions: []string{}},
		{Train: c, Lambda: new(-1.0)},
		{Train: c, ProtocolOptions: text.ProtocolOptions{Protocol: "huge"}},
		{},
	} {
		if _, err := Run(cfg); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v: %v, want ErrConfig", cfg.Conditions, err)
		}
	}
	// Without vectors the default is KL, the given tree and the star.
	r, err := (&Config{Train: c}).resolve()
	if err != nil || strings.Join(r.Conditions, ",") != "kl,kl+tw:given,kl+tw:star" {
		t.Errorf("default conditions %v (%v)", r.Conditions, err)
	}
}

// TestScoreHand checks the test measures of three predictions over the four
// flat labels Fantasy, Mystery, Cooking, Travel against one label each, at
// k = 2, every value by hand:
//
//	row  prediction             label
//	1    .4  .3   .2  .1        Fantasy
//	2    .5  .25  .1  .15       Cooking
//	3    0   0    0   1         Travel
//
// ROC-AUC over the 4 labels (the 3 other nodes of the hierarchy are no
// negatives; with them the micro AUC would be (20.5 + 27)/54):
//
//	micro: positives .4 (beats 8 of the 9 negatives), .1 (3 zeros and a
//	       tie with row 1's .1: 3.5), 1 (9): 20.5/27
//	samples: 1, 0, 1: mean 2/3, sd √(1/3)
//	macro: Fantasy 1 of 2, Cooking 1 of 2, Travel 2 of 2 (Mystery has no
//	       positive): mean 2/3, sd √(1/12)
//
// Pseudo-recall (the top label): 1, 0, 1. Top-2 cost on the genres tree
// (unit edges: siblings 2 apart, cousins 4): row 1 Fantasy, Mystery: (0 +
// 2)/2 = 1; row 2 Fantasy, Mystery: 4; row 3 Travel, then of the labels at
// zero the first, Fantasy: (0 + 4)/2 = 2 (a node that is no label, Books at
// zero, would give 1): mean 7/3, sd √(7/3). Wasserstein on the hierarchy
// against the one-hot targets, edge by edge: row 1 .6 + .3 + (Fiction)
// .3 + .2 + .1 + (Nonfiction) .3 = 1.8; row 2 .5 + .25 + .75 + .9 + .15 +
// .75 = 3.3; row 3 0: mean 1.7.
func TestScoreHand(t *testing.T) {
	tr := readTree(t)
	fl, err := flatten(toyCorpus(t, 8, tr, "toy.jsonl"), nil)
	if err != nil {
		t.Fatal(err)
	}
	P := []float64{0.4, 0.3, 0.2, 0.1, 0.5, 0.25, 0.1, 0.15, 0, 0, 0, 1}
	Y := []float64{1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}
	flatSets := [][]int{{0}, {2}, {3}}
	treeSets := [][]int{{2}, {5}, {6}} // Fantasy, Cooking, Travel in the hierarchy's user order
	mean, std := fl.score(P, Y, flatSets, treeSets, tr, 2)
	for _, c := range []struct {
		name      string
		mean, std float64
	}{
		{"roc_auc", 20.5 / 27, math.NaN()},
		{"roc_auc_samples", 2.0 / 3, math.Sqrt(1.0 / 3)},
		{"roc_auc_macro", 2.0 / 3, math.Sqrt(1.0 / 12)},
		{"pseudo_recall", 2.0 / 3, math.Sqrt(1.0 / 3)},
		{"top_k_cost", 7.0 / 3, math.Sqrt(7.0 / 3)},
		{"wasserstein", 1.7, math.NaN()},
	} {
		if got := float64(mean[c.name]); math.Abs(got-c.mean) > 1e-12 {
			t.Errorf("%s = %v, want %v", c.name, got, c.mean)
		}
		if sd, ok := std[c.name]; !math.IsNaN(c.std) && (!ok || math.Abs(float64(sd)-c.std) > 1e-12) {
			t.Errorf("%s sd = %v, want %v", c.name, sd, c.std)
		}
	}
	if _, ok := std["roc_auc"]; ok {
		t.Error("the micro ROC-AUC has a standard deviation")
	}
}

// TestDocsLabelWithoutTraining checks that a label no training document has
// (here only the test file has Travel) stops a run with the docs tree before
// anything is trained or written, naming the label, and that the other
// conditions run.
func TestDocsLabelWithoutTraining(t *testing.T) {
	tr := readTree(t)
	var lines []string
	for i := range 30 {
		g := []string{"Fantasy", "Mystery", "Cooking"}[i%3]
		lines = append(lines, fmt.Sprintf(`{"text": "a book of %s", "labels": [%q]}`, genreWords[g], g))
	}
	train, err := corpus.Read(strings.NewReader(strings.Join(lines, "\n")), "train.jsonl", tr, &corpus.Options{AsGiven: true})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := Config{Train: train, Test: toyCorpus(t, 8, tr, "test.jsonl"), Emb: toyVectors(t), ProtocolOptions: text.ProtocolOptions{Hidden: new(4), Epochs: new(1), Seeds: new(1)}, OutDir: dir}
	_, err = Run(cfg)
	if err == nil || !strings.Contains(err.Error(), `"Travel" has no training document`) || !strings.Contains(err.Error(), Docs) {
		t.Fatalf("Run: %v, want the docs tree refused for Travel", err)
	}
	for _, sub := range []string{"runs", "trees"} {
		if ents, _ := os.ReadDir(filepath.Join(dir, sub)); len(ents) != 0 {
			t.Errorf("%s holds %d files after the refusal, want none: the error must come before training", sub, len(ents))
		}
	}
	cfg.Conditions = []string{KL, Star}
	if res, err := Run(cfg); err != nil || len(res.Runs) != 2 {
		t.Errorf("without docs: %v", err)
	}
}

// TestForestTreeFile checks that the given tree, a forest (Fiction → Fantasy,
// Mystery; Nonfiction → Cooking, Travel; the roots joined by edges of 1), is
// written so that the file gives the distances the loss used: siblings 2
// and cousins 4 apart, a mean over the 6 pairs of (2 + 2 + 4·4)/6 = 10/3,
// scaled by 2/(10/3) = 0.6 to siblings 1.2 and cousins 2.4 (the forest read
// back without its scaled virtual edges would put cousins 0.6·2 + 2 = 3.2
// apart).
func TestForestTreeFile(t *testing.T) {
	forest, err := tree.Read(strings.NewReader("Fiction\tFantasy\nFiction\tMystery\nNonfiction\tCooking\nNonfiction\tTravel\n"), "forest.tree", nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := Config{Train: toyCorpus(t, 40, forest, "train.jsonl"), ProtocolOptions: text.ProtocolOptions{Hidden: new(4), Epochs: new(1), Seeds: new(1)}, OutDir: dir, Conditions: []string{Given}}
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Trees) != 1 || math.Abs(float64(res.Trees[0].Scale)-0.6) > 1e-15 {
		t.Fatalf("trees %+v, want one scaled by 0.6", res.Trees)
	}
	back, err := tree.ReadFile(filepath.Join(dir, res.Trees[0].File), nil)
	if err != nil {
		t.Fatal(err)
	}
	dist := func(a, b string) float64 {
		i, _ := back.Index(a)
		j, _ := back.Index(b)
		return back.Distance(i, j)
	}
	if d := dist("Fantasy", "Mystery"); math.Abs(d-1.2) > 1e-12 {
		t.Errorf("Fantasy–Mystery %v in the file, want 1.2", d)
	}
	if d := dist("Fantasy", "Cooking"); math.Abs(d-2.4) > 1e-12 {
		t.Errorf("Fantasy–Cooking %v in the file, want 2.4", d)
	}
}

// TestSameStart checks that on a seed every condition starts from the same
// weights and sees the same mini-batches: with λ = 1e-12 the TW term moves
// float32 weights by less than their rounding, so every condition must
// score as KL does on every measure (a different start or batch order
// would not).
func TestSameStart(t *testing.T) {
	tr := readTree(t)
	cfg := Config{Train: toyCorpus(t, 60, tr, "train.jsonl"), Test: toyCorpus(t, 20, tr, "test.jsonl"), Emb: toyVectors(t),
		ProtocolOptions: text.ProtocolOptions{Hidden: new(8), Epochs: new(3), Seeds: new(2), LR: new(0.01)}, Lambda: new(1e-12)}
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	kl := map[int]CondRun{}
	for _, run := range res.Runs {
		if run.Condition == KL {
			kl[run.Seed] = run
		}
	}
	for _, run := range res.Runs {
		for _, name := range Measures {
			if a, b := float64(run.Measures[name]), float64(kl[run.Seed].Measures[name]); math.Abs(a-b) > 1e-6 {
				t.Errorf("%s seed %d: %s %v, KL's %v", run.Condition, run.Seed, name, a, b)
			}
		}
	}
	if a, b := res.Runs[0].Measures["wasserstein"], res.Runs[len(Conditions)].Measures["wasserstein"]; a == b {
		t.Errorf("seeds 1 and 2 score alike (%v): the seeds do not change the start", a)
	}
}

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
