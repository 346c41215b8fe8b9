package metric

import (
	"bytes"
	"fmt"
	"io"

	"github.com/twl-ldl/twl/corpus"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/tree"
)

// MultiLabelOptions controls ScoreMultiLabel.
type MultiLabelOptions struct {
	Options // how the LDL measures are computed (Clip: as PyLDL)

	// K is the k of top-k cost, between 1 and the number of labels.
	K int

	// Target is the target distribution of a label set for the LDL
	// measures: uniform on its labels, or on its most specific labels.
	Target corpus.Target
}

// MultiLabelReport holds the scores of predictions against true label
// sets, as 'twl eval --multilabel' prints them: the multi-label measures,
// and the LDL measures of the predictions against the target distributions
// of the label sets.
type MultiLabelReport struct {
	*MultiLabelResult
	LDL    *Table
	Target corpus.Target
}

// ScoreMultiLabel scores the predictions P, over the labels of t, against
// the label sets of Y, row r against document r: the multi-label measures
// of NewMultiLabel(t, o.K), and the measures of NewEvaluator against the
// target distributions Y.Targets(o.Target). P and Y must have as many rows;
// otherwise the error locates the first row without a partner.
func ScoreMultiLabel(t *tree.Tree, P *labeldist.Set, Y *corpus.Corpus, o *MultiLabelOptions) (*MultiLabelReport, error) {
	if n := min(P.Rows, Y.Len()); P.Rows != Y.Len() {
		var at string
		if P.Rows > n {
			at = P.At(n)
		} else {
			at = Y.At(n)
		}
		return nil, fmt.Errorf("%s: row %d has no partner: %s has %s, %s has %s "+
			"(eval pairs prediction r with label set r, line by line)",
			at, n+1, P.File, plural(P.Rows, "prediction"), Y.File, plural(Y.Len(), "label set"))
	}
	sets := make([][]int, Y.Len())
	for i, d := range Y.Docs {
		sets[i] = d.Labels
	}
	ldl := NewEvaluator(t, &o.Options).Evaluate(P.Data, Y.Targets(o.Target))
	return &MultiLabelReport{
		MultiLabelResult: NewMultiLabel(t, o.K).Evaluate(P.Data, sets),
		LDL:              NewTable(ldl, P.At),
		Target:           o.Target,
	}, nil
}

// WriteText writes the two tables for people: the multi-label measures
// with their directions, means and standard deviations ("—" for the micro
// roc_auc, which is not a mean), what the averages leave out, and the LDL
// measures as Table.WriteText writes them.
func (r *MultiLabelReport) WriteText(w io.Writer) error {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "%-18s %12s %12s\n", "measure", "mean", "std")
	for _, name := range MultiLabelNames {
		arrow := "↑"
		if MultiLabelLowerIsBetter(name) {
			arrow = "↓"
		}
		label := name
		if name == "top_k_cost" {
			label = fmt.Sprintf("top_%d_cost", r.K)
		}
		std := "—"
		if s, ok := r.Std[name]; ok {
			std = g6(s)
		}
		fmt.Fprintf(&buf, "%-18s %12s %12s\n", label+" "+arrow, g6(r.Mean[name]), std)
	}
	fmt.Fprintf(&buf, "\n%s; pseudo-recall, top-%d cost and roc_auc_samples over the rows, roc_auc_macro over the labels,\n"+
		"roc_auc over all (row, label) pairs.\n", plural(r.Rows, "row"), r.K)
	if r.SkippedLabels > 0 {
		fmt.Fprintf(&buf, "roc_auc_macro leaves out %s that every row or no row has.\n", plural(r.SkippedLabels, "label"))
	}
	if r.SkippedRows > 0 {
		fmt.Fprintf(&buf, "roc_auc_samples leaves out %s whose label set holds every label.\n", plural(r.SkippedRows, "row"))
	}
	what := "uniform on every label of each set"
	if r.Target == corpus.Specific {
		what = "uniform on the most specific labels of each set"
	}
	fmt.Fprintf(&buf, "\nAgainst the target distributions of the label sets (%s):\n\n", what)
	r.LDL.appendText(&buf)
	_, err := w.Write(buf.Bytes())
	return err
}

// WriteJSON writes one line of JSON: rows, k, target, each multi-label
// measure and its _std (none for the micro roc_auc), the counts the macro
// and samples averages leave out, and the LDL measures as Table.WriteJSON
// writes them.
func (r *MultiLabelReport) WriteJSON(w io.Writer) error {
	b := fmt.Appendf(nil, `{"rows":%d,"k":%d,"target":%q`, r.Rows, r.K, r.Target.String())
	for _, name := range MultiLabelNames {
		b = appendFloat(fmt.Appendf(b, `,"%s":`, name), r.Mean[name])
		if s, ok := r.Std[name]; ok {
			b = appendFloat(fmt.Appendf(b, `,"%s_std":`, name), s)
		}
	}
	b = fmt.Appendf(b, `,"roc_auc_macro_skipped_labels":%d,"roc_auc_samples_skipped_rows":%d`, r.SkippedLabels, r.SkippedRows)
	b = appendMeasures(b, r.LDL.Result, Names)
	_, err := w.Write(append(b, "}\n"...))
	return err
}
