package main

import (
	"bytes"
	"io"

	"github.com/twl-ldl/twl/embedding"
	"github.com/twl-ldl/twl/textmodel"
	"github.com/twl-ldl/twl/tree"
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
}

func runText(e *env, args []string) error { return texts.run(e, args) }

func runTextStats(e *env, args []string) error {
	fs := newFlags("text stats", "twl text stats --data FILE [--tree TREE] [--emb FILE] [flags]")
	data := fs.String("data", "", "the corpus `FILE`: BlurbGenreCollection records or JSON Lines (required)")
	tf := addTextFlags(fs, false, 0)
	emb := fs.String("emb", "", "word vectors `FILE`: .vec/.txt text format or a fastText .bin model")
	unlabeled := fs.Bool("unlabeled", false, "the documents have no labels")
	format := fs.String("format", "text", "output `FORMAT`: text or json")
	out := fs.OutFile("out", "write the output to `FILE`, all or nothing, instead of standard output")
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
		return fs.fail("--format %q: must be text or json", *format)
	}
	tk, vopts, err := tf.tokenizer(fs)
	if err != nil {
		return err
	}
	files := fs.files()
	files.Input("--data", *data)
	inputTree(files, "--tree", *tf.tree)
	files.Input("--emb", *emb)
	if err := fs.checkFiles(files); err != nil {
		return err
	}
	var t *tree.Tree
	if *tf.tree != "" {
		if *unlabeled {
			return fs.fail("--tree applies only to labelled documents, not with --unlabeled")
		}
		if t, _, err = resolveTree(fs, *tf.tree, 0); err != nil {
			return err
		}
	}
	opts := tf.options(*unlabeled)
	c, err := textmodel.ReadCorpus(*data, t, &opts)
	if err != nil {
		return corpusError(err)
	}
	warnCorpus(fs, c, *tf.tree)
	var src embedding.Source
	if *emb != "" {
		if src, err = embedding.ReadFile(*emb); err != nil {
			return err
		}
		warnTrailing(fs, *emb, src)
	}
	d := textmodel.Describe(c, tk, vopts, src, *emb)
	warnVocab(fs, d.Stats.Vocab, d.Stats.Types, *tf.minCount)
	var buf bytes.Buffer
	write := map[string]func(io.Writer) error{"text": d.WriteText, "json": d.WriteJSON}[*format]
	write(&buf)
	return e.output(*out, buf.Bytes())
}
