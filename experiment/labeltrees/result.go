package labeltrees

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/experiment/text"
	"github.com/twl-ldl/twl/internal/plotutil"
	"github.com/twl-ldl/twl/metric"
)

// ResultFormat identifies the JSON that Result.WriteJSON writes.
const ResultFormat = "twl-labeltrees/1"

// Measures lists the measures of the report, in its column order: the
// multi-label measures, then the LDL measures against the targets, every
// one on the data's hierarchy.
var Measures = text.Measures

// Result is the outcome of Run.
type Result struct {
	// Header: the format (ResultFormat), the configuration and the machine.
	report.Header[Resolved]
	// Trees describes the tree of every condition that has one, seed by
	// seed.
	Trees []TreeInfo `json:"trees"`
	// Runs are every (condition, seed) run, seed by seed.
	Runs []CondRun `json:"runs"`
	// Summary is, per condition and measure, the mean and sample standard
	// deviation across seeds of the per-seed test means, the condition with
	// the best mean, and every condition against KL on every measure.
	report.Summary
	report.Timing
}

// summarize fills Summary and TrainSeconds from Runs.
func (r *Result) summarize() {
	r.Summary, r.TrainSeconds = report.SummarizeRuns(r.Config.Conditions, Measures, r.Config.Settings.Seeds, r.Runs,
		func(run *CondRun) (string, int, map[string]report.Float) {
			return run.Condition, run.Seed, run.Measures
		},
		func(run *CondRun) report.Float { return run.Seconds }, report.LowerIsBetter, KL)
}

// WriteJSON writes r as indented JSON.
func (r *Result) WriteJSON(w io.Writer) error {
	return report.WriteJSON(w, r)
}

// Report file names written by WriteFiles; plots without extension.
const (
	MarkdownFile = "labeltrees.md"
	JSONFile     = "labeltrees.json"
	MeasurePlot  = "labeltrees_" // + measure name, with error bars
)

// plotted are the measures with a plot.
var plotted = []string{"pseudo_recall", "top_k_cost", "wasserstein"}

// WriteFiles writes the report to dir, creating it if needed: MarkdownFile,
// JSONFile and the plots as PNG and SVG, every file atomically. It returns
// the names of the files written, relative to dir.
func (r *Result) WriteFiles(dir string) ([]string, error) {
	return report.WriteReport(dir, JSONFile, r.WriteJSON, MarkdownFile, r.Markdown(), r.Figures())
}

// Figures returns the plots by file name without extension: pseudo-recall,
// top-k cost and Wasserstein per condition, mean ± sd across seeds.
func (r *Result) Figures() map[string]*plotutil.Figure {
	ids, figs := r.Config.Conditions, map[string]*plotutil.Figure{}
	for _, name := range plotted {
		g := report.StatGroup("", ids, func(id string) report.Stat { return r.Table[id][name] })
		figs[MeasurePlot+name] = report.ErrorBarFigure(report.MeasureLabel(name, r.Config.Settings.K), "on the given tree", report.LowerIsBetter(name), report.Labels(ids, Label), g)
	}
	return figs
}

// Markdown returns the report: the setup, the trees, the measures of every
// condition, and the paired comparisons with KL.
func (r *Result) Markdown() string {
	var b strings.Builder
	c, s := r.Config, r.Config.Settings
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("# Labels without a hierarchy: which tree?\n\n")
	p("The documents' labels taken as %d flat labels (the label sets as the files give them); ", len(c.Labels))
	p("an LSTM text classifier (hidden %d) predicts a distribution over them, trained with KL alone and with KL + %g·TW over trees that hold the labels:\n\n", s.Hidden, c.Lambda)
	for _, id := range c.Conditions {
		switch id {
		case KL:
			p("- **%s**: no tree.\n", Label(id))
		case Given:
			p("- **%s**: the data's hierarchy (%s), its other nodes carrying no mass; what a user with the hierarchy would use.\n", Label(id), c.Tree)
		case Names:
			p("- **%s**: a binary clustering tree (pointtree.Cluster, K = 2, the seed's) of the labels' names, each the mean of its words' vectors (%s).\n", Label(id), orRandom(c.LabelEmbeddings.Source))
		case Docs:
			p("- **%s**: a binary clustering tree of the labels' centroids, the mean over the seed's training documents of their mean word vector (%s).\n", Label(id), orRandom(c.Embeddings.Source))
		case Star:
			p("- **%s**: every label one edge from a common root, TW = Σ|p − q|: a tree that knows nothing.\n", Label(id))
		}
	}
	p("\nEach tree is scaled so that the mean distance between two distinct labels is 2 (the star's), so that λ weighs the same average price of a confusion and the trees differ only in which confusions cost more. ")
	p("Every model is scored the same way: its prediction is placed on the data's hierarchy (other nodes at zero) and measured there, top-%d cost (among the labels) and Wasserstein by the hierarchy's path lengths, ROC-AUC over the labels, against the test documents' label sets as given.", s.K)
	if r.singleLabel() {
		p(" Every document has one label, so pseudo-recall is the accuracy.")
	}
	p("\n\n**Data.** Training documents %s", c.Train)
	if c.Test != "" {
		p(", test %s", c.Test)
	}
	p("; split: %s. Model: %s.", c.Split, text.VectorsText(c.Embeddings, len(r.Runs), func(i int) (int, *text.Scores) { return r.Runs[i].Seed, &r.Runs[i].Scores }))
	if len(r.Runs) > 0 {
		run := r.Runs[0]
		p(" Seed 1: %d training, %d validation, %d test documents, a vocabulary of %s.", run.Docs[0], run.Docs[1], run.Docs[2], report.Plural(run.Vocab, "word", "words"))
	}
	p("\n\n**Protocol: %s** (the text experiment's): hidden %d, %s, batch %d, Adam lr %g, documents cut at %d tokens, %s; the weights of the epoch with the lowest validation loss are kept. ",
		c.Protocol, s.Hidden, report.Plural(s.Epochs, "epoch", "epochs"), s.Batch, s.LR, s.MaxLen, report.Plural(s.Seeds, "seed", "seeds"))
	p("%s", report.Plural(len(r.Runs), "run", "runs"))
	if r.Kept > 0 {
		p(" (%d kept from an earlier call)", r.Kept)
	}
	p("; wall-clock time of this call %s, training time of all runs %s, on %d CPUs (%s/%s, %s).\n\n",
		report.Duration(float64(r.Seconds)), report.Duration(float64(r.TrainSeconds)), r.Machine.CPUs, r.Machine.GOOS, r.Machine.GOARCH, r.Machine.Go)

	if len(r.Trees) > 0 {
		p("## The trees\n\n")
		p("Correlation of each tree's label-to-label distances with the hierarchy's (Pearson, over the %s of labels), per seed; the scale factor applied to its edges; its nodes. ", report.Plural(len(c.Labels)*(len(c.Labels)-1)/2, "pair", "pairs"))
		p("The files are in `trees/`.\n\n")
		p("| Tree | Seed | Correlation with the hierarchy | Scale | Nodes |\n|---|---:|---:|---:|---:|\n")
		for _, t := range r.Trees {
			corr := "—"
			if v := float64(t.Correlation); !math.IsNaN(v) {
				corr = fmt.Sprintf("%.3f", v)
			}
			p("| %s | %d | %s | %.4g | %d |\n", treeFileID(t.Condition), t.Seed, corr, float64(t.Scale), t.Nodes)
		}
		p("\n")
	}

	p("## Measures on the test documents\n\n")
	p("Mean ± standard deviation across %s of each run's mean over the test documents; ↓ lower is better, ↑ higher; **bold** the best.\n\n", report.Plural(s.Seeds, "seed", "seeds"))
	for _, cols := range [][]string{Measures[:len(metric.MultiLabelNames)], Measures[len(metric.MultiLabelNames):]} {
		report.MeasureTable(&b, "Condition", c.Conditions, Label, cols, r.Table, r.Best, s.K)
		p("\n")
	}
	p("The LDL measures (second table) compare each prediction with the uniform distribution on its label set; Wasserstein is the exact TW on the hierarchy with its own edge weights.\n\n")

	if len(r.Comparisons) > 0 {
		p("## Each condition against KL\n\n")
		report.ComparisonTable(&b, "Condition", "condition", s.Seeds, r.Comparisons, []string{"pseudo_recall", "top_k_cost", "roc_auc", "wasserstein"}, Label, s.K)
		p("\nAll comparisons, on every measure, are in %s.\n\n", JSONFile)
	}
	p("## Plots\n\n")
	for _, name := range plotted {
		p("- `%s%s.png` / `.svg`: %s per condition, mean ± sd across seeds.\n", MeasurePlot, name, report.MeasureLabel(name, s.K))
	}
	return b.String()
}

// singleLabel tells whether every test document of the runs had one label:
// then pseudo-recall is the accuracy.
func (r *Result) singleLabel() bool { return r.Config.SingleLabel }

func orRandom(src string) string {
	if src == "" {
		return "random vectors"
	}
	return src
}
