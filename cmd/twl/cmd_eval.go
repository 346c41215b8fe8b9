package main

import (
	"bytes"
	"flag"
	"io"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/metric"
)

const evalAbout = `
Eval scores predicted label distributions against their targets with the
measures of label-distribution learning: line r of PRED.jsonl is the
prediction p for line r of TARGET.jsonl, the target t. For each measure it
prints the mean over the pairs and the sample standard deviation over the
pairs (n − 1 in the denominator; NaN for a single pair):

  wasserstein   ↓  exact 1-Wasserstein distance under the tree metric of
                   TREE, the tree-Wasserstein distance of 'twl distance'
  kl            ↓  KL(t ‖ p) = Σ t_i ln(t_i / p_i), target first
  chebyshev     ↓  max_i |p_i − t_i|
  clark         ↓  sqrt(Σ (p_i − t_i)² / (p_i + t_i)²)
  canberra      ↓  Σ |p_i − t_i| / (p_i + t_i)
  cosine        ↑  Σ p_i t_i / (‖p‖ ‖t‖)
  intersection  ↑  Σ min(p_i, t_i)

↓ marks a distance (lower is better), ↑ a similarity (higher is better). The
measures are exact: a term 0·ln(0/p) or 0/0 counts 0, and kl is +Inf for a
prediction with no mass on a label its target has (its mean is then +Inf and
its std NaN). With --pyldl they are computed as PyLDL computes them, to
compare with published tables: both distributions are clipped to
[2.220446049250313e-16, 1] before clark, canberra and kl, which keeps kl
finite; the other measures are unchanged.

--trees T1,T2,... scores labels that have several trees instead of one,
such as flat labels with trees built by 'twl tree build' (and models
trained with 'twl train --trees ... --loss kl+tsw'): the labels are the
leaves of T1, which must be the leaves of every tree, and the first
measure is

  tsw           ↓  tree-sliced Wasserstein distance: the mean over the
                   trees of their tree-Wasserstein distances, as 'twl
                   distance --trees' computes it

in place of wasserstein ("tsw" and "tsw_std" in JSON); the other measures
are computed over the labels as above. A JSON array row then holds one
mass per leaf of T1, in the order the leaves first appear in T1.
--multilabel needs one --tree: with --trees it is a usage error.

TREE is an edge-list file: one edge per line, parent<TAB>child[<TAB>weight].
PRED.jsonl and TARGET.jsonl hold one distribution per line, as for 'twl
distance': a JSON object {"label": mass, ...} or a JSON array of one mass per
node of the tree. Each row must sum to 1 within 1e-6 unless --normalize is
given. Either file may be '-' for standard input. An error in the input is
reported as FILE:LINE: what is wrong, with exit status 1.

--format json writes one JSON object: "rows", the number of pairs; each
measure's name, its mean; and the name with the suffix "_std", its standard
deviation ("wasserstein", "wasserstein_std", ...). JSON has no infinity or
NaN: such a value is written as the string "+Inf", "-Inf" or "NaN", which
Go's strconv.ParseFloat and Python's float() read back.

With --multilabel the second file holds true label sets instead of target
distributions, for hierarchical multi-label classification (the paper's
Table 2): a JSON array of label names per line, ["Fantasy", "Fiction"], or
any labelled corpus file that 'twl text' reads (BlurbGenreCollection
records, JSON Lines with "labels" or "label"). Label sets are closed under
ancestors unless --as-given. Then eval prints

  pseudo_recall    ↑  |P ∩ Y| / |Y|, P the |Y| labels of highest mass
  top_k_cost       ↓  (1/k) Σ_{j≤k} min_{ℓ∈Y} d(ℓ_j, ℓ), ℓ_j the j-th most
                      probable label, d the path length in TREE
  roc_auc          ↑  ROC-AUC of the masses as scores, Y as positives, over
                      all (row, label) pairs (micro)
  roc_auc_macro    ↑  the mean over labels of each label's ROC-AUC over the
                      rows, for labels that some rows have and some lack
  roc_auc_samples  ↑  the mean over rows of each row's ROC-AUC over the
                      labels, for rows that lack some label

(ties in the ranking go to the label that comes first in TREE; tied scores
get average ranks, as scikit-learn does), and the LDL measures above
between each prediction and the target distribution of its label set:
uniform on its labels, or with --target specific on its most specific
labels (those with no descendant in the set). The JSON object has "rows",
"k", "target", each measure with its "_std" (none for the micro roc_auc,
which is not a mean), the number of labels and rows the macro and samples
averages leave out, and the LDL measures.`

const evalExamples = `  # The measures of predictions against their targets.
  twl eval --tree labels.tree predictions.jsonl targets.jsonl

  # Multi-label: predictions against the true label sets of a test file.
  twl eval --multilabel --k 5 --tree hierarchy.txt predictions.jsonl test.jsonl

  # As PyLDL computes them, as JSON for a script.
  twl eval --tree labels.tree --pyldl --format json predictions.jsonl targets.jsonl

  # Flat labels with trees built from their names' word vectors: tsw in
  # place of wasserstein, for a model trained with --loss kl+tsw.
  twl train --data train.jsonl --trees l1.tree,l2.tree,l3.tree --loss kl+tsw --out model.json
  twl predict --model model.json --data test.jsonl --out pred.jsonl --targets target.jsonl
  twl eval --trees l1.tree,l2.tree,l3.tree pred.jsonl target.jsonl

  # Try it on the demo's files.
  twl demo --dir twl-demo
  twl eval --tree twl-demo/figure1.tree twl-demo/predictions.jsonl twl-demo/targets.jsonl`

func runEval(e *env, args []string) error {
	fs := newFlags("eval", "twl eval --tree TREE [flags] PRED.jsonl TARGET.jsonl\n  twl eval --trees T1,T2,... [flags] PRED.jsonl TARGET.jsonl\n  twl eval --multilabel --tree TREE [flags] PRED.jsonl LABELS.jsonl", evalAbout, evalExamples)
	treePath := fs.String("tree", "", "the label `TREE`: an edge-list file, a toolkit taxonomy (FILE.taxonomy or taxonomy:FILE), or chain:N or star:N for labels named 0 … N−1 (required, or --trees)")
	treeList := fs.String("trees", "", "instead of --tree, the comma-separated `TREES` (from 'twl tree build') whose leaves are the labels: tsw, the tree-sliced Wasserstein distance over them, in place of wasserstein")
	format := fs.String("format", "text", "output `FORMAT`: text or json")
	pyldl := fs.Bool("pyldl", false, "clip masses to [2.2e-16, 1] before clark, canberra and kl, as PyLDL does")
	normalize := fs.Bool("normalize", false, "rescale every row to sum 1, instead of requiring it")
	out := fs.OutFile("out", "write the output to `FILE`, all or nothing, instead of standard output")
	multilabel := fs.Bool("multilabel", false, "score against true label sets (LABELS instead of TARGET): pseudo-recall, top-k cost, ROC-AUC")
	k := fs.Int("k", 5, "with --multilabel: the k of top-k cost")
	target := fs.String("target", "uniform", "with --multilabel: the target distribution of a label set for the LDL measures, `uniform` on its labels or specific (on its most specific labels)")
	maxMem := byteSize(4 << 30)
	fs.Var(&maxMem, "max-memory", "with --multilabel: refuse predictions that would take more than `SIZE` held densely (8 bytes per row and label)")
	asGiven := fs.Bool("as-given", false, "with --multilabel: keep label sets as given, instead of adding every ancestor of a label")
	pos, err := fs.parse(e, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) != 2 && *multilabel:
		return fs.fail("want two files, the predictions PRED.jsonl and the label sets LABELS; got %s", plural(len(pos), "argument"))
	case len(pos) != 2:
		return fs.fail("want two files of distributions, PRED.jsonl TARGET.jsonl; got %s", plural(len(pos), "argument"))
	case pos[0] == "-" && pos[1] == "-":
		return fs.fail("only one of PRED and TARGET can be standard input ('-')")
	case *format != "text" && *format != "json":
		return fs.fail("--format must be text or json, not %q", *format)
	}
	if err := checkTreeFlags(fs, *treePath, *treeList); err != nil {
		return err
	}
	if *multilabel && *treeList != "" {
		return fs.fail("--multilabel needs one --tree, not --trees: label sets are closed under the ancestors of a single tree, and top-k cost is measured along it")
	}

	mode, err := corpus.ParseTarget(*target)
	if err != nil {
		return fs.fail("--target must be uniform or specific, not %q", *target)
	}
	if !*multilabel {
		set := ""
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "k" || f.Name == "target" || f.Name == "as-given" {
				set = f.Name
			}
		})
		if set != "" {
			return fs.fail("--%s applies only with --multilabel", set)
		}
	}
	inputs := treeInputs(map[string]string{"PRED": pos[0], "TARGET": pos[1]}, *treePath, *treeList)
	if err := checkNotInput(fs, map[string]string{"out": *out}, inputs); err != nil {
		return err
	}
	// With --trees, t is a flat tree of the labels, the leaves of the
	// trees, and sl the tree-sliced distance over them.
	t, sl, err := readLabelTrees(fs, *treePath, *treeList)
	if err != nil {
		return err
	}
	if *multilabel && (*k < 1 || *k > t.Len()) {
		return fs.fail("--k must be between 1 and the %d labels of the tree", t.Len())
	}
	opts := &labeldist.Options{Normalize: *normalize}
	if *multilabel {
		// The micro ROC-AUC ranks every (row, label) score at once, so the
		// predictions are held densely.
		P, err := readDense(e, pos[0], t, opts, int64(maxMem), "--multilabel holds every prediction densely, for the ROC-AUC over all (row, label) pairs")
		if err != nil {
			return err
		}
		Y, err := readLabelSets(e, pos[1], t, *asGiven)
		if err != nil {
			return err
		}
		rep, err := metric.ScoreMultiLabel(t, P, Y, &metric.MultiLabelOptions{Options: metric.Options{Clip: *pyldl}, K: *k, Target: mode})
		if err != nil {
			return err
		}
		return e.output(*out, reportBytes(rep, *format == "json"))
	}
	P, cp, err := rowReader(e, pos[0], t, opts)
	if err != nil {
		return err
	}
	defer cp.Close()
	T, ct, err := rowReader(e, pos[1], t, opts)
	if err != nil {
		return err
	}
	defer ct.Close()
	w, err := e.create(*out) // an unwritable --out fails before the work
	if err != nil {
		return err
	}
	defer w.Abort()
	prog := newProgress(e.stderr, "twl eval", "pairs")
	tab, err := metric.Score(envContext(e), t, P, T, &metric.ScoreOptions{
		Options: metric.Options{Clip: *pyldl}, Sliced: sl, ChunkRows: chunkRows,
		Why:      "eval pairs prediction r with target r, line by line",
		Progress: func(rows int) error { prog.tick(rows); return nil }})
	if err != nil {
		return rowsErr(err)
	}
	prog.done(P.Rows())
	if _, err := w.Write(reportBytes(tab, *format == "json")); err != nil {
		return err
	}
	return w.Commit()
}

// reportBytes returns r as text for people or as JSON.
func reportBytes(r interface {
	WriteText(io.Writer) error
	WriteJSON(io.Writer) error
}, asJSON bool) []byte {
	var buf bytes.Buffer
	if asJSON {
		r.WriteJSON(&buf) // a bytes.Buffer does not fail
	} else {
		r.WriteText(&buf)
	}
	return buf.Bytes()
}
