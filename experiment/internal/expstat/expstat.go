// Package expstat holds what the experiments' reports share: JSON-safe
// floats, means with standard deviations, the machine a run ran on, paired
// t-tests across seeds, a filter for training progress, the run files that
// make experiments resumable, and the writing of a report's files.
package expstat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/twl-ldl/twl/internal/atomicfile"
	"github.com/twl-ldl/twl/internal/plotutil"
)

// Float is a float64 that JSON can hold whatever its value: finite values
// are numbers in shortest round-trip form, NaN and the infinities (a
// standard deviation over one seed, a kl that is +Inf) the strings "NaN",
// "+Inf" and "-Inf", which Go's strconv.ParseFloat and Python's float()
// read back.
type Float float64

// MarshalJSON implements json.Marshaler.
func (f Float) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte(`"` + strconv.FormatFloat(v, 'g', -1, 64) + `"`), nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (f *Float) UnmarshalJSON(b []byte) error {
	s := string(b)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
		switch s {
		case "NaN", "+Inf", "-Inf":
		default:
			return fmt.Errorf("expstat: %q is not a number", s)
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("expstat: %s is not a number", b)
	}
	*f = Float(v)
	return nil
}

// Machine describes where the runs ran, for the timings.
type Machine struct {
	GOOS       string `json:"goos"`
	GOARCH     string `json:"goarch"`
	CPUs       int    `json:"cpus"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	Go         string `json:"go"`
}

// ThisMachine describes the machine the program runs on.
func ThisMachine() Machine {
	return Machine{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPUs: runtime.NumCPU(),
		GOMAXPROCS: runtime.GOMAXPROCS(0), Go: runtime.Version()}
}

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
	// or, if they are all 0, NaN (P = 1).
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
		panic("expstat: PairedT with samples of different sizes")
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
		c.T, c.P = Float(math.NaN()), 1
	case sd == 0:
		c.T, c.P = Float(math.Copysign(math.Inf(1), mean)), 0
	default:
		t := mean / (sd / math.Sqrt(float64(n)))
		st := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}
		c.T, c.P = Float(t), Float(2*st.CDF(-math.Abs(t)))
	}
	return c
}

// EpochFilter passes on the progress lines of train.Train ("epoch E/N …")
// for every Every-th epoch and the last, and every other line, to W with
// Prefix.
type EpochFilter struct {
	W      io.Writer
	Prefix string
	Every  int
	buf    []byte
}

func (f *EpochFilter) Write(p []byte) (int, error) {
	f.buf = append(f.buf, p...)
	for {
		i := bytes.IndexByte(f.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := f.buf[:i+1]
		var e, n int
		if _, err := fmt.Sscanf(string(line), "epoch %d/%d", &e, &n); err != nil || e%f.Every == 0 || e == n {
			if _, err := fmt.Fprintf(f.W, "%s%s", f.Prefix, line); err != nil {
				return len(p), err
			}
		}
		f.buf = f.buf[i+1:]
	}
}

// WriteReport writes a report to dir, creating it if needed: the JSON that
// writeJSON writes to jsonName, the Markdown md to mdName, and each figure
// as PNG and SVG, every file atomically. It returns the names of the files
// written, relative to dir.
func WriteReport(dir, jsonName string, writeJSON func(io.Writer) error, mdName, md string, figs map[string]*plotutil.Figure) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var written []string
	var js bytes.Buffer
	if err := writeJSON(&js); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{jsonName, js.Bytes()}, {mdName, []byte(md)}} {
		if err := atomicfile.WriteFile(filepath.Join(dir, f.name), f.data, 0o644); err != nil {
			return written, err
		}
		written = append(written, f.name)
	}
	names := make([]string, 0, len(figs))
	for base := range figs {
		names = append(names, base)
	}
	slices.Sort(names)
	for _, base := range names {
		if err := figs[base].Save(filepath.Join(dir, base)); err != nil {
			return written, err
		}
		written = append(written, base+".png", base+".svg")
	}
	return written, nil
}

// ReadRun reads the JSON run file path into run. It reports false, and no
// error, when there is no such file.
func ReadRun(path string, run any) (bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, json.Unmarshal(b, run)
}

// OtherExperiment is the error for a run file whose key, got, is not the
// key of the run the experiment wants.
func OtherExperiment(path string, got, want any) error {
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	return fmt.Errorf("%s belongs to another experiment:\n  it has %s\n  this is %s\nuse another output directory, or remove %s to run again",
		path, g, w, filepath.Dir(path))
}

// WriteRun writes run as indented JSON to path, atomically, then removes
// the run's checkpoint, which the finished run replaces.
func WriteRun(path string, run any, checkpoint string) error {
	b, err := json.MarshalIndent(run, "", " ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return err
	}
	if err := os.Remove(checkpoint); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// MeanCurve returns the series named name of the mean, epoch by epoch, of
// the curves (one value per epoch each; curves of different lengths are
// averaged over those that reach an epoch).
func MeanCurve(name string, curves [][]Float) plotutil.Series {
	var sum []float64
	var count []int
	for _, c := range curves {
		for e, v := range c {
			if e >= len(sum) {
				sum = append(sum, 0)
				count = append(count, 0)
			}
			sum[e] += float64(v)
			count[e]++
		}
	}
	s := plotutil.Series{Name: name}
	for e := range sum {
		s.X = append(s.X, float64(e+1))
		s.Y = append(s.Y, sum[e]/float64(count[e]))
	}
	return s
}

// Summary is the table of an experiment: per condition (a loss, a tree)
// and measure, the mean and sample standard deviation across seeds of the
// per-seed values; per measure the condition with the best mean; and the
// paired comparisons of every condition with a baseline.
type Summary struct {
	Table       map[string]map[string]Stat
	Best        map[string]string
	Comparisons []Comparison
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
		best, bv := "", math.NaN()
		for _, id := range ids {
			v := float64(s.Table[id][name].Mean)
			if math.IsNaN(v) {
				continue
			}
			if best == "" || lower(name) && v < bv || !lower(name) && v > bv {
				best, bv = id, v
			}
		}
		s.Best[name] = best
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
