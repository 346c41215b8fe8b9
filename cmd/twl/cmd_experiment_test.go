package main

import (
	"bytes"
	"encoding/json"
	"image"
	_ "image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/experiment/efficiency"
)

// The peak-RSS measurement of twl experiment efficiency starts this test
// binary again (os.Executable); the init function of experiment.go makes
// it measure and exit before the tests run, as in twl itself.

func TestExperimentEfficiency(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "report")
	code, out, errOut := twl(t, "", "experiment", "efficiency", "--labels", "100", "--repeats", "1", "--min-time", "1ms", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, errOut)
	}
	for _, want := range []string{"| 10² | TW: loss + gradient | 0.0024 | 1.58 MB |", "W¹ with CPU: Sinkhorn cold", "## Findings"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	for _, want := range []string{"efficiency: L=100 tw-loss+grad: ", "experiment: wrote " + filepath.Join(dir, "efficiency.md")} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, "efficiency.md"))
	if err != nil || string(md) != out {
		t.Errorf("efficiency.md differs from standard output (%v)", err)
	}
	js, err := os.ReadFile(filepath.Join(dir, "efficiency.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res efficiency.Result
	if err := json.Unmarshal(js, &res); err != nil {
		t.Fatal(err)
	}
	c := res.Case(efficiency.SinkhornCold, 100)
	if c == nil || c.Seconds <= 0 || c.AllocBytes < 16*100*100 {
		t.Fatalf("JSON case %+v", c)
	}
	if _, err := efficiency.PeakRSS(); err == nil && (c.PeakRSSBytes <= 0 || c.RSSNote != "") {
		t.Errorf("peak RSS %d (%s): the measurement process (this test binary) did not report", c.PeakRSSBytes, c.RSSNote)
	}
	for _, name := range []string{"efficiency-time.png", "efficiency-memory.png"} {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = image.Decode(f)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, name := range []string{"efficiency-time.svg", "efficiency-memory.svg"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Contains(data, []byte("<svg")) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestExperimentEfficiencyJSON(t *testing.T) {
	// Nothing fits in 1 kB: every case reports what it would need.
	code, out, errOut := twl(t, "", "experiment", "efficiency", "--labels", "100,1e5", "--max-memory", "1kB", "--format", "json", "--out", "")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, errOut)
	}
	var res efficiency.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	c := res.Case(efficiency.SinkhornCold, 100000)
	if res.MaxBytes != 1000 || c == nil || c.Skipped == "" || c.NeedBytes < 16e10 {
		t.Errorf("max bytes %d, case %+v", res.MaxBytes, c)
	}
	if strings.Contains(errOut, "experiment: wrote") {
		t.Errorf("--out \"\" wrote files:\n%s", errOut)
	}
}

func TestExperimentUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"experiment"}, "missing the experiment name"},
		{[]string{"experiment", "nope"}, `unknown experiment "nope"`},
		{[]string{"experiment", "all", "extra"}, "takes no arguments"},
		{[]string{"experiment", "all", "--protocol", "fast"}, "--protocol fast: unknown protocol; want reduced or paper"},
		{[]string{"experiment", "efficiency", "--format", "csv"}, "--format must be text or json"},
		{[]string{"experiment", "efficiency", "--labels", "1"}, "--labels 1: each must be from 2"},
		{[]string{"experiment", "efficiency", "--labels", "x"}, `invalid value "x" for flag --labels`},
		{[]string{"experiment", "efficiency", "--repeats", "0"}, "--repeats 0: must be from 1"},
		{[]string{"experiment", "efficiency", "--min-time", "0s"}, "--min-time 0s: must be positive"},
		{[]string{"experiment", "efficiency", "--max-memory", "lots"}, `invalid value "lots" for flag --max-memory`},
		{[]string{"experiment", "efficiency", "extra"}, "takes no arguments"},
	} {
		code, out, errOut := twl(t, "", tc.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.msg) || !strings.Contains(errOut, "--help'\n") {
			t.Errorf("twl %q: exit %d, stdout %q, stderr:\n%s\nwant exit 2 and %q with the usage", tc.args, code, out, errOut, tc.msg)
		}
	}
}

func TestExperimentHelp(t *testing.T) {
	for _, args := range [][]string{{"experiment", "--help"}, {"help", "experiment"}, {"experiment", "help"}} {
		code, out, errOut := twl(t, "", args...)
		if code != 0 || errOut != "" {
			t.Errorf("twl %q: exit %d, stderr %q", args, code, errOut)
		}
		for _, c := range experiments.subs {
			if !strings.Contains(out, "\n  "+c.name+" ") {
				t.Errorf("twl %q does not list %s:\n%s", args, c.name, out)
			}
		}
	}
	code, out, _ := twl(t, "", "experiment", "efficiency", "--help")
	for _, want := range []string{"Usage:\n  twl experiment efficiency", "--max-memory", "Examples:"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("efficiency --help: exit %d, lacks %q:\n%s", code, want, out)
		}
	}
}

// TestExperimentAll runs the whole pipeline at --quick sizes and checks
// that REPORT.md gathers both tables (with the paper's values beside
// twl's, which each part's own tests check in detail: 0.0024 s is the
// paper's TW time at L = 100, 7.158 its KL + TW Wasserstein) and links
// existing plots, and that a second run resumes: it keeps all 10 finished
// synthetic runs (5 losses × 2 seeds).
func TestExperimentAll(t *testing.T) {
	if testing.Short() {
		t.Skip("runs both experiments at small sizes")
	}
	dir := filepath.Join(t.TempDir(), "rep")
	code, out, errOut := twl(t, "", "experiment", "all", "--quick", "--out", dir)
	if code != 0 || !strings.Contains(out, "REPORT.md") {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
	report, err := os.ReadFile(filepath.Join(dir, "REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(report)
	for _, want := range []string{"## Efficiency: the paper's Table 3", "## Synthetic data: the paper's Table 1",
		"0.0024", "7.158", "--quick"} {
		if !strings.Contains(text, want) {
			t.Errorf("REPORT.md lacks %q", want)
		}
	}
	for _, m := range regexp.MustCompile(`\]\(([^)#]+\.(?:png|svg))\)`).FindAllStringSubmatch(text, -1) {
		if _, err := os.Stat(filepath.Join(dir, m[1])); err != nil {
			t.Errorf("REPORT.md links %s: %v", m[1], err)
		}
	}
	code, _, errOut = twl(t, "", "experiment", "all", "--quick", "--out", dir)
	if code != 0 || strings.Count(errOut, ": kept from ") != 10 {
		t.Errorf("second run: exit %d, stderr:\n%s", code, errOut)
	}
}
