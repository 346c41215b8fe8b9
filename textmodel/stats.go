package textmodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/vocab"
)

// Coverage is how much of a vocabulary a set of word vectors covers.
type Coverage struct {
	File          string  `json:"file"`
	Dim           int     `json:"dim"`
	Words         int     `json:"vocab_words"`
	InVocab       int     `json:"in_vocabulary"`
	Subword       int     `json:"from_subwords"`
	Missing       int     `json:"missing"`
	TokenCoverage float64 `json:"token_coverage"` // share of the kept tokens whose word has a vector
}

// CoverageOf looks up every word of v but <unk> in src, read from file.
func CoverageOf(file string, src embedding.Source, v *vocab.Vocab) *Coverage {
	words := v.Words()[1:]
	tab := embedding.NewTable(words, src, rand.NewPCG(0, 0), nil)
	c := &Coverage{File: file, Dim: src.Dim(), Words: len(words), InVocab: tab.Coverage.InVocab,
		Subword: tab.Coverage.Subword, Missing: tab.Coverage.Random}
	var found, total int64
	for id := range v.Len() {
		total += v.Count(id)
		if id > 0 && tab.Found[id-1] != embedding.Missing {
			found += v.Count(id)
		}
	}
	if total > 0 {
		c.TokenCoverage = float64(found) / float64(total)
	}
	return c
}

// Description is what 'twl text stats' shows of a corpus: its statistics
// (corpus.Describe) and, when word vectors are given, their coverage of
// its vocabulary.
type Description struct {
	Corpus    *corpus.Corpus
	Stats     *corpus.Stats
	Embedding *Coverage // nil without word vectors
}

// Describe computes the Description of c under the tokenizer and
// vocabulary options; emb (nil: none), read from embFile, adds its
// coverage.
func Describe(c *corpus.Corpus, tk *vocab.Tokenizer, opts *vocab.Options, emb embedding.Source, embFile string) *Description {
	d := &Description{Corpus: c, Stats: corpus.Describe(c, tk, opts)}
	if emb != nil {
		d.Embedding = CoverageOf(embFile, emb, d.Stats.Vocab)
	}
	return d
}

// WriteJSON writes d as one JSON object and a newline.
func (d *Description) WriteJSON(w io.Writer) error {
	c := d.Corpus
	out := struct {
		File      string        `json:"file"`
		Format    string        `json:"format"`
		Labels    []string      `json:"labels"`
		Embedding *Coverage     `json:"embedding,omitempty"`
		Stats     *corpus.Stats `json:"stats"`
	}{c.File, c.Format.String(), append([]string{}, c.Labels...), d.Embedding, d.Stats}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// plural writes n and the noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// WriteText writes d as the table of 'twl text stats'.
func (d *Description) WriteText(w io.Writer) error {
	c, st, cov := d.Corpus, d.Stats, d.Embedding
	var buf bytes.Buffer
	pct := func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
	fmt.Fprintf(&buf, "%s (%s): %s\n", c.File, c.Format, plural(st.Docs, "document"))
	fmt.Fprintf(&buf, "\ntokens      %d in all; per document mean %.2f, median %.1f, 90%% ≤ %d, max %d\n",
		st.Tokens, st.LenMean, st.LenMedian, st.LenP90, st.LenMax)
	if st.Empty > 0 {
		fmt.Fprintf(&buf, "            %s without a token\n", plural(st.Empty, "document"))
	}
	if st.MaxLen > 0 {
		fmt.Fprintf(&buf, "            --max-len %d truncates %s, keeping %d tokens\n", st.MaxLen, plural(st.Truncated, "document"), st.KeptTokens)
	}
	fmt.Fprintf(&buf, "vocabulary  %s; %s kept (+ <unk>), covering %s of the tokens\n",
		plural(st.Types, "distinct token"), plural(st.VocabWords, "word"), pct(st.VocabCoverage))
	if cov != nil {
		fmt.Fprintf(&buf, "embedding   %s (%d-d): %d of the %s have a vector (%d in its vocabulary, %d from subwords), %s of the tokens\n",
			cov.File, cov.Dim, cov.InVocab+cov.Subword, plural(cov.Words, "word"), cov.InVocab, cov.Subword, pct(cov.TokenCoverage))
	}
	if st.UsedLabels > 0 {
		d.writeLabels(&buf)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// writeLabels writes the label part of the table.
func (d *Description) writeLabels(buf *bytes.Buffer) {
	c, st := d.Corpus, d.Stats
	fmt.Fprintf(buf, "labels      %d of %d used; per document mean %.2f, min %d, max %d; %s\n",
		st.UsedLabels, len(c.Labels), st.LabelsPerDoc, st.MinLabels, st.MaxLabels, plural(st.DistinctLabelSets, "distinct label set"))
	if len(st.Depth) > 0 {
		fmt.Fprintf(buf, "\n%6s %8s %8s %10s %12s\n", "depth", "labels", "used", "documents", "occurrences")
		for _, d := range st.Depth {
			fmt.Fprintf(buf, "%6d %8d %8d %10d %12d\n", d.Depth, d.Labels, d.Used, d.Docs, d.Occurrences)
		}
	}
	order := make([]int, len(c.Labels))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return st.LabelDocs[b] - st.LabelDocs[a] })
	show := func(title string, idx []int) {
		fmt.Fprintf(buf, "\n%s\n", title)
		for _, i := range idx {
			fmt.Fprintf(buf, "  %8d  %s\n", st.LabelDocs[i], c.Labels[i])
		}
	}
	if len(order) <= 20 {
		show("documents per label:", order)
		return
	}
	show("most frequent labels (documents):", order[:10])
	show("least frequent labels (documents):", order[len(order)-10:])
	if unused := len(c.Labels) - st.UsedLabels; unused > 0 {
		fmt.Fprintf(buf, "  (%s with no document)\n", plural(unused, "label"))
	}
}
