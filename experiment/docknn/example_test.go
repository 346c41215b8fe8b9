package docknn_test

import (
	"fmt"
	"strings"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/experiment/docknn"
)

// A tiny run: documents about fruit and about tools, with word vectors of
// dimension 2 that put each topic's words together. Every distance
// classifies both test documents right.
func ExampleRun() {
	read := func(name, jsonl string) *corpus.Corpus {
		c, err := corpus.Read(strings.NewReader(jsonl), name, nil, nil)
		if err != nil {
			panic(err)
		}
		return c
	}
	train := read("train.jsonl", `{"text": "An apple and a pear.", "labels": ["food"]}
{"text": "The saw and the hammer.", "labels": ["tools"]}
{"text": "Plums, figs and an apple.", "labels": ["food"]}
{"text": "A drill, a hammer and a saw.", "labels": ["tools"]}
`)
	test := read("test.jsonl", `{"text": "A fig and a plum.", "labels": ["food"]}
{"text": "The drill or the saw?", "labels": ["tools"]}
`)
	words := []string{"apple", "pear", "plums", "figs", "fig", "plum", "saw", "hammer", "drill"}
	vecs := []float32{1, 0, 1, 0.2, 0.9, 0.1, 1.1, 0, 1.1, 0.05, 0.9, 0.15, 0, 1, 0.1, 1, 0.2, 0.9}
	emb, err := embedding.NewVectors(words, 2, vecs)
	if err != nil {
		panic(err)
	}
	res, err := docknn.Run(docknn.Config{Train: train, Test: test, Emb: emb,
		DocsTrain: new(4), DocsTest: new(2), Trees: []int{1, 4}, Ks: []int{1, 3}, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d words of %d documents\n", res.Points, res.Train.Documents+res.Test.Documents)
	for _, m := range res.Methods {
		fmt.Printf("%-17s error %.2f at k = %d\n", m.Name, float64(m.BestError), m.BestK)
	}
	// Output:
	// 9 words of 6 documents
	// WMD               error 0.00 at k = 1
	// TSW cluster T=1   error 0.00 at k = 1
	// TSW cluster T=4   error 0.00 at k = 1
	// TSW quad T=1      error 0.00 at k = 1
	// TSW quad T=4      error 0.00 at k = 1
}
