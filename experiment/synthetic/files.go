package synthetic

import (
	"math"

	"github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/internal/plotutil"
	"github.com/twl-ldl/twl/metric"
)

// Report file names written by WriteFiles.
const (
	MarkdownFile = "synthetic.md"
	JSONFile     = "synthetic.json"
)

// WriteFiles writes the report to dir, creating it if needed:
// MarkdownFile, JSONFile, and each plot as PNG and SVG (CurvesPlot and
// MetricsPlot+name for every metric), every file atomically. It returns
// the names of the files written, relative to dir.
func (r *Result) WriteFiles(dir string) ([]string, error) {
	return report.WriteReport(dir, JSONFile, r.WriteJSON, MarkdownFile, r.Markdown(), r.Figures())
}

// Figures returns the plots of the report by file name without
// extension: the mean training loss per epoch of every loss (log scale;
// the losses with a transport term are larger by λ times that term), and
// for every metric its mean ± standard deviation across seeds per loss,
// beside the paper's when the tree has the paper's size.
func (r *Result) Figures() map[string]*plotutil.Figure {
	figs := map[string]*plotutil.Figure{}
	var series []plotutil.Series
	for _, id := range r.Config.Losses {
		var curves [][]report.Float
		for _, run := range r.Runs {
			if run.Loss == id {
				curves = append(curves, run.TrainLoss)
			}
		}
		series = append(series, report.MeanCurve(LossLabel(id), curves))
	}
	figs[CurvesPlot] = plotutil.Curves("Training loss (mean over seeds)", "epoch", "training loss", true, series)

	labels := make([]string, len(r.Config.Losses))
	for i, id := range r.Config.Losses {
		labels[i] = LossLabel(id)
	}
	for _, name := range metric.Names {
		twl := plotutil.Group{Name: "twl"}
		paper := plotutil.Group{Name: "paper"}
		for _, id := range r.Config.Losses {
			st := r.Table[id][name]
			twl.Mean = append(twl.Mean, float64(st.Mean))
			twl.Std = append(twl.Std, float64(st.Std))
			ps := PaperTable[id][name]
			paper.Mean = append(paper.Mean, float64(ps.Mean))
			paper.Std = append(paper.Std, float64(ps.Std))
		}
		groups := []plotutil.Group{twl}
		if r.Config.Settings.Nodes == Paper.Nodes {
			groups = append(groups, paper)
		} else {
			groups[0].Name = ""
		}
		for i := range groups[0].Std {
			if math.IsNaN(groups[0].Std[i]) {
				groups[0].Std[i] = 0
			}
		}
		title := metricLabel[name] + " on the test set (mean ± sd across seeds)"
		dir := "lower is better"
		if !metric.LowerIsBetter(name) {
			dir = "higher is better"
		}
		figs[MetricsPlot+name] = plotutil.ErrorBars(title, metricLabel[name]+" ("+dir+")", labels, groups)
	}
	return figs
}
