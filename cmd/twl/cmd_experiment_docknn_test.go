package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/experiment/docknn"
)

// docknnFiles writes a toy corpus for twl experiment docknn: posts on
// fruit and on tools, whose words' vectors lie in two groups.
func docknnFiles(t *testing.T) (train, test, vec string) {
	t.Helper()
	fruit := []string{"apple", "pear", "plum", "fig"}
	tools := []string{"hammer", "saw", "drill", "wrench"}
	post := func(i int) string {
		words, label := fruit, "rec.food"
		if i%2 == 1 {
			words, label = tools, "rec.tools"
		}
		text := fmt.Sprintf("From: x%d@example.com\nSubject: %s\n\nThe %s and the %s, %s.", i, words[i%4], words[(i+1)%4], words[(i+2)%4], words[(i*3)%4])
		b, _ := json.Marshal(map[string]any{"text": text, "labels": []string{label}})
		return string(b) + "\n"
	}
	var tr, te strings.Builder
	for i := range 12 {
		tr.WriteString(post(i))
	}
	for i := range 6 {
		te.WriteString(post(i + 1))
	}
	dir := write(t, map[string]string{
		"train.jsonl": tr.String(),
		"test.jsonl":  te.String(),
		"words.vec":   "apple 1 0\npear 1 0.1\nplum 0.9 0\nfig 1 0.2\nhammer 0 1\nsaw 0.1 1\ndrill 0 0.9\nwrench 0.2 1\n",
	})
	return filepath.Join(dir, "train.jsonl"), filepath.Join(dir, "test.jsonl"), filepath.Join(dir, "words.vec")
}

func TestDocKNN(t *testing.T) {
	train, test, vec := docknnFiles(t)
	out := filepath.Join(t.TempDir(), "report")
	args := []string{"experiment", "docknn", "--train", train, "--test", test, "--emb", vec,
		"--docs-train", "12", "--docs-test", "6", "--trees", "1,2", "--k", "1,3", "--seed", "3", "--out", out}
	code, stdout, stderr := twl(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	for _, want := range []string{"# Document distances", "| WMD | **0.0** | **0.0** | 0.0 ± 0.0 (1) |", "| TSW quad T=2 |", "## The claim"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	for _, want := range []string{"docknn: 12 training documents (2 classes)", "docknn: TSW cluster T=2: ",
		"experiment: wrote " + filepath.Join(out, "docknn.md"), "docknn_errors.svg"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "docknn.md"))
	if err != nil || string(md) != stdout {
		t.Errorf("docknn.md differs from standard output (%v)", err)
	}

	// JSON, no files, no progress.
	code, stdout, stderr = twl(t, "", append(args[:len(args)-2], "--out", "", "--format", "json", "--quiet", "--builders", "quad")...)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	var res docknn.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	if res.Format != docknn.ResultFormat || len(res.Methods) != 3 || res.Config.Seed != 3 || res.Test.Documents != 6 || res.Methods[2].Name != "TSW quad T=2" {
		t.Errorf("JSON %+v", res)
	}
}

func TestDocKNNUsage(t *testing.T) {
	train, test, vec := docknnFiles(t)
	data := []string{"experiment", "docknn", "--train", train, "--test", test, "--emb", vec, "--out", ""}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"experiment", "docknn"}, "--train is required"},
		{[]string{"experiment", "docknn", "--train", train, "--test", test}, "--emb is required"},
		{append(data, "extra"), "takes no arguments"},
		{append(data, "--format", "csv"), "--format must be text or json"},
		{append(data, "--trees", "0"), `invalid value "0" for flag --trees`},
		{append(data, "--k", "x"), `invalid value "x" for flag --k`},
		{append(data, "--words", "0"), "--words 0: must be from 1"},
		{append(data, "--docs-train", "5", "--k", "7"), "--k 7: each must be from 1 to 5"},
		{append(data, "--builders", "oak"), `--builders oak: unknown "oak"`},
		{append(data, "--builders", ","), "--builders: names none"},
		{append(data, "--cluster-k", "1"), "--cluster-k 1: must be from 2"},
		{append(data, "--workers", "-1"), "--workers -1: must be from 1"},
		{append(data, "--workers", "0"), "--workers 0: must be from 1"},
		{append(data, "--docs-train", "0"), "--docs-train 0: must be from 1"},
	} {
		code, out, errOut := twl(t, "", tc.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.msg) || !strings.Contains(errOut, "--help'\n") {
			t.Errorf("twl %q: exit %d, stdout %q, stderr:\n%s\nwant exit 2 and %q with the usage", tc.args, code, out, errOut, tc.msg)
		}
	}
	// Data errors: exit 1.
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{append(data, "--docs-train", "13"), "has 12 documents with a word left of the 13 asked for"},
		{[]string{"experiment", "docknn", "--train", train, "--test", test, "--emb", filepath.Join(t.TempDir(), "none.vec")}, "none.vec"},
	} {
		code, out, errOut := twl(t, "", tc.args...)
		if code != 1 || out != "" || !strings.Contains(errOut, tc.msg) {
			t.Errorf("twl %q: exit %d, stdout %q, stderr:\n%s\nwant exit 1 and %q", tc.args, code, out, errOut, tc.msg)
		}
	}
	code, out, _ := twl(t, "", "experiment", "docknn", "--help")
	for _, want := range []string{"Usage:\n  twl experiment docknn --train FILE --test FILE --emb VEC", "--keep-headers", "Examples:"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("docknn --help: exit %d, lacks %q:\n%s", code, want, out)
		}
	}
}
