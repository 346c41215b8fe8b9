package textmodel

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/lstm"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/vocab"
)

const genres = "Fiction\tFantasy\nFantasy\tEpic Fantasy\nNonfiction\tCooking\n"

// toyCorpus: the label follows from the words (dragons → Epic Fantasy,
// soup → Cooking).
func toyCorpus(t *testing.T) (*corpus.Corpus, *corpus.Corpus) {
	tr, err := tree.Read(strings.NewReader(genres), "g.tree", nil)
	if err != nil {
		t.Fatal(err)
	}
	var trainLines, valLines []string
	for i := range 60 {
		doc := `{"text": "a tale of dragons and kings, book ` + string(rune('a'+i%26)) + `", "labels": ["Epic Fantasy"]}`
		if i%2 == 1 {
			doc = `{"text": "soup for the kings, a cooking book ` + string(rune('a'+i%26)) + `", "labels": ["Cooking"]}`
		}
		if i%5 == 0 {
			valLines = append(valLines, doc)
		} else {
			trainLines = append(trainLines, doc)
		}
	}
	read := func(lines []string) *corpus.Corpus {
		c, err := corpus.Read(strings.NewReader(strings.Join(lines, "\n")), "toy", tr, nil)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	return read(trainLines), read(valLines)
}

func fitToy(t *testing.T) *Model {
	tr, val := toyCorpus(t)
	m, h, err := Fit(tr, val, Options{Hidden: 8, EmbDim: 6, Epochs: 15, Batch: 8, LR: 0.02, Seed: 1,
		Tokenizer: vocab.Tokenizer{MaxLen: 20}, Vocab: vocab.Options{MinCount: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if h.BestEpoch == 0 {
		t.Fatal("no best epoch")
	}
	return m
}

// TestFitPredict: on the toy corpus the model learns the genre; Predict
// gives distributions (rows sum to 1) putting most mass on the right
// branch.
func TestFitPredict(t *testing.T) {
	m := fitToy(t)
	p := m.NewPredictor()
	L := len(m.Labels)
	dst := make([]float64, 2*L)
	p.Predict(dst, []string{"dragons and kings", "soup, a cooking book"})
	for r, want := range [][]string{{"Fiction", "Fantasy", "Epic Fantasy"}, {"Nonfiction", "Cooking"}} {
		row := dst[r*L : (r+1)*L]
		var sum, on float64
		for j, v := range row {
			sum += v
			if slices.Contains(want, m.Labels[j]) {
				on += v
			}
		}
		if math.Abs(sum-1) > 1e-12 || on < 0.9 {
			t.Errorf("row %d: sum %v, mass on %q %.3f (%v)", r, sum, want, on, row)
		}
	}
}

// TestWriteRead: a model survives Write and Read bit for bit.
func TestWriteRead(t *testing.T) {
	m := fitToy(t)
	var buf bytes.Buffer
	if err := Write(&buf, m); err != nil {
		t.Fatal(err)
	}
	got, err := Read(bytes.NewReader(buf.Bytes()), "m.twl")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(payloadOf(t, got.Net), payloadOf(t, m.Net)) || !slices.Equal(got.Vocab.Words(), m.Vocab.Words()) ||
		!slices.Equal(got.Labels, m.Labels) || got.Tokenizer != m.Tokenizer || got.Net.Sizes() != m.Net.Sizes() ||
		got.Embeddings != m.Embeddings || got.Train.BestEpoch != m.Train.BestEpoch {
		t.Error("the model read back differs")
	}
}

// TestReadErrors damages a good file in every way Read checks.
func TestReadErrors(t *testing.T) {
	m := fitToy(t)
	var buf bytes.Buffer
	if err := Write(&buf, m); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	first := bytes.IndexByte(good, '\n')                    // the magic line
	nl := first + 1 + bytes.IndexByte(good[first+1:], '\n') // the summary line
	headEnd := nl + 1 + bytes.IndexByte(good[nl+1:], '\n')  // the header line
	vocabEnd := headEnd + 1 + bytes.IndexByte(good[headEnd+1:], '\n')
	header := string(good[nl+1 : headEnd])
	withHeader := func(h string) []byte {
		return append(append([]byte(good[:nl+1:nl+1]), h...), good[headEnd:]...)
	}
	flipped := bytes.Clone(good)
	flipped[len(flipped)-3] ^= 1
	// The first parameter NaN, with the checksum of the changed payload, so
	// that the check of the values is what fails.
	payload := bytes.Clone(good[vocabEnd+1:])
	copy(payload, []byte{0, 0, 0xc0, 0x7f})
	sum := sha256.Sum256(payload)
	oldSum := good[vocabEnd+1:]
	old := sha256.Sum256(oldSum)
	nan := append(withHeader(strings.Replace(header, hex.EncodeToString(old[:]), hex.EncodeToString(sum[:]), 1))[:vocabEnd+1:vocabEnd+1], payload...)
	// A header that claims 2¹⁶ hidden units, with the payload size to match
	// (86 GB): Read must find the file cut short, not try to allocate it.
	big := m.Net.(*lstm.Model).Config
	big.Hidden = 65536
	lie := strings.Replace(header, `"hidden":8`, `"hidden":65536`, 1)
	lie = strings.Replace(lie, fmt.Sprintf(`"payload_bytes":%d`, 4*m.Net.(*lstm.Model).NumParams()), fmt.Sprintf(`"payload_bytes":%d`, 4*big.NumParams()), 1)
	for _, c := range []struct {
		name string
		data []byte
		want error
		msg  string
	}{
		{"empty", nil, ErrNotModel, ""},
		{"other magic", append([]byte("twl-model\n"), good[first+1:]...), ErrNotModel, ""},
		{"no summary line", append(bytes.Clone(good[:first+1]), good[nl+1:]...), ErrInvalid, "without a summary"},
		{"vocabulary cut", good[:headEnd+10], ErrInvalid, "vocabulary"},
		{"header cut", good[:nl+10], ErrInvalid, ""},
		{"payload cut", good[:len(good)-5], ErrInvalid, ""},
		{"trailing data", append(bytes.Clone(good), 0), ErrInvalid, ""},
		{"checksum", flipped, ErrInvalid, "checksum"},
		{"version", withHeader(strings.Replace(header, `"version":2`, `"version":4`, 1)), ErrVersion, ""},
		{"unknown field", withHeader(strings.Replace(header, `{"format"`, `{"colour":"red","format"`, 1)), ErrInvalid, "colour"},
		{"labels short", withHeader(strings.Replace(header, `"labels":["Fiction",`, `"labels":[`, 1)), ErrInvalid, "labels"},
		{"NaN", nan, ErrInvalid, "parameter 0 is NaN"},
		{"sizes that lie", withHeader(lie), ErrInvalid, "cut short"},
		{"endless first line", bytes.Repeat([]byte{0}, 1<<20), ErrNotModel, ""},
	} {
		_, err := Read(bytes.NewReader(c.data), "m.twl")
		if !errors.Is(err, c.want) || !strings.HasPrefix(err.Error(), "m.twl: ") || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.want)
		}
	}
}

// TestFitContext: a cancelled Context stops Fit with an error wrapping
// context.Canceled, and the checkpoint of the last complete epoch stays
// (here the one of epoch 2: the context is cancelled while epoch 2's
// progress line is written, before its checkpoint).
func TestFitContext(t *testing.T) {
	tr, val := toyCorpus(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ck := filepath.Join(t.TempDir(), "toy.ckpt")
	lines := 0
	progress := progressFunc(func(p []byte) (int, error) {
		if lines++; lines == 2 {
			cancel()
		}
		return len(p), nil
	})
	_, h, err := Fit(tr, val, Options{Hidden: 8, EmbDim: 6, Epochs: 15, Batch: 8, LR: 0.02, Seed: 1,
		Tokenizer: vocab.Tokenizer{MaxLen: 20}, Vocab: vocab.Options{MinCount: 1},
		Progress: progress, Checkpoint: ck, Context: ctx})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Fit with a cancelled context: %v, want context.Canceled", err)
	}
	if len(h.Epochs) != 2 {
		t.Errorf("%d epochs done, want 2", len(h.Epochs))
	}
	if _, err := os.Stat(ck); err != nil {
		t.Errorf("the checkpoint is gone: %v", err)
	}
}

type progressFunc func([]byte) (int, error)

func (f progressFunc) Write(p []byte) (int, error) { return f(p) }

// TestLoadWithoutValidation: Sources.Val 0 holds no document out (Data.Val
// nil, all 60 documents of the toy corpus to train on), a fraction holds
// that share out (60·0.2 = 12); the bag trained without validation keeps
// its last epoch.
func TestLoadWithoutValidation(t *testing.T) {
	tr, val := toyCorpus(t)
	dir := t.TempDir()
	var lines []string
	for _, c := range []*corpus.Corpus{tr, val} {
		for _, d := range c.Docs {
			var names []string
			for _, l := range d.Labels {
				names = append(names, fmt.Sprintf("%q", c.Labels[l]))
			}
			lines = append(lines, fmt.Sprintf(`{"text": %q, "labels": [%s]}`, d.Text, strings.Join(names, ", ")))
		}
	}
	path := filepath.Join(dir, "d.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		val        float64
		train, hel int
	}{{0, 60, 0}, {0.2, 48, 12}} {
		d, err := Load(Sources{Train: path, Val: c.val, Seed: 1, Tree: tr.Tree})
		if err != nil {
			t.Fatal(err)
		}
		held := 0
		if d.Val != nil {
			held = d.Val.Len()
		}
		if d.Train.Len() != c.train || held != c.hel {
			t.Errorf("Val %g: %d training and %d validation documents, want %d and %d", c.val, d.Train.Len(), held, c.train, c.hel)
		}
		if c.val != 0 {
			continue
		}
		m, h, err := Fit(d.Train, d.Val, Options{Model: KindBag, EmbDim: 6, Epochs: 3, Seed: 1, Vocab: vocab.Options{MinCount: 1}})
		if err != nil {
			t.Fatal(err)
		}
		if h.BestEpoch != 3 || len(h.Epochs) != 3 || m.Train.ValDocs != 0 || m.Train.ValLoss != nil || m.Train.Docs != 60 {
			t.Errorf("without validation: best epoch %d of %d run, %d validation documents, %d training, want the last of 3, 0 and 60",
				h.BestEpoch, len(h.Epochs), m.Train.ValDocs, m.Train.Docs)
		}
	}
}
