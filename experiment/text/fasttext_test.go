package text

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/metric"
	"github.com/twl-ldl/twl/textmodel"
	"github.com/twl-ldl/twl/tree"
)

// fakeFastText is a stand-in for the fasttext executable: 'supervised'
// appends its arguments to calls.log, its training file to train.log and
// its word vectors to vectors.log beside it, and writes an empty model; 'predict-prob' gives every line of
// the test file the labels 3 and 0 with probabilities 0.6 and 0.2 (which
// sum to 0.8, as fastText's need not sum to 1).
const fakeFastText = `#!/bin/sh
here=$(dirname "$0")
echo "$*" >> "$here/calls.log"
case "$1" in
supervised)
  while [ $# -gt 0 ]; do
    case "$1" in -input) in=$2; shift;; -output) out=$2; shift;; -pretrainedVectors) cat "$2" >> "$here/vectors.log"; shift;; esac
    shift
  done
  cat "$in" >> "$here/train.log"
  : > "$out.bin" ;;
predict-prob)
  while IFS= read -r line || [ -n "$line" ]; do echo "__label__3 0.6 __label__0 0.2"; done < "$3" ;;
*) exit 3 ;;
esac
`

// writeFake writes the fake fastText to a new folder and returns its path.
func writeFake(t *testing.T) string {
	dir := t.TempDir()
	path := filepath.Join(dir, "fasttext")
	if err := os.WriteFile(path, []byte(fakeFastText), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBagWithFastText runs the bag's experiment with the fake fastText and
// checks fastText's row: its runs are scored on the distribution the fake
// prints, normalized (label 3: 0.75, label 0: 0.25, every test document),
// whose measures the scorer gives for that distribution built here; it
// trained on each seed's training documents, their labels by index and
// their words as the tokenizer splits them, with the settings of the
// experiment; the report has the row, the comparisons with fastText, and
// whether TW helps; and a second call keeps every run.
func TestBagWithFastText(t *testing.T) {
	tr, err := tree.Read(strings.NewReader(genres), "genres.tree", nil)
	if err != nil {
		t.Fatal(err)
	}
	fake := writeFake(t)
	words := []string{"dragons", "swords", "murder"}
	src, err := embedding.NewVectors(words, 2, []float32{1, 2, 3, 4, 5, 6})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := Config{Train: toyCorpus(t, 80, tr), TreeSource: "genres.tree", Model: textmodel.KindBag,
		ProtocolOptions: ProtocolOptions{Epochs: new(2), Seeds: new(2)}, OutDir: dir,
		Emb: src, EmbRef: textmodel.EmbeddingRef{Source: "toy.vec", SHA256: "abc"},
		FastText: &FastText{Path: fake, Threads: 1}}
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Config.Losses, BagLosses) || len(res.Runs) != 10 || res.Config.FastText == nil || res.Config.Model != "bag" {
		t.Fatalf("losses %v, %d runs, fastText %+v", res.Config.Losses, len(res.Runs), res.Config.FastText)
	}
	L := tr.Len()
	for _, run := range res.Runs {
		if run.Loss != FastTextID {
			// As 'twl text train' by default: 80 % of the 80 documents
			// train, none validate (no --test, no --dev).
			if run.Docs != [3]int{64, 0, 16} {
				t.Errorf("%s seed %d: documents %v, want 64 training, 0 validation, 16 test", run.Loss, run.Seed, run.Docs)
			}
			continue
		}
		fit, _, test, err := split(cfg, run.Seed)
		if err != nil {
			t.Fatal(err)
		}
		P := make([]float64, test.Len()*L)
		var sets [][]int
		for i, d := range test.Docs {
			P[i*L+3], P[i*L+0] = 0.75, 0.25
			sets = append(sets, d.Labels)
		}
		ml := metric.NewMultiLabel(tr, 5).Evaluate(P, sets)
		ldl := metric.NewEvaluator(tr, nil).Evaluate(P, test.Targets(cfg.Target))
		for _, name := range Measures {
			want, ok := ml.Mean[name]
			if !ok {
				want = ldl.Mean[name]
			}
			// 0.6/0.8 is 0.75 within rounding.
			if got := float64(run.Measures[name]); math.Abs(got-want) > 1e-12 && !(got != got && want != want) {
				t.Errorf("seed %d: %s %v, want %v", run.Seed, name, got, want)
			}
		}
		if run.Docs != [3]int{fit.Len(), 0, test.Len()} {
			t.Errorf("seed %d: documents %v", run.Seed, run.Docs)
		}
	}
	calls, err := os.ReadFile(filepath.Join(filepath.Dir(fake), "calls.log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(calls)), "\n")
	if len(lines) != 4 {
		t.Fatalf("calls %q", lines)
	}
	for i, seed := range []string{"1", "2"} {
		train, predict := lines[2*i], lines[2*i+1]
		for _, want := range []string{"supervised -input ", "-epoch 25 -lr 0.5 -wordNgrams 2 -loss softmax -dim 2 -thread 1 -seed " + seed + " ", "-pretrainedVectors "} {
			if !strings.Contains(train, want) {
				t.Errorf("training call %q lacks %q", train, want)
			}
		}
		if !strings.HasPrefix(predict, "predict-prob ") || !strings.HasSuffix(predict, " -1") {
			t.Errorf("prediction call %q", predict)
		}
	}
	// The training documents: seed 1's first, as the fake saw them.
	fit, _, _, _ := split(cfg, 1)
	trained, _ := os.ReadFile(filepath.Join(filepath.Dir(fake), "train.log"))
	first := strings.SplitN(string(trained), "\n", 2)[0]
	var want strings.Builder
	for _, l := range fit.Docs[0].Labels {
		want.WriteString("__label__" + string(rune('0'+l)) + " ")
	}
	want.WriteString(strings.NewReplacer(",", "").Replace(strings.ToLower(fit.Docs[0].Text)))
	if first != want.String() || strings.Count(string(trained), "\n") != 2*fit.Len() {
		t.Errorf("training file: first line %q, want %q; %d lines", first, want.String(), strings.Count(string(trained), "\n"))
	}

	// The word vectors, all of them, once per seed.
	vecs, _ := os.ReadFile(filepath.Join(filepath.Dir(fake), "vectors.log"))
	if want := strings.Repeat("3 2\ndragons 1 2\nswords 3 4\nmurder 5 6\n", 2); string(vecs) != want {
		t.Errorf("vectors %q, want %q", vecs, want)
	}

	if len(res.AgainstFastText) != len(BagLosses)*len(Measures) || res.Table[FastTextID]["roc_auc"].Mean == 0 {
		t.Errorf("%d comparisons with fastText; its row %v", len(res.AgainstFastText), res.Table[FastTextID])
	}
	md := res.Markdown()
	for _, want := range []string{"# Text experiment: the bag of n-grams with KL, KL + ½TW, KL + TW and KL + 2TW", "| fastText |", "- **KL + 2TW** against KL: ",
		"## Does TW help?", "- **KL + TW** against KL: ", "## Each loss against fastText", "| KL + TW | Wasserstein |",
		"`fasttext supervised -epoch 25 -lr 0.5 -wordNgrams 2 -loss softmax -dim 2 -thread 1 -seed K` with `-pretrainedVectors`: every vector of the file above",
		"a bag of the same words alone", "the last epoch kept", "on each seed's training documents (twl's)", "training loss per epoch, mean over seeds (no validation documents)"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	again, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if again.Kept != 10 {
		t.Errorf("second call kept %d runs", again.Kept)
	}
}

// TestBagTestAndDev: with a test file the bag trains on every training
// document and keeps its last epoch; with a dev file too it validates on
// it and keeps the epoch of the best validation loss, as 'twl text train
// --dev' does; the two are different runs (their keys differ).
func TestBagTestAndDev(t *testing.T) {
	tr, _ := tree.Read(strings.NewReader(genres), "genres.tree", nil)
	train, dev, test := toyCorpus(t, 40, tr), toyCorpus(t, 10, tr), toyCorpus(t, 12, tr)
	dev.File, test.File = "dev.jsonl", "test.jsonl"
	dir := t.TempDir()
	for _, c := range []struct {
		dev                 *corpus.Corpus
		docs                [3]int
		kept, curves, kept2 string
	}{
		{nil, [3]int{40, 0, 12}, "the last epoch kept", "training loss per epoch", ""},
		{dev, [3]int{40, 10, 12}, "the epoch of the best validation loss kept", "validation loss per epoch", "dev.jsonl"},
	} {
		cfg := Config{Train: train, Dev: c.dev, Test: test, Model: textmodel.KindBag, OutDir: dir,
			ProtocolOptions: ProtocolOptions{Epochs: new(2), Seeds: new(1)}, Losses: []string{"kl"}, FastTextSkipped: "none"}
		if c.dev != nil {
			// The runs of the first case are not taken for these.
			if _, err := Run(cfg); err == nil || !strings.Contains(err.Error(), "belongs to another experiment") {
				t.Errorf("with a dev file, the runs without one: %v", err)
			}
			cfg.OutDir = t.TempDir()
		}
		res, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		md := res.Markdown()
		if len(res.Runs) != 1 || res.Runs[0].Docs != c.docs || res.Kept != 0 || !strings.Contains(md, c.kept) || !strings.Contains(md, c.curves) {
			t.Errorf("dev %v: %d runs (%d kept), documents %v; report:\n%s", c.dev != nil, len(res.Runs), res.Kept, res.Runs[0].Docs, md)
		}
	}
}

// TestBagWithoutFastText: without fastText the report says why, and has no
// fastText row; the settings the bag has not are refused.
func TestBagWithoutFastText(t *testing.T) {
	tr, _ := tree.Read(strings.NewReader(genres), "genres.tree", nil)
	c := toyCorpus(t, 40, tr)
	cfg := Config{Train: c, Model: textmodel.KindBag, ProtocolOptions: ProtocolOptions{Epochs: new(1), Seeds: new(1)},
		Losses: []string{"kl", "kl+tw"}, FastTextSkipped: "no fasttext executable on PATH"}
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	md := res.Markdown()
	if len(res.Runs) != 2 || res.Table[FastTextID] != nil || res.AgainstFastText != nil || strings.Contains(md, "| fastText |") ||
		!strings.Contains(md, "**fastText**: no row (no fasttext executable on PATH).") ||
		!strings.Contains(md, "not tested on Pseudo-recall, Top-5 cost, ROC-AUC (micro), Wasserstein (fewer than 2 seeds)") {
		t.Errorf("%d runs, fastText row %v, report:\n%s", len(res.Runs), res.Table[FastTextID], md)
	}
	for _, bad := range []Config{
		{Train: c, Model: textmodel.KindBag, ProtocolOptions: ProtocolOptions{Hidden: new(4)}},
		{Train: c, Model: textmodel.KindBag, ProtocolOptions: ProtocolOptions{Protocol: ProtocolPaper}},
		{Train: c, Model: textmodel.KindBag, TrainEmb: true},
		{Train: c, Model: "cnn"},
		{Train: c, FastText: &FastText{Path: "fasttext"}},
		{Train: c, Model: textmodel.KindBag, FastText: &FastText{Path: "fasttext", Args: []string{"-dim", "3"}}},
	} {
		if _, err := bad.Resolve(); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v: %v", bad, err)
		}
	}
}

// TestBagFastTextFails: a fastText that fails stops the experiment with its
// message.
func TestBagFastTextFails(t *testing.T) {
	tr, _ := tree.Read(strings.NewReader(genres), "genres.tree", nil)
	bad := filepath.Join(t.TempDir(), "fasttext")
	os.WriteFile(bad, []byte("#!/bin/sh\necho 'Empty input or output path.' >&2\nexit 1\n"), 0o755)
	cfg := Config{Train: toyCorpus(t, 40, tr), Model: textmodel.KindBag, ProtocolOptions: ProtocolOptions{Epochs: new(1), Seeds: new(1)},
		Losses: []string{"kl"}, FastText: &FastText{Path: bad}}
	if _, err := Run(cfg); err == nil || !strings.Contains(err.Error(), "fasttext seed 1: ") || !strings.Contains(err.Error(), "Empty input or output path.") {
		t.Errorf("error %v", err)
	}
}

func TestReadPredictProb(t *testing.T) {
	P, err := readPredictProb(strings.NewReader("__label__2 0.5 __label__0 0.25\n__label__1 1.00001\n"), 2, 3)
	if err != nil || !slices.Equal(P, []float64{1.0 / 3, 0, 2.0 / 3, 0, 1, 0}) {
		t.Errorf("%v %v", P, err)
	}
	for _, in := range []string{
		"__label__0 1\n",                    // a line short
		"__label__0 1\n__label__0 1\nx 1\n", // a line more
		"__label__0\n__label__0 1\n",        // no probability
		"__label__7 1\n__label__0 1\n",      // no such label
		"__label__0 -1\n__label__0 1\n",     // negative
		"__label__0 0\n__label__0 1\n",      // sums to 0
		"label 1\n__label__0 1\n",           // no prefix
	} {
		if _, err := readPredictProb(strings.NewReader(in), 2, 3); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

// TestLSTMRunKey: the key of an LSTM run has no field of the bag's, so that
// the run files of the releases before the bag are still kept: its JSON is
// that of those releases (written out by hand from their RunKey).
func TestLSTMRunKey(t *testing.T) {
	k := RunKey{Loss: "kl", Seed: 1, Settings: RunSettingsOf(Reduced), Data: "d", Tree: "t", Target: "uniform"}
	b, err := json.Marshal(k)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"loss":"kl","seed":1,"settings":{"hidden":100,"epochs":18,"batch":100,"lr":0.004,"max_len":100,"min_count":2,"k":5},` +
		`"data":"d","tree":"t","embeddings":{"in_vocabulary":0,"from_subwords":0,"random":0,"trained":false},"train_embeddings":false,"target":"uniform"}`
	if string(b) != want {
		t.Errorf("%s\nwant %s", b, want)
	}
}
