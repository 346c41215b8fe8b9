package report

import (
	"math"

	"github.com/twl-ldl/twl/internal/plotutil"
)

// MeanCurves returns one series per condition of ids, named by label: the
// mean of the curves of its runs (curves(id)), epoch by epoch.
func MeanCurves(ids []string, label func(string) string, curves func(id string) [][]Float) []plotutil.Series {
	var series []plotutil.Series
	for _, id := range ids {
		series = append(series, MeanCurve(label(id), curves(id)))
	}
	return series
}

// Labels returns label(id) for every id.
func Labels(ids []string, label func(string) string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = label(id)
	}
	return out
}

// StatGroup returns the group named name of the Stats of stat(id) for the
// conditions ids, an undefined standard deviation (one seed) drawn as 0.
func StatGroup(name string, ids []string, stat func(id string) Stat) plotutil.Group {
	g := plotutil.Group{Name: name}
	for _, id := range ids {
		st := stat(id)
		sd := float64(st.Std)
		if math.IsNaN(sd) {
			sd = 0
		}
		g.Mean, g.Std = append(g.Mean, float64(st.Mean)), append(g.Std, sd)
	}
	return g
}

// ErrorBarFigure returns the plot of a measure, what (its label), per
// condition (labels), mean ± sd across seeds, titled "WHAT WHERE (mean ±
// sd across seeds)", the axis saying whether lower is better.
func ErrorBarFigure(what, where string, lower bool, labels []string, groups ...plotutil.Group) *plotutil.Figure {
	dir := "higher is better"
	if lower {
		dir = "lower is better"
	}
	return plotutil.ErrorBars(what+" "+where+" (mean ± sd across seeds)", what+" ("+dir+")", labels, groups)
}

// Normalize divides x by its sum, in place, and returns it: random masses
// made a distribution.
func Normalize(x []float64) []float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	for i := range x {
		x[i] /= s
	}
	return x
}
