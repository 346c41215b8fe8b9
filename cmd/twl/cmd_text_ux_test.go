package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/model"
	"github.com/twl-ldl/twl/tree"
)

// trainArgs are the arguments of a quick text train on toyDocs(40) in dir:
// 32 training documents (--val 0.2 holds out 8), batch 8.
func trainArgs(dir string, extra ...string) []string {
	return append([]string{"text", "train", "--model", "lstm", "--train", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, "g.tree"),
		"--hidden", "4", "--emb-dim", "3", "--epochs", "2", "--batch", "8", "--min-count", "1", "--out", filepath.Join(dir, "m.twl")}, extra...)
}

// TestTextTrainProgress: with --progress the line within an epoch shows
// from the first batch: 8 of the 32 training documents, 25% (counted by
// hand); standard error here is not a terminal, so without --progress
// there is no such line, and --quiet writes nothing at all. (Main printed
// nothing until an epoch ended, and had no --progress.)
func TestTextTrainProgress(t *testing.T) {
	dir := write(t, map[string]string{"g.tree": genresTree, "d.jsonl": toyDocs(40)})
	code, _, errOut := twl(t, "", trainArgs(dir, "--progress")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "\repoch 1/2  8/32 documents (25%)") || !strings.Contains(errOut, "documents/s  epoch ends in ") {
		t.Errorf("--progress: stderr %q", errOut)
	}
	if _, _, errOut := twl(t, "", trainArgs(dir)...); strings.Contains(errOut, "\r") || !strings.Contains(errOut, "epoch 2/2") {
		t.Errorf("not a terminal: stderr %q", errOut)
	}
	if _, _, errOut := twl(t, "", trainArgs(dir, "--quiet", "--progress")...); errOut != "" {
		t.Errorf("--quiet: stderr %q", errOut)
	}
}

// TestTextTrainResume: 2 epochs with a checkpoint, then the same command
// with 3: the second run says first that it resumes after epoch 2 of 3,
// and its summary gives the time in all and of this run. (Main said
// nothing before training, and gave one time, without saying whose.)
func TestTextTrainResume(t *testing.T) {
	dir := write(t, map[string]string{"g.tree": genresTree, "d.jsonl": toyDocs(40)})
	ck := filepath.Join(dir, "c.ckpt")
	if code, _, errOut := twl(t, "", trainArgs(dir, "--checkpoint", ck)...); code != 0 {
		t.Fatal(errOut)
	}
	args := trainArgs(dir, "--checkpoint", ck)
	args[slicesIndex(args, "--epochs")+1] = "3"
	code, out, errOut := twl(t, "", args...)
	if code != 0 {
		t.Fatal(errOut)
	}
	if want := "resuming after epoch 2 of 3 (" + ck + ")\n"; !strings.HasPrefix(errOut, want) {
		t.Errorf("stderr %q does not start with %q", errOut, want)
	}
	if !strings.Contains(out, "(resumed after epoch 2)") || !strings.Contains(out, " in all, ") || !strings.Contains(out, " this run\n") {
		t.Errorf("summary %q", out)
	}
	// A checkpoint of other settings is refused in words, without the
	// learner's fingerprint (main: "model and data \"lstm V=… beta1=0 …\"").
	args[slicesIndex(args, "--hidden")+1] = "5"
	code, out, errOut = twl(t, "", args...)
	expectFailure(t, code, out, errOut, 1, []string{"hidden size 4, this run 5"}, dir, false)
	if strings.Contains(errOut, "V=") || strings.Contains(errOut, "beta1") {
		t.Errorf("stderr %q shows the internal key", errOut)
	}
}

func slicesIndex(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	panic(v)
}

// TestTextMessages: each bad flag value is named with its value, one
// problem per message. (Main: "--hidden and --emb-dim must be between 1
// and 4096" for --emb-dim 0, "--epochs and --batch must be positive,
// --patience not negative" for --batch 0, "--model and --data are
// required", and no value in the others.)
func TestTextMessages(t *testing.T) {
	dir := write(t, map[string]string{"g.tree": genresTree, "d.jsonl": toyDocs(10)})
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"train", "--emb-dim", "0"}, "--emb-dim 0: must be between 1 and 4096"},
		{[]string{"train", "--batch", "0"}, "--batch 0: must be at least 1"},
		{[]string{"train", "--epochs", "0"}, "--epochs 0: must be at least 1"},
		{[]string{"train", "--patience", "-1"}, "--patience -1: must be 0"},
		{[]string{"train", "--val", "1.5"}, "--val 1.5: must be at least 0 and less than 1"},
		{[]string{"train", "--val", "-0.1"}, "--val -0.1: must be at least 0 and less than 1"},
		{[]string{"train", "--patience", "3"}, "--patience 3 needs validation documents: give --val FRAC or --dev FILE"},
		{[]string{"train", "--val", "0", "--patience", "3"}, "--patience 3 needs validation documents"},
		{[]string{"train", "--max-len", "-1"}, "--max-len -1: must be 0 (no limit) or positive"},
		{[]string{"train", "--min-count", "0"}, "--min-count 0: must be at least 1"},
		{[]string{"train", "--target", "all"}, `--target "all": must be uniform or specific`},
		{[]string{"predict", "--data", "$D/d.jsonl"}, "--model is required"},
		{[]string{"predict", "--model", "$D/m", "--data", "$D/d.jsonl", "--min-mass", "1"}, "--min-mass 1: must be in [0, 1)"},
		{[]string{"stats", "--data", "$D/d.jsonl", "--format", "xml"}, `--format "xml": must be text or json`},
	} {
		args := []string{"text"}
		for _, a := range c.args {
			args = append(args, strings.ReplaceAll(a, "$D", dir))
		}
		if c.args[0] == "train" {
			args = append(args, "--train", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, "g.tree"), "--out", filepath.Join(dir, "m"))
		}
		code, out, errOut := twl(t, "", args...)
		expectFailure(t, code, out, errOut, 2, []string{c.msg}, dir, false)
		if strings.Contains(c.msg, "must") && strings.Count(errOut, "must") != 1 {
			t.Errorf("%v: more than one problem in %q", c.args, errOut)
		}
	}
}

// TestModelKinds: a text model given to twl predict and a model of twl
// train given to twl text predict each name the command that reads it.
// (Main: "not valid JSON"-style errors of the wrong reader, and "not a twl
// text model: the first line is not \"twl-text-model\"".)
func TestModelKinds(t *testing.T) {
	dir := write(t, map[string]string{"g.tree": genresTree, "d.jsonl": toyDocs(40), "x.jsonl": "{\"x\": [1, 2]}\n"})
	if code, _, errOut := twl(t, "", trainArgs(dir, "--quiet")...); code != 0 {
		t.Fatal(errOut)
	}
	text := filepath.Join(dir, "m.twl")
	code, out, errOut := twl(t, "", "predict", "--model", text, "--data", filepath.Join(dir, "x.jsonl"))
	expectFailure(t, code, out, errOut, 1, []string{text + " is a text model; use 'twl text predict'"}, dir, false)

	tr := tree.Star(2)
	f := model.NewFile(model.NewLinear(2, 2, rand.NewPCG(1, 2)), tr.Names())
	f.Tree, f.Loss = tree.RefOf(tr, "star:2"), "kl"
	var b bytes.Buffer
	if err := model.Save(&b, f); err != nil {
		t.Fatal(err)
	}
	linear := filepath.Join(dir, "lin.json")
	if err := os.WriteFile(linear, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = twl(t, "", "text", "predict", "--model", linear, "--data", filepath.Join(dir, "d.jsonl"))
	expectFailure(t, code, out, errOut, 1, []string{linear + " is a model of 'twl train', not a text model; use 'twl predict'"}, dir, false)
}

// TestTextWarnings: runs that are probably mistakes go on with a warning
// on standard error; each expected text is what the input holds, counted
// by hand. (Main ran all of them without a word.)
func TestTextWarnings(t *testing.T) {
	bin, err := os.ReadFile("../../embedding/testdata/sg.bin")
	if err != nil {
		t.Fatal(err)
	}
	// Fantasy is at depth 2 of genresTree, so <d0>Fantasy</d0> in the
	// second record contradicts the first, where <d0> is Fiction, depth 1.
	blurb := "<book><body>dragons</body><metadata><topics><d0>Fiction</d0><d1>Fantasy</d1></topics></metadata></book>\n" +
		"<book><body>kings</body><metadata><topics><d0>Fantasy</d0></topics></metadata></book>\n"
	dir := write(t, map[string]string{"g.tree": genresTree, "d.jsonl": toyDocs(40), "dev.jsonl": toyDocs(10),
		"b.txt": blurb, "e.bin": string(bin) + "junk", "u.jsonl": "{\"text\": \"a b c\"}\n"})
	D := func(s string) string { return filepath.Join(dir, s) }
	for _, c := range []struct {
		args []string
		msg  string
	}{
		// toyDocs has 9 distinct words ("a", "book", "of", "dragons",
		// "swords", "soup", "recipe", "number" and the digits 0–4 make 13),
		// none of them 1000 times.
		{trainArgs(dir, "--quiet", "--min-count", "1000"), "the vocabulary keeps no word, every token becomes <unk>: none of the 13 distinct words is seen --min-count 1000 times"},
		{[]string{"text", "stats", "--data", D("b.txt"), "--tree", D("g.tree")},
			D("b.txt") + ": 1 genre whose level <dN> contradicts the depth in --tree " + D("g.tree") + `, the first ` + D("b.txt") + `:2: genre "Fantasy" is <d0>, but at depth 2 of the tree, where <d0> genres are at depth 1`},
		{[]string{"text", "stats", "--data", D("d.jsonl"), "--emb", D("e.bin")}, "--emb " + D("e.bin") + ": 4 bytes after the end of the fastText model"},
	} {
		code, _, errOut := twl(t, "", c.args...)
		if code != 0 || !strings.Contains(errOut, ": warning: "+c.msg) {
			t.Errorf("%v: exit %d, stderr %q lacks %q", c.args[:2], code, errOut, c.msg)
		}
	}
	// A binary file given as a text list of word vectors is an error in
	// words (main: "A fastText .bin model is read by ReadBin or ReadFile").
	if err := os.WriteFile(D("r.vec"), []byte("a 1 2\nb\x00 3 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := twl(t, "", "text", "stats", "--data", D("d.jsonl"), "--emb", D("r.vec"))
	expectFailure(t, code, out, errOut, 1, []string{D("r.vec") + ":2: not a text file", "binary file"}, dir, true)
	if strings.Contains(errOut, "ReadBin") {
		t.Errorf("stderr %q names a Go function", errOut)
	}
}

// TestTextHelpAndModelHead: twl help text shows how to train and predict,
// and the second line of a model file, what 'head -2' shows, is a summary
// a person reads, without the vocabulary. (Main's examples showed only
// text stats, and the second line was the JSON header with every word of
// the vocabulary.)
func TestTextHelpAndModelHead(t *testing.T) {
	_, out, _ := twl(t, "", "help", "text")
	for _, want := range []string{"twl text train --train", "twl text predict --model"} {
		if !strings.Contains(out, want) {
			t.Errorf("twl help text lacks %q", want)
		}
	}
	dir := write(t, map[string]string{"g.tree": genresTree, "d.jsonl": toyDocs(40)})
	if code, _, errOut := twl(t, "", trainArgs(dir, "--quiet")...); code != 0 {
		t.Fatal(errOut)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "m.twl"))
	lines := strings.SplitN(string(b), "\n", 3)
	// 13 words + <unk> (see TestTextWarnings), the 5 genres, 2 epochs on
	// 32 documents.
	want := "# LSTM 3→4, 14 words, 5 labels, loss kl; trained 2 epochs on 32 documents of " + filepath.Join(dir, "d.jsonl")
	if lines[1] != want {
		t.Errorf("second line %q, want %q", lines[1], want)
	}
}

// TestTextTrainValidationDefaults: the bag trains on every document of
// --train unless --val or --dev asks for validation documents, and keeps
// the last epoch; the LSTM holds out a fifth by default. The documents
// counted are those of the model file's second line: 40 in toyDocs(40), of
// which --val 0.2 holds out 8.
func TestTextTrainValidationDefaults(t *testing.T) {
	dir := write(t, map[string]string{"g.tree": genresTree, "d.jsonl": toyDocs(40)})
	base := []string{"text", "train", "--train", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, "g.tree"),
		"--out", filepath.Join(dir, "m"), "--epochs", "2", "--emb-dim", "4", "--quiet"}
	for _, c := range []struct {
		extra []string
		docs  string
		val   bool
	}{
		{nil, "on 40 documents", false},
		{[]string{"--val", "0"}, "on 40 documents", false},
		{[]string{"--val", "0.2"}, "on 32 documents", true},
		{[]string{"--model", "lstm", "--hidden", "3"}, "on 32 documents", true},
		{[]string{"--model", "lstm", "--hidden", "3", "--val", "0"}, "on 40 documents", false},
	} {
		code, out, errOut := twl(t, "", append(slices.Clone(base), c.extra...)...)
		if code != 0 {
			t.Fatalf("%v: %s", c.extra, errOut)
		}
		b, _ := os.ReadFile(filepath.Join(dir, "m"))
		head := strings.SplitN(string(b), "\n", 3)[1]
		if !strings.Contains(head, c.docs) {
			t.Errorf("%v: model head %q lacks %q", c.extra, head, c.docs)
		}
		if got := strings.Contains(out, "validation loss"); got != c.val {
			t.Errorf("%v: summary %q: validation loss reported %v, want %v", c.extra, out, got, c.val)
		}
	}
}
