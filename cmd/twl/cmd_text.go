package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/vocab"
)

// texts are the subcommands of twl text.
var texts = &group{
	name: "text",
	noun: "command",
	subs: []*command{
		{"stats", "documents, tokens, vocabulary, labels per depth and embedding coverage of a corpus", runTextStats},
		{"train", "fit the paper's LSTM text model (KL, KL + λ·TW, KL + λ·Sinkhorn) to labelled documents", runTextTrain},
		{"predict", "predict label distributions of documents with a trained text model", runTextPredict},
	},
	about: `
Text works with labelled text for hierarchical multi-label classification:
documents whose labels are nodes of a label tree, read from
BlurbGenreCollection files, the JSON Lines of the hierarchical
text-classification toolkits ({"token": …, "label": […]}) or plain JSON
Lines ({"text": …, "labels": […]}); the format is detected from the
content. The tree is an edge list (parent<TAB>child) or a toolkit taxonomy
(parent<TAB>child<TAB>child…, with a Root line; named FILE.taxonomy or given
as taxonomy:FILE).`,
	examples: `  # What is in 20 Newsgroups, and how much of its vocabulary the word vectors cover.
  twl text stats --data ../shared/data/text/20ng/train.jsonl --tree ../shared/data/text/20ng/20ng.tree \
      --emb ../shared/data/embeddings/novels-fasttext-100d.vec`,
}

func runText(e *env, args []string) error { return texts.run(e, args) }

// textFlags are the flags shared by the text commands that read a corpus
// and tokenize it.
type textFlags struct {
	tree       *string
	asGiven    *bool
	allowEmpty *bool
	title      *bool
	maxLen     *int
	keep       *string
	punct      *bool
	keepCase   *bool
	minCount   *int64
	maxVocab   *int
}

// addTextFlags adds the flags of reading and tokenizing a corpus;
// defMaxLen is the default of --max-len (0: no limit).
func addTextFlags(fs *flags, treeRequired bool, defMaxLen int) *textFlags {
	need := ""
	if treeRequired {
		need = " (required)"
	}
	return &textFlags{
		tree:       fs.String("tree", "", "the label `TREE`: an edge-list file (parent<TAB>child), a toolkit taxonomy (FILE.taxonomy or taxonomy:FILE), or chain:N, star:N"+need),
		asGiven:    fs.Bool("as-given", false, "keep label sets as the file gives them, instead of adding every ancestor of a label"),
		allowEmpty: fs.Bool("allow-empty", false, "keep documents whose text is empty (default: an error)"),
		title:      fs.Bool("title", false, "BlurbGenreCollection: the text is the title and the body, not the body alone"),
		maxLen:     fs.Int("max-len", defMaxLen, "truncate documents to `N` tokens (0: no limit)"),
		keep:       fs.String("keep", "first", "which tokens truncation keeps: `first` or last"),
		punct:      fs.Bool("punct", false, "keep punctuation marks as tokens of their own"),
		keepCase:   fs.Bool("case", false, "keep letter case (default: lower-case every token)"),
		minCount:   fs.Int64("min-count", 2, "the vocabulary keeps words seen at least `N` times in training"),
		maxVocab:   fs.Int("max-vocab", 0, "the vocabulary keeps at most the `N` most frequent words (0: no limit)"),
	}
}

// tokenizer returns the tokenizer and vocabulary options the flags set.
func (tf *textFlags) tokenizer(fs *flags) (*vocab.Tokenizer, *vocab.Options, error) {
	keep, err := vocab.ParseKeep(*tf.keep)
	switch {
	case err != nil:
		return nil, nil, fs.fail("--keep must be first or last, not %q", *tf.keep)
	case *tf.maxLen < 0:
		return nil, nil, fs.fail("--max-len must be 0 (no limit) or positive")
	case *tf.minCount < 1:
		return nil, nil, fs.fail("--min-count must be at least 1")
	case *tf.maxVocab < 0:
		return nil, nil, fs.fail("--max-vocab must be 0 (no limit) or positive")
	}
	return &vocab.Tokenizer{MaxLen: *tf.maxLen, Keep: keep, Punct: *tf.punct, Case: *tf.keepCase},
		&vocab.Options{MinCount: *tf.minCount, MaxSize: *tf.maxVocab}, nil
}

// readLabelTree reads a label tree from a file spec of tree.Open.
func readLabelTree(spec string) (*tree.Tree, error) { return tree.Open(spec, nil) }

// readCorpus reads the corpus at path with the tree (nil for none) and the
// flags' options; a file of label sets alone is refused.
func readCorpus(path string, t *tree.Tree, tf *textFlags, unlabeled bool) (*corpus.Corpus, error) {
	c, err := corpus.ReadFile(path, t, &corpus.Options{AsGiven: *tf.asGiven, Title: *tf.title, Unlabeled: unlabeled, AllowEmpty: *tf.allowEmpty})
	if errors.Is(err, corpus.ErrEmptyText) {
		return nil, fmt.Errorf("%w (--allow-empty keeps such documents)", err)
	}
	if err != nil {
		return nil, err
	}
	if c.Format == corpus.LabelSets {
		return nil, fmt.Errorf("%s holds label sets ([\"label\", …] per line) but no text: want documents", path)
	}
	return c, nil
}

const textStatsAbout = `
Stats describes a corpus: the first thing to run on a new data set. It
prints the number of documents; tokens per document (mean, median, 90th
percentile, maximum) as the tokenizer splits them, and how many documents
--max-len would truncate; the vocabulary (distinct tokens, the words kept
with --min-count and --max-vocab, and the share of tokens they cover, the
rest being <unk>); the labels (per document, per depth of the tree, the
most and least frequent); and with --emb, how many vocabulary words the
word vectors cover, and what share of the tokens.

The tokenizer lower-cases, splits on anything but letters, digits and
apostrophes within words (don't) or points and commas within numbers
(3.14), and drops punctuation unless --punct; see docs/formats.md.

--format json writes one JSON object with every count, including the
number of documents of each label ("label_documents", in the order of
"labels").`

const textStatsExamples = `  # 20 Newsgroups with its tree.
  twl text stats --data ../shared/data/text/20ng/train.jsonl --tree ../shared/data/text/20ng/20ng.tree

  # AAPD with its taxonomy and fastText vectors, as JSON.
  twl text stats --data ../shared/data/text/aapd/val.jsonl --tree ../shared/data/text/aapd/aapd.taxonomy \
      --emb ../shared/data/embeddings/novels-fasttext-100d.vec --format json

  # BlurbGenreCollection, once downloaded.
  twl text stats --data BlurbGenreCollection_EN_train.txt --tree hierarchy.txt`

func runTextStats(e *env, args []string) error {
	fs := newFlags("text stats", "twl text stats --data FILE [--tree TREE] [--emb FILE] [flags]", textStatsAbout, textStatsExamples)
	data := fs.String("data", "", "the corpus `FILE`: BlurbGenreCollection records or JSON Lines (required)")
	tf := addTextFlags(fs, false, 0)
	emb := fs.String("emb", "", "word vectors `FILE`: .vec/.txt text format or a fastText .bin model")
	unlabeled := fs.Bool("unlabeled", false, "the documents have no labels")
	format := fs.String("format", "text", "output `FORMAT`: text or json")
	out := fs.String("out", "", "write the output to `FILE`, all or nothing, instead of standard output")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) > 0:
		return fs.fail("takes no arguments; the corpus is --data FILE")
	case *data == "":
		return fs.fail("--data is required")
	case *format != "text" && *format != "json":
		return fs.fail("--format must be text or json, not %q", *format)
	}
	tk, vopts, err := tf.tokenizer(fs)
	if err != nil {
		return err
	}
	if err := checkNotInput(fs, map[string]string{"out": *out}, map[string]string{"--data": *data, "--tree": *tf.tree, "--emb": *emb}); err != nil {
		return err
	}
	var t *tree.Tree
	if *tf.tree != "" {
		if t, _, err = resolveTree(fs, *tf.tree, 0); err != nil {
			return err
		}
	}
	c, err := readCorpus(*data, t, tf, *unlabeled)
	if err != nil {
		return err
	}
	st := corpus.Describe(c, tk, vopts)
	var cov *embCoverage
	if *emb != "" {
		src, err := embedding.ReadFile(*emb)
		if err != nil {
			return err
		}
		cov = coverage(*emb, src, st.Vocab)
	}
	var buf bytes.Buffer
	if *format == "json" {
		writeStatsJSON(&buf, c, st, cov)
	} else {
		writeStatsText(&buf, c, st, cov)
	}
	return e.output(*out, buf.Bytes())
}

// embCoverage is how much of a vocabulary a set of word vectors covers.
type embCoverage struct {
	File          string  `json:"file"`
	Dim           int     `json:"dim"`
	Words         int     `json:"vocab_words"`
	InVocab       int     `json:"in_vocabulary"`
	Subword       int     `json:"from_subwords"`
	Missing       int     `json:"missing"`
	TokenCoverage float64 `json:"token_coverage"` // share of the kept tokens whose word has a vector
}

// coverage looks up every word of v but <unk> in src.
func coverage(file string, src embedding.Source, v *vocab.Vocab) *embCoverage {
	words := v.Words()[1:]
	tab := embedding.NewTable(words, src, rand.NewPCG(0, 0), nil)
	c := &embCoverage{File: file, Dim: src.Dim(), Words: len(words), InVocab: tab.Coverage.InVocab,
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

func writeStatsJSON(buf *bytes.Buffer, c *corpus.Corpus, st *corpus.Stats, cov *embCoverage) {
	out := struct {
		File      string        `json:"file"`
		Format    string        `json:"format"`
		Labels    []string      `json:"labels"`
		Embedding *embCoverage  `json:"embedding,omitempty"`
		Stats     *corpus.Stats `json:"stats"`
	}{c.File, c.Format.String(), append([]string{}, c.Labels...), cov, st}
	b, err := json.Marshal(out)
	if err != nil {
		panic(err) // not reached: every value is finite
	}
	buf.Write(b)
	buf.WriteByte('\n')
}

func writeStatsText(buf *bytes.Buffer, c *corpus.Corpus, st *corpus.Stats, cov *embCoverage) {
	pct := func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
	fmt.Fprintf(buf, "%s (%s): %s\n", c.File, c.Format, plural(st.Docs, "document"))
	fmt.Fprintf(buf, "\ntokens      %d in all; per document mean %.1f, median %.1f, 90%% ≤ %d, max %d\n",
		st.Tokens, st.LenMean, st.LenMedian, st.LenP90, st.LenMax)
	if st.Empty > 0 {
		fmt.Fprintf(buf, "            %s without a token\n", plural(st.Empty, "document"))
	}
	if st.MaxLen > 0 {
		fmt.Fprintf(buf, "            --max-len %d truncates %s, keeping %d tokens\n", st.MaxLen, plural(st.Truncated, "document"), st.KeptTokens)
	}
	fmt.Fprintf(buf, "vocabulary  %d distinct tokens; %s kept (+ <unk>), covering %s of the tokens\n",
		st.Types, plural(st.VocabWords, "word"), pct(st.VocabCoverage))
	if cov != nil {
		fmt.Fprintf(buf, "embedding   %s (%d-d): %d of the %s have a vector (%d in its vocabulary, %d from subwords), %s of the tokens\n",
			cov.File, cov.Dim, cov.InVocab+cov.Subword, plural(cov.Words, "word"), cov.InVocab, cov.Subword, pct(cov.TokenCoverage))
	}
	if st.UsedLabels == 0 {
		return
	}
	fmt.Fprintf(buf, "labels      %d of %d used; per document mean %.2f, min %d, max %d; %d distinct label sets\n",
		st.UsedLabels, len(c.Labels), st.LabelsPerDoc, st.MinLabels, st.MaxLabels, st.DistinctLabelSets)
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
	last := order[len(order)-10:]
	show("least frequent labels (documents):", last)
	if unused := len(c.Labels) - st.UsedLabels; unused > 0 {
		fmt.Fprintf(buf, "  (%s with no document)\n", plural(unused, "label"))
	}
}
