package docknn

import (
	"io"
	"math"
	"time"

	"github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/internal/plotutil"
)

// ResultFormat identifies the JSON that Result.WriteJSON writes.
const ResultFormat = "twl-docknn/1"

// Result is the outcome of Run.
type Result struct {
	// Header: the format (ResultFormat), the configuration and the machine.
	report.Header[Resolved]
	// Train and Test describe the drawn documents and their tokens.
	Train TokenCounts `json:"train"`
	Test  TokenCounts `json:"test"`
	// Classes are the class names, sorted; Points the size of the union
	// vocabulary (the points of the trees), Dim the dimension of the
	// vectors.
	Classes []string `json:"classes"`
	Points  int      `json:"points"`
	Dim     int      `json:"dim"`
	// Methods are WMD first, then each builder's TSW for each T.
	Methods []Method `json:"methods"`
	// CPUClock says that the CPU times are CPU times (else wall-clock);
	// Utilization is WMD's CPU time over its wall-clock time and Workers:
	// the share of the cores it had, less than 1 when the machine was
	// busy with other work.
	CPUClock    bool         `json:"cpu_clock"`
	Utilization report.Float `json:"utilization"`
	// Seconds is the wall-clock time of the Run call.
	Seconds report.Float `json:"seconds"`
}

// Method is one distance's classification errors and times. Times named
// CPU are the CPU time of the process (user and system, all threads) over
// the step, or its wall-clock time where there is no CPU clock
// (Result.CPUClock false).
type Method struct {
	Name    string `json:"name"`              // "WMD", "TSW cluster T=4"
	Builder string `json:"builder,omitempty"` // TSW: the tree builder
	Trees   int    `json:"trees,omitempty"`   // TSW: T
	// Errors are the kNN errors, one per k of Config.Ks; BestK the k of
	// the least (the smallest such k) and BestError its error, chosen on
	// the test documents.
	Errors    []report.Float `json:"errors"`
	BestK     int            `json:"best_k"`
	BestError report.Float   `json:"best_error"`
	// MatrixTimes: the times of the test-by-training distance matrix, WMD
	// by the network simplex, TSW by tsw.Sliced.SparseDistance.
	MatrixTimes
	// Speedup is WMD's PairSeconds over this one's.
	Speedup report.Float `json:"speedup"`
	// CostShare is the share of WMD's time spent building the cost
	// matrices (wall-clock, per pair).
	CostShare report.Float `json:"cost_share,omitempty"`

	// TSW only. BuildSeconds is the CPU time to build the T trees and
	// the tsw.Sliced. EmbedSeconds is the CPU time to embed every
	// document (training and test) in the sparse ℓ₁ embedding of the
	// trees, EmbedPairSeconds the CPU time per pair of the ℓ₁ distances
	// between the embeddings (the same distances: EmbedDiff is their
	// largest difference from SparseDistance's, relative to the largest
	// distance), EmbedSpeedup
	// WMD's PairSeconds over EmbedPairSeconds. TotalSpeedup is WMD's
	// CPUSeconds over the whole of this way: trees, embeddings and
	// distances.
	BuildSeconds     report.Float `json:"build_seconds,omitempty"`
	EmbedSeconds     report.Float `json:"embed_seconds,omitempty"`
	EmbedPairSeconds report.Float `json:"embed_pair_seconds,omitempty"`
	EmbedSpeedup     report.Float `json:"embed_speedup,omitempty"`
	EmbedDiff        report.Float `json:"embed_max_rel_diff,omitempty"`
	TotalSpeedup     report.Float `json:"total_speedup,omitempty"`

	// Agreement is the fraction of test documents whose nearest training
	// document is WMD's; Correlation the Pearson correlation with WMD over
	// all pairs; Ratio the mean of this distance over WMD's across the
	// pairs where WMD > 0.
	Agreement   report.Float `json:"nn_agreement"`
	Correlation report.Float `json:"correlation"`
	Ratio       report.Float `json:"ratio"`
}

// StdErr returns the binomial standard error √(p(1−p)/n) of an error p
// measured on n documents.
func StdErr(p float64, n int) float64 {
	if n < 1 {
		return math.NaN()
	}
	return math.Sqrt(p * (1 - p) / float64(n))
}

// WriteJSON writes r as indented JSON.
func (r *Result) WriteJSON(w io.Writer) error {
	return report.WriteJSON(w, r)
}

// Report file names written by WriteFiles; the plot without extension.
const (
	MarkdownFile = "docknn.md"
	JSONFile     = "docknn.json"
	ErrorsPlot   = "docknn_errors"
)

// WriteFiles writes the report to dir, creating it if needed: MarkdownFile,
// JSONFile and the plot as PNG and SVG, each atomically. It returns the
// names of the files written, relative to dir.
func (r *Result) WriteFiles(dir string) ([]string, error) {
	return report.WriteReport(dir, JSONFile, r.WriteJSON, MarkdownFile, r.Markdown(), r.Figures())
}

// Figures returns the plots by file name without extension: the kNN error
// against k, a line per method.
func (r *Result) Figures() map[string]*plotutil.Figure {
	var series []plotutil.Series
	for i, m := range r.Methods {
		s := plotutil.Series{Name: m.Name, Color: plotutil.Color(i)}
		if i == 0 {
			s.Dashed = true
		}
		for q, k := range r.Config.Ks {
			s.X = append(s.X, float64(k))
			s.Y = append(s.Y, 100*float64(m.Errors[q]))
		}
		series = append(series, s)
	}
	return map[string]*plotutil.Figure{
		ErrorsPlot: plotutil.Curves("k-nearest-neighbour error on the test documents", "k", "error (%)", false, series),
	}
}

// MatrixTimes are the times of a distance matrix: Seconds its wall-clock
// time, CPUSeconds its CPU time, PairSeconds CPUSeconds per pair.
type MatrixTimes struct {
	Seconds     report.Float `json:"seconds"`
	CPUSeconds  report.Float `json:"cpu_seconds"`
	PairSeconds report.Float `json:"pair_seconds"`
}

// matrixTimes returns the MatrixTimes of a matrix of pairs distances
// computed in wall-clock time wall and CPU time cpu.
func matrixTimes(wall, cpu time.Duration, pairs float64) MatrixTimes {
	return MatrixTimes{Seconds: report.Float(wall.Seconds()), CPUSeconds: report.Float(cpu.Seconds()),
		PairSeconds: report.Float(cpu.Seconds() / pairs)}
}
