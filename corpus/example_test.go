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
