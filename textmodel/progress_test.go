package textmodel

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/vocab"
)

// TestOnBatch: the toy corpus has 48 training documents; with batch 8 each
// epoch reports 8, 16, …, 48 documents done (6 batches, counted by hand).
// (Before OnBatch a caller learnt nothing until an epoch ended.)
func TestOnBatch(t *testing.T) {
	tr, val := toyCorpus(t)
	var got []BatchProgress
	_, _, err := Fit(tr, val, Options{Hidden: 4, EmbDim: 3, Epochs: 2, Batch: 8, Seed: 1,
		Tokenizer: vocab.Tokenizer{MaxLen: 20}, Vocab: vocab.Options{MinCount: 1},
		OnBatch: func(p BatchProgress) { got = append(got, p) }})
	if err != nil {
		t.Fatal(err)
	}
	var want []BatchProgress
	for e := 1; e <= 2; e++ {
		for d := 8; d <= 48; d += 8 {
			want = append(want, BatchProgress{Epoch: e, Epochs: 2, Docs: d, EpochDocs: 48})
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("OnBatch saw\n%v\nwant\n%v", got, want)
	}
}

// TestOnResume: a run of 2 epochs with a checkpoint, then the same run
// with 4 epochs: the second calls OnResume(2, 4) before training, and
// OnBatch only for epochs 3 and 4. (Before OnResume a caller could not
// say it was resuming until training was over.)
func TestOnResume(t *testing.T) {
	tr, val := toyCorpus(t)
	ck := filepath.Join(t.TempDir(), "toy.ckpt")
	opts := Options{Hidden: 4, EmbDim: 3, Epochs: 2, Batch: 8, Seed: 1,
		Tokenizer: vocab.Tokenizer{MaxLen: 20}, Vocab: vocab.Options{MinCount: 1}, Checkpoint: ck}
	resumed := 0
	opts.OnResume = func(int, int) { resumed++ }
	if _, _, err := Fit(tr, val, opts); err != nil || resumed != 0 {
		t.Fatalf("a fresh run: %v, OnResume called %d times", err, resumed)
	}
	var calls [][2]int
	epochs := map[int]bool{}
	opts.Epochs = 4
	opts.OnResume = func(e, n int) { calls = append(calls, [2]int{e, n}) }
	opts.OnBatch = func(p BatchProgress) { epochs[p.Epoch] = true }
	if _, _, err := Fit(tr, val, opts); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(calls, [][2]int{{2, 4}}) || len(epochs) != 2 || !epochs[3] || !epochs[4] {
		t.Errorf("OnResume calls %v, epochs trained %v; want [[2 4]], epochs 3 and 4", calls, epochs)
	}
}

// TestSummaryLine: the second line of a model file is "# " and Summary,
// a line a person reads (the sizes written out from the toy model's
// settings: 6-d vectors, hidden 8, the 5 genres of the toy tree, 48
// training documents), and the vocabulary is on a line of its own, not in the
// header. (Before, the second line was the JSON header with every
// vocabulary word in it.)
func TestSummaryLine(t *testing.T) {
	m := fitToy(t)
	var buf bytes.Buffer
	if err := Write(&buf, m); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(buf.String(), "\n", 5)
	want := "# LSTM 6→8, " + itoa(m.Vocab.Len()) + " words, 5 labels, loss kl; trained 15 epochs on 48 documents"
	if lines[0] != Magic || lines[1] != want {
		t.Errorf("first lines %q, %q; want %q, %q", lines[0], lines[1], Magic, want)
	}
	if strings.Contains(lines[2], `"dragons"`) {
		t.Error("the header line holds vocabulary words")
	}
	var words []string
	if err := json.Unmarshal([]byte(lines[3]), &words); err != nil || !slices.Equal(words, m.Vocab.Words()) {
		t.Errorf("the vocabulary line: %v", err)
	}
}

// TestReadVersion1 writes a model in the version 1 layout by hand (the
// header with the vocabulary in it and version 1, no summary line, then
// the same payload) and reads it back: the same model.
func TestReadVersion1(t *testing.T) {
	m := fitToy(t)
	var buf bytes.Buffer
	if err := Write(&buf, m); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(buf.String(), "\n", 5)
	var h map[string]any
	if err := json.Unmarshal([]byte(lines[2]), &h); err != nil {
		t.Fatal(err)
	}
	h["version"] = 1
	h["vocab"] = m.Vocab.Words()
	head, _ := json.Marshal(h)
	v1 := Magic + "\n" + string(head) + "\n" + lines[4]
	got, err := Read(strings.NewReader(v1), "v1.twl")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(payloadOf(t, got.Net), payloadOf(t, m.Net)) || !slices.Equal(got.Vocab.Words(), m.Vocab.Words()) || !slices.Equal(got.Labels, m.Labels) {
		t.Error("the version 1 file reads as another model")
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestCheckTree: a model whose header records the toy tree accepts that
// tree and refuses a star of as many labels (another edge list, so another
// SHA-256).
func TestCheckTree(t *testing.T) {
	m := fitToy(t)
	tr, err := tree.Read(strings.NewReader(genres), "g.tree", nil)
	if err != nil {
		t.Fatal(err)
	}
	m.Tree = tree.RefOf(tr, "g.tree")
	if err := m.CheckTree(tr, "g.tree"); err != nil {
		t.Errorf("the same tree: %v", err)
	}
	if err := m.CheckTree(tree.Star(5), "star:5"); err == nil || !strings.Contains(err.Error(), "another tree than star:5 (g.tree)") {
		t.Errorf("another tree: %v", err)
	}
}
