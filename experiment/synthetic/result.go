package synthetic

import (
	"encoding/json"
	"io"
	"math"

	"gonum.org/v1/gonum/stat"

	"github.com/twl-ldl/twl/experiment/internal/expstat"
	"github.com/twl-ldl/twl/metric"
	"github.com/twl-ldl/twl/synth"
)

// ResultFormat identifies the JSON that Result.WriteJSON writes.
const ResultFormat = "twl-synthetic/1"

// Result is the outcome of Run.
type Result struct {
	Format      string   `json:"format"`
	Config      Resolved `json:"config"`
	Differences []string `json:"differences_from_paper"`
	Machine     Machine  `json:"machine"`

	// Runs are every (loss, seed) run, seed by seed, losses in the order
	// of Table 1.
	Runs []LossRun `json:"runs"`
	// Table is, per loss and metric, the mean and sample standard deviation
	// across seeds of the per-seed test means.
	Table map[string]map[string]Stat `json:"table"`
	// Best is, per metric, the loss with the best mean (lowest for a
	// distance, highest for a similarity).
	Best map[string]string `json:"best"`
	// Comparisons are the paired comparisons across seeds.
	Comparisons []Comparison `json:"comparisons"`
	// Findings check the paper's qualitative claims.
	Findings []Finding `json:"findings"`

	TrainData synth.Summary `json:"train_data"` // of the first seed's data
	TestData  synth.Summary `json:"test_data"`

	// Seconds is the wall-clock time of the Run call; TrainSeconds the
	// training time summed over every run, those kept from earlier calls
	// included. Kept counts the runs loaded from OutDir.
	Seconds      Float `json:"seconds"`
	TrainSeconds Float `json:"train_seconds"`
	Kept         int   `json:"kept"`
}

// Machine describes where the runs ran, for the timings.
type Machine = expstat.Machine

// Stat is a mean and a sample standard deviation (NaN for one value).
type Stat = expstat.Stat

// Comparison is a paired comparison of losses A and B on one metric across
// the seeds (expstat.Comparison).
type Comparison = expstat.Comparison

// Comparisons are the pairs (A, B) compared on every metric: the paper's
// proposal against KL alone, and against the Sinkhorn baseline.
var Comparisons = [][2]string{{"kl", "kl+tw"}, {"kl+w1", "kl+tw"}, {"kl", "kl+0.5tw"}}

// PairedT returns the paired comparison of the values b[k] − a[k]: see
// Comparison. lower says that lower values are better. It panics if
// len(a) != len(b).
func PairedT(a, b []float64, lower bool) Comparison { return expstat.PairedT(a, b, lower) }

// values returns the per-seed test means of metric name for loss id,
// indexed by seed − 1 (NaN where the run is missing).
func (r *Result) values(id, name string) []float64 {
	v := make([]float64, r.Config.Settings.Seeds)
	for i := range v {
		v[i] = math.NaN()
	}
	for _, run := range r.Runs {
		if run.Loss == id && run.Seed >= 1 && run.Seed <= len(v) {
			v[run.Seed-1] = float64(run.Metrics[name])
		}
	}
	return v
}

// summarize fills Table, Best, Comparisons, Findings and TrainSeconds from
// Runs.
func (r *Result) summarize() {
	r.Table = map[string]map[string]Stat{}
	r.Best = map[string]string{}
	r.TrainSeconds = 0
	for _, run := range r.Runs {
		r.TrainSeconds += run.Seconds
	}
	for _, id := range r.Config.Losses {
		r.Table[id] = map[string]Stat{}
		for _, name := range metric.Names {
			v := r.values(id, name)
			mean, std := stat.MeanStdDev(v, nil)
			if len(v) == 1 {
				std = math.NaN()
			}
			r.Table[id][name] = Stat{Mean: Float(mean), Std: Float(std)}
		}
	}
	for _, name := range metric.Names {
		r.Best[name] = bestOf(r.Config.Losses, name, func(id string) float64 { return float64(r.Table[id][name].Mean) })
	}
	r.Comparisons = nil
	for _, pair := range Comparisons {
		if !r.has(pair[0]) || !r.has(pair[1]) {
			continue
		}
		for _, name := range metric.Names {
			c := PairedT(r.values(pair[0], name), r.values(pair[1], name), metric.LowerIsBetter(name))
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

// bestOf returns the id whose value is best for metric name, the first on
// ties; NaN values never win.
func bestOf(ids []string, name string, value func(string) float64) string {
	best, bv := "", math.NaN()
	lower := metric.LowerIsBetter(name)
	for _, id := range ids {
		v := value(id)
		if math.IsNaN(v) {
			continue
		}
		if best == "" || lower && v < bv || !lower && v > bv {
			best, bv = id, v
		}
	}
	return best
}

// WriteJSON writes r as indented JSON: every per-seed number, the
// configuration, the protocol and the summaries.
func (r *Result) WriteJSON(w io.Writer) error {
	b, err := json.MarshalIndent(r, "", " ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
