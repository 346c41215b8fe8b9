package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/textmodel"
)

const textPredictAbout = `
Predict writes, for each document of --data, the distribution over the
labels that the text model MODEL ('twl text train') predicts: one JSON
object per line, {"label": mass, …}, in the order of the documents, the
labels by decreasing mass. That is the format of 'twl eval' and 'twl
distance', so the predictions can be scored at once:

  twl eval --multilabel --tree TREE predictions.jsonl test.jsonl

--data is read as 'twl text train' reads its documents; labels are not
needed, and ignored if present. --top K writes the K most probable labels
only, and --min-mass P drops labels below mass P (both change the sums;
'twl eval' then needs --normalize, and ranks labels that are left out
last).`

const textPredictExamples = `  # Predict the test posts of 20 Newsgroups and score them.
  twl text predict --model 20ng.model --data ../shared/data/text/20ng/test.jsonl --out pred.jsonl
  twl eval --multilabel --tree ../shared/data/text/20ng/20ng.tree pred.jsonl ../shared/data/text/20ng/test.jsonl

  # The three most probable genres of each blurb.
  twl text predict --model bgc.model --data blurbs.jsonl --top 3`

func runTextPredict(e *env, args []string) error {
	fs := newFlags("text predict", "twl text predict --model MODEL --data FILE [flags]", textPredictAbout, textPredictExamples)
	modelPath := fs.String("model", "", "the text model `FILE` (required)")
	data := fs.String("data", "", "the documents `FILE` (required)")
	top := fs.Int("top", 0, "write the `K` most probable labels only (0: all)")
	minMass := fs.Float64("min-mass", 0, "drop labels of mass below `P`")
	treeSpec := fs.String("tree", "", "check that the model was trained on this `TREE`")
	title := fs.Bool("title", false, "BlurbGenreCollection: the text is the title and the body")
	allowEmpty := fs.Bool("allow-empty", false, "predict documents whose text is empty too (default: an error)")
	out := fs.String("out", "", "write the predictions to `FILE`, all or nothing, instead of standard output")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) > 0:
		return fs.fail("takes no arguments; the documents are --data FILE")
	case *modelPath == "" || *data == "":
		return fs.fail("--model and --data are required")
	case *top < 0:
		return fs.fail("--top must be positive (0: all labels)")
	case !(*minMass >= 0 && *minMass < 1):
		return fs.fail("--min-mass must be in [0, 1)")
	}
	if err := checkNotInput(fs, map[string]string{"out": *out}, map[string]string{"--model": *modelPath, "--data": *data, "--tree": *treeSpec}); err != nil {
		return err
	}
	f, err := os.Open(*modelPath)
	if err != nil {
		return err
	}
	m, err := textmodel.Read(f, *modelPath)
	f.Close()
	if err != nil {
		return err
	}
	if *treeSpec != "" {
		t, _, err := resolveTree(fs, *treeSpec, 0)
		if err != nil {
			return err
		}
		if h := t.Hash(); h != m.Tree.SHA256 {
			return fmt.Errorf("%s was trained on another tree than %s (%s); its labels may not mean the same", *modelPath, *treeSpec, m.Tree.Source)
		}
	}
	c, err := corpus.ReadFile(*data, nil, &corpus.Options{Unlabeled: true, Title: *title, AllowEmpty: *allowEmpty})
	if err != nil {
		return err
	}
	if c.Format == corpus.LabelSets {
		return fmt.Errorf("%s holds label sets but no text: want documents", *data)
	}
	L := len(m.Labels)
	p := m.NewPredictor()
	const batch = 100
	dst := make([]float64, batch*L)
	texts := make([]string, 0, batch)
	order := make([]int, L)
	var buf bytes.Buffer
	var line []byte
	for s := 0; s < c.Len(); s += batch {
		texts = texts[:0]
		for _, d := range c.Docs[s:min(s+batch, c.Len())] {
			texts = append(texts, d.Text)
		}
		p.Predict(dst[:len(texts)*L], texts)
		for r := range texts {
			row := dst[r*L : (r+1)*L]
			for _, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("%s: the model predicts %v for the document of %s: its weights are broken (a diverged training?)", *modelPath, v, c.At(s+r))
				}
			}
			for j := range order {
				order[j] = j
			}
			slices.SortStableFunc(order, func(a, b int) int {
				switch {
				case row[a] > row[b]:
					return -1
				case row[a] < row[b]:
					return 1
				}
				return 0
			})
			n := L
			if *top > 0 {
				n = min(*top, L)
			}
			line = append(line[:0], '{')
			k := 0
			for _, j := range order[:n] {
				if row[j] < *minMass {
					break
				}
				if k > 0 {
					line = append(line, ", "...)
				}
				line = strconv.AppendQuote(line, m.Labels[j])
				line = append(line, ": "...)
				line = strconv.AppendFloat(line, row[j], 'g', -1, 64)
				k++
			}
			line = append(line, "}\n"...)
			buf.Write(line)
		}
	}
	return e.output(*out, buf.Bytes())
}
