package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/metric"
)

// Two trees over the labels a, b, c: a star with unit weights, and
// r → x → {b, a} with unit weights beside r → c of weight 2 (its leaves in
// another order than the star's).
const (
	starABC = "r\ta\nr\tb\nr\tc\n"
	deepABC = "r\tx\t1\nx\tb\t1\nx\ta\t1\nr\tc\t2\n"
)

// TestEvalTreesHand checks 'eval --trees' on two pairs computed by hand.
// Row 1 predicts a .5, b .25, c .25 (as a JSON array: one mass per leaf of
// the first tree, in its order a, b, c) for the target b .5, c .5:
//
//	star: TW = .5 + .25 + .25 = 1
//	deep: x→a .5 + x→b .25 + r→x |.75 − .5| + r→c .25·2 = 1.5
//	      (the plan .25 a→b at 2, .25 a→c at 4: .5 + 1)
//	tsw = (1 + 1.5)/2 = 1.25
//
// kl .5 ln 2 · 2 = ln 2, chebyshev .5, clark sqrt(1 + 2/9) = √11/3,
// canberra 1 + 2/3 = 5/3, cosine .25/(√.375 √.5) = 1/√3, intersection .5.
// Row 2 is a perfect prediction: distances 0, similarities 1. The mean is
// then half the sum, and the sample std of two values x, y is |x − y|/√2.
func TestEvalTreesHand(t *testing.T) {
	dir := write(t, map[string]string{"t1.tree": starABC, "t2.tree": deepABC,
		"p.jsonl": "[0.5, 0.25, 0.25]\n" + `{"a": 0.5, "b": 0.5}` + "\n",
		"q.jsonl": `{"b": 0.5, "c": 0.5}` + "\n" + `{"b": 0.5, "a": 0.5}` + "\n"})
	trees := filepath.Join(dir, "t1.tree") + "," + filepath.Join(dir, "t2.tree")
	p, q := filepath.Join(dir, "p.jsonl"), filepath.Join(dir, "q.jsonl")
	// .625, 1.25/√2; ln 2/2, ln 2/√2; .25, .5/√2; √11/6, √11/(3√2);
	// 5/6, (5/3)/√2; (1 + 1/√3)/2, (1 − 1/√3)/√2; .75, .5/√2.
	const want = `measure                  mean          std
tsw ↓                   0.625     0.883883
kl ↓                 0.346574     0.490129
chebyshev ↓              0.25     0.353553
clark ↓              0.552771     0.781736
canberra ↓           0.833333      1.17851
cosine ↑             0.788675     0.298858
intersection ↑           0.75     0.353553

2 pairs; mean and sample standard deviation over the pairs.
`
	code, out, errOut := twl(t, "", "eval", "--trees", trees, p, q)
	if code != 0 || out != want || errOut != "" {
		t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant:\n%s", code, errOut, out, want)
	}

	row1 := map[string]float64{"tsw": 1.25, "kl": math.Ln2, "chebyshev": 0.5, "clark": math.Sqrt(11) / 3,
		"canberra": 5.0 / 3, "cosine": 1 / math.Sqrt(3), "intersection": 0.5}
	obj := evalJSON(t, "", "--trees", trees, p, q)
	if _, ok := obj["wasserstein"]; ok || len(obj) != 1+2*len(row1) || obj["rows"] != 2.0 {
		t.Errorf("JSON keys: %v", obj)
	}
	for name, v := range row1 {
		perfect := 0.0
		if !metric.LowerIsBetter(name) {
			perfect = 1
		}
		mean, std := (v+perfect)/2, math.Abs(v-perfect)/math.Sqrt2
		if g := jsonNumber(t, obj[name]); math.Abs(g-mean) > 1e-15 {
			t.Errorf("%s = %v, want %v", name, g, mean)
		}
		if g := jsonNumber(t, obj[name+"_std"]); math.Abs(g-std) > 1e-15 {
			t.Errorf("%s_std = %v, want %v", name, g, std)
		}
	}
}

// TestEvalTreesTrained runs train --trees --loss kl+tsw, predict and eval
// --trees end to end, on more rows than one chunk, and checks eval's tsw
// against an independent computation: the tree-sliced distance is the mean
// over the trees of their tree-Wasserstein distances, so the mean of tsw
// over the pairs equals the mean over the trees Ti of the wasserstein of
// 'eval --tree Ti', within 1e-12 relative. The other measures are over the
// labels, and equal those of 'eval --tree T1' (whose other nodes hold no
// mass), with and without --pyldl.
func TestEvalTreesTrained(t *testing.T) {
	dir := t.TempDir()
	vec, words := writeVec(t, dir, 8, 3, 6)
	var ts []string
	for s := range 3 {
		out := filepath.Join(dir, fmt.Sprintf("l%d.tree", s))
		if code, _, errOut := twl(t, "", "tree", "build", "--emb", vec, "--k", "2", "--seed", fmt.Sprint(s+1), "--out", out); code != 0 {
			t.Fatal(errOut)
		}
		ts = append(ts, out)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	data := func(name string, rows int) string {
		var sb strings.Builder
		for range rows {
			c := rng.IntN(len(words))
			fmt.Fprintf(&sb, `{"x":[%g,%g],"y":{%q:0.75,%q:0.25}}`+"\n", float64(c)+rng.NormFloat64()*0.1, rng.NormFloat64(), words[c], words[(c+1)%len(words)])
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	train, test := data("train.jsonl", 40), data("test.jsonl", chunkRows+100)
	model := filepath.Join(dir, "m.json")
	trees := strings.Join(ts, ",")
	if code, _, errOut := twl(t, "", "train", "--data", train, "--trees", trees, "--loss", "kl+tsw",
		"--lambda", "0.5", "--epochs", "5", "--quiet", "--out", model); code != 0 {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	pred, target := filepath.Join(dir, "p.jsonl"), filepath.Join(dir, "y.jsonl")
	if code, _, errOut := twl(t, "", "predict", "--model", model, "--data", test, "--out", pred, "--targets", target); code != 0 {
		t.Fatalf("predict: %s", errOut)
	}
	for _, pyldl := range []bool{false, true} {
		args := []string{pred, target}
		if pyldl {
			args = append(args, "--pyldl")
		}
		got := evalJSON(t, "", append([]string{"--trees", trees}, args...)...)
		if int(jsonNumber(t, got["rows"])) != chunkRows+100 {
			t.Fatalf("rows %v, want %d", got["rows"], chunkRows+100)
		}
		var mean float64
		var first map[string]any
		for k, tr := range ts {
			one := evalJSON(t, "", append([]string{"--tree", tr}, args...)...)
			mean += jsonNumber(t, one["wasserstein"]) / float64(len(ts))
			if k == 0 {
				first = one
			}
		}
		if g := jsonNumber(t, got["tsw"]); !(math.Abs(g-mean) <= 1e-12*mean) || mean == 0 {
			t.Errorf("pyldl %v: tsw %v, mean of the trees' wasserstein %v", pyldl, g, mean)
		}
		for _, name := range metric.Names[1:] {
			for _, key := range []string{name, name + "_std"} {
				g, w := jsonNumber(t, got[key]), jsonNumber(t, first[key])
				if !(math.Abs(g-w) <= 1e-12*math.Abs(w)) {
					t.Errorf("pyldl %v: %s %v, with --tree %s %v", pyldl, key, g, ts[0], w)
				}
			}
		}
	}
}

// TestEvalTreesErrors checks the mistakes of 'eval --trees': usage errors
// (status 2) for flags that do not go with it, and data errors (status 1)
// named by file, and line where there is one.
func TestEvalTreesErrors(t *testing.T) {
	const ok = `{"a": 1}` + "\n"
	for _, tc := range []struct {
		name     string
		files    map[string]string // t1.tree, t2.tree, p.jsonl, q.jsonl default to fine ones
		args     []string          // before p.jsonl q.jsonl
		code     int
		msgs     []string // parts of stderr; $D is the directory
		withLine bool
	}{
		{"with --tree", nil, []string{"--tree", "$D/t1.tree", "--trees", "$D/t1.tree,$D/t2.tree"}, 2,
			[]string{"--tree and --trees exclude each other"}, false},
		{"with --multilabel", nil, []string{"--multilabel", "--trees", "$D/t1.tree,$D/t2.tree"}, 2,
			[]string{"--multilabel needs one --tree, not --trees"}, false},
		{"empty", nil, []string{"--trees", ""}, 2, []string{"--trees is empty"}, false},
		{"empty name", nil, []string{"--trees", "$D/t1.tree,"}, 2, []string{"an empty file name"}, false},
		{"--k", nil, []string{"--k", "2", "--trees", "$D/t1.tree,$D/t2.tree"}, 2,
			[]string{"--k applies only with --multilabel"}, false},
		{"out is a tree", nil, []string{"--out", "$D/t2.tree", "--trees", "$D/t1.tree,$D/t2.tree"}, 2,
			[]string{"--out $D/t2.tree would overwrite --trees $D/t2.tree"}, false},
		{"other leaves", map[string]string{"t2.tree": "r\ta\nr\tb\nr\td\n"}, []string{"--trees", "$D/t1.tree,$D/t2.tree"}, 1,
			[]string{`"c" is a leaf of $D/t1.tree but not of $D/t2.tree`}, false},
		{"bad tree", map[string]string{"t2.tree": "r\ta\t-1\n"}, []string{"--trees", "$D/t1.tree,$D/t2.tree"}, 1,
			[]string{"$D/t2.tree:1: invalid weight"}, true},
		{"inner node", map[string]string{"p.jsonl": `{"x": 1}`}, []string{"--trees", "$D/t2.tree,$D/t1.tree"}, 1,
			[]string{`$D/p.jsonl:1: unknown label: "x"`}, true},
		{"array length", map[string]string{"q.jsonl": "[1, 0]\n"}, []string{"--trees", "$D/t1.tree,$D/t2.tree"}, 1,
			[]string{"$D/q.jsonl:1: wrong number of masses: the array has 2 masses, the tree has 3 labels"}, true},
		{"no partner", map[string]string{"q.jsonl": ok + ok}, []string{"--trees", "$D/t1.tree,$D/t2.tree"}, 1,
			[]string{"$D/q.jsonl:2: distribution 2 has no partner"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"t1.tree": starABC, "t2.tree": deepABC, "p.jsonl": ok, "q.jsonl": ok}
			for k, v := range tc.files {
				files[k] = v
			}
			dir := write(t, files)
			full := []string{"eval"}
			for _, a := range append(tc.args, "$D/p.jsonl", "$D/q.jsonl") {
				full = append(full, strings.ReplaceAll(a, "$D", dir))
			}
			code, out, errOut := twl(t, "", full...)
			expectFailure(t, code, out, errOut, tc.code, tc.msgs, dir, tc.withLine)
		})
	}
}
