package textmodel

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/bag"
	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/vocab"
)

// TestReadLSTMVersion2Fixture reads testdata/lstm-v2.model, written by the
// release before the bag of n-grams (twl text train --train toy.jsonl
// --tree toy.tree --epochs 3 --hidden 4 --emb-dim 3 --batch 10 --min-count
// 1 --seed 1), and checks that it loads, predicts what that release
// predicted (testdata/lstm-v2.pred, its 'twl text predict' of the first
// three documents), and is written back byte for byte: an LSTM model is
// still a version 2 file.
func TestReadLSTMVersion2Fixture(t *testing.T) {
	file, err := os.ReadFile("testdata/lstm-v2.model")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Read(bytes.NewReader(file), "lstm-v2.model")
	if err != nil {
		t.Fatal(err)
	}
	if m.Net.Kind() != KindLSTM || m.Version != 2 {
		t.Fatalf("kind %q version %d, want lstm 2", m.Net.Kind(), m.Version)
	}
	var again bytes.Buffer
	if err := Write(&again, m); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), file) {
		t.Error("the model written back differs from the file")
	}
	c, err := corpus.ReadFile("testdata/toy.jsonl", nil, &corpus.Options{Unlabeled: true})
	if err != nil {
		t.Fatal(err)
	}
	c.Docs = c.Docs[:3]
	var pred bytes.Buffer
	if err := m.WritePredictions(&pred, c, PredictOptions{}); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/lstm-v2.pred")
	if err != nil {
		t.Fatal(err)
	}
	if pred.String() != string(want) {
		t.Errorf("predictions\n%s\nwant (the release's)\n%s", pred.String(), want)
	}
}

func fitToyBag(t *testing.T, o BagOptions) *Model {
	tr, val := toyCorpus(t)
	m, h, err := Fit(tr, val, Options{Model: KindBag, Bag: o, EmbDim: 6, Epochs: 20, Seed: 1,
		Vocab: vocab.Options{MinCount: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if h.BestEpoch == 0 {
		t.Fatal("no best epoch")
	}
	return m
}

// TestBagFitPredict: the bag of n-grams learns the toy corpus's genres,
// and survives Write and Read bit for bit as a version 3 "bag" file.
func TestBagFitPredict(t *testing.T) {
	for _, o := range []BagOptions{{}, {Features: bag.Features{WordNgrams: 3, MinN: 2, MaxN: 4, Buckets: 1000}, NgramScale: 0.1}} {
		m := fitToyBag(t, o)
		L := len(m.Labels)
		dst := make([]float64, 2*L)
		m.NewPredictor().Predict(dst, []string{"dragons and kings", "soup, a cooking book"})
		for r, want := range [][]string{{"Fiction", "Fantasy", "Epic Fantasy"}, {"Nonfiction", "Cooking"}} {
			var on float64
			for j, v := range dst[r*L : (r+1)*L] {
				for _, w := range want {
					if m.Labels[j] == w {
						on += v
					}
				}
			}
			if on < 0.9 {
				t.Errorf("%+v: row %d: mass on %q %.3f", o, r, want, on)
			}
		}
		var buf bytes.Buffer
		if err := Write(&buf, m); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), `"version":3,"model":"bag"`) {
			t.Errorf("header: %.200s", buf.String())
		}
		got, err := Read(bytes.NewReader(buf.Bytes()), "m.twl")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Net.AppendPayload(nil), m.Net.AppendPayload(nil)) || got.Net.Sizes() != m.Net.Sizes() || got.Shape() != m.Shape() {
			t.Error("the bag read back differs")
		}
		again := make([]float64, 2*L)
		got.NewPredictor().Predict(again, []string{"dragons and kings", "soup, a cooking book"})
		for i := range dst {
			if again[i] != dst[i] {
				t.Fatalf("prediction %d: %v after reading, %v before", i, again[i], dst[i])
			}
		}
	}
}

// TestBagReadErrors: a bag file whose header claims the LSTM's version 2,
// and one whose sizes are out of range, are refused as such.
func TestBagReadErrors(t *testing.T) {
	m := fitToyBag(t, BagOptions{})
	var buf bytes.Buffer
	if err := Write(&buf, m); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	for _, c := range []struct {
		name, from, to, msg string
	}{
		{"version 2", `"version":3`, `"version":2`, "version 3 or later"},
		{"unknown kind", `"model":"bag"`, `"model":"gru"`, `model "gru"`},
		{"buckets", `"buckets":2000000`, `"buckets":0`, "buckets 0"},
		{"unknown size", `"word_ngrams":2`, `"word_ngrams":2,"colour":1`, "colour"},
	} {
		if !strings.Contains(good, c.from) {
			t.Fatalf("%s: the file has no %s", c.name, c.from)
		}
		_, err := Read(strings.NewReader(strings.Replace(good, c.from, c.to, 1)), "m.twl")
		if err == nil || !strings.Contains(err.Error(), c.msg) || !(errors.Is(err, ErrInvalid) || errors.Is(err, ErrVersion)) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
