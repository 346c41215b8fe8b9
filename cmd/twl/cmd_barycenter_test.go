package main

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestBarycenter checks barycenters worked out by hand on the tree of
// Figure 1 (unit weights): of dog, cat and snake, the median node mammal,
// at a mean distance (1 + 1 + 3)/3; on the leaves only dog or cat,
// (0 + 2 + 4)/3 = 2; with weights 3,1,1, dog itself, at (0 + 2 + 4)/5.
func TestBarycenter(t *testing.T) {
	const rows = `{"dog": 1}` + "\n" + `{"cat": 1}` + "\n\n" + `{"snake": 1}` + "\n"
	for _, tc := range []struct {
		name     string
		args     []string
		row, obj string // obj "": not checked
	}{
		{"mean", nil, `{"mammal":1}`, "1.6666666666666667"},
		{"leaves", []string{"--leaves"}, "", "2"},
		{"weights", []string{"--weights", "3,1,1"}, `{"dog":1}`, "6"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := write(t, map[string]string{"t.tree": fig1Tree, "d.jsonl": rows})
			outPath := filepath.Join(dir, "b.jsonl")
			args := append([]string{"barycenter", "--tree", filepath.Join(dir, "t.tree"), "--out", outPath}, tc.args...)
			code, out, errOut := twl(t, "", append(args, filepath.Join(dir, "d.jsonl"))...)
			got, _ := os.ReadFile(outPath)
			if code != 0 || errOut != "" || !closeTo(out, tc.obj) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, tc.obj)
			}
			if tc.row != "" && string(got) != tc.row+"\n" {
				t.Errorf("barycenter %q, want %q", got, tc.row)
			}
			if tc.name == "leaves" && string(got) != `{"dog":1}`+"\n" && string(got) != `{"cat":1}`+"\n" {
				t.Errorf("barycenter on leaves %q", got)
			}
		})
	}
	// --out -: the row on standard output, the objective on standard error.
	dir := write(t, map[string]string{"t.tree": fig1Tree, "d.jsonl": rows})
	code, out, errOut := twl(t, "", "barycenter", "--tree", filepath.Join(dir, "t.tree"), "--out", "-", filepath.Join(dir, "d.jsonl"))
	if code != 0 || out != `{"mammal":1}`+"\n" || !closeTo(errOut, "1.6666666666666667") {
		t.Errorf("--out -: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// closeTo reports whether the line out holds a number within 1e-15 of
// want (sums of thirds round either way).
func closeTo(out, want string) bool {
	x, err := strconv.ParseFloat(strings.TrimSuffix(out, "\n"), 64)
	y, _ := strconv.ParseFloat(want, 64)
	return err == nil && strings.HasSuffix(out, "\n") && math.Abs(x-y) <= 1e-15
}

func TestBarycenterErrors(t *testing.T) {
	const ok = `{"cat": 1}` + "\n" + `{"dog": 1}` + "\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		args  []string
		code  int
		msgs  []string
	}{
		{"unknown label", map[string]string{"d.jsonl": ok + `{"fish": 1}`}, nil, 1,
			[]string{`$D/d.jsonl:3: unknown label: "fish"`}},
		{"sum", map[string]string{"d.jsonl": `{"cat": 0.5}`}, nil, 1,
			[]string{`$D/d.jsonl:1: masses do not sum to 1`}},
		{"negative mass", map[string]string{"d.jsonl": ok + `{"cat": -1, "dog": 2}`}, nil, 1,
			[]string{`$D/d.jsonl:3: negative mass: "cat": -1`}},
		{"syntax", map[string]string{"d.jsonl": ok + `{"cat" 1}`}, nil, 1,
			[]string{`$D/d.jsonl:3: syntax error`}},
		// A line of 3 MB: a sixteenth of --max-memory 32MiB is 2 MiB.
		{"line over --max-memory", map[string]string{"d.jsonl": ok + `{"cat": 1` + strings.Repeat(`, "dog": 0`, 300_000) + "}\n"},
			[]string{"--max-memory", "32MiB", "--tree", "$D/t.tree", "$D/d.jsonl"}, 1,
			[]string{`$D/d.jsonl:3: line longer than 2.00 MiB`, "(under --max-memory 32MiB)"}},
		// 3000 rows of two labels hold 3000·(2+1)·16 bytes = 141 KiB.
		{"rows over --max-memory", map[string]string{"d.jsonl": strings.Repeat(`{"cat": 0.5, "dog": 0.5}`+"\n", 3000)},
			[]string{"--max-memory", "100kB", "--tree", "$D/t.tree", "$D/d.jsonl"}, 1,
			[]string{`$D/d.jsonl:3000: the barycenter holds all of $D/d.jsonl in memory, 141 KiB after 3000 distributions, more than --max-memory 100kB`}},
		{"empty", map[string]string{"d.jsonl": "\n"}, nil, 1,
			[]string{`$D/d.jsonl: no distributions`}},
		{"weights for other rows", nil, []string{"--weights", "1,2,3", "--tree", "$D/t.tree", "$D/d.jsonl"}, 1,
			[]string{`$D/d.jsonl has 2 distributions, --weights gives 3 weights`}},
		{"negative weight", nil, []string{"--weights", "1,-2", "--tree", "$D/t.tree", "$D/d.jsonl"}, 2,
			[]string{`--weights: weight 2, "-2", is not a finite non-negative number`}},
		{"zero weights", nil, []string{"--weights", "0,0", "--tree", "$D/t.tree", "$D/d.jsonl"}, 2,
			[]string{`--weights are all zero`}},
		{"no --out", nil, []string{"--tree", "$D/t.tree", "$D/d.jsonl"}, 2, []string{"--out is required"}},
		{"two files", nil, []string{"--tree", "$D/t.tree", "$D/d.jsonl", "$D/d.jsonl"}, 2, []string{"got 2 arguments"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"t.tree": fig1Tree, "d.jsonl": ok}
			for k, v := range tc.files {
				files[k] = v
			}
			dir := write(t, files)
			outPath := filepath.Join(dir, "out.jsonl")
			if err := os.WriteFile(outPath, []byte("old\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			args := tc.args
			if args == nil {
				args = []string{"--tree", "$D/t.tree", "$D/d.jsonl"}
			}
			full := []string{"barycenter"}
			if tc.name != "no --out" {
				full = append(full, "--out", outPath)
			}
			for _, a := range args {
				full = append(full, strings.ReplaceAll(a, "$D", dir))
			}
			code, out, errOut := twl(t, "", full...)
			withLine := tc.code == 1 && tc.name != "empty" && !strings.HasPrefix(tc.name, "weights")
			expectFailure(t, code, out, errOut, tc.code, tc.msgs, dir, withLine)
			if got, _ := os.ReadFile(outPath); string(got) != "old\n" {
				t.Errorf("--out file changed to %q", got)
			}
		})
	}
}
