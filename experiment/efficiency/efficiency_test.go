package efficiency

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	_ "image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twl-ldl/twl/internal/human"
)

// TestMain lets this test binary serve as the peak-RSS measurement
// process: Run starts os.Executable() (the test binary) with ChildEnv set,
// and RunChild measures and exits before any test runs.
func TestMain(m *testing.M) {
	if child, err := RunChild(os.Stdout); child {
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// small is a fast configuration.
func small(labels ...int) Config {
	return Config{Labels: labels, Repeats: new(1), MinTime: new(time.Millisecond), Seed: 7}
}

func linux() bool {
	_, err := PeakRSS()
	return err == nil
}

func TestRun(t *testing.T) {
	var progress bytes.Buffer
	cfg := small(100, 300)
	cfg.Progress = &progress
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sizes) != 2 {
		t.Fatalf("%d sizes, want 2", len(res.Sizes))
	}
	for _, s := range res.Sizes {
		L := s.Labels
		if len(s.Cases) != len(Methods) {
			t.Fatalf("L=%d: %d cases, want %d", L, len(s.Cases), len(Methods))
		}
		for _, c := range s.Cases {
			name := fmt.Sprintf("L=%d %s", L, c.Method)
			switch {
			case c.Skipped != "":
				t.Errorf("%s skipped: %s", name, c.Skipped)
			case len(c.Samples) < 10 && c.Seconds*float64(c.Calls) < 0.025:
				// A batch under 50 ms is measured at least 10 times; one
				// that took longer (a slow or loaded machine, the race
				// detector) may be measured Repeats times.
				t.Errorf("%s: %d samples", name, len(c.Samples))
			case !(c.Seconds > 0) || c.StdSeconds < 0 || c.Calls < 1:
				t.Errorf("%s: time %g ± %g over %d calls", name, c.Seconds, c.StdSeconds, c.Calls)
			case c.AllocBytes != c.MetricBytes+c.SetupBytes+c.CallBytes:
				t.Errorf("%s: allocated %d ≠ %d + %d + %d", name, c.AllocBytes, c.MetricBytes, c.SetupBytes, c.CallBytes)
			case !(c.Value > 0):
				t.Errorf("%s: loss %g", name, c.Value)
			}
			// Sinkhorn allocates at least the cost matrix and the kernel.
			if !isTW(c.Method) && c.AllocBytes < int64(16*L*L) {
				t.Errorf("%s: allocated %d < 16L² = %d", name, c.AllocBytes, 16*L*L)
			}
			// TW's hot path allocates nothing; nor does warm Sinkhorn's... except
			// for the goroutines of its workers, so only TW is checked.
			if isTW(c.Method) && c.CallBytes != 0 {
				t.Errorf("%s: one call allocated %d bytes", name, c.CallBytes)
			}
			if linux() {
				if c.PeakRSSBytes < c.BaseRSSBytes || c.BaseRSSBytes <= 0 || c.RSSNote != "" {
					t.Errorf("%s: peak RSS %d, at start %d, note %q", name, c.PeakRSSBytes, c.BaseRSSBytes, c.RSSNote)
				}
			} else if c.PeakRSSBytes != -1 || !strings.HasPrefix(c.RSSNote, "n/a") {
				t.Errorf("%s: peak RSS %d with note %q off Linux", name, c.PeakRSSBytes, c.RSSNote)
			}
		}
		// The same loss, whichever way it is computed.
		for _, p := range [][2]string{{TWLoss, TWLossGrad}, {SinkhornCold, SinkhornWarm}, {SinkhornCold, SinkhornColdGrad}, {SinkhornWarm, SinkhornWarmGrad}} {
			if a, b := res.Case(p[0], L).Value, res.Case(p[1], L).Value; a != b {
				t.Errorf("L=%d: %s = %v, %s = %v", L, p[0], a, p[1], b)
			}
		}
		// The Sinkhorn memory dwarfs TW's already at L = 100.
		if tw, sk := res.Case(TWLossGrad, L), res.Case(SinkhornCold, L); tw.AllocBytes >= sk.AllocBytes {
			t.Errorf("L=%d: TW allocated %d, Sinkhorn %d", L, tw.AllocBytes, sk.AllocBytes)
		}
	}
	if !strings.Contains(progress.String(), "efficiency: L=300 sinkhorn-warm+grad: ") {
		t.Errorf("progress lacks the last case:\n%s", progress.String())
	}
}

func TestWouldNeed(t *testing.T) {
	// 4 MB: TW at L = 1000 (about 0.3 MB) runs, Sinkhorn (16 MB) does not.
	cfg := small(1000)
	cfg.MaxBytes = 4e6
	cfg.NoRSS = true
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Case(TWLossGrad, 1000); c.Skipped != "" || c.Seconds <= 0 {
		t.Errorf("TW: skipped %q, %g s", c.Skipped, c.Seconds)
	}
	for _, m := range Methods[2:] {
		c := res.Case(m, 1000)
		if c.Skipped == "" || c.NeedBytes != 16*1000*1000+64*1000 || c.Samples != nil || c.PeakRSSBytes != -1 {
			t.Errorf("%s: skipped %q, need %d, samples %v, peak RSS %d", m, c.Skipped, c.NeedBytes, c.Samples, c.PeakRSSBytes)
		}
	}
	md := res.Markdown()
	for _, want := range []string{"(16.1 MB)", "— (not run)", "Sinkhorn cold not run: it needs 16.1 MB"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
}

// TestPaperValues checks that the report quotes the paper's Table 3 and
// the reference figures (a run with nothing fitting in memory, so fast).
func TestPaperValues(t *testing.T) {
	cfg := small(100, 1000, 10000, 100000)
	cfg.MaxBytes = 1
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	md := res.Markdown()
	for _, want := range []string{
		// Table 3 of the paper, TW, W¹ with GPU, W¹ with CPU.
		"| 10² | TW: loss + gradient | 0.0024 | 1.58 MB |", "0.0126", "2.44 MB", "0.1204", "9.82 MB", "1.6454", "66.00 MB",
		"0.0062", "3.32 MB", "0.0071", "16.94 MB", "0.5277", "766.88 MB", "(37.25 GB)",
		"0.0528", "2.98 MB", "0.1279", "7.08 MB", "25.7985", "1148.22 MB", "(40.00 GB)",
		// REFERENCE.md.
		"PyTorch level-wise scatter: 0.49 ms", "PyTorch sparse subtree matrix: 2.78 s, 4.2 GB peak", "POT sinkhorn2 log: 17.5 s, 4.1 GB peak",
		"PyTorch level-wise scatter: 0.07–0.30 s, 0.6–0.9 GB peak",
		"PyTorch Euler tour (strongest): 0.14 ms; PyTorch level-wise", "PyTorch Euler tour (strongest): 4.2–6.4 ms, 0.3 GB peak",
		"../shared/REFERENCE.md",
		// Sinkhorn at 10⁵ in float64: cost matrix and kernel.
		"(160 GB)",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(md)
	}
}

// TestSpeedups checks the findings' speed-ups of TW against the PyTorch
// figures of REFERENCE.md, on a result made by hand: a twl time of 0.2 ms at
// 10⁵ against the Euler tour's 4.2–6.4 ms is 4.2/0.2 = 21 to 6.4/0.2 = 32
// times, against the level-wise scatter's 0.07–0.30 s 350 to 1500 times,
// and against the paper's 1.6454 s 8227 times.
func TestSpeedups(t *testing.T) {
	r := &Result{Sizes: []*Size{{Labels: 100000, Cases: []*Case{{Method: TWLossGrad, Labels: 100000, Seconds: 0.2e-3}}}}}
	var b strings.Builder
	r.findings(&b)
	for _, want := range []string{
		"PyTorch's strongest TW (Euler tour, REFERENCE.md) 4.2–6.4 ms, 21.0–32.0× twl's time",
		"its level-wise scatter 70–300 ms, 350–1500×",
		"the paper's TW took 1.6454 s, 8227× twl's",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("findings lack %q:\n%s", want, b.String())
		}
	}
}

func TestJSON(t *testing.T) {
	cfg := small(100)
	cfg.Methods = []string{TWLossGrad, SinkhornCold}
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := res.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"date", "machine", "labels", "methods", "repeats", "seed", "max_bytes", "max_bytes_from", "sinkhorn_lambda", "sinkhorn_iters", "rss", "sizes"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	sizes := doc["sizes"].([]any)
	cases := sizes[0].(map[string]any)["cases"].([]any)
	if len(cases) != 2 {
		t.Fatalf("%d cases, want 2", len(cases))
	}
	for _, k := range []string{"method", "labels", "need_bytes", "worst_bytes", "seconds", "std_seconds", "samples_seconds", "calls_per_sample",
		"metric_alloc_bytes", "setup_alloc_bytes", "call_alloc_bytes", "alloc_bytes", "live_bytes", "peak_rss_bytes", "base_rss_bytes", "value"} {
		if _, ok := cases[0].(map[string]any)[k]; !ok {
			t.Errorf("case JSON lacks %q", k)
		}
	}
	// The JSON reads back into a Result.
	var back Result
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back.Case(SinkhornCold, 100).Value != res.Case(SinkhornCold, 100).Value {
		t.Errorf("round trip: %v", err)
	}
}

func TestPlots(t *testing.T) {
	cfg := small(100, 1000, 100000)
	cfg.MaxBytes = 4e6 // Sinkhorn at 1000 and 10⁵: what it would need
	cfg.NoRSS = true
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if d := os.Getenv("EFFICIENCY_KEEP"); d != "" {
		dir = d
	}
	names, err := res.WriteFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{MarkdownFile, JSONFile, TimePlot + ".png", TimePlot + ".svg", MemoryPlot + ".png", MemoryPlot + ".svg"}
	if !slices.Equal(names, want) {
		t.Fatalf("wrote %v, want %v", names, want)
	}
	for _, name := range names[2:] {
		p := filepath.Join(dir, name)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Ext(p) == ".png" {
			if _, _, err := image.Decode(bytes.NewReader(data)); err != nil {
				t.Errorf("%s: %v", p, err)
			}
		} else if !bytes.HasPrefix(bytes.TrimSpace(data), []byte("<?xml")) && !bytes.HasPrefix(bytes.TrimSpace(data), []byte("<svg")) {
			t.Errorf("%s is not SVG", p)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	for _, cfg := range []Config{
		{Labels: []int{}},
		{Labels: []int{1}},
		{Methods: []string{"nope"}},
		{Repeats: new(-1)},
		{MinTime: new(time.Duration(-1))},
		{Workers: -1},
	} {
		if _, err := Run(cfg); !errors.Is(err, ErrConfig) {
			t.Errorf("Run(%+v): %v, want ErrConfig", cfg, err)
		}
	}
}

// TestRSSNotHooked checks that a program that does not call RunChild gets
// no measurement processes (they would run the program itself) and a
// reason instead.
func TestRSSNotHooked(t *testing.T) {
	hooked.Store(false)
	defer hooked.Store(true)
	cfg := small(100)
	cfg.Methods = []string{TWLoss}
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Case(TWLoss, 100); c.PeakRSSBytes != -1 || !strings.Contains(c.RSSNote, "does not call efficiency.RunChild") {
		t.Errorf("peak RSS %d, note %q", c.PeakRSSBytes, c.RSSNote)
	}
}

// TestChild runs the measurement child in-process.
func TestChild(t *testing.T) {
	t.Setenv(ChildEnv, `{"method": "tw-loss+grad", "labels": 50, "seed": 3, "workers": 1, "max_bytes": 1000000}`)
	var out bytes.Buffer
	child, err := RunChild(&out)
	if !child || err != nil {
		t.Fatalf("RunChild: %v, %v", child, err)
	}
	var rep childReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v: %q", err, out.String())
	}
	if !(rep.Value > 0) || linux() && (rep.PeakRSS < rep.BaseRSS || rep.BaseRSS <= 0) {
		t.Errorf("report %+v", rep)
	}
	// In a child, Run does not start further children.
	if ok, why := rssAvailable(Config{}); ok || !strings.Contains(why, "itself a measurement child") {
		t.Errorf("rssAvailable in a child: %v, %q", ok, why)
	}
	for _, bad := range []string{`{`, `{"method": "nope", "labels": 50}`, `{"method": "tw-loss", "labels": 1}`} {
		t.Setenv(ChildEnv, bad)
		if child, err := RunChild(&out); !child || err == nil {
			t.Errorf("RunChild with %s: %v, %v", bad, child, err)
		}
	}
}

func TestChildFails(t *testing.T) {
	if !linux() {
		t.Skip("peak RSS needs /proc")
	}
	// A program that exits with a failure: the case keeps its time and
	// says why it has no peak RSS.
	cfg := small(100)
	cfg.Methods = []string{TWLoss}
	cfg.Executable = "/bin/false"
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Case(TWLoss, 100); c.PeakRSSBytes != -1 || !strings.HasPrefix(c.RSSNote, "n/a: measurement process failed") || c.Seconds <= 0 {
		t.Errorf("peak RSS %d, note %q, time %g", c.PeakRSSBytes, c.RSSNote, c.Seconds)
	}
}

func TestParseProcField(t *testing.T) {
	status := []byte("Name:\ttwl\nVmPeak:\t  12345 kB\nVmHWM:\t    2048 kB\nThreads:\t5\nOdd:\t1 parsec\n")
	for _, c := range []struct {
		name string
		want int64
		ok   bool
	}{
		{"VmHWM", 2048 << 10, true},
		{"VmPeak", 12345 << 10, true},
		{"Threads", 5, true},
		{"VmRSS", 0, false},
		{"Name", 0, false},
		{"Odd", 0, false},
	} {
		got, err := parseProcField(status, c.name, "status")
		if c.ok && (err != nil || got != c.want) || !c.ok && !errors.Is(err, ErrNoProcfs) {
			t.Errorf("%s: %d, %v; want %d, ok=%v", c.name, got, err, c.want, c.ok)
		}
	}
	if _, err := procField("/nonexistent/status", "VmHWM"); !errors.Is(err, ErrNoProcfs) {
		t.Errorf("missing file: %v", err)
	}
	if linux() {
		if v, err := MemAvailable(); err != nil || v <= 0 {
			t.Errorf("MemAvailable: %d, %v", v, err)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{formatBytes(512), "512 B"}, {formatBytes(1.58e6), "1.58 MB"}, {formatBytes(16.064e6), "16.1 MB"},
		{formatBytes(1.6e11), "160 GB"}, {formatBytes(999.7e6), "1.00 GB"}, {formatBytes(1.6e13), "16.0 TB"},
		{human.Seconds(1.5e-7), "150 ns"}, {human.Seconds(0.0024), "2.40 ms"}, {human.Seconds(25.8), "25.8 s"},
		{pow10(100), "10²"}, {pow10(1000000), "10⁶"}, {pow10(300), "300"}, {pow10(1), "1"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	if m, s := meanStd([]float64{1, 2, 3}); m != 2 || math.Abs(s-1) > 1e-15 {
		t.Errorf("meanStd: %g, %g", m, s)
	}
}
