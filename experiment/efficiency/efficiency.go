package efficiency

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"slices"
	"time"

	"github.com/twl-ldl/twl/bench"
	"github.com/twl-ldl/twl/experiment/report"
	"github.com/twl-ldl/twl/internal/human"
	"github.com/twl-ldl/twl/ot/sinkhorn"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tw"
)

// Methods, in the order of the table.
const (
	TWLossGrad       = "tw-loss+grad"
	TWLoss           = "tw-loss"
	SinkhornCold     = "sinkhorn-cold"
	SinkhornColdGrad = "sinkhorn-cold+grad"
	SinkhornWarm     = "sinkhorn-warm"
	SinkhornWarmGrad = "sinkhorn-warm+grad"
)

// Methods lists every method, in the order of the table.
var Methods = []string{TWLossGrad, TWLoss, SinkhornCold, SinkhornColdGrad, SinkhornWarm, SinkhornWarmGrad}

// DefaultLabels are the sizes of the paper's Table 3, and 10⁶ for TW
// (Sinkhorn's need is reported there).
var DefaultLabels = []int{100, 1000, 10000, 100000, 1000000}

// Settings is the paper's Sinkhorn baseline: λ = 50 and exactly 10
// iterations of the log-domain algorithm.
var Settings = sinkhorn.Settings{Lambda: 50, Iters: 10, Tol: -1}

// Config configures Run. The zero value runs the default protocol.
type Config struct {
	// Labels are the sizes L, each at least 2; nil means DefaultLabels.
	Labels []int
	// Methods are the methods run, a subset of Methods; nil means all.
	Methods []string
	// Repeats, when not nil, is the least number of timed measurements per
	// case, at least 1; nil means 3, the paper's. A case whose measurement
	// lasts under 50 ms is measured at least 10 times.
	Repeats *int
	// MinTime, when not nil, is the least duration of one measurement,
	// positive: fast calls are repeated back to back and timed together.
	// nil means 20 ms.
	MinTime *time.Duration
	// Seed seeds the trees and the distributions (with L).
	Seed uint64
	// MaxBytes is the memory a case may need; cases above it are reported
	// with their need instead of run. 0 means 80% of MemAvailable in
	// /proc/meminfo, or 8 GiB where that is unknown; negative means no
	// limit.
	MaxBytes int64
	// Workers bounds the goroutines of Sinkhorn; 0 means GOMAXPROCS. TW
	// runs on one goroutine.
	Workers int
	// NoRSS skips the peak-RSS measurement in separate processes.
	NoRSS bool
	// Executable is the program started for the peak-RSS measurement;
	// "" means os.Executable(). It must call RunChild first thing.
	Executable string
	// RunOptions: progress: a line per measurement; stopped before the
	// next case.
	report.RunOptions

	repeats int           // Repeats resolved
	minTime time.Duration // MinTime resolved
}

// Case is the measurement of one method at one size.
type Case struct {
	Method string `json:"method"`
	Labels int    `json:"labels"`

	// Skipped says why the case was not run; NeedBytes is then what it
	// would need.
	Skipped string `json:"skipped,omitempty"`
	// NeedBytes is the estimated memory the case needs: for Sinkhorn the
	// cost matrix and the kernel (16·L² bytes) plus vectors; for TW the
	// tree, workspace and vectors.
	NeedBytes int64 `json:"need_bytes"`
	// WorstBytes is the bound checked against the limit: sinkhorn.Bytes
	// for Sinkhorn (a private kernel per worker, as many workers as fit
	// the limit, in the worst case), and NeedBytes for TW.
	WorstBytes int64 `json:"worst_bytes"`

	// Seconds is the mean time of one call over the measurements in
	// Samples (each itself the mean of Calls consecutive calls), StdSeconds
	// their standard deviation (n−1).
	Seconds    float64   `json:"seconds"`
	StdSeconds float64   `json:"std_seconds"`
	Samples    []float64 `json:"samples_seconds"`
	Calls      int       `json:"calls_per_sample"`

	// Bytes allocated on the heap (runtime.MemStats.TotalAlloc): to
	// build the ground metric (tree or cost matrix), for the setup
	// (workspace or solver and kernel, gradient vector), by one call (for
	// the cold variants New + Solve), and their sum.
	MetricBytes int64 `json:"metric_alloc_bytes"`
	SetupBytes  int64 `json:"setup_alloc_bytes"`
	CallBytes   int64 `json:"call_alloc_bytes"`
	AllocBytes  int64 `json:"alloc_bytes"`
	// LiveBytes is the heap in use after a collection with everything
	// built and one call made, over the heap in use before.
	LiveBytes int64 `json:"live_bytes"`

	// PeakRSSBytes is the peak resident set of a separate process that
	// built the case and made one call; BaseRSSBytes the same process's
	// peak before it built anything. Both are −1 when not measured, with
	// the reason in RSSNote.
	PeakRSSBytes int64  `json:"peak_rss_bytes"`
	BaseRSSBytes int64  `json:"base_rss_bytes"`
	RSSNote      string `json:"rss_note,omitempty"`

	// Value is the loss value of the call, the same in the parent and the
	// separate process.
	Value float64 `json:"value"`
}

// Size holds the cases of one L.
type Size struct {
	Labels int     `json:"labels"`
	Cases  []*Case `json:"cases"`
}

// Machine describes where Run ran.
type Machine struct {
	GOOS       string  `json:"goos"`
	GOARCH     string  `json:"goarch"`
	CPU        string  `json:"cpu,omitempty"`
	NumCPU     int     `json:"num_cpu"`
	GOMAXPROCS int     `json:"gomaxprocs"`
	GoVersion  string  `json:"go_version"`
	MemTotal   int64   `json:"mem_total_bytes,omitempty"`
	LoadStart  string  `json:"loadavg_start,omitempty"`
	LoadEnd    string  `json:"loadavg_end,omitempty"`
	WallClock  float64 `json:"run_seconds"`
}

// Result is the outcome of Run.
type Result struct {
	Date     time.Time `json:"date"`
	Machine  Machine   `json:"machine"`
	Labels   []int     `json:"labels"`
	Methods  []string  `json:"methods"`
	Repeats  int       `json:"repeats"`
	MinTime  float64   `json:"min_time_seconds"`
	Seed     uint64    `json:"seed"`
	MaxBytes int64     `json:"max_bytes"`
	// MaxBytesFrom says where MaxBytes came from.
	MaxBytesFrom string  `json:"max_bytes_from"`
	Workers      int     `json:"sinkhorn_workers"`
	Lambda       float64 `json:"sinkhorn_lambda"`
	Iters        int     `json:"sinkhorn_iters"`
	// RSS says how peak resident memory was measured, or why not.
	RSS   string  `json:"rss"`
	Sizes []*Size `json:"sizes"`
}

// Case returns the case of method at L, or nil.
func (r *Result) Case(method string, L int) *Case {
	for _, s := range r.Sizes {
		if s.Labels != L {
			continue
		}
		for _, c := range s.Cases {
			if c.Method == method {
				return c
			}
		}
	}
	return nil
}

// ErrConfig reports an invalid Config.
var ErrConfig = report.ErrConfigOf("efficiency")

// resolve checks cfg and fills in the defaults. Its errors are
// *report.ConfigError, wrapping ErrConfig.
func (cfg Config) resolve() (Config, string, error) {
	c := report.Checker{Kind: ErrConfig}
	labels := cfg.Labels
	cfg.Labels = slices.Clone(DefaultLabels)
	cfg.repeats, cfg.minTime = 3, 20*time.Millisecond
	workers := runtime.GOMAXPROCS(0)
	var err error
	for _, err = range []error{
		c.Ints(&cfg.Labels, labels, "Labels", 2, 1<<31-2), c.Int(&cfg.repeats, cfg.Repeats, "Repeats", 1, 1e6),
	} {
		if err != nil {
			return cfg, "", err
		}
	}
	if cfg.MinTime != nil {
		if *cfg.MinTime <= 0 {
			return cfg, "", c.Bad("MinTime", *cfg.MinTime, "must be positive")
		}
		cfg.minTime = *cfg.MinTime
	}
	if cfg.Methods, err = c.Subset("Methods", cfg.Methods, Methods); err != nil {
		return cfg, "", err
	}
	if cfg.Workers < 0 {
		return cfg, "", c.Bad("Workers", cfg.Workers, "must not be negative")
	}
	if cfg.Workers == 0 {
		cfg.Workers = workers
	}
	from := "Config.MaxBytes"
	switch {
	case cfg.MaxBytes < 0:
		cfg.MaxBytes = math.MaxInt64
		from = "no limit"
	case cfg.MaxBytes == 0:
		if avail, err := MemAvailable(); err == nil {
			cfg.MaxBytes = avail / 10 * 8
			from = fmt.Sprintf("80%% of MemAvailable (%s)", formatBytes(float64(avail)))
		} else {
			cfg.MaxBytes = 8 << 30
			from = "8 GiB (MemAvailable unknown)"
		}
	}
	return cfg, from, nil
}

// Run measures every method at every size. It returns an error for an
// invalid Config (wrapping ErrConfig) or a failing computation; cases that
// do not fit in memory are reported in the Result, not as errors.
func Run(cfg Config) (*Result, error) {
	cfg, from, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	res := &Result{
		Date: start.UTC().Truncate(time.Second),
		Machine: Machine{
			GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, NumCPU: runtime.NumCPU(),
			GOMAXPROCS: runtime.GOMAXPROCS(0), GoVersion: runtime.Version(),
			CPU:       procText("/proc/cpuinfo", "model name"),
			LoadStart: loadAvg(),
		},
		Labels: cfg.Labels, Methods: cfg.Methods, Repeats: cfg.repeats,
		MinTime: cfg.minTime.Seconds(), Seed: cfg.Seed,
		MaxBytes: cfg.MaxBytes, MaxBytesFrom: from, Workers: cfg.Workers,
		Lambda: Settings.Lambda, Iters: Settings.Iters,
	}
	if total, err := procField("/proc/meminfo", "MemTotal"); err == nil {
		res.Machine.MemTotal = total
	}
	rss, rssWhy := rssAvailable(cfg)
	res.RSS = rssWhy
	progress := cfg.Progress
	if progress == nil {
		progress = io.Discard
	}
	for _, L := range cfg.Labels {
		size := &Size{Labels: L}
		res.Sizes = append(res.Sizes, size)
		for _, m := range cfg.Methods {
			if cfg.Context != nil && cfg.Context.Err() != nil {
				return nil, cfg.Context.Err()
			}
			c, err := runCase(cfg, m, L, progress)
			if err != nil {
				return nil, err
			}
			size.Cases = append(size.Cases, c)
		}
		// The separate processes run after the parent has let go of this
		// size's memory, so that the two never add up.
		freeMemory()
		for _, c := range size.Cases {
			c.PeakRSSBytes, c.BaseRSSBytes = -1, -1
			switch {
			case c.Skipped != "":
				c.RSSNote = "not run"
			case !rss:
				c.RSSNote = rssWhy
			default:
				measureRSS(cfg, c, progress)
			}
		}
	}
	res.Machine.LoadEnd = loadAvg()
	res.Machine.WallClock = time.Since(start).Seconds()
	return res, nil
}

// freeMemory collects garbage and returns it to the operating system.
func freeMemory() {
	runtime.GC()
	debug.FreeOSMemory()
}

// need returns the estimated and worst-case bytes of method at L.
func need(method string, L, workers int, maxBytes int64) (typical, worst int64) {
	l := float64(L)
	if isTW(method) {
		// Measured: tree.Random + BreadthFirst, the workspace and the
		// gradient allocate about 340 bytes per label at L = 10⁶.
		b := int64(math.Min(400*l, math.MaxInt64/2))
		return b, b
	}
	typ := math.Min(16*l*l+64*l, math.MaxInt64)
	return int64(typ), sinkhorn.Bytes(L, L, sinkhorn.Settings{Lambda: Settings.Lambda, Iters: Settings.Iters, Tol: Settings.Tol, Workers: workers, MaxBytes: maxBytes})
}

func isTW(method string) bool { return method == TWLoss || method == TWLossGrad }

// runCase measures one method at one size in this process.
func runCase(cfg Config, method string, L int, progress io.Writer) (*Case, error) {
	c := &Case{Method: method, Labels: L}
	c.NeedBytes, c.WorstBytes = need(method, L, cfg.Workers, cfg.MaxBytes)
	if c.WorstBytes > cfg.MaxBytes {
		c.Skipped = fmt.Sprintf("needs %s (worst case %s), over the limit of %s",
			formatBytes(float64(c.NeedBytes)), formatBytes(float64(c.WorstBytes)), formatBytes(float64(cfg.MaxBytes)))
		fmt.Fprintf(progress, "efficiency: L=%d %s: skipped, %s\n", L, method, c.Skipped)
		return c, nil
	}
	freeMemory()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	inst, err := build(method, L, cfg.Seed, cfg.Workers, cfg.MaxBytes)
	if errors.Is(err, sinkhorn.ErrTooLarge) {
		c.Skipped = fmt.Sprintf("needs %s, refused by sinkhorn.New: %v", formatBytes(float64(c.NeedBytes)), err)
		fmt.Fprintf(progress, "efficiency: L=%d %s: skipped, %s\n", L, method, c.Skipped)
		return c, nil
	}
	if err != nil {
		return nil, fmt.Errorf("efficiency: L=%d %s: %w", L, method, err)
	}
	c.MetricBytes, c.SetupBytes = inst.metricBytes, inst.setupBytes
	// The warm-up call: its allocation is the call's.
	var callErr error
	t0 := time.Now()
	c.CallBytes = bench.Allocated(func() { c.Value, callErr = inst.op() })
	batch := time.Since(t0)
	if callErr != nil {
		return nil, fmt.Errorf("efficiency: L=%d %s: %w", L, method, callErr)
	}
	c.AllocBytes = c.MetricBytes + c.SetupBytes + c.CallBytes
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	c.LiveBytes = int64(after.HeapAlloc) - int64(before.HeapAlloc)
	runtime.KeepAlive(inst)

	// Find how many back-to-back calls last MinTime, as package testing
	// does: grow the count until a batch lasts long enough. A warm-up
	// call that lasted that long already is enough.
	c.Calls = 1
	for batch < cfg.minTime {
		t0 := time.Now()
		for range c.Calls {
			if _, err := inst.op(); err != nil {
				return nil, fmt.Errorf("efficiency: L=%d %s: %w", L, method, err)
			}
		}
		batch = time.Since(t0)
		if batch >= cfg.minTime || c.Calls >= 1e8 {
			break
		}
		next := 100 * c.Calls
		if batch > 0 {
			next = min(next, int(1.2*float64(c.Calls)*float64(cfg.minTime)/float64(batch))+1)
		}
		c.Calls = max(next, c.Calls+1)
	}
	n := cfg.repeats
	if batch < 50*time.Millisecond {
		n = max(n, 10)
	}
	for range n {
		runtime.GC()
		t0 := time.Now()
		for range c.Calls {
			if _, err := inst.op(); err != nil {
				return nil, fmt.Errorf("efficiency: L=%d %s: %w", L, method, err)
			}
		}
		c.Samples = append(c.Samples, time.Since(t0).Seconds()/float64(c.Calls))
	}
	c.Seconds, c.StdSeconds = meanStd(c.Samples)
	fmt.Fprintf(progress, "efficiency: L=%d %s: %s ± %s (%d × %d calls), %s allocated\n",
		L, method, human.Seconds(c.Seconds), human.Seconds(c.StdSeconds), n, c.Calls, formatBytes(float64(c.AllocBytes)))
	return c, nil
}

// instance is one case built in memory: op makes one call and returns the
// loss.
type instance struct {
	op                      func() (float64, error)
	metricBytes, setupBytes int64
}

// inputs returns the random pair of distributions of size L.
func inputs(L int, seed uint64) (a, b []float64) {
	rng := rand.New(rand.NewPCG(seed, uint64(L)+1))
	a, b = make([]float64, L), make([]float64, L)
	for _, x := range [][]float64{a, b} {
		for i := range x {
			x[i] = rng.Float64()
		}
		report.Normalize(x)
	}
	return a, b
}

// build builds what method needs at L, measuring the allocations.
func build(method string, L int, seed uint64, workers int, maxBytes int64) (*instance, error) {
	a, b := inputs(L, seed)
	in := &instance{}
	if isTW(method) {
		var t *tree.Tree
		in.metricBytes = bench.Allocated(func() { t = tree.Random(L, rand.NewPCG(seed, uint64(L))).BreadthFirst() })
		var ws *tw.Workspace
		var grad []float64
		in.setupBytes = bench.Allocated(func() {
			ws = tw.NewWorkspace(t)
			if method == TWLossGrad {
				grad = make([]float64, L)
			}
		})
		if method == TWLoss {
			in.op = func() (float64, error) { return ws.Distance(a, b), nil }
		} else {
			in.op = func() (float64, error) { return ws.DistanceGrad(grad, a, b), nil }
		}
		return in, nil
	}
	set := Settings
	set.Workers, set.MaxBytes = workers, maxBytes
	var cost []float64
	in.metricBytes = bench.Allocated(func() { cost = uniformCost(L) })
	var grad []float64
	withGrad := method == SinkhornColdGrad || method == SinkhornWarmGrad
	solve := func(s *sinkhorn.Solver) (float64, error) {
		if withGrad {
			return s.Grad(grad, a, b)
		}
		r, err := s.Solve(a, b)
		return r.Value, err
	}
	var s *sinkhorn.Solver
	var err error
	in.setupBytes = bench.Allocated(func() {
		if withGrad {
			grad = make([]float64, L)
		}
		if method == SinkhornWarm || method == SinkhornWarmGrad {
			s, err = sinkhorn.New(cost, L, L, set)
		}
	})
	if err != nil {
		return nil, err
	}
	if s != nil {
		in.op = func() (float64, error) { return solve(s) }
		return in, nil
	}
	in.op = func() (float64, error) {
		s, err := sinkhorn.New(cost, L, L, set)
		if err != nil {
			return 0, err
		}
		return solve(s)
	}
	// Check now that New accepts the size, so that a refusal is a skip.
	if sinkhorn.Bytes(L, L, set) > maxBytes {
		return nil, fmt.Errorf("%w", sinkhorn.ErrTooLarge)
	}
	return in, nil
}

// uniformCost returns the L×L cost 11ᵀ − I.
func uniformCost(L int) []float64 {
	c := make([]float64, L*L)
	for i := range c {
		c[i] = 1
	}
	for i := range L {
		c[i*L+i] = 0
	}
	return c
}

// meanStd returns the mean and the sample standard deviation (n−1; 0 for
// one sample).
func meanStd(x []float64) (mean, std float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	if len(x) < 2 {
		return mean, 0
	}
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / float64(len(x)-1))
}
