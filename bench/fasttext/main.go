// Command fasttext converts between twl's text corpora and fastText's
// files, for the side-by-side comparisons of docs/benchmarks.md and
// docs/results/text.md; twl does not depend on it, nor on fastText.
//
//	go run ./bench/fasttext txt --tree TREE < docs.jsonl > docs.txt
//	go run ./bench/fasttext json < predict-prob.txt > pred.jsonl
//
// txt writes each document as fastText's supervised format: its labels,
// closed under ancestors in the tree, as __label__NAME, then its tokens as
// twl's tokenizer gives them (lower-cased, punctuation dropped, no length
// limit) joined by spaces, so that both programs see the same words. json
// reads the output of `fasttext predict-prob MODEL FILE -1` (lines of
// "__label__NAME p" pairs) and writes a JSON object {"NAME": p, …} per
// line, for twl eval --multilabel --normalize.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/ldl"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/vocab"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "fasttext:", err)
		os.Exit(1)
	}
}

func run(args []string, in io.Reader, out io.Writer) error {
	w := bufio.NewWriter(out)
	defer w.Flush()
	switch {
	case len(args) == 3 && args[0] == "txt" && args[1] == "--tree":
		t, _, err := ldl.OpenTree(args[2], 0, &tree.Options{})
		if err != nil {
			return err
		}
		c, err := corpus.Read(in, "stdin", t, nil)
		if err != nil {
			return err
		}
		var tk vocab.Tokenizer
		var toks []string
		for _, d := range c.Docs {
			for _, l := range d.Labels {
				fmt.Fprintf(w, "__label__%s ", c.Labels[l])
			}
			toks = tk.Append(toks[:0], d.Text)
			fmt.Fprintln(w, strings.Join(toks, " "))
		}
		return nil
	case len(args) == 1 && args[0] == "json":
		sc := bufio.NewScanner(in)
		sc.Buffer(nil, 1<<24)
		for n := 1; sc.Scan(); n++ {
			f := strings.Fields(sc.Text())
			if len(f)%2 != 0 {
				return fmt.Errorf("stdin:%d: want pairs of a label and a probability", n)
			}
			w.WriteByte('{')
			for i := 0; i < len(f); i += 2 {
				name, ok := strings.CutPrefix(f[i], "__label__")
				p, err := strconv.ParseFloat(f[i+1], 64)
				if !ok || err != nil {
					return fmt.Errorf("stdin:%d: %q %q is not __label__NAME and a probability", n, f[i], f[i+1])
				}
				if i > 0 {
					w.WriteString(", ")
				}
				fmt.Fprintf(w, "%s: %s", strconv.Quote(name), strconv.FormatFloat(p, 'g', -1, 64))
			}
			w.WriteString("}\n")
		}
		return sc.Err()
	}
	return fmt.Errorf("usage: fasttext txt --tree TREE < docs.jsonl > docs.txt, or fasttext json < predict-prob.txt > pred.jsonl")
}
