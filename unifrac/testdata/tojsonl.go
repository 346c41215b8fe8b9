//go:build ignore

// Tojsonl writes a UniFrac case in the input formats of 'twl distance', for
// timing 'twl distance --pairwise --tree' against 'twl unifrac' on the same
// data:
//
//	go run tojsonl.go TREE.nwk TABLE.biom OUT
//
// writes OUT.tree (the tree's edges: parent, child, branch length) and
// OUT.jsonl (each sample's relative abundances as a JSON object keyed by tip
// name, the rows of weighted unnormalized UniFrac).
package main

import (
	"bufio"
	"fmt"
	"log"
	"os"
	"strconv"

	"github.com/twl-ldl/twl/biom"
	"github.com/twl-ldl/twl/newick"
)

func main() {
	log.SetFlags(0)
	if len(os.Args) != 4 {
		log.Fatal("usage: go run tojsonl.go TREE.nwk TABLE.biom OUT")
	}
	t, err := newick.ReadFile(os.Args[1], nil)
	if err != nil {
		log.Fatal(err)
	}
	b, err := biom.ReadFile(os.Args[2], nil)
	if err != nil {
		log.Fatal(err)
	}
	write(os.Args[3]+".tree", func(w *bufio.Writer) {
		for v := range t.Len() {
			if p := t.Parent(v); p >= 0 {
				fmt.Fprintf(w, "%s\t%s\t%s\n", t.Name(p), t.Name(v), strconv.FormatFloat(t.Weight(v), 'g', -1, 64))
			}
		}
	})
	write(os.Args[3]+".jsonl", func(w *bufio.Writer) {
		for s := range b.Samples {
			lo, hi := b.Indptr[s], b.Indptr[s+1]
			var sum float64
			for k := lo; k < hi; k++ {
				sum += b.Data[k]
			}
			w.WriteByte('{')
			for k := lo; k < hi; k++ {
				if k > lo {
					w.WriteByte(',')
				}
				fmt.Fprintf(w, "%q:%s", b.Observations[b.Indices[k]], strconv.FormatFloat(b.Data[k]/sum, 'g', -1, 64))
			}
			w.WriteString("}\n")
		}
	})
}

func write(name string, fill func(*bufio.Writer)) {
	f, err := os.Create(name)
	if err != nil {
		log.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fill(w)
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}
