package main

// The flags that the text commands share, and the warnings about what they read.

import (
	"errors"
	"fmt"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/textmodel"
	"github.com/twl-ldl/twl/vocab"
)

// textFlags are the flags of reading and tokenizing a corpus.
type textFlags struct {
	tree, keep                            *string
	asGiven, allowEmpty, title, punct, cs *bool
	maxLen, maxVocab                      *int
	minCount                              *int64
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
		cs:         fs.Bool("case", false, "keep letter case (default: lower-case every token)"),
		minCount:   fs.Int64("min-count", 2, "the vocabulary keeps words seen at least `N` times in training"),
		maxVocab:   fs.Int("max-vocab", 0, "the vocabulary keeps at most the `N` most frequent words (0: no limit)"),
	}
}

// tokenizer returns the tokenizer and vocabulary options the flags set.
func (tf *textFlags) tokenizer(fs *flags) (*vocab.Tokenizer, *vocab.Options, error) {
	keep, err := vocab.ParseKeep(*tf.keep)
	switch {
	case err != nil:
		return nil, nil, fs.fail("--keep %q: must be first or last", *tf.keep)
	case *tf.maxLen < 0:
		return nil, nil, fs.fail("--max-len %d: must be 0 (no limit) or positive", *tf.maxLen)
	case *tf.minCount < 1:
		return nil, nil, fs.fail("--min-count %d: must be at least 1", *tf.minCount)
	case *tf.maxVocab < 0:
		return nil, nil, fs.fail("--max-vocab %d: must be 0 (no limit) or positive", *tf.maxVocab)
	}
	return &vocab.Tokenizer{MaxLen: *tf.maxLen, Keep: keep, Punct: *tf.punct, Case: *tf.cs},
		&vocab.Options{MinCount: *tf.minCount, MaxSize: *tf.maxVocab}, nil
}

// options are the corpus options the flags set.
func (tf *textFlags) options(unlabeled bool) corpus.Options {
	return corpus.Options{AsGiven: *tf.asGiven, Title: *tf.title, Unlabeled: unlabeled, AllowEmpty: *tf.allowEmpty}
}

// corpusError adds the flag that keeps empty documents to the error.
func corpusError(err error) error {
	if errors.Is(err, corpus.ErrEmptyText) {
		return fmt.Errorf("%w (--allow-empty keeps such documents)", err)
	}
	return err
}

// warnCorpus warns about genre levels that contradict the tree.
func warnCorpus(fs *flags, c *corpus.Corpus, treeSpec string) {
	if c.DepthConflicts > 0 {
		fs.warn(fmt.Sprintf("%s: %s whose level <dN> contradicts the depth in --tree %s, the first %s; is it the data set's hierarchy?",
			c.File, plural(c.DepthConflicts, "genre"), treeSpec, c.FirstDepthConflict))
	}
}

// warnTrailing warns about bytes after the end of a fastText model.
func warnTrailing(fs *flags, path string, src embedding.Source) {
	if ft, ok := src.(*embedding.FastText); ok && ft.TrailingBytes() > 0 {
		fs.warn(fmt.Sprintf("--emb %s: %d bytes after the end of the fastText model, which were not read; is it one complete .bin file?", path, ft.TrailingBytes()))
	}
}

// warnVocab warns when the vocabulary keeps no word but <unk>.
func warnVocab(fs *flags, v *vocab.Vocab, types int, minCount int64) {
	if v.Len() == 1 && types > 0 {
		fs.warn(fmt.Sprintf("the vocabulary keeps no word, every token becomes <unk>: none of the %s is seen --min-count %d times", plural(types, "distinct word"), minCount))
	}
}

// readEmbeddings reads word vectors and the reference a model file records.
var readEmbeddings = textmodel.ReadEmbeddings
