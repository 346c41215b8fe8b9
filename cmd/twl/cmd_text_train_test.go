package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// toyDocs are documents whose words give away their genre (genresTree).
func toyDocs(n int) string {
	words := map[string]string{"Epic Fantasy": "dragons swords", "Cooking": "soup recipe"}
	var b strings.Builder
	for i := range n {
		g := []string{"Epic Fantasy", "Cooking"}[i%2]
		fmt.Fprintf(&b, "{\"text\": \"a book of %s, number %d\", \"labels\": [%q]}\n", words[g], i%5, g)
	}
	return b.String()
}

// TestTextTrainPredict trains on toy documents, predicts them, checks the
// predictions (distributions over the tree's labels, most mass on the
// right branch), their --top form, and that they score with eval
// --multilabel; and that the same command gives the same model bit for
// bit.
func TestTextTrainPredict(t *testing.T) {
	dir := write(t, map[string]string{"g.tree": genresTree, "d.jsonl": toyDocs(40),
		"new.jsonl": "{\"text\": \"dragons and swords\"}\n{\"text\": \"a soup recipe\", \"id\": 7}\n"})
	model := filepath.Join(dir, "m.twl")
	args := []string{"text", "train", "--model", "lstm", "--train", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, "g.tree"),
		"--hidden", "8", "--emb-dim", "6", "--epochs", "12", "--batch", "8", "--lr", "0.02", "--min-count", "1",
		"--loss", "kl+tw", "--quiet", "--out", model}
	code, out, errOut := twl(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "wrote "+model) || !strings.Contains(out, "best validation loss") {
		t.Errorf("summary: %q", out)
	}
	first, _ := os.ReadFile(model)
	if code, _, errOut := twl(t, "", args...); code != 0 {
		t.Fatalf("second run: %s", errOut)
	}
	// The header (the third line) records the training time; the
	// vocabulary and the parameters after it must be equal.
	payload := func(b []byte) string {
		lines := strings.SplitN(string(b), "\n", 4)
		return lines[len(lines)-1]
	}
	if second, _ := os.ReadFile(model); payload(first) != payload(second) || len(payload(first)) == 0 {
		t.Error("the same command gave another model")
	}

	// The header records the tokenizer, with the default cut at 200 tokens.
	if !strings.Contains(strings.SplitN(string(first), "\n", 4)[2], `"tokenizer":{"max_len":200,"keep":"first"`) {
		t.Errorf("header: %.300s", strings.SplitN(string(first), "\n", 4)[2])
	}
	code, out, errOut = twl(t, "", "text", "predict", "--model", model, "--data", filepath.Join(dir, "new.jsonl"))
	if code != 0 {
		t.Fatalf("predict: exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines: %q", len(lines), out)
	}
	for i, want := range [][]string{{"Fiction", "Fantasy", "Epic Fantasy"}, {"Nonfiction", "Cooking"}} {
		var p map[string]float64
		if err := json.Unmarshal([]byte(lines[i]), &p); err != nil {
			t.Fatal(err)
		}
		var sum, on float64
		for k, v := range p {
			sum += v
			for _, w := range want {
				if k == w {
					on += v
				}
			}
		}
		if len(p) != 5 || math.Abs(sum-1) > 1e-9 || on < 0.8 {
			t.Errorf("line %d: %v", i+1, p)
		}
	}
	code, out, _ = twl(t, "", "text", "predict", "--model", model, "--data", filepath.Join(dir, "new.jsonl"), "--top", "2")
	if code != 0 || strings.Count(strings.Split(out, "\n")[0], ":") != 2 {
		t.Errorf("--top 2: %q", out)
	}
	pred := filepath.Join(dir, "p.jsonl")
	if code, _, errOut := twl(t, "", "text", "predict", "--model", model, "--data", filepath.Join(dir, "d.jsonl"), "--out", pred); code != 0 {
		t.Fatal(errOut)
	}
	obj := evalJSON(t, "", "--multilabel", "--tree", filepath.Join(dir, "g.tree"), pred, filepath.Join(dir, "d.jsonl"))
	if pr := jsonNumber(t, obj["pseudo_recall"]); pr < 0.9 {
		t.Errorf("pseudo-recall on the training documents %v", pr)
	}
}

func TestTextTrainErrors(t *testing.T) {
	dir := write(t, map[string]string{"g.tree": genresTree, "d.jsonl": toyDocs(10), "bad.jsonl": "{\"text\": \"a\", \"labels\": [\"Jazz\"]}\n",
		"notmodel": "hello\n"})
	for _, c := range []struct {
		args     []string
		status   int
		msgs     []string
		withLine bool
	}{
		{[]string{"train", "--tree", "$D/g.tree", "--out", "$D/m"}, 2, []string{"--train is required"}, false},
		{[]string{"train", "--train", "$D/d.jsonl", "--out", "$D/m"}, 2, []string{"--tree is required"}, false},
		{[]string{"train", "--train", "$D/d.jsonl", "--tree", "$D/g.tree"}, 2, []string{"--out is required"}, false},
		{[]string{"train", "--train", "$D/d.jsonl", "--tree", "$D/g.tree", "--out", "$D/m", "--loss", "kl+w2"}, 2, []string{"--loss must be"}, false},
		{[]string{"train", "--train", "$D/bad.jsonl", "--tree", "$D/g.tree", "--out", "$D/m"}, 1, []string{"$D/bad.jsonl:1: unknown label"}, true},
		{[]string{"train", "--train", "$D/d.jsonl", "--tree", "$D/g.tree", "--out", "$D/m", "--lambda", "-1"}, 2, []string{"--lambda must be"}, false},
		{[]string{"train", "--train", "$D/d.jsonl", "--tree", "$D/g.tree", "--out", "$D/m", "--lr", "Inf"}, 2, []string{"--lr must be"}, false},
		{[]string{"train", "--train", "$D/d.jsonl", "--tree", "$D/g.tree", "--out", "$D/m", "--loss", "kl+sinkhorn", "--iters", "0"}, 2, []string{"--iters must be"}, false},
		{[]string{"train", "--train", "$D/d.jsonl", "--tree", "$D/g.tree", "--out", "$D/m", "--model", "lstm", "--hidden", "3037000500"}, 2, []string{"--hidden 3037000500: must be between 1 and 4096"}, false},
		{[]string{"train", "--train", "$D/d.jsonl", "--tree", "$D/g.tree", "--out", "$D/m", "--hidden", "8"}, 2, []string{"--hidden is a setting of the LSTM: give it with --model lstm"}, false},
		{[]string{"train", "--train", "$D/d.jsonl", "--tree", "$D/g.tree", "--out", "$D/m", "--train-emb"}, 2, []string{"--train-emb is a setting of the LSTM"}, false},
		{[]string{"train", "--train", "$D/d.jsonl", "--tree", "$D/g.tree", "--out", "$D/m", "--model", "lstm", "--ngrams", "3"}, 2, []string{"--ngrams is a setting of the bag of n-grams (--model bag), not of the LSTM"}, false},
		{[]string{"train", "--train", "$D/d.jsonl", "--tree", "$D/g.tree", "--out", "$D/m", "--model", "lstm", "--words-bag=false"}, 2, []string{"--words-bag is a setting of the bag of n-grams (--model bag), not of the LSTM"}, false},
		{[]string{"train", "--train", "$D/d.jsonl", "--tree", "$D/g.tree", "--out", "$D/m", "--model", "lstm", "--lr-schedule", "constant"}, 2, []string{"--lr-schedule is a setting of the bag"}, false},
		{[]string{"train", "--train", "$D/d.jsonl", "--tree", "$D/g.tree", "--out", "$D/m", "--model", "lstm", "--training-words-only"}, 2, []string{"--training-words-only is a setting of the bag"}, false},
		{[]string{"train", "--train", "$D/d.jsonl", "--tree", "$D/g.tree", "--out", "$D/m", "--model", "gru"}, 2, []string{`--model "gru": must be bag or lstm`}, false},
		{[]string{"train", "--train", "$D/d.jsonl", "--tree", "$D/g.tree", "--out", "$D/m", "--ngrams", "9"}, 2, []string{"--ngrams 9, --minn 3, --maxn 0, --buckets 2000000: word n-grams 9: must be from 1 to 8"}, false},
		{[]string{"train", "--train", "$D/d.jsonl", "--tree", "$D/g.tree", "--out", "$D/m", "--maxn", "2", "--minn", "3"}, 2, []string{"shortest character n-gram 3: must be from 1 to the longest, 2"}, false},
		{[]string{"train", "--train", "$D/d.jsonl", "--tree", "$D/g.tree", "--out", "$D/m", "--min-ngram-count", "0"}, 2, []string{"--min-ngram-count 0: must be at least 1"}, false},
		{[]string{"train", "--train", "$D/d.jsonl", "--tree", "$D/g.tree", "--out", "$D/m", "--lr-schedule", "cosine"}, 2, []string{`--lr-schedule "cosine": must be linear or constant`}, false},
		{[]string{"train", "--train", "$D/d.jsonl", "--tree", "$D/g.tree", "--out", "$D/nowhere/m"}, 1, []string{"cannot write"}, false},
		{[]string{"train", "--train", "$D/d.jsonl", "--tree", "$D/g.tree", "--out", "$D/d.jsonl"}, 2, []string{"--out $D/d.jsonl would overwrite --train $D/d.jsonl"}, false},
		{[]string{"predict", "--model", "$D/notmodel", "--data", "$D/d.jsonl"}, 1, []string{"$D/notmodel: not a twl text model"}, false},
		{[]string{"predict", "--model", "$D/m", "--data", "$D/d.jsonl", "--top", "-1"}, 2, []string{"--top -1: must be"}, false},
	} {
		args := []string{"text"}
		for _, a := range c.args {
			args = append(args, strings.ReplaceAll(a, "$D", dir))
		}
		code, out, errOut := twl(t, "", args...)
		expectFailure(t, code, out, errOut, c.status, c.msgs, dir, c.withLine)
	}
	if _, err := os.Stat(filepath.Join(dir, "m")); err == nil {
		t.Error("a failed run wrote a model")
	}
}

// TestTextExperiment runs the experiment on toy documents, two losses, one
// seed, tiny sizes, and checks the report files and the printed table.
func TestTextExperiment(t *testing.T) {
	dir := write(t, map[string]string{"g.tree": genresTree, "d.jsonl": toyDocs(50)})
	out := filepath.Join(dir, "report")
	code, stdout, errOut := twl(t, "", "experiment", "text", "--train", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, "g.tree"),
		"--losses", "kl,kl+tw", "--seeds", "1", "--epochs", "2", "--hidden", "4", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, f := range []string{"text.md", "text.json", "text_curves.png", "text_measure_roc_auc.svg", "runs/kl-seed1.json", "runs/kl+tw-seed1.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	if !strings.Contains(stdout, "| KL + TW | twl |") || !strings.Contains(errOut, "[2/2] kl+tw seed 1: done") ||
		!strings.Contains(stdout, "**The paper's protocol**") {
		t.Errorf("stdout %q\nstderr %q", stdout, errOut)
	}
	code, _, errOut = twl(t, "", "experiment", "text", "--train", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, "g.tree"), "--dev", filepath.Join(dir, "d.jsonl"))
	expectFailure(t, code, "", errOut, 2, []string{"--dev needs --test"}, dir, false)
}

// TestTextTrainBag: without --model, text train trains the bag of n-grams
// beside a bag of its words alone: its summary and model file say so (a
// version 3 "bags" file, no length limit; "bag" with --words-bag=false),
// the same command gives the same parameters, and text predict and eval
// --multilabel take the model, putting most of each document's mass on its
// genre's branch.
func TestTextTrainBag(t *testing.T) {
	dir := write(t, map[string]string{"g.tree": genresTree, "d.jsonl": toyDocs(40),
		"new.jsonl": "{\"text\": \"dragons and swords\"}\n{\"text\": \"a soup recipe\"}\n"})
	model := filepath.Join(dir, "m.twl")
	args := []string{"text", "train", "--train", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, "g.tree"),
		"--emb-dim", "6", "--epochs", "10", "--min-count", "1", "--loss", "kl+tw", "--quiet", "--out", model}
	code, out, errOut := twl(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "wrote "+model+": mean of 2 bags: bag of 1–2-grams, 6 dimensions") || !strings.Contains(out, "; bag of words, 6 dimensions") || !strings.Contains(out, "loss kl+2·tw") {
		t.Errorf("summary: %q", out)
	}
	single := filepath.Join(dir, "single.twl")
	if code, out, errOut := twl(t, "", append(slices.Clone(args[:len(args)-1]), single, "--words-bag=false")...); code != 0 || !strings.Contains(out, "wrote "+single+": bag of 1–2-grams, 6 dimensions") {
		t.Errorf("--words-bag=false: exit %d: %q %s", code, out, errOut)
	}
	if b, _ := os.ReadFile(single); !strings.Contains(string(b), `"version":3,"model":"bag","config":{"word_ngrams":2`) {
		t.Errorf("--words-bag=false: header %.200s", b)
	}
	first, _ := os.ReadFile(model)
	lines := strings.SplitN(string(first), "\n", 4)
	if !strings.Contains(lines[2], `"version":3,"model":"bags","config":{"members":[{"word_ngrams":2`) || !strings.Contains(lines[2], `"tokenizer":{"max_len":0`) ||
		!strings.Contains(lines[2], `"lr":1,"lr_schedule":"linear"`) {
		t.Errorf("header: %.400s", lines[2])
	}
	if code, _, errOut := twl(t, "", args...); code != 0 {
		t.Fatalf("second run: %s", errOut)
	}
	if second, _ := os.ReadFile(model); strings.SplitN(string(second), "\n", 4)[3] != lines[3] {
		t.Error("the same command gave another model")
	}
	code, out, errOut = twl(t, "", "text", "predict", "--model", model, "--data", filepath.Join(dir, "new.jsonl"))
	if code != 0 {
		t.Fatalf("predict: exit %d: %s", code, errOut)
	}
	for i, want := range [][]string{{"Fiction", "Fantasy", "Epic Fantasy"}, {"Nonfiction", "Cooking"}} {
		var row map[string]float64
		if err := json.Unmarshal([]byte(strings.Split(strings.TrimSpace(out), "\n")[i]), &row); err != nil {
			t.Fatal(err)
		}
		var on float64
		for _, l := range want {
			on += row[l]
		}
		if on < 0.9 {
			t.Errorf("document %d: mass %.3f on %q (%v)", i+1, on, want, row)
		}
	}
	pred := filepath.Join(dir, "p.jsonl")
	if code, _, errOut := twl(t, "", "text", "predict", "--model", model, "--data", filepath.Join(dir, "d.jsonl"), "--out", pred); code != 0 {
		t.Fatal(errOut)
	}
	if code, out, errOut := twl(t, "", "eval", "--multilabel", "--tree", filepath.Join(dir, "g.tree"), pred, filepath.Join(dir, "d.jsonl")); code != 0 || !strings.Contains(out, "pseudo_recall") {
		t.Errorf("eval: exit %d, %s %s", code, out, errOut)
	}
}

// TestTextExperimentBag runs 'twl experiment text --model bag' with a
// stand-in for fastText on PATH (a script that prints the same distribution
// for every document) and checks the fastText row; then with a PATH
// without fastText, where the report says the row is skipped; and the
// flags the bag refuses.
func TestTextExperimentBag(t *testing.T) {
	dir := write(t, map[string]string{"g.tree": genresTree, "d.jsonl": toyDocs(50)})
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	fake := "#!/bin/sh\ncase \"$1\" in\nsupervised) while [ $# -gt 0 ]; do [ \"$1\" = -output ] && : > \"$2.bin\"; shift; done ;;\n" +
		"predict-prob) while IFS= read -r l || [ -n \"$l\" ]; do echo '__label__0 0.5 __label__1 0.5'; done < \"$3\" ;;\nesac\n"
	if err := os.WriteFile(filepath.Join(bin, "fasttext"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"experiment", "text", "--model", "bag", "--train", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, "g.tree"),
		"--seeds", "2", "--epochs", "2"}
	t.Setenv("PATH", bin)
	out := filepath.Join(dir, "report")
	code, stdout, errOut := twl(t, "", append(args, "--out", out)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, f := range []string{"runs/kl-seed2.json", "runs/kl+0.5tw-seed1.json", "runs/kl+2tw-seed2.json", "runs/fasttext-seed1.json", "runs/fasttext-seed2.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	for _, want := range []string{"# Text experiment: the bag of n-grams with KL, KL + ½TW, KL + TW and KL + 2TW", "| fastText |",
		"**fastText** (`" + filepath.Join(bin, "fasttext") + "`)", "## Each loss against fastText"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(errOut, "[10/10] fasttext seed 2: done") {
		t.Errorf("progress: %s", errOut)
	}

	t.Setenv("PATH", filepath.Join(dir, "nowhere"))
	code, stdout, errOut = twl(t, "", append(args, "--out", filepath.Join(dir, "report2"))...)
	if code != 0 || !strings.Contains(stdout, "**fastText**: no row (no fasttext executable on PATH).") || strings.Contains(stdout, "| fastText |") {
		t.Errorf("without fastText: exit %d, %s\n%s", code, errOut, stdout)
	}
	for _, c := range []struct {
		extra []string
		msg   string
	}{
		{[]string{"--hidden", "4"}, "--hidden 4: the bag of n-grams has no hidden layer"},
		{[]string{"--protocol", "paper"}, "--protocol paper: the protocols reduced and paper are the LSTM's"},
		{[]string{"--train-emb"}, "--train-emb: the bag of n-grams always trains its word vectors"},
		{[]string{"--fasttext", filepath.Join(dir, "nowhere", "fasttext")}, "--fasttext " + filepath.Join(dir, "nowhere", "fasttext") + ": "},
	} {
		code, _, errOut := twl(t, "", append(append(args, "--out", filepath.Join(dir, "report3")), c.extra...)...)
		if code != 2 || !strings.Contains(errOut, c.msg) {
			t.Errorf("%q: exit %d, %q; want 2, %q", c.extra, code, errOut, c.msg)
		}
	}
	code, _, errOut = twl(t, "", "experiment", "text", "--train", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, "g.tree"), "--fasttext", "none", "--out", filepath.Join(dir, "r4"))
	if code != 2 || !strings.Contains(errOut, "--fasttext: fastText is an outside row of --model bag") {
		t.Errorf("--fasttext with the LSTM: exit %d, %q", code, errOut)
	}
}
