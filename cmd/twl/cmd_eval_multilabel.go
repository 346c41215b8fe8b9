package main

import (
	"bytes"
	"fmt"
	"math"
	"strconv"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/internal/jsonfloat"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/metric"
	"github.com/twl-ldl/twl/tree"
)

// multilabelOptions are the flags of eval --multilabel.
type multilabelOptions struct {
	k       int
	target  corpus.Target
	asGiven bool
	pyldl   bool
}

// readLabelSets reads the true label sets of eval --multilabel: a file of
// label sets, or any corpus file with labels.
func readLabelSets(e *env, path string, t *tree.Tree, asGiven bool) (*corpus.Corpus, error) {
	if path != "-" {
		return corpus.ReadFile(path, t, &corpus.Options{AsGiven: asGiven}) // a missing data set's file says where to get it
	}
	r, name, err := e.open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return corpus.Read(r, name, t, &corpus.Options{AsGiven: asGiven})
}

// evalMultilabel scores the predictions P against the label sets Y with the
// multi-label measures, and against the target distributions of the label
// sets with the LDL measures.
func evalMultilabel(t *tree.Tree, P *labeldist.Set, Y *corpus.Corpus, o multilabelOptions) (*metric.MultiLabelResult, *metric.Result, error) {
	if n := min(P.Rows, Y.Len()); P.Rows != Y.Len() {
		var at string
		if P.Rows > n {
			at = P.At(n)
		} else {
			at = Y.At(n)
		}
		return nil, nil, fmt.Errorf("%s: row %d has no partner: %s has %s, %s has %s "+
			"(eval pairs prediction r with label set r, line by line)",
			at, n+1, P.File, plural(P.Rows, "prediction"), Y.File, plural(Y.Len(), "label set"))
	}
	sets := make([][]int, Y.Len())
	for i, d := range Y.Docs {
		sets[i] = d.Labels
	}
	ml := metric.NewMultiLabel(t, o.k).Evaluate(P.Data, sets)
	ldl := metric.NewEvaluator(t, &metric.Options{Clip: o.pyldl}).Evaluate(P.Data, Y.Targets(o.target))
	return ml, ldl, nil
}

// writeMultilabelText writes the two tables for people.
func writeMultilabelText(buf *bytes.Buffer, ml *metric.MultiLabelResult, ldl *metric.Result, o multilabelOptions, P *labeldist.Set) {
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	fmt.Fprintf(buf, "%-18s %12s %12s\n", "measure", "mean", "std")
	for _, name := range metric.MultiLabelNames {
		arrow := "↑"
		if metric.MultiLabelLowerIsBetter(name) {
			arrow = "↓"
		}
		label := name
		if name == "top_k_cost" {
			label = fmt.Sprintf("top_%d_cost", ml.K)
		}
		std := "—" // the micro AUC is one number over all pairs, not a mean
		if s, ok := ml.Std[name]; ok {
			std = g(s)
		}
		fmt.Fprintf(buf, "%-18s %12s %12s\n", label+" "+arrow, g(ml.Mean[name]), std)
	}
	fmt.Fprintf(buf, "\n%s; pseudo-recall, top-%d cost and roc_auc_samples over the rows, roc_auc_macro over the labels,\n"+
		"roc_auc over all (row, label) pairs.\n", plural(ml.Rows, "row"), ml.K)
	if ml.SkippedLabels > 0 {
		fmt.Fprintf(buf, "roc_auc_macro leaves out %s that every row or no row has.\n", plural(ml.SkippedLabels, "label"))
	}
	if ml.SkippedRows > 0 {
		fmt.Fprintf(buf, "roc_auc_samples leaves out %s whose label set holds every label.\n", plural(ml.SkippedRows, "row"))
	}
	fmt.Fprintf(buf, "\nAgainst the target distributions of the label sets (%s):\n\n", targetText(o.target))
	writeEvalText(buf, ldl, klInfinite(ldl, P))
}

// klInfinite counts the rows of res whose kl is +Inf and locates the first
// in P.
func klInfinite(res *metric.Result, P *labeldist.Set) evalInf {
	var inf evalInf
	for r, v := range res.Values["kl"] {
		if math.IsInf(v, 1) {
			if inf.count == 0 {
				inf.first = P.At(r)
			}
			inf.count++
		}
	}
	return inf
}

func targetText(m corpus.Target) string {
	if m == corpus.Specific {
		return "uniform on the most specific labels of each set"
	}
	return "uniform on every label of each set"
}

// writeMultilabelJSON writes one JSON object: rows, k, target, each
// multi-label measure and its _std (none for the micro roc_auc), the
// skipped counts, and the LDL measures as eval writes them.
func writeMultilabelJSON(buf *bytes.Buffer, ml *metric.MultiLabelResult, ldl *metric.Result, o multilabelOptions) {
	fmt.Fprintf(buf, `{"rows":%d,"k":%d,"target":%q`, ml.Rows, ml.K, o.target.String())
	for _, name := range metric.MultiLabelNames {
		fmt.Fprintf(buf, `,"%s":`, name)
		jsonFloat(buf, ml.Mean[name])
		if s, ok := ml.Std[name]; ok {
			fmt.Fprintf(buf, `,"%s_std":`, name)
			jsonFloat(buf, s)
		}
	}
	fmt.Fprintf(buf, `,"roc_auc_macro_skipped_labels":%d,"roc_auc_samples_skipped_rows":%d`, ml.SkippedLabels, ml.SkippedRows)
	for _, name := range metric.Names {
		fmt.Fprintf(buf, `,"%s":`, name)
		jsonFloat(buf, ldl.Mean[name])
		fmt.Fprintf(buf, `,"%s_std":`, name)
		jsonFloat(buf, ldl.Std[name])
	}
	buf.WriteString("}\n")
}

// jsonFloat writes v in the shortest form that reads back to the same
// float64; infinities and NaN, which JSON lacks, as the strings "+Inf",
// "-Inf" and "NaN".
func jsonFloat(buf *bytes.Buffer, v float64) {
	buf.Write(jsonfloat.Append(buf.AvailableBuffer(), v))
}
