package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/experiment/synthetic"
)

// tinySynthetic is a protocol small enough for a test.
var tinySynthetic = []string{"experiment", "synthetic", "--nodes", "20", "--train", "30", "--test", "20",
	"--epochs", "2", "--seeds", "2", "--features", "5", "--hidden", "4"}

func TestExperimentSynthetic(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "report")
	code, out, errOut := twl(t, "", append(tinySynthetic, "--out", dir)...)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, errOut)
	}
	for _, want := range []string{"# Synthetic experiment", "| KL + TW | twl |", "| | paper |", "**7.158 ± 0.117**",
		"2 epochs instead of 500", "## The paper's findings"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q", want)
		}
	}
	for _, want := range []string{"[1/10] kl seed 1: training 2 epochs", "[10/10] kl+tw seed 2: done",
		"experiment: wrote " + filepath.Join(dir, "synthetic.md"), "synthetic_curves.png", "synthetic_metric_kl.svg"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, "synthetic.md"))
	if err != nil || string(md) != out {
		t.Errorf("synthetic.md differs from standard output (%v)", err)
	}

	// Again, as JSON: every run is kept.
	code, out, errOut = twl(t, "", append(tinySynthetic, "--out", dir, "--format", "json")...)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, errOut)
	}
	if strings.Count(errOut, "kept from") != 10 || strings.Contains(errOut, "training 2 epochs") {
		t.Errorf("second call did not keep the runs:\n%s", errOut)
	}
	var res synthetic.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Kept != 10 || len(res.Runs) != 10 || res.Config.Settings.Epochs != 2 {
		t.Errorf("JSON: kept %d, %d runs, %+v", res.Kept, len(res.Runs), res.Config.Settings)
	}

	// Other settings in the same directory: an error, exit 1.
	code, _, errOut = twl(t, "", append(tinySynthetic, "--out", dir, "--lr", "0.01", "--quiet")...)
	if code != 1 || !strings.Contains(errOut, "belongs to another experiment") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
}

func TestExperimentSyntheticUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--protocol", "full"}, "--protocol full: unknown protocol; want reduced or paper"},
		{[]string{"--losses", "kl,mse"}, `--losses kl,mse: unknown "mse"; want some of kl, kl+0.5w1`},
		{[]string{"--losses", ","}, "--losses: names none; want some of kl,"},
		{[]string{"--seeds", "-1"}, "--seeds -1: must be from 1 to 10000000"},
		// A value typed is used or refused, never read as "the protocol's".
		{[]string{"--seeds", "0"}, "--seeds 0: must be from 1"},
		{[]string{"--epochs", "0"}, "--epochs 0: must be from 1"},
		{[]string{"--batch", "0"}, "--batch 0: must be from 1"},
		{[]string{"--train", "0"}, "--train 0: must be from 1"},
		{[]string{"--lr", "0"}, "--lr 0: must be positive"},
		{[]string{"--nodes", "1"}, "--nodes 1: must be from 2 to 20000"},
		{[]string{"--nodes", "30000"}, "--nodes 30000: must be from 2 to 20000"},
		{[]string{"--lr", "-1"}, "--lr -1: must be positive"},
		{[]string{"--format", "xml"}, "--format must be text or json"},
		{[]string{"--out", ""}, "--out is required"},
		{[]string{"--checkpoint-every", "0"}, "--checkpoint-every 0: must be at least 1"},
		{[]string{"--sign", "up"}, `unknown sign "up"`},
		{[]string{"extra"}, "takes no arguments"},
	} {
		args := append([]string{"experiment", "synthetic", "--out", t.TempDir()}, tc.args...)
		code, out, errOut := twl(t, "", args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.msg) || !strings.Contains(errOut, "--help'\n") {
			t.Errorf("twl %q: exit %d, stdout %q, stderr:\n%s\nwant exit 2 and %q", args, code, out, errOut, tc.msg)
		}
	}
}

func TestExperimentSyntheticHelp(t *testing.T) {
	code, out, _ := twl(t, "", "experiment", "synthetic", "--help")
	if code != 0 || !strings.Contains(out, "Usage:\n  twl experiment synthetic") || !strings.Contains(out, "--protocol PROTOCOL") ||
		!strings.Contains(out, "Examples:\n  ") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}
