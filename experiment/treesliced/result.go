package treesliced

import (
	"bufio"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/twl-ldl/twl/experiment/report"
)

// Result is the outcome of Run.
type Result struct {
	Date    time.Time      `json:"date"`
	Machine report.Machine `json:"machine"`
	CPU     string         `json:"cpu,omitempty"`
	Config  Resolved       `json:"config"`
	// Seconds is the wall-clock time of the whole run.
	Seconds report.Float `json:"seconds"`
	Cells   []*Cell      `json:"cells"`
}

// Cell holds the pairs of one (d, n) and their summary.
type Cell struct {
	D int `json:"d"`
	N int `json:"n"`

	// Exact summarizes the exact W1 over the pairs and its times.
	Exact

	// Rows summarize TSW per builder and number of trees, in the order of
	// Config.Builders then Settings.Trees.
	Rows []*Row `json:"rows"`
	// Pairs holds every measurement.
	Pairs []*PairRecord `json:"pairs"`
}

// Row is TSW with T trees of one builder, against the exact W1, over the
// pairs of a cell.
type Row struct {
	Builder string `json:"builder"`
	Trees   int    `json:"trees"`

	// Corr is Pearson's correlation between TSW and W1 across the pairs.
	Corr report.Float `json:"corr"`
	// RatioMean, RatioStd (n−1), RatioMin and RatioMax summarize TSW/W1
	// over the pairs. RatioStd/RatioMean is how far TSW is from W1 up to
	// one constant factor.
	RatioMean report.Float `json:"ratio_mean"`
	RatioStd  report.Float `json:"ratio_std"`
	RatioMin  report.Float `json:"ratio_min"`
	RatioMax  report.Float `json:"ratio_max"`

	// BuildSeconds is the mean time to build one tree (for cluster+fit,
	// the clustering tree and its fit); Nodes the mean nodes per tree.
	BuildSeconds report.Float `json:"build_seconds_per_tree"`
	Nodes        report.Float `json:"nodes_per_tree"`
	// EvalSeconds is the mean time of one TSW evaluation of a pair on T
	// trees already built.
	EvalSeconds report.Float `json:"eval_seconds"`
	// SpeedupEval is the cell's ExactSeconds over EvalSeconds: the gain
	// when the trees are reused across many pairs. SpeedupBuild is
	// ExactSeconds over T·BuildSeconds + EvalSeconds: the gain for one
	// pair whose trees are built for it, as in this protocol.
	SpeedupEval  report.Float `json:"speedup_eval"`
	SpeedupBuild report.Float `json:"speedup_with_build"`
}

// PairRecord is every measurement of one pair.
type PairRecord struct {
	Index int          `json:"index"`
	Shift report.Float `json:"shift"`
	// W1 is the exact W1 of the pair, CostSeconds and SimplexSeconds the
	// times of its cost matrix and of the network simplex.
	W1             report.Float `json:"w1"`
	CostSeconds    report.Float `json:"cost_seconds"`
	SimplexSeconds report.Float `json:"simplex_seconds"`
	// Builders are the TSW measurements, in the order of Config.Builders.
	Builders []*BuilderRecord `json:"builders"`
}

// BuilderRecord is one builder's trees for a pair and TSW on them.
type BuilderRecord struct {
	Builder string `json:"builder"`
	// BuildSeconds is the time to build each tree (for cluster+fit, the
	// clustering tree's time plus the fit's), Nodes the mean number of
	// nodes per tree.
	BuildSeconds []report.Float `json:"build_seconds"`
	Nodes        float64        `json:"nodes"`
	// TSW and EvalSeconds are TSW on the first T trees and the time of one
	// evaluation, for each T of Settings.Trees.
	TSW         []report.Float `json:"tsw"`
	EvalSeconds []report.Float `json:"eval_seconds"`
}

// Exact is the exact W1 of the pairs of a cell: W1Mean, W1Min and W1Max
// summarize it; CostSeconds and SimplexSeconds are the mean times per pair
// of the n×n Euclidean cost matrix and of the network simplex on it, and
// ExactSeconds is their sum.
type Exact struct {
	W1Mean         report.Float `json:"w1_mean"`
	W1Min          report.Float `json:"w1_min"`
	W1Max          report.Float `json:"w1_max"`
	CostSeconds    report.Float `json:"cost_seconds"`
	SimplexSeconds report.Float `json:"simplex_seconds"`
	ExactSeconds   report.Float `json:"exact_seconds"`
}

// exactOf returns the Exact of pairs, and the W1 of each.
func exactOf(pairs []*PairRecord) (Exact, []float64) {
	P := len(pairs)
	w1 := make([]float64, P)
	var cost, simplex float64
	for k, p := range pairs {
		w1[k] = float64(p.W1)
		cost += float64(p.CostSeconds) / float64(P)
		simplex += float64(p.SimplexSeconds) / float64(P)
	}
	lo, hi := minMax(w1)
	return Exact{W1Mean: report.Float(stat.Mean(w1, nil)), W1Min: report.Float(lo), W1Max: report.Float(hi),
		CostSeconds: report.Float(cost), SimplexSeconds: report.Float(simplex), ExactSeconds: report.Float(cost + simplex)}, w1
}

// summarize fills in the cell's summary and rows from its pairs.
func (c *Cell) summarize(rc Resolved) {
	P := len(c.Pairs)
	var w1 []float64
	c.Exact, w1 = exactOf(c.Pairs)
	exact := float64(c.ExactSeconds)
	c.Rows = nil
	for bi, name := range rc.Builders {
		var build, nodes float64
		for _, p := range c.Pairs {
			br := p.Builders[bi]
			nodes += br.Nodes / float64(P)
			for _, s := range br.BuildSeconds {
				build += float64(s) / float64(P*len(br.BuildSeconds))
			}
		}
		for ti, T := range rc.Settings.Trees {
			v := make([]float64, P)
			ratio := make([]float64, P)
			var eval float64
			for k, p := range c.Pairs {
				br := p.Builders[bi]
				v[k] = float64(br.TSW[ti])
				ratio[k] = v[k] / w1[k]
				eval += float64(br.EvalSeconds[ti]) / float64(P)
			}
			r := &Row{Builder: name, Trees: T, Corr: report.Float(report.Correlation(v, w1)),
				BuildSeconds: report.Float(build), Nodes: report.Float(nodes), EvalSeconds: report.Float(eval),
				SpeedupEval: report.Float(exact / eval), SpeedupBuild: report.Float(exact / (float64(T)*build + eval))}
			mean, std := stat.MeanStdDev(ratio, nil)
			lo, hi := minMax(ratio)
			r.RatioMean, r.RatioStd, r.RatioMin, r.RatioMax = report.Float(mean), report.Float(std), report.Float(lo), report.Float(hi)
			c.Rows = append(c.Rows, r)
		}
	}
}

// Row returns the row of builder with T trees, or nil.
func (c *Cell) Row(builder string, T int) *Row {
	for _, r := range c.Rows {
		if r.Builder == builder && r.Trees == T {
			return r
		}
	}
	return nil
}

// Cell returns the cell (d, n), or nil.
func (r *Result) Cell(d, n int) *Cell {
	for _, c := range r.Cells {
		if c.D == d && c.N == n {
			return c
		}
	}
	return nil
}

func minMax(x []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range x {
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

// WriteJSON writes the result as indented JSON.
func (r *Result) WriteJSON(w io.Writer) error {
	return report.WriteJSON(w, r)
}

// Report file names written by WriteFiles; plots without extension.
const (
	MarkdownFile = "treesliced.md"
	JSONFile     = "treesliced.json"
	CorrPlot     = "treesliced_corr_n" // + n: correlation against T, per builder and d
)

// WriteFiles writes the report to dir, creating it if needed: MarkdownFile,
// JSONFile and the plots as PNG and SVG, every file atomically. It returns
// the names of the files written, relative to dir.
func (r *Result) WriteFiles(dir string) ([]string, error) {
	return report.WriteReport(dir, JSONFile, r.WriteJSON, MarkdownFile, r.Markdown(), r.Figures())
}

// cpuName is the processor's model name on Linux, or "".
func cpuName() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
