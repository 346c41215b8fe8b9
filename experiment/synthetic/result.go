package synthetic

import (
	"io"

	"github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/metric"
	"github.com/twl-ldl/twl/synth"
)

// ResultFormat identifies the JSON that Result.WriteJSON writes.
const ResultFormat = "twl-synthetic/1"

// Result is the outcome of Run: the runs of every (loss, seed), seed by
// seed, losses in the order of Table 1, and their Summary, per loss and
// metric, of the per-seed test means across seeds, the loss with the best
// mean (lowest for a distance, highest for a similarity), and the paired
// comparisons across seeds (of the pairs of Comparisons).
type Result struct {
	report.Outcome[Resolved, LossRun]
	// Findings check the paper's qualitative claims.
	Findings []Finding `json:"findings"`

	TrainData synth.Summary `json:"train_data"` // of the first seed's data
	TestData  synth.Summary `json:"test_data"`
}

// Comparisons are the pairs (A, B) compared on every metric: the paper's
// proposal against KL alone, and against the Sinkhorn baseline.
var Comparisons = [][2]string{{"kl", "kl+tw"}, {"kl+w1", "kl+tw"}, {"kl", "kl+0.5tw"}}

// values returns the per-seed test means of metric name for loss id,
// indexed by seed − 1 (NaN where the run is missing).
func (r *Result) values(id, name string) []float64 {
	return report.SeedValues(r.Config.Settings.Seeds, r.Runs, func(run *LossRun) (int, float64, bool) {
		return run.Seed, float64(run.Metrics[name]), run.Loss == id
	})
}

// summarize fills Table, Best, Comparisons, Findings and TrainSeconds from
// Runs.
func (r *Result) summarize() {
	// The comparisons are those of Comparisons, not of one baseline.
	r.Summary, r.TrainSeconds = report.SummarizeRuns(r.Config.Losses, metric.Names, r.Config.Settings.Seeds, r.Runs,
		func(run *LossRun) (string, int, map[string]report.Float) { return run.Loss, run.Seed, run.Metrics },
		func(run *LossRun) report.Float { return run.Seconds }, metric.LowerIsBetter, "")
	for _, pair := range Comparisons {
		if !r.has(pair[0]) || !r.has(pair[1]) {
			continue
		}
		for _, name := range metric.Names {
			c := report.PairedT(r.values(pair[0], name), r.values(pair[1], name), metric.LowerIsBetter(name))
			c.A, c.B, c.Metric = pair[0], pair[1], name
			r.Comparisons = append(r.Comparisons, c)
		}
	}
	r.Findings = r.findings()
}

func (r *Result) has(id string) bool {
	_, ok := r.Table[id]
	return ok
}

// WriteJSON writes r as indented JSON: every per-seed number, the
// configuration, the protocol and the summaries.
func (r *Result) WriteJSON(w io.Writer) error {
	return report.WriteJSON(w, r)
}
