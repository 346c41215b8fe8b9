package main

import (
	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/tree"
)

// readLabelSets reads the true label sets of eval --multilabel: a file of
// label sets, or any corpus file with labels, whose texts may be empty
// (they are not read).
func readLabelSets(e *env, path string, t *tree.Tree, asGiven bool) (*corpus.Corpus, error) {
	opts := &corpus.Options{AsGiven: asGiven, AllowEmpty: true}
	if path != "-" {
		return corpus.ReadFile(path, t, opts) // a missing data set's file says where to get it
	}
	r, name, err := e.open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return corpus.Read(r, name, t, opts)
}
