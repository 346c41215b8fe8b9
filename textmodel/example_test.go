package textmodel_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/textmodel"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/vocab"
)

// Train a small LSTM text classifier on a toy corpus whose genre follows
// from its words, then predict the genres of new texts. A document's
// label set is closed under ancestors (Fantasy brings Fiction) and its
// target is uniform on that set, so the mass is shared by the two.
func Example() {
	genres, err := tree.Read(strings.NewReader("Fiction\tFantasy\nNonfiction\tCooking\n"), "genres.tree", nil)
	if err != nil {
		log.Fatal(err)
	}
	var docs []string
	for i := range 40 {
		doc := fmt.Sprintf(`{"text": "book %d: a tale of kings and dragons", "labels": ["Fantasy"]}`, i)
		if i%2 == 1 {
			doc = fmt.Sprintf(`{"text": "book %d: soup for kings, a cooking book", "labels": ["Cooking"]}`, i)
		}
		docs = append(docs, doc)
	}
	train, err := corpus.Read(strings.NewReader(strings.Join(docs, "\n")), "toy.jsonl", genres, nil)
	if err != nil {
		log.Fatal(err)
	}
	m, _, err := textmodel.Fit(train, nil, textmodel.Options{
		Hidden: 8, EmbDim: 6, Epochs: 15, Batch: 8, LR: 0.02, Seed: 1,
		Vocab: vocab.Options{MinCount: 1}})
	if err != nil {
		log.Fatal(err)
	}
	texts := []string{"kings and dragons", "a cooking book"}
	L := len(m.Labels)
	dst := make([]float64, len(texts)*L) // one distribution over the labels per text
	m.NewPredictor().Predict(dst, texts)
	for i, text := range texts {
		fmt.Printf("%s:", text)
		for j, p := range dst[i*L : (i+1)*L] {
			if p > 0.1 { // the labels that get the mass
				fmt.Printf(" %s %.1f", m.Labels[j], p)
			}
		}
		fmt.Println()
	}
	// Output:
	// kings and dragons: Fiction 0.5 Fantasy 0.5
	// a cooking book: Nonfiction 0.5 Cooking 0.5
}

// The same toy corpus with the bag of n-grams, the default model of 'twl
// text train': each text is the mean of the vectors of its words and
// bigrams, and a linear layer gives the logits. A bigram gets a vector when
// it is seen twice in training: the five of each kind of text ("a tale",
// … "and dragons"; "soup for", … "cooking book"), not "book 7" and the
// like.
func ExampleFit_bag() {
	genres, err := tree.Read(strings.NewReader("Fiction\tFantasy\nNonfiction\tCooking\n"), "genres.tree", nil)
	if err != nil {
		log.Fatal(err)
	}
	var docs []string
	for i := range 40 {
		doc := fmt.Sprintf(`{"text": "book %d: a tale of kings and dragons", "labels": ["Fantasy"]}`, i)
		if i%2 == 1 {
			doc = fmt.Sprintf(`{"text": "book %d: soup for kings, a cooking book", "labels": ["Cooking"]}`, i)
		}
		docs = append(docs, doc)
	}
	train, err := corpus.Read(strings.NewReader(strings.Join(docs, "\n")), "toy.jsonl", genres, nil)
	if err != nil {
		log.Fatal(err)
	}
	m, _, err := textmodel.Fit(train, nil, textmodel.Options{Model: textmodel.KindBag, EmbDim: 8, Epochs: 10, Seed: 1,
		Vocab: vocab.Options{MinCount: 1}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Shape())
	texts := []string{"kings and dragons", "a cooking book"}
	L := len(m.Labels)
	dst := make([]float64, len(texts)*L)
	m.NewPredictor().Predict(dst, texts)
	for i, text := range texts {
		fmt.Printf("%s:", text)
		for j, p := range dst[i*L : (i+1)*L] {
			if p > 0.1 {
				fmt.Printf(" %s %.1f", m.Labels[j], p)
			}
		}
		fmt.Println()
	}
	// Output:
	// mean of 2 bags: bag of 1–2-grams, 8 dimensions, 51 words and 10 n-gram rows; bag of words, 8 dimensions, 51 words, 4 labels, loss kl
	// kings and dragons: Fiction 0.5 Fantasy 0.5
	// a cooking book: Nonfiction 0.5 Cooking 0.5
}
