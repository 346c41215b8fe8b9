package synthetic

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twl-ldl/twl/metric"
	"github.com/twl-ldl/twl/synth"

	"github.com/twl-ldl/twl/experiment/report"
)

// tiny is a protocol small enough for tests: 30 nodes, 40 samples, 2
// epochs, 2 seeds.
func tiny(out string, progress io.Writer) Config {
	return Config{
		Nodes: new(30), Train: new(40), Test: new(40), Epochs: new(2), Seeds: new(2),
		Data:   synth.Config{Features: 8, Hidden: 6},
		OutDir: out, RunOptions: report.RunOptions{Progress: progress},
	}
}

func TestRunTiny(t *testing.T) {
	dir := t.TempDir()
	var prog bytes.Buffer
	start := time.Now()
	res, err := Run(tiny(dir, &prog))
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the tiny protocol took %v", d)
	}
	if len(res.Runs) != 2*len(LossIDs) || res.Kept != 0 {
		t.Fatalf("%d runs, %d kept", len(res.Runs), res.Kept)
	}
	for _, run := range res.Runs {
		if len(run.TrainLoss) != 2 || len(run.Metrics) != len(metric.Names) {
			t.Errorf("%s seed %d: %d epochs, %d metrics", run.Loss, run.Seed, len(run.TrainLoss), len(run.Metrics))
		}
		for name, v := range run.Metrics {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				t.Errorf("%s seed %d: %s = %v", run.Loss, run.Seed, name, v)
			}
		}
	}
	for _, id := range LossIDs {
		for _, name := range metric.Names {
			st := res.Table[id][name]
			if math.IsNaN(float64(st.Mean)) || math.IsNaN(float64(st.Std)) {
				t.Errorf("%s %s: %+v", id, name, st)
			}
		}
	}
	if len(res.Findings) != 8 || len(res.Comparisons) != len(Comparisons)*len(metric.Names) {
		t.Errorf("%d findings, %d comparisons", len(res.Findings), len(res.Comparisons))
	}
	// Same seed, same initial weights and batches: runs are reproducible.
	again, err := Run(tiny("", nil))
	if err != nil {
		t.Fatal(err)
	}
	for i := range res.Runs {
		for _, name := range metric.Names {
			if res.Runs[i].Metrics[name] != again.Runs[i].Metrics[name] {
				t.Fatalf("run %d: %s differs between two calls", i, name)
			}
		}
	}

	// Report files.
	files, err := res.WriteFiles(filepath.Join(dir, "report"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{MarkdownFile, JSONFile, CurvesPlot + ".png", CurvesPlot + ".svg", MetricsPlot + "wasserstein.svg"}
	for _, w := range want {
		if fi, err := os.Stat(filepath.Join(dir, "report", w)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", w, err)
		}
	}
	if len(files) != 2+2*(1+len(metric.Names)) {
		t.Errorf("wrote %v", files)
	}
	// The JSON reads back, with every per-seed number.
	b, err := os.ReadFile(filepath.Join(dir, "report", JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	var back Result
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Runs) != len(res.Runs) || back.Runs[3].Metrics["kl"] != res.Runs[3].Metrics["kl"] ||
		back.Config.Settings != res.Config.Settings || back.Format != ResultFormat {
		t.Error("the JSON does not read back")
	}
}

func TestResume(t *testing.T) {
	dir := t.TempDir()
	var first bytes.Buffer
	cfg := tiny(dir, &first)
	cfg.Losses = []string{"kl", "kl+tw"}
	a, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(first.String(), "kept") || !strings.Contains(first.String(), "training 2 epochs") {
		t.Errorf("first run's progress:\n%s", first.String())
	}
	path := filepath.Join(dir, "runs", "kl+tw-seed2.json")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	// No checkpoints are left behind.
	if m, _ := filepath.Glob(filepath.Join(dir, "runs", "*.ckpt")); len(m) != 0 {
		t.Errorf("checkpoints left: %v", m)
	}

	// A second call keeps every run; a third seed is added.
	var second bytes.Buffer
	cfg.Progress = &second
	cfg.Seeds = new(3)
	b, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if b.Kept != 4 || strings.Count(second.String(), "kept from") != 4 || strings.Count(second.String(), "training 2 epochs") != 2 {
		t.Errorf("kept %d; progress:\n%s", b.Kept, second.String())
	}
	if fi2, _ := os.Stat(path); !fi2.ModTime().Equal(fi.ModTime()) {
		t.Error("a kept run file was rewritten")
	}
	if a.Runs[0].Metrics["wasserstein"] != b.Runs[0].Metrics["wasserstein"] {
		t.Error("kept runs changed")
	}

	// Other settings in the same directory: an error naming the file.
	cfg.Epochs = new(3)
	_, err = Run(cfg)
	if err == nil || !strings.Contains(err.Error(), "belongs to another experiment") {
		t.Errorf("other epochs: %v", err)
	}
	// A corrupt run file.
	os.WriteFile(filepath.Join(dir, "runs", "kl-seed1.json"), []byte("{"), 0o644)
	cfg.Epochs = new(2)
	if _, err := Run(cfg); err == nil || !strings.Contains(err.Error(), "remove it") {
		t.Errorf("corrupt file: %v", err)
	}
}

func TestResumeCheckpoint(t *testing.T) {
	// A checkpoint of an interrupted run is picked up: the run resumes
	// after its last saved epoch and ends as an uninterrupted run does.
	dir := t.TempDir()
	cfg := tiny(dir, nil)
	cfg.Losses, cfg.Seeds, cfg.Epochs, cfg.CheckpointEvery = []string{"kl+tw"}, new(1), new(4), new(1)
	full, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Interrupt a fresh run after 2 epochs, by running 2 epochs with the
	// same checkpoint name: the checkpoint key has no epoch count.
	dir2 := t.TempDir()
	cfg2 := cfg
	cfg2.OutDir = dir2
	r, _ := cfg2.Resolve()
	s := r.Settings
	rs := s.RunSettings
	rs.Epochs = 4
	key := RunKey{Loss: "kl+tw", Seed: 1, RunSettings: rs, Data: r.Data}
	d, err := synth.Generate(r.Data, 0, s.Train, s.Test)
	if err != nil {
		t.Fatal(err)
	}
	ck := filepath.Join(dir2, "runs", "kl+tw-seed1-"+report.KeyHash(key)+".ckpt")
	os.MkdirAll(filepath.Dir(ck), 0o755)
	half := key
	half.Epochs = 2
	if _, err := trainRun(nil, &experimentData{Data: d}, half, ck, 1, nil); err != nil {
		t.Fatal(err)
	}
	var prog bytes.Buffer
	cfg2.Progress = &prog
	resumed, err := Run(cfg2)
	if err != nil {
		t.Fatal(err)
	}
	if resumed.Runs[0].Metrics["wasserstein"] != full.Runs[0].Metrics["wasserstein"] || len(resumed.Runs[0].TrainLoss) != 4 {
		t.Errorf("resumed run differs: %v vs %v", resumed.Runs[0].Metrics, full.Runs[0].Metrics)
	}
	if strings.Contains(prog.String(), "epoch 1/4") {
		t.Errorf("the resumed run trained from epoch 1:\n%s", prog.String())
	}
}

func TestPairedT(t *testing.T) {
	// d = b − a = (0.5, 0.1, 0.9, 0.2): mean 0.425, sd √(0.3875/3),
	// t = 0.425/(sd/2) and, for 3 degrees of freedom,
	// p = 1 − (2/π)(x/(1+x²) + atan x), x = t/√3 (closed form of
	// Student's t CDF for ν = 3), both evaluated with bc -l.
	a := []float64{1, 2, 3, 4}
	b := []float64{1.5, 2.1, 3.9, 4.2}
	c := report.PairedT(a, b, true)
	for _, tc := range []struct {
		name      string
		got, want float64
	}{
		{"mean", float64(c.MeanDiff), 0.425},
		{"sd", float64(c.SDDiff), math.Sqrt(0.3875 / 3)},
		{"t", float64(c.T), 2.36506836837685819030},
		{"p", float64(c.P), .09894459695402420459},
	} {
		if math.Abs(tc.got-tc.want) > 1e-12 {
			t.Errorf("%s = %.15g, want %.15g", tc.name, tc.got, tc.want)
		}
	}
	// Lower is better: b is larger, so a is better on all 4 seeds.
	if c.ABetter != 4 || c.BBetter != 0 || c.N != 4 {
		t.Errorf("counts %+v", c)
	}
	if c := report.PairedT(a, b, false); c.BBetter != 4 {
		t.Errorf("higher is better: %+v", c)
	}
	// Degenerate cases. All differences 0: t = 0/0 is undefined, and so is
	// its p-value.
	if c := report.PairedT(a, a, true); !math.IsNaN(float64(c.T)) || !math.IsNaN(float64(c.P)) || c.Ties != 4 {
		t.Errorf("equal: %+v", c)
	}
	if c := report.PairedT(a, []float64{2, 3, 4, 5}, true); !math.IsInf(float64(c.T), 1) || c.P != 0 {
		t.Errorf("constant difference: %+v", c)
	}
	if c := report.PairedT([]float64{1}, []float64{2}, true); !math.IsNaN(float64(c.P)) || c.MeanDiff != 1 {
		t.Errorf("one seed: %+v", c)
	}
}

func TestMarkdown(t *testing.T) {
	res, err := Run(tiny("", nil))
	if err != nil {
		t.Fatal(err)
	}
	md := res.Markdown()
	for _, want := range []string{
		"| KL + TW | twl |", "| | paper |",
		"**7.158 ± 0.117**", "**0.431 ± 0.001**", "14.512 ± 0.060", // paper values, best bold
		"30 tree nodes instead of 1000", "2 epochs instead of 500", "2 seeds instead of 10",
		"KL + TW has the lowest Wasserstein", "KL alone has the best Cosine",
		"### KL + TW against KL", "synthetic_curves.png", "synthetic_metric_wasserstein.png",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	// Each twl column has exactly one bold cell (ties aside).
	lines := strings.Split(md, "\n")
	bold := 0
	for _, l := range lines {
		if strings.Contains(l, "| twl |") {
			bold += strings.Count(l, "**") / 2
		}
	}
	if bold != len(metric.Names) {
		t.Errorf("%d bold twl cells, want %d", bold, len(metric.Names))
	}
}

func TestConfigErrors(t *testing.T) {
	for _, cfg := range []Config{
		{Protocol: "full"}, {Seeds: new(-1)}, {LR: new(-1.0)}, {Nodes: new(1)}, {Losses: []string{"kl", "mse"}}, {Losses: []string{}},
		{Data: synth.Config{Scale: -1}}, {CheckpointEvery: new(-2)},
	} {
		if _, err := Run(cfg); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v: %v", cfg, err)
		}
	}
	r, err := Config{Protocol: ProtocolPaper}.Resolve()
	if err != nil || r.Settings != Paper || len(r.Differences()) != 0 {
		t.Errorf("paper protocol: %+v %v %v", r, err, r.Differences())
	}
	r, _ = Config{}.Resolve()
	if r.Protocol != ProtocolReduced || r.Settings != Reduced || len(r.Differences()) != 3 {
		t.Errorf("reduced: %+v %v", r, r.Differences())
	}
	r, _ = Config{Losses: []string{"kl+tw", "kl"}}.Resolve()
	if len(r.Losses) != 2 || r.Losses[0] != "kl" {
		t.Errorf("losses not in table order: %v", r.Losses)
	}
}

func TestFloatJSON(t *testing.T) {
	in := []report.Float{1.5, report.Float(math.NaN()), report.Float(math.Inf(1)), report.Float(math.Inf(-1)), 0}
	b, err := json.Marshal(in)
	if err != nil || string(b) != `[1.5,"NaN","+Inf","-Inf",0]` {
		t.Fatalf("%s %v", b, err)
	}
	var out []report.Float
	if err := json.Unmarshal(b, &out); err != nil || !math.IsNaN(float64(out[1])) || out[2] != in[2] || out[0] != 1.5 {
		t.Errorf("%v %v", out, err)
	}
	if err := json.Unmarshal([]byte(`["x"]`), &out); err == nil {
		t.Error(`"x" read as a number`)
	}
}

func FuzzFloatJSON(f *testing.F) {
	for _, s := range []string{`1.5`, `"NaN"`, `"+Inf"`, `"-Inf"`, `-0`, `1e308`, `"x"`, `""`, `"1"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var v report.Float
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%q read as %v, which does not marshal: %v", s, v, err)
		}
		var w report.Float
		if err := json.Unmarshal(b, &w); err != nil || math.Float64bits(float64(w)) != math.Float64bits(float64(v)) &&
			!(math.IsNaN(float64(v)) && math.IsNaN(float64(w))) {
			t.Fatalf("%q → %v → %s → %v (%v)", s, v, b, w, err)
		}
	})
}

// TestMarkdownSingular runs one loss on one seed for one epoch and checks
// that the report counts them in the singular.
func TestMarkdownSingular(t *testing.T) {
	cfg := tiny("", nil)
	cfg.Seeds, cfg.Epochs, cfg.Losses = new(1), new(1), []string{"kl"}
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	md := res.Markdown()
	for _, want := range []string{"1 run (1 loss × 1 seed)", "across 1 seed of each run", "batch 10, 1 epoch,"} {
		if !strings.Contains(md, want) {
			t.Errorf("synthetic.md lacks %q", want)
		}
	}
	for _, bad := range []string{"1 seeds", "1 runs", "1 losses", "1 epochs"} {
		if strings.Contains(md, bad) {
			t.Errorf("synthetic.md has %q", bad)
		}
	}
}
