package textmodel

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/bag"
	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/vocab"
)

// FuzzRead: Read never panics, and a file it accepts is written back by
// Write as a file that reads to the same model. Seeds: the LSTM fixture,
// a small bag with character n-grams, and the same beside a bag of its
// words alone.
func FuzzRead(f *testing.F) {
	if b, err := os.ReadFile("testdata/lstm-v2.model"); err == nil {
		f.Add(b)
	}
	f.Add(smallBagFile(f, true))
	f.Add(smallBagFile(f, false))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Read(bytes.NewReader(data), "fuzz")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz: ") {
				t.Fatalf("error without the file's name: %v", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := Write(&buf, m); err != nil {
			t.Fatal(err)
		}
		again, err := Read(bytes.NewReader(buf.Bytes()), "again")
		if err != nil {
			t.Fatalf("a model written back does not read: %v", err)
		}
		if !bytes.Equal(payloadOf(t, again.Net), payloadOf(t, m.Net)) || again.Shape() != m.Shape() {
			t.Fatal("the model written back reads as another")
		}
	})
}

// smallBagFile returns the file of a bag of 2 dimensions trained for one
// epoch on a few documents: one bag when single, else beside a bag of its
// words alone.
func smallBagFile(tb testing.TB, single bool) []byte {
	tr, err := tree.Read(strings.NewReader("A\tB\nC\tD\n"), "t", nil)
	if err != nil {
		tb.Fatal(err)
	}
	c, err := corpus.Read(strings.NewReader(`{"text": "x y z", "labels": ["B"]}
{"text": "u v w", "labels": ["D"]}
{"text": "x v", "labels": ["B"]}
`), "c", tr, nil)
	if err != nil {
		tb.Fatal(err)
	}
	m, _, err := Fit(c, nil, Options{Model: KindBag, EmbDim: 2, Epochs: 1, Vocab: vocab.Options{MinCount: 1},
		Bag: BagOptions{Features: bag.Features{WordNgrams: 2, MinN: 2, MaxN: 3, Buckets: 64}, Single: single}})
	if err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, m); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}
