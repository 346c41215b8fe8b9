package synthetic

import (
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
	ids := r.Config.Losses
	series := report.MeanCurves(ids, LossLabel, func(id string) (curves [][]report.Float) {
		for _, run := range r.Runs {
			if run.Loss == id {
				curves = append(curves, run.TrainLoss)
			}
		}
		return curves
	})
	figs := map[string]*plotutil.Figure{CurvesPlot: plotutil.Curves("Training loss (mean over seeds)", "epoch", "training loss", true, series)}
	for _, name := range metric.Names {
		groups := []plotutil.Group{report.StatGroup("twl", ids, func(id string) report.Stat { return r.Table[id][name] })}
		if r.Config.Settings.Nodes == Paper.Nodes {
			groups = append(groups, report.StatGroup("paper", ids, func(id string) report.Stat { return PaperTable[id][name] }))
		} else {
			groups[0].Name = ""
		}
		figs[MetricsPlot+name] = report.ErrorBarFigure(metricLabel[name], "on the test set", metric.LowerIsBetter(name), report.Labels(ids, LossLabel), groups...)
	}
	return figs
}
