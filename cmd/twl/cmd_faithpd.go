package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/twl-ldl/twl/biom"
	"github.com/twl-ldl/twl/distmat"
	"github.com/twl-ldl/twl/internal/atomicfile"
	"github.com/twl-ldl/twl/internal/qza"
	"github.com/twl-ldl/twl/newick"
	"github.com/twl-ldl/twl/unifrac"
)

// faithpdOptions are the options of faithpd (unifrac-binaries 1.2 to 1.6).
var faithpdOptions = map[string]bool{"-i": true, "-t": true, "-o": true, "-h": false, "--help": false}

// runFaithPD computes Faith's phylogenetic diversity of every sample with
// faithpd's command line (faithpd -i TABLE -t TREE -o OUT) and writes
// faithpd's table: a line "#SampleID<TAB>faith_pd", then a sample a line,
// its id and its diversity as %.16g, in the table's order; or, for an -o
// ending in .qza, a QIIME 2 SampleData[AlphaDiversity] artifact holding it.
func runFaithPD(e *env, args []string) error {
	a, err := parseCompat(args, faithpdOptions)
	if err != nil {
		return err
	}
	if len(args) == 0 || a.set["-h"] || a.set["--help"] {
		fmt.Fprint(e.stdout, helpFile("faithpd"))
		return flag.ErrHelp
	}
	out, tablePath, treePath := a.str("-o"), a.str("-i"), a.str("-t")
	for _, o := range []struct{ flag, what string }{{"-o", "output file"}, {"-i", "table"}, {"-t", "tree"}} {
		if a.str(o.flag) == "" {
			return compatUsage("%s (the %s) is required", o.flag, o.what)
		}
	}
	files := new(atomicfile.Files)
	files.Input("-i", tablePath)
	files.Input("-t", treePath)
	files.Output("-o", out)
	if err := checkCompatFiles(files); err != nil {
		return err
	}
	w, err := e.create(out)
	if err != nil {
		return err
	}
	defer w.Abort()

	// The table is read while the tree is; the tree's error comes first.
	var bt *biom.Table
	var tableErr error
	tableRead := make(chan struct{})
	go func() {
		defer close(tableRead)
		bt, tableErr = biom.ReadFile(tablePath, &biom.Options{MaxBytes: compatReadMax()})
	}()
	tr, err := newick.ReadFile(treePath, &newick.Options{MaxBytes: compatReadMax()})
	<-tableRead
	if err != nil {
		return err
	}
	if tableErr != nil {
		return tableErr
	}
	if err := distmat.CheckIDs(bt.Samples); err != nil {
		return fmt.Errorf("table %s: %w", tablePath, err)
	}
	// A sample without a positive count has diversity 0, as in faithpd;
	// the others are computed.
	sub, kept := withCounts(bt)
	pd := make([]float64, len(bt.Samples))
	if len(kept) > 0 {
		tab, err := unifrac.TableOf(tr, sub)
		var me *unifrac.MissingTipsError
		switch {
		case errors.As(err, &me):
			return fmt.Errorf("table %s: %s not tips of tree %s: %s (faithpd refuses them too)", tablePath, me.What(), treePath, me.List())
		case err != nil:
			return fmt.Errorf("table %s: %w", tablePath, err)
		}
		v := make([]float64, tab.Len())
		if err := unifrac.FaithPD(v, tr, tab, &unifrac.Options{Workers: ompWorkers()}); err != nil {
			return fmt.Errorf("table %s: %w", tablePath, err)
		}
		for k, s := range kept {
			pd[s] = v[k]
		}
	}
	var dst io.Writer = w
	var art *qza.Writer
	if isQZA(out) {
		if art, err = qza.NewWriter(w, qza.AlphaDiversity, &qza.Options{Tool: versionLine(), Citations: faithCitation}); err != nil {
			return err
		}
		dst = art
	}
	b := []byte("#SampleID\tfaith_pd\n")
	for s, id := range bt.Samples {
		b = append(b, id...)
		b = append(b, '\t')
		b = distmat.AppendG16(b, pd[s])
		b = append(b, '\n')
	}
	if _, err := dst.Write(b); err != nil {
		return err
	}
	if art != nil {
		if err := art.Close(); err != nil {
			return err
		}
	}
	return w.Commit()
}

// withCounts returns the table of the samples of b that have a positive
// count (b itself when all have), and their indices in b.
func withCounts(b *biom.Table) (*biom.Table, []int) {
	var kept []int
	for s := range b.Samples {
		_, val := b.Row(s)
		for _, v := range val {
			if v > 0 {
				kept = append(kept, s)
				break
			}
		}
	}
	if len(kept) == len(b.Samples) {
		return b, kept
	}
	sub := &biom.Table{Observations: b.Observations, Indptr: []int{0}}
	for _, s := range kept {
		idx, val := b.Row(s)
		sub.Samples = append(sub.Samples, b.Samples[s])
		sub.Indices = append(sub.Indices, idx...)
		sub.Data = append(sub.Data, val...)
		sub.Indptr = append(sub.Indptr, len(sub.Data))
	}
	return sub, kept
}

// faithCitation is the BibTeX of a Faith's PD artifact's provenance.
const faithCitation = `@article{faith1992conservation,
 author = {Faith, Daniel P.},
 title = {Conservation evaluation and phylogenetic diversity},
 journal = {Biological Conservation},
 volume = {61},
 number = {1},
 pages = {1--10},
 year = {1992},
 doi = {10.1016/0006-3207(92)91201-3}
}
`
