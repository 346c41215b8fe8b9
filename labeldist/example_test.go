package labeldist_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tw"
)

// The tree of Figure 1 of the paper, and two distributions in the two forms:
// an object of label → mass, and an array in the tree's user order
// (animal, mammal, reptile, dog, cat, lizard, snake).
func Example() {
	t, err := tree.Read(strings.NewReader(
		"animal\tmammal\nanimal\treptile\nmammal\tdog\nmammal\tcat\nreptile\tlizard\nreptile\tsnake\n"),
		"figure1.tree", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	in := `{"dog": 0.5, "cat": 0.5}
[0, 0, 0, 0, 0, 0, 1]
`
	s, err := labeldist.Read(strings.NewReader(in), "pred.jsonl", t, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Rows, "rows of", s.L, "labels")
	// Moving half a unit of mass from dog to snake costs 0.5·4 (dog → mammal
	// → animal → reptile → snake), and the other half from cat to snake too.
	fmt.Println("TW =", tw.Distance(t, s.Row(0), s.Row(1)))
	labeldist.Write(os.Stdout, t, s.Data)

	_, err = labeldist.Read(strings.NewReader(`{"dog": 0.5, "fish": 0.5}`), "bad.jsonl", t, nil)
	fmt.Println(err)
	// Output:
	// 2 rows of 7 labels
	// TW = 4
	// {"dog":0.5,"cat":0.5}
	// {"snake":1}
	// bad.jsonl:1: unknown label: "fish"
}

// Normalize rescales rows that are counts or scores rather than
// probabilities.
func ExampleRead_normalize() {
	t := tree.Star(3) // labels "0", "1", "2"
	s, err := labeldist.Read(strings.NewReader(`{"0": 1, "2": 3}`), "votes.jsonl", t, &labeldist.Options{Normalize: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Row(0))
	_, err = labeldist.Read(strings.NewReader(`{"0": 1, "2": 3}`), "votes.jsonl", t, nil)
	fmt.Println(err)
	// Output:
	// [0.25 0 0.75]
	// votes.jsonl:1: masses do not sum to 1: sum is 4 (tolerance 1e-06)
}

// Format writes a distribution as one JSON object: labels in the tree's
// order, zero masses omitted, shortest round-trip numbers.
func ExampleFormat() {
	t := tree.Chain(4) // labels "0" — "1" — "2" — "3"
	line, err := labeldist.Format(t, []float64{0.1, 0, 0.2, 0.7})
	fmt.Println(line, err)
	_, err = labeldist.Format(t, []float64{0.5, -0.5, 0, 1})
	fmt.Println(err)
	// Output:
	// {"0":0.1,"2":0.2,"3":0.7} <nil>
	// negative mass: "1": -0.5
}

// A Reader streams rows as their non-zero labels, whatever the size of the
// tree or the number of rows.
func ExampleReader() {
	t, _ := tree.Read(strings.NewReader("animal\tmammal\nanimal\treptile\nmammal\tdog\nmammal\tcat\n"), "t.tree", nil)
	in := "{\"cat\": 0.75, \"dog\": 0.25}\n\n{\"reptile\": 2, \"cat\": 2}\n"
	rd := labeldist.NewReader(strings.NewReader(in), "rows.jsonl", t, &labeldist.Options{Normalize: true})
	for rd.Next() {
		row := rd.Row()
		fmt.Println(rd.At(), row.Index, row.Mass)
	}
	if err := rd.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// rows.jsonl:1 [3 4] [0.25 0.75]
	// rows.jsonl:3 [2 4] [0.5 0.5]
}

// ExampleRows_FillAll reads all the rows of a file, in parts at once where
// the file is large, with the lines they come from.
func ExampleRows_FillAll() {
	t, err := tree.Read(strings.NewReader("animal\tdog\nanimal\tcat\n"), "pets.tree", nil)
	if err != nil {
		log.Fatal(err)
	}
	in := "{\"dog\": 0.25, \"cat\": 0.75}\n\n[0, 0, 1]\n"
	var rows labeldist.Rows
	if err := rows.FillAll(context.Background(), strings.NewReader(in), int64(len(in)), "pets.jsonl", t, nil); err != nil {
		log.Fatal(err)
	}
	for r := range rows.Rows() {
		idx, mass := rows.Row(r)
		fmt.Println("line", rows.Line(r), idx, mass)
	}
	// Output:
	// line 1 [1 2] [0.25 0.75]
	// line 3 [2] [1]
}
