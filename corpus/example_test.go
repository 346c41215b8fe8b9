package corpus_test

import (
	"fmt"
	"strings"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/tree"
)

func Example() {
	genres, _ := tree.Read(strings.NewReader("Fiction\tFantasy\nFantasy\tEpic Fantasy\nNonfiction\tCooking\n"), "genres.tree", nil)
	data := `<book><title>A</title><body>Dragons &amp; kings.</body>
<metadata><topics><d0>Fiction</d0><d1>Fantasy</d1><d2>Epic Fantasy</d2></topics></metadata></book>
`
	c, err := corpus.Read(strings.NewReader(data), "books.txt", genres, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	d := c.Docs[0]
	fmt.Printf("%s: %q\n", c.At(0), d.Text)
	for _, l := range d.Labels {
		fmt.Println(c.Labels[l])
	}
	fmt.Println(corpus.Specific.Fill(make([]float64, genres.Len()), genres, d.Labels))

	// JSON Lines; label sets are closed under ancestors.
	c, _ = corpus.Read(strings.NewReader(`{"text": "Soup for one.", "labels": ["Cooking"]}`), "more.jsonl", genres, nil)
	fmt.Println(c.Labels[c.Docs[0].Labels[0]], c.Labels[c.Docs[0].Labels[1]])

	// A genre that is not in the tree.
	_, err = corpus.Read(strings.NewReader(`{"text": "Sonnets.", "labels": ["Poetry"]}`), "more.jsonl", genres, nil)
	fmt.Println(err)
	// Output:
	// books.txt:1: "Dragons & kings."
	// Fiction
	// Fantasy
	// Epic Fantasy
	// [0 0 1 0 0]
	// Nonfiction Cooking
	// more.jsonl:1: unknown label: column 33: "Poetry" is not a node of the tree
}

// fastText's supervised format is read as it is: every word that starts
// with __label__ is a label, wherever it is on the line, and the label sets
// are closed under ancestors in the tree.
func Example_fastText() {
	genres, _ := tree.Read(strings.NewReader("Fiction\tFantasy\nFantasy\tEpic_Fantasy\nNonfiction\tCooking\n"), "genres.tree", nil)
	data := "__label__Epic_Fantasy Dragons and kings.\n" +
		"Soup for one. __label__Cooking\n"
	c, err := corpus.Read(strings.NewReader(data), "train.txt", genres, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Format)
	for i, d := range c.Docs {
		fmt.Printf("%s: %q", c.At(i), d.Text)
		for _, l := range d.Labels {
			fmt.Print(" ", c.Labels[l])
		}
		fmt.Println()
	}

	// A label that is not in the tree.
	_, err = corpus.Read(strings.NewReader("__label__Cooking Soup.\n__label__Poetry Sonnets.\n"), "train.txt", genres, nil)
	fmt.Println(err)
	// Output:
	// fasttext
	// train.txt:1: "Dragons and kings." Fiction Fantasy Epic_Fantasy
	// train.txt:2: "Soup for one." Nonfiction Cooking
	// train.txt:2: unknown label: column 1: "Poetry" is not a node of the tree
}

// A Scanner reads the documents one at a time, in bounded memory: here
// without labels, for prediction, from lines of plain text.
func ExampleScanner() {
	s, err := corpus.NewScanner(strings.NewReader("Dragons and kings.\n\nSoup for one.\n"), "docs.txt", nil, &corpus.Options{Unlabeled: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for s.Scan() {
		d := s.Doc()
		fmt.Printf("line %d: %q\n", d.Line, d.Text)
	}
	if err := s.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// line 1: "Dragons and kings."
	// line 3: "Soup for one."
}
