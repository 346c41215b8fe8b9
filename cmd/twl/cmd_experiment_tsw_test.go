package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/experiment/treesliced"
)

// tinyTSW is a protocol small enough for a test.
var tinyTSW = []string{"experiment", "tsw", "--dims", "2", "--sizes", "20", "--pairs", "4", "--trees", "1,2", "--seed", "3"}

func TestExperimentTSW(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "report")
	code, out, errOut := twl(t, "", append(tinyTSW, "--out", dir)...)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, errOut)
	}
	for _, want := range []string{"# Tree-sliced Wasserstein against the exact W1", "## Summary at T = 2", "### d = 2, n = 20",
		"| quad | 2 |", "| cluster+fit | 1 |", "4 pairs of clouds", "seed 3", treesliced.ReferencePOT} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q", want)
		}
	}
	for _, want := range []string{"treesliced: [1/1] d = 2, n = 20: 4 pairs, T = 1, 2", "treesliced: [1/1] d = 2, n = 20: done in",
		"experiment: wrote " + filepath.Join(dir, treesliced.MarkdownFile), treesliced.CorrPlot + "20.svg"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, treesliced.MarkdownFile))
	if err != nil || string(md) != out {
		t.Errorf("%s differs from standard output (%v)", treesliced.MarkdownFile, err)
	}

	// JSON, no files, no progress: the same values for the same seed.
	code, js, errOut := twl(t, "", append(tinyTSW, "--out", "", "--format", "json", "--quiet", "--workers", "2")...)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d:\n%s", code, errOut)
	}
	var res treesliced.Result
	if err := json.Unmarshal([]byte(js), &res); err != nil {
		t.Fatal(err)
	}
	var saved treesliced.Result
	b, _ := os.ReadFile(filepath.Join(dir, treesliced.JSONFile))
	if err := json.Unmarshal(b, &saved); err != nil {
		t.Fatal(err)
	}
	if len(res.Cells) != 1 || res.Config.Workers != 2 || res.Config.Seed != 3 ||
		res.Cells[0].Pairs[3].W1 != saved.Cells[0].Pairs[3].W1 || res.Cells[0].Row(treesliced.BuilderQuad, 2).Corr != saved.Cells[0].Row(treesliced.BuilderQuad, 2).Corr {
		t.Errorf("JSON: %+v", res.Config)
	}
}

func TestExperimentTSWUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--protocol", "full"}, "--protocol full: unknown protocol; want reduced or large"},
		{[]string{"--builders", "cluster,kd"}, `--builders cluster,kd: unknown "kd"`},
		{[]string{"--builders", ","}, "--builders: names none"},
		{[]string{"--dims", "0"}, `invalid value "0" for flag --dims`},
		{[]string{"--sizes", "1"}, "--sizes 1: each must be from 2 to 20000"},
		{[]string{"--pairs", "-1"}, "--pairs -1: must be from 1"},
		{[]string{"--pairs", "0"}, "--pairs 0: must be from 1"},
		{[]string{"--workers", "0"}, "--workers 0: must be from 1"},
		{[]string{"--masses", "equal"}, "--masses equal: unknown masses; want uniform or random"},
		{[]string{"--format", "xml"}, "--format must be text or json"},
		{[]string{"extra"}, "takes no arguments"},
	} {
		args := append([]string{"experiment", "tsw", "--out", t.TempDir()}, tc.args...)
		code, out, errOut := twl(t, "", args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.msg) || !strings.Contains(errOut, "--help'\n") {
			t.Errorf("twl %q: exit %d, stdout %q, stderr:\n%s\nwant exit 2 and %q", args, code, out, errOut, tc.msg)
		}
	}
	// An output folder that cannot be made: exit 1 before anything runs.
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := twl(t, "", append(tinyTSW, "--out", filepath.Join(file, "report"))...)
	if code != 1 || !strings.Contains(errOut, "is not a directory") || strings.Contains(errOut, "treesliced:") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
}

func TestExperimentTSWHelp(t *testing.T) {
	code, out, _ := twl(t, "", "experiment", "tsw", "--help")
	if code != 0 || !strings.Contains(out, "Usage:\n  twl experiment tsw") || !strings.Contains(out, "--protocol PROTOCOL") ||
		!strings.Contains(out, "Examples:\n  ") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, out, _ = twl(t, "", "experiment", "--help")
	if code != 0 || !strings.Contains(out, "tsw") {
		t.Errorf("experiment --help lacks tsw: exit %d:\n%s", code, out)
	}
}
