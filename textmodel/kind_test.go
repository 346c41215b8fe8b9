package textmodel

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/bag"
	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/train"
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
// alone or beside a bag of its words, and survives Write and Read bit for
// bit as a version 3 "bag" or "bags" file.
func TestBagFitPredict(t *testing.T) {
	for _, o := range []BagOptions{{}, {Single: true}, {Features: bag.Features{WordNgrams: 3, MinN: 2, MaxN: 4, Buckets: 1000}, NgramScale: 0.1}} {
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
		kind := map[bool]string{true: KindBag, false: KindBags}[o.Single]
		if !strings.Contains(buf.String(), `"version":3,"model":"`+kind+`"`) || m.Net.Kind() != kind {
			t.Errorf("%+v: header: %.200s", o, buf.String())
		}
		got, err := Read(bytes.NewReader(buf.Bytes()), "m.twl")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(payloadOf(t, got.Net), payloadOf(t, m.Net)) || !reflect.DeepEqual(got.Net.Sizes(), m.Net.Sizes()) || got.Shape() != m.Shape() {
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
	m := fitToyBag(t, BagOptions{Single: true})
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

// TestBagsReadErrors: a "bags" file whose members disagree on the labels,
// has no member, or ends inside its second member is refused, naming
// what is wrong.
func TestBagsReadErrors(t *testing.T) {
	m := fitToyBag(t, BagOptions{})
	var buf bytes.Buffer
	if err := Write(&buf, m); err != nil {
		t.Fatal(err)
	}
	good := buf.String()
	if _, err := Read(strings.NewReader(good), "m.twl"); err != nil {
		t.Fatal(err)
	}
	labels := `"labels":5}`
	if strings.Count(good, labels) != 2 {
		t.Fatalf("the file has not two members of 5 labels: %.300s", good)
	}
	// The second member with 4 labels; no member at all.
	i := strings.LastIndex(good, labels)
	for name, bad := range map[string]string{
		"labels differ": good[:i] + `"labels":4}` + good[i+len(labels):],
		"no member":     withConfig(t, good, `{"members":[]}`),
	} {
		_, err := Read(strings.NewReader(bad), "m.twl")
		if err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "member") {
			t.Errorf("%s: %v", name, err)
		}
	}
	_, err := Read(strings.NewReader(good[:len(good)-40]), "m.twl")
	if err == nil || !errors.Is(err, ErrInvalid) {
		t.Errorf("cut short: %v", err)
	}
}

// withConfig returns the model file f with its header's "config" replaced
// by config.
func withConfig(t *testing.T, f, config string) string {
	lines := strings.SplitN(f, "\n", 4)
	var h map[string]json.RawMessage
	if err := json.Unmarshal([]byte(lines[2]), &h); err != nil {
		t.Fatal(err)
	}
	h["config"] = json.RawMessage(config)
	b, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	lines[2] = string(b)
	return strings.Join(lines, "\n")
}

// TestBagResume: a bag trained with a checkpoint and stopped by its
// context (cancelled while the progress line of epoch 3 is written, so
// that epoch 3's checkpoint is the last written and epoch 4 stops at its
// first mini-batch), then run again with the same options, resumes after
// epoch 3 and gives the model of a run never stopped, bit for bit.
func TestBagResume(t *testing.T) {
	tr, val := toyCorpus(t)
	opts := Options{Model: KindBag, EmbDim: 6, Epochs: 6, Seed: 3, Vocab: vocab.Options{MinCount: 1}, Patience: -1}
	whole, _, err := Fit(tr, val, opts)
	if err != nil {
		t.Fatal(err)
	}
	if whole.Net.Kind() != KindBags {
		t.Fatalf("the defaults train a %q model: this test is for the pair of bags", whole.Net.Kind())
	}
	ck := filepath.Join(t.TempDir(), "bag.ckpt")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lines := 0
	o := opts
	o.Checkpoint, o.Context = ck, ctx
	o.Progress = progressFunc(func(p []byte) (int, error) {
		if lines++; lines == 3 {
			cancel()
		}
		return len(p), nil
	})
	if _, _, err := Fit(tr, val, o); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped run: %v", err)
	}
	o.Context, o.Progress = nil, nil
	resumed := -1
	o.OnResume = func(epoch, _ int) { resumed = epoch }
	m, h, err := Fit(tr, val, o)
	if err != nil {
		t.Fatal(err)
	}
	if resumed != 3 || h.Resumed != 3 {
		t.Errorf("resumed after epoch %d (history %d), want 3", resumed, h.Resumed)
	}
	if !bytes.Equal(payloadOf(t, m.Net), payloadOf(t, whole.Net)) {
		t.Error("the resumed run's model differs from the whole run's")
	}
}

// payloadOf returns the parameters of net as a model file holds them.
func payloadOf(t testing.TB, net Network) []byte {
	var b bytes.Buffer
	if err := net.WritePayload(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestBagFile: WriteFile and ReadFile, whose reader knows the file's size
// and streams the parameters: a model survives them; the file cut short,
// or with a byte after it, is refused as such.
func TestBagFile(t *testing.T) {
	m := fitToyBag(t, BagOptions{})
	dir := t.TempDir()
	path := filepath.Join(dir, "m.twl")
	if err := WriteFile(path, m); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(payloadOf(t, got.Net), payloadOf(t, m.Net)) {
		t.Error("the model read back differs")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		data []byte
		msg  string
	}{
		{"cut", b[:len(b)-3], "cut short"},
		{"cut in the header's promise", b[:len(b)/2], "cut short"},
		{"trailing", append(bytes.Clone(b), 'x'), "data after the parameters"},
	} {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadFile(p); err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestBagVectorWords: the words of the word vectors that the tokenizer
// reads as themselves join the bag's vocabulary after the training words,
// in the vectors' order (here "wizard"; "Dragons" is read "dragons",
// already a word, and "can't stop" as two tokens), with their vectors;
// TrainingWordsOnly keeps the training words alone.
func TestBagVectorWords(t *testing.T) {
	tr, val := toyCorpus(t)
	vec := "4 2\nwizard 1 2\nDragons 3 4\ncan't-stop 5 6\ndragons 7 8\n"
	src, err := embedding.ReadVec(strings.NewReader(vec), "v.vec")
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Model: KindBag, Emb: src, Epochs: 1, Vocab: vocab.Options{MinCount: 1}}
	m, _, err := Fit(tr, val, opts)
	if err != nil {
		t.Fatal(err)
	}
	words := m.Vocab.Words()
	if words[len(words)-1] != "wizard" || m.Vocab.ID("dragons") >= m.Vocab.ID("wizard") {
		t.Errorf("vocabulary %q: want the training words, then wizard", words)
	}
	for k, b := range m.Net.(*bag.Ensemble).Members {
		if row := b.Row(int(m.Vocab.ID("wizard"))); row[0] != 1 || row[1] != 2 {
			t.Errorf("member %d: wizard's row %v, want its vector [1 2] (no training document has it)", k+1, row)
		}
	}
	if got := m.Encode("a wizard"); !slices.Contains(got, m.Vocab.ID("wizard")) {
		t.Errorf("Encode(a wizard) = %v lacks wizard's row", got)
	}
	opts.Bag.TrainingWordsOnly = true
	m, _, err = Fit(tr, val, opts)
	if err != nil {
		t.Fatal(err)
	}
	if m.Vocab.ID("wizard") != vocab.Unknown {
		t.Error("TrainingWordsOnly: wizard is in the vocabulary")
	}
}

// TestBagsEncodeMatch: what the pair of bags reads at prediction
// (Model.Encode, bag.Ensemble.Encode) is what it trained on (the bag's
// rows, and the word rows among them for the bag of words), for every
// training and validation document, with character n-grams, without word
// n-grams, and with documents cut to their first or last tokens; texts
// with unknown words and non-ASCII letters give the bag of words the word
// rows of the other bag's features.
func TestBagsEncodeMatch(t *testing.T) {
	tr, val := toyCorpus(t)
	for _, tk := range []vocab.Tokenizer{{}, {MaxLen: 3, Keep: vocab.Last}, {MaxLen: 4}} {
		for _, f := range []bag.Features{{WordNgrams: 3, MinN: 2, MaxN: 4, Buckets: 1000}, {WordNgrams: 1, MinN: 2, MaxN: 3, Buckets: 500}, {WordNgrams: 2}} {
			opts := Options{Model: KindBag, Bag: BagOptions{Features: f}, Tokenizer: tk, EmbDim: 4, Epochs: 1, Seed: 1, Vocab: vocab.Options{MinCount: 3}}
			p, err := Prepare(tr, val, opts)
			if err != nil {
				t.Fatal(err)
			}
			m, _, err := p.Fit(Run{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			var texts []string
			for _, d := range append(slices.Clone(tr.Docs), val.Docs...) {
				texts = append(texts, d.Text)
			}
			for i, text := range texts {
				want := append([]int32{int32(len(p.Docs[i]))}, p.Docs[i]...)
				want = append(want, int32(len(p.WordDocs[i])))
				want = append(want, p.WordDocs[i]...)
				if got := m.Encode(text); !slices.Equal(got, want) || !slices.Equal(p.Encode(text), want) {
					t.Errorf("%+v %+v: document %d: Encode %v, trained on %v", tk, f, i, got, want)
				}
			}
			e := m.Net.(*bag.Ensemble)
			V := int32(m.Vocab.Len())
			for _, text := range []string{"zzz unknown qqq kings", "", "kings kings soup zz", "Ünïcode dragons ü"} {
				var words []int32
				for _, x := range e.Members[0].Encode(nil, m.Vocab, &tk, text) {
					if x < V {
						words = append(words, x)
					}
				}
				if got := e.Members[1].Encode(nil, m.Vocab, &tk, text); !slices.Equal(got, words) {
					t.Errorf("%q: the bag of words reads %v, the other bag's words are %v", text, got, words)
				}
			}
		}
	}
}

// TestBagsMembers: the bag of n-grams of the pair is, bit for bit, the bag
// trained alone (--words-bag=false) with the same seed: the pair's
// training (loss.Blocks, bag.EnsembleLearner) moves each bag by its own
// loss alone. With validation documents, the validation loss recorded is
// the KL divergence of the pair's prediction (the mean of the two bags'),
// computed here from the predictions of Predictor; for one bag, its own.
func TestBagsMembers(t *testing.T) {
	tr, val := toyCorpus(t)
	fit := func(single bool, val *corpus.Corpus) (*Model, train.History) {
		m, h, err := Fit(tr, val, Options{Model: KindBag, Bag: BagOptions{Single: single}, EmbDim: 4, Epochs: 3, Seed: 1, Vocab: vocab.Options{MinCount: 1}})
		if err != nil {
			t.Fatal(err)
		}
		return m, h
	}
	one, _ := fit(true, nil)
	pair, _ := fit(false, nil)
	if !slices.Equal(one.Net.(*bag.Model).Params, pair.Net.(*bag.Ensemble).Members[0].Params) {
		t.Error("the pair's bag of n-grams differs from the bag trained alone")
	}
	for _, single := range []bool{true, false} {
		m, h := fit(single, val)
		L := len(m.Labels)
		texts := make([]string, len(val.Docs))
		for i, d := range val.Docs {
			texts[i] = d.Text
		}
		P := make([]float64, len(texts)*L)
		m.NewPredictor().Predict(P, texts)
		z, g := make([]float64, len(P)), make([]float64, len(P))
		for i, p := range P {
			z[i] = math.Log(p)
		}
		want, err := loss.NewKL(L).Eval(g, z, val.Targets(corpus.Uniform))
		if err != nil {
			t.Fatal(err)
		}
		got := h.Epochs[len(h.Epochs)-1].ValLoss
		if math.Abs(got-want) > 1e-9*want {
			t.Errorf("single %v: validation loss %v, the KL of the prediction %v", single, got, want)
		}
	}
}
