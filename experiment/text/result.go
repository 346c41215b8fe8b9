package text

import (
	"io"
	"slices"

	"github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/internal/plotutil"
	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/metric"
)

// ResultFormat identifies the JSON that Result.WriteJSON writes.
const ResultFormat = "twl-text/1"

// Measures lists the measures of the report, in its column order: the
// multi-label measures of Table 2, then the LDL measures against the
// targets.
var Measures = append(append([]string(nil), metric.MultiLabelNames...), metric.Names...)

// Result is the outcome of Run: the runs of every (loss, seed), seed by
// seed, and their Summary, per loss and measure, of the per-seed test
// means across seeds, the loss with the best mean, and the comparisons of
// every loss with KL.
type Result struct {
	report.Outcome[Resolved, LossRun]
	// PaperEstimate, when not nil, estimates the time of the paper's
	// protocol on these data (Config.EstimatePaper).
	PaperEstimate *Estimate `json:"paper_estimate,omitempty"`
	// AgainstFastText compares every loss with fastText's row (B the loss,
	// A fastText), measure by measure, when the bag's experiment has one.
	AgainstFastText []report.Comparison `json:"against_fasttext,omitempty"`
}

// Estimate is how long the paper's protocol would take on the data of an
// experiment, from training steps of the paper's model timed on this
// machine.
type Estimate struct {
	// TokensPerSecond is the measured training throughput of the paper's
	// model (hidden 200, batches of 100 documents of 200 tokens).
	TokensPerSecond report.Float `json:"tokens_per_second"`
	// TrainTokens and ValTokens are the tokens of an epoch of seed 1's
	// split, documents cut at 200 tokens.
	TrainTokens int `json:"train_tokens"`
	ValTokens   int `json:"val_tokens"`
	// EpochSeconds counts a validation token as a third of a training one
	// (forward only); RunSeconds is 100 epochs, AllSeconds 50 runs.
	EpochSeconds report.Float `json:"epoch_seconds"`
	RunSeconds   report.Float `json:"run_seconds"`
	AllSeconds   report.Float `json:"all_seconds"`
}

// ids returns the rows of r: its losses, then fastText's when it has one.
func (r *Result) ids() []string {
	if r.Config.FastText != nil {
		return append(slices.Clip(r.Config.Losses), FastTextID)
	}
	return r.Config.Losses
}

// summarize fills Summary, AgainstFastText and TrainSeconds from Runs.
func (r *Result) summarize() {
	of := func(run *LossRun) (string, int, map[string]report.Float) { return run.Loss, run.Seed, run.Measures }
	r.Summary, r.TrainSeconds = report.SummarizeRuns(r.ids(), Measures, r.Config.Settings.Seeds, r.Runs, of,
		func(run *LossRun) report.Float { return run.Seconds }, report.LowerIsBetter, "kl")
	if r.Config.FastText == nil {
		return
	}
	values := func(id, name string) []float64 {
		return report.SeedValues(r.Config.Settings.Seeds, r.Runs, func(run *LossRun) (int, float64, bool) {
			rid, seed, m := of(run)
			return seed, float64(m[name]), rid == id
		})
	}
	r.AgainstFastText = nil
	for _, id := range r.Config.Losses {
		for _, name := range Measures {
			c := report.PairedT(values(FastTextID, name), values(id, name), report.LowerIsBetter(name))
			c.A, c.B, c.Metric = FastTextID, id, name
			r.AgainstFastText = append(r.AgainstFastText, c)
		}
	}
}

// rowLabel names a row of the report: a loss, or fastText's.
func rowLabel(id string) string {
	switch id {
	case FastTextID:
		return "fastText"
	case BagDefaultLoss:
		return "KL + 2TW"
	}
	return loss.PaperLabel(id)
}

// WriteJSON writes r as indented JSON.
func (r *Result) WriteJSON(w io.Writer) error {
	return report.WriteJSON(w, r)
}

// Report file names written by WriteFiles; plots without extension.
const (
	MarkdownFile = "text.md"
	JSONFile     = "text.json"
	CurvesPlot   = "text_curves"   // validation loss per epoch, per loss (training loss without validation documents)
	MeasurePlot  = "text_measure_" // + measure name, with error bars
)

// WriteFiles writes the report to dir, creating it if needed: MarkdownFile,
// JSONFile and the plots as PNG and SVG, every file atomically. It returns
// the names of the files written, relative to dir.
func (r *Result) WriteFiles(dir string) ([]string, error) {
	return report.WriteReport(dir, JSONFile, r.WriteJSON, MarkdownFile, r.Markdown(), r.Figures())
}

// Figures returns the plots by file name without extension: the mean
// validation loss per epoch of every loss, and the Table 2 measures and
// Wasserstein per loss with their spread across seeds.
func (r *Result) Figures() map[string]*plotutil.Figure {
	ids, k := r.Config.Losses, r.Config.Settings.K
	rows := r.ids()
	val := r.hasValidation()
	series := report.MeanCurves(ids, rowLabel, func(id string) (curves [][]report.Float) {
		for _, run := range r.Runs {
			if run.Loss == id {
				if val {
					curves = append(curves, run.ValLoss)
				} else {
					curves = append(curves, run.TrainLoss)
				}
			}
		}
		return curves
	})
	title, axis := "Validation loss (mean over seeds)", "validation loss"
	if !val {
		title, axis = "Training loss (mean over seeds)", "training loss"
	}
	figs := map[string]*plotutil.Figure{CurvesPlot: plotutil.Curves(title, "epoch", axis, false, series)}
	for _, name := range []string{"pseudo_recall", "top_k_cost", "roc_auc", "wasserstein"} {
		g := report.StatGroup("", rows, func(id string) report.Stat { return r.Table[id][name] })
		figs[MeasurePlot+name] = report.ErrorBarFigure(report.MeasureLabel(name, k), "on the test set", report.LowerIsBetter(name), report.Labels(rows, rowLabel), g)
	}
	return figs
}

// hasValidation tells whether the runs had validation documents (the bag
// without a dev set has none): their curves are then the validation loss,
// else the training loss.
func (r *Result) hasValidation() bool {
	for _, run := range r.Runs {
		if run.Loss != FastTextID && run.Docs[1] > 0 {
			return true
		}
	}
	return false
}
