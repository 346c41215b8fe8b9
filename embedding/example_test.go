package embedding_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/twl-ldl/twl/embedding"
)

// A .vec file: a header "count dims", then a word and its values per line.
func Example() {
	in := `3 4
the 0.1 0.2 0.3 0.4
café -0.5 0.25 0 1e-3
東京 1 2 3 4
`
	v, err := embedding.ReadVec(strings.NewReader(in), "small.vec")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v.Len(), "words of dimension", v.Dim())
	dst := make([]float32, v.Dim())
	for _, w := range []string{"café", "cafe"} {
		found := v.Lookup(dst, w)
		fmt.Println(w, found, dst)
	}

	_, err = embedding.ReadVec(strings.NewReader("2 3\nthe 1 2 3\ncafé 1 2\n"), "bad.vec")
	fmt.Println(err)
	// Output:
	// 3 words of dimension 4
	// café in vocabulary [-0.5 0.25 0 0.001]
	// cafe missing [0 0 0 0]
	// bad.vec:3: wrong dimension: "café" has 2 values, want 3 (the dimension in the header, line 1)
}

// A fastText model gives vectors to words out of its vocabulary too, from
// their character n-grams. ReadFile tells the formats apart by content.
func ExampleReadFile() {
	src, err := embedding.ReadFile("testdata/sg.bin")
	if err != nil {
		fmt.Println(err)
		return
	}
	m := src.(*embedding.FastText)
	a := m.Args()
	fmt.Printf("%d words, dim %d, n-grams of %d to %d characters in %d buckets\n", m.Len(), m.Dim(), a.Minn, a.Maxn, a.Bucket)
	dst := make([]float32, m.Dim())
	for _, w := range []string{"café", "cafés", "東京都", "</s>"} {
		fmt.Println(w, m.Lookup(dst, w))
	}

	_, err = embedding.ReadFile("testdata/sup.ftz")
	fmt.Println(errors.Is(err, embedding.ErrQuantized))
	// Output:
	// 165 words, dim 8, n-grams of 2 to 4 characters in 2000 buckets
	// café in vocabulary
	// cafés subword
	// 東京都 subword
	// </s> in vocabulary
	// true
}

// NewTable gives every word of a vocabulary a vector: its own when the
// source has one, a seeded random one otherwise.
func ExampleNewTable() {
	v, err := embedding.ReadVec(strings.NewReader("the 1 -1\ncat 0.5 2\n"), "small.vec")
	if err != nil {
		fmt.Println(err)
		return
	}
	vocab := []string{"the", "cat", "zebra"}
	tab := embedding.NewTable(vocab, v, rand.NewPCG(1, 2), nil)
	fmt.Println(tab.Coverage)
	for i, w := range vocab {
		if tab.Found[i] != embedding.Missing {
			fmt.Println(w, tab.Found[i], tab.Row(i))
		} else {
			fmt.Println(w, tab.Found[i], "(random)")
		}
	}
	again := embedding.NewTable(vocab, v, rand.NewPCG(1, 2), nil)
	fmt.Println("same seed, same table:", fmt.Sprint(again.Data) == fmt.Sprint(tab.Data))
	// Output:
	// 3 words: 2 in vocabulary, 0 from subwords, 1 random (66.7% found)
	// the in vocabulary [1 -1]
	// cat in vocabulary [0.5 2]
	// zebra missing (random)
	// same seed, same table: true
}
