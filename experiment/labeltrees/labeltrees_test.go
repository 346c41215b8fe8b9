package labeltrees

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/embedding"
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
		Emb: src, Hidden: 8, Epochs: 3, Seeds: 2, LR: 0.01, OutDir: dir}
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
	again, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if again.Kept != 10 || again.Table[Given]["top_k_cost"] != res.Table[Given]["top_k_cost"] {
		t.Errorf("second call kept %d runs", again.Kept)
	}
	cfg.Lambda = 0.5
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
		{Train: c, Lambda: -1},
		{Train: c, Protocol: "huge"},
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
