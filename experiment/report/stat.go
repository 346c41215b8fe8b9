package report

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Stat is a mean and a sample standard deviation (NaN for one value).
type Stat struct {
	Mean Float `json:"mean"`
	Std  Float `json:"std"`
}

// Comparison is a paired comparison of losses A and B on one metric across
// the seeds: the differences d_k = B_k − A_k.
type Comparison struct {
	A      string `json:"a"`
	B      string `json:"b"`
	Metric string `json:"metric"`
	N      int    `json:"n"` // seeds with both runs
	// MeanDiff and SDDiff are the mean and the sample standard deviation of
	// the differences.
	MeanDiff Float `json:"mean_diff"`
	SDDiff   Float `json:"sd_diff"`
	// T is the paired t statistic MeanDiff/(SDDiff/√N) and P its two-sided
	// p-value under Student's t with N − 1 degrees of freedom. For N < 2
	// both are NaN; when every difference is the same, T is ±Inf (P = 0)
	// or, if they are all 0, undefined: NaN, and P with it.
	T Float `json:"t"`
	P Float `json:"p"`
	// BBetter, ABetter and Ties count the seeds on which B was better
	// than A, worse, or equal, in the metric's direction.
	BBetter int `json:"b_better"`
	ABetter int `json:"a_better"`
	Ties    int `json:"ties"`
}

// PairedT returns the paired comparison of the values b[k] − a[k]:
// see Comparison. lower says that lower values are better. It panics if
// len(a) != len(b).
func PairedT(a, b []float64, lower bool) Comparison {
	if len(a) != len(b) {
		panic("report: PairedT with samples of different sizes")
	}
	// Pairs with a NaN (a run missing, a measure undefined) are left out.
	var d []float64
	for k := range a {
		if a[k] == a[k] && b[k] == b[k] {
			d = append(d, b[k]-a[k])
		}
	}
	n := len(d)
	c := Comparison{N: n}
	for _, v := range d {
		switch {
		case v == 0:
			c.Ties++
		case (v < 0) == lower:
			c.BBetter++
		default:
			c.ABetter++
		}
	}
	if n == 0 {
		c.MeanDiff, c.SDDiff, c.T, c.P = Float(math.NaN()), Float(math.NaN()), Float(math.NaN()), Float(math.NaN())
		return c
	}
	mean := stat.Mean(d, nil)
	c.MeanDiff = Float(mean)
	if n < 2 {
		c.SDDiff, c.T, c.P = Float(math.NaN()), Float(math.NaN()), Float(math.NaN())
		return c
	}
	sd := stat.StdDev(d, nil)
	c.SDDiff = Float(sd)
	switch {
	case sd == 0 && mean == 0:
		c.T, c.P = Float(math.NaN()), Float(math.NaN())
	case sd == 0:
		c.T, c.P = Float(math.Copysign(math.Inf(1), mean)), 0
	default:
		t := mean / (sd / math.Sqrt(float64(n)))
		st := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}
		c.T, c.P = Float(t), Float(2*st.CDF(-math.Abs(t)))
	}
	return c
}

// Summary is the table of an experiment: per condition (a loss, a tree)
// and measure, the mean and sample standard deviation across seeds of the
// per-seed values; per measure the condition with the best mean; and the
// paired comparisons of every condition with a baseline.
type Summary struct {
	Table       map[string]map[string]Stat `json:"table"`
	Best        map[string]string          `json:"best"`
	Comparisons []Comparison               `json:"comparisons"`
}

// Timing is how long an experiment of training runs took: Seconds the
// wall-clock time of the call, TrainSeconds the training time summed over
// every run, those kept from earlier calls included, and Kept the number
// of runs kept.
type Timing struct {
	Seconds      Float `json:"seconds"`
	TrainSeconds Float `json:"train_seconds"`
	Kept         int   `json:"kept"`
}

// SummarizeRuns is Summarize over runs: of returns a run's condition,
// seed (1, 2, …, seeds) and measures; it also returns the training time
// of the runs, seconds(run) each.
func SummarizeRuns[R any](ids, measures []string, seeds int, runs []R, of func(run *R) (id string, seed int, m map[string]Float),
	seconds func(run *R) Float, lower func(measure string) bool, base string) (Summary, Float) {
	var total Float
	for i := range runs {
		total += seconds(&runs[i])
	}
	values := func(id, name string) []float64 {
		return SeedValues(seeds, runs, func(run *R) (int, float64, bool) {
			rid, seed, m := of(run)
			return seed, float64(m[name]), rid == id
		})
	}
	return Summarize(ids, measures, values, lower, base), total
}

// Summarize makes the Summary of conditions ids on measures. values(id,
// measure) returns the per-seed values, indexed by seed − 1, NaN where a
// run is missing; lower tells a measure's direction. The comparisons are
// of every other condition with base, measure by measure, when base is
// among ids.
func Summarize(ids, measures []string, values func(id, measure string) []float64, lower func(measure string) bool, base string) Summary {
	s := Summary{Table: map[string]map[string]Stat{}, Best: map[string]string{}}
	for _, id := range ids {
		s.Table[id] = map[string]Stat{}
		for _, name := range measures {
			v := values(id, name)
			mean, std := stat.MeanStdDev(v, nil)
			if len(v) == 1 {
				std = math.NaN()
			}
			s.Table[id][name] = Stat{Mean: Float(mean), Std: Float(std)}
		}
	}
	for _, name := range measures {
		s.Best[name] = Best(ids, lower(name), func(id string) float64 { return float64(s.Table[id][name].Mean) })
	}
	if slices.Contains(ids, base) {
		for _, id := range ids {
			if id == base {
				continue
			}
			for _, name := range measures {
				c := PairedT(values(base, name), values(id, name), lower(name))
				c.A, c.B, c.Metric = base, id, name
				s.Comparisons = append(s.Comparisons, c)
			}
		}
	}
	return s
}

// Best returns the id whose value is best, the lowest if lower and the
// highest otherwise, the first on ties; NaN values never win, and with
// none but NaN values Best returns "".
func Best(ids []string, lower bool, value func(id string) float64) string {
	best, bv := "", math.NaN()
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

// SeedValues returns the values of seeds 1 … seeds, indexed by seed − 1,
// from runs: value returns a run's seed, its value and whether the run
// counts. Seeds with no run that counts are NaN, and runs of seeds out of
// range are passed over.
func SeedValues[R any](seeds int, runs []R, value func(run *R) (seed int, v float64, ok bool)) []float64 {
	v := make([]float64, seeds)
	for i := range v {
		v[i] = math.NaN()
	}
	for i := range runs {
		if seed, x, ok := value(&runs[i]); ok && seed >= 1 && seed <= seeds {
			v[seed-1] = x
		}
	}
	return v
}

// Header is what the Result of an experiment that is not one of training
// runs (see Outcome) begins with: its format, its configuration C and the
// machine it ran on.
type Header[C any] struct {
	Format  string  `json:"format"`
	Config  C       `json:"config"`
	Machine Machine `json:"machine"`
}

// NewHeader returns the Header of a Result in format of config, run on
// this machine.
func NewHeader[C any](format string, config C) Header[C] {
	return Header[C]{Format: format, Config: config, Machine: ThisMachine()}
}

// Outcome is what the Result of an experiment of training runs, one per
// (condition, seed), begins with: its format, its configuration C, how
// that differs from the paper's protocol, the machine, the runs R, their
// Summary and Timing.
type Outcome[C, R any] struct {
	Format      string   `json:"format"`
	Config      C        `json:"config"`
	Differences []string `json:"differences_from_paper"`
	Machine     Machine  `json:"machine"`
	Runs        []R      `json:"runs"`
	Summary
	Timing
}

// Correlation is Pearson's correlation of x and y, NaN for fewer than two
// pairs or when either series is constant (the correlation is then not
// defined).
func Correlation(x, y []float64) float64 {
	if len(x) < 2 || stat.Variance(x, nil) == 0 || stat.Variance(y, nil) == 0 {
		return math.NaN()
	}
	return stat.Correlation(x, y, nil)
}
