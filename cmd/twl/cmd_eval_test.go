package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestEvalText checks the table on two pairs whose values are easy by hand.
// Row 1 is a perfect prediction; row 2 predicts cat .5, dog .5 for cat:
// wasserstein 1 (half the mass moves dog→mammal→cat), kl ln 2, chebyshev .5,
// clark sqrt(1 + 1/9) = √10/3, canberra 1 + 1/3, cosine .5/√.5 = √.5,
// intersection .5. The sample std of two values x, y is |x − y|/√2.
func TestEvalText(t *testing.T) {
	dir := write(t, map[string]string{"t.tree": fig1Tree,
		"p.jsonl": `{"cat": 1}` + "\n" + `{"dog": 0.5, "cat": 0.5}` + "\n",
		"q.jsonl": `{"cat": 1}` + "\n" + `{"cat": 1}` + "\n"})
	const want = `measure                  mean          std
wasserstein ↓             0.5     0.707107
kl ↓                 0.346574     0.490129
chebyshev ↓              0.25     0.353553
clark ↓              0.527046     0.745356
canberra ↓           0.666667     0.942809
cosine ↑             0.853553     0.207107
intersection ↑           0.75     0.353553

2 pairs; mean and sample standard deviation over the pairs.
`
	// 0.5, 1/√2; ln2/2, ln2/√2; .25, .5/√2; √10/6, √5/3; 2/3, (4/3)/√2;
	// (1 + √.5)/2, (1 − √.5)/√2; .75, .5/√2.
	code, out, errOut := twl(t, "", "eval", "--tree", filepath.Join(dir, "t.tree"),
		filepath.Join(dir, "p.jsonl"), filepath.Join(dir, "q.jsonl"))
	if code != 0 || out != want || errOut != "" {
		t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant:\n%s", code, errOut, out, want)
	}
}

// evalJSON runs twl eval with --format json and decodes its object.
func evalJSON(t *testing.T, stdin string, args ...string) map[string]any {
	t.Helper()
	code, out, errOut := twl(t, stdin, append([]string{"eval", "--format", "json"}, args...)...)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !json.Valid([]byte(out)) || strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "}\n") {
		t.Fatalf("not one line of valid JSON: %q", out)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		t.Fatal(err)
	}
	return obj
}

// jsonNumber reads a value of the JSON output: a number, or one of the
// strings "+Inf", "-Inf", "NaN".
func jsonNumber(t *testing.T, v any) float64 {
	t.Helper()
	switch v := v.(type) {
	case float64:
		return v
	case string:
		if v == "+Inf" || v == "-Inf" || v == "NaN" {
			f, _ := strconv.ParseFloat(v, 64)
			return f
		}
	}
	t.Fatalf("value %#v is neither a number nor +Inf, -Inf, NaN", v)
	return 0
}

// meanStd is the mean and the sample standard deviation by definition.
func meanStd(x []float64) (mean, std float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / float64(len(x)-1))
}

// TestEvalDemo checks the JSON output on the demo's files (predictions of
// "cat" on the tree of Figure 1) against values computed by hand.
func TestEvalDemo(t *testing.T) {
	// The six predictions, each against δ_cat:
	//   δ_dog, δ_snake, δ_mammal: wasserstein 2, 4, 1 (edges to cat); kl +Inf;
	//     chebyshev 1; clark √2 and canberra 2 (two labels with ratio 1);
	//     cosine 0; intersection 0.
	//   cat .5 + dog .5: wasserstein .5·2, kl ln 2, chebyshev .5, clark
	//     sqrt(1 + (.5/1.5)²) = √10/3, canberra 1 + 1/3, cosine √.5, intersection .5.
	//   cat .5 + snake .5: the same but wasserstein .5·4.
	//   cat .9, dog .05, snake .05: wasserstein .05·2 + .05·4, kl ln(1/.9),
	//     chebyshev .1, clark sqrt(2 + (.1/1.9)²), canberra 2 + .1/1.9,
	//     cosine .9/sqrt(.81 + 2·.0025), intersection .9.
	r2, c4, c6 := math.Sqrt2, math.Sqrt(10)/3, math.Sqrt(2+1.0/361)
	values := map[string][]float64{
		"wasserstein":  {2, 4, 1, 1, 2, 0.3},
		"kl":           {math.Inf(1), math.Inf(1), math.Inf(1), math.Ln2, math.Ln2, -math.Log(0.9)},
		"chebyshev":    {1, 1, 1, 0.5, 0.5, 0.1},
		"clark":        {r2, r2, r2, c4, c4, c6},
		"canberra":     {2, 2, 2, 4.0 / 3, 4.0 / 3, 2 + 1.0/19},
		"cosine":       {0, 0, 0, math.Sqrt(0.5), math.Sqrt(0.5), 0.9 / math.Sqrt(0.815)},
		"intersection": {0, 0, 0, 0.5, 0.5, 0.9},
	}
	args := []string{"--tree", "demo/figure1.tree", "demo/predictions.jsonl", "demo/targets.jsonl"}
	obj := evalJSON(t, "", args...)

	if len(obj) != 1+2*len(values) {
		t.Errorf("%d keys, want %d: %v", len(obj), 1+2*len(values), obj)
	}
	if obj["rows"] != 6.0 {
		t.Errorf("rows = %v, want 6", obj["rows"])
	}
	for name, x := range values {
		mean, std := meanStd(x)
		if name == "kl" {
			mean, std = math.Inf(1), math.NaN()
		}
		for _, c := range []struct {
			key  string
			want float64
		}{{name, mean}, {name + "_std", std}} {
			got := jsonNumber(t, obj[c.key])
			if !(got == c.want || math.IsNaN(got) && math.IsNaN(c.want) || math.Abs(got-c.want) <= 1e-14) {
				t.Errorf("%s = %v, want %v", c.key, got, c.want)
			}
		}
	}
	if obj["kl"] != "+Inf" || obj["kl_std"] != "NaN" {
		t.Errorf(`kl = %#v, kl_std = %#v; want "+Inf", "NaN"`, obj["kl"], obj["kl_std"])
	}

	// PyLDL's clipping changes kl only: the first three rows have KL
	// (1 − ε)·ln(1/ε) = (1 − ε)·52 ln 2, the others their exact value plus
	// terms ε·ln(ε/x), below 1e-14 in all.
	obj = evalJSON(t, "", append(args, "--pyldl")...)
	kl := []float64{52 * math.Ln2, 52 * math.Ln2, 52 * math.Ln2, math.Ln2, math.Ln2, -math.Log(0.9)}
	mean, std := meanStd(kl)
	if got := jsonNumber(t, obj["kl"]); math.Abs(got-mean) > 1e-12 {
		t.Errorf("--pyldl: kl = %v, want %v", got, mean)
	}
	if got := jsonNumber(t, obj["kl_std"]); math.Abs(got-std) > 1e-12 {
		t.Errorf("--pyldl: kl_std = %v, want %v", got, std)
	}
	for _, name := range []string{"wasserstein", "chebyshev", "clark", "canberra", "cosine", "intersection"} {
		want, _ := meanStd(values[name])
		if got := jsonNumber(t, obj[name]); math.Abs(got-want) > 1e-14 {
			t.Errorf("--pyldl: %s = %v, want %v", name, got, want)
		}
	}

	// The table shows +Inf and points at the first infinite row.
	code, out, _ := twl(t, "", append([]string{"eval"}, args...)...)
	for _, want := range []string{"\nkl ↓                     +Inf          NaN\n",
		"kl is +Inf for 3 pairs", "first at demo/predictions.jsonl:1.\n"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d, table lacks %q:\n%s", code, want, out)
		}
	}
}

// TestEvalArgs checks one pair (std NaN), standard input, --normalize,
// flags after the files and --out.
func TestEvalArgs(t *testing.T) {
	dir := write(t, map[string]string{"t.tree": fig1Tree, "p.jsonl": `{"dog": 1}`, "q.jsonl": `{"cat": 1}`,
		"counts.jsonl": `{"dog": 3, "cat": 1}`})
	tr, p, q := filepath.Join(dir, "t.tree"), filepath.Join(dir, "p.jsonl"), filepath.Join(dir, "q.jsonl")

	obj := evalJSON(t, `{"cat": 1}`, p, "-", "--tree", tr)
	if obj["rows"] != 1.0 || obj["wasserstein"] != 2.0 || obj["wasserstein_std"] != "NaN" {
		t.Errorf("one pair from stdin: %v", obj)
	}
	// dog .75, cat .25 against cat: wasserstein .75·2; intersection .25.
	obj = evalJSON(t, "", "--normalize", "--tree", tr, filepath.Join(dir, "counts.jsonl"), q)
	if obj["wasserstein"] != 1.5 || obj["intersection"] != 0.25 {
		t.Errorf("--normalize: %v", obj)
	}

	outPath := filepath.Join(dir, "out.json")
	code, out, errOut := twl(t, "", "eval", p, q, "--tree", tr, "--format=json", "--out", outPath)
	got, _ := os.ReadFile(outPath)
	if code != 0 || out != "" || errOut != "" || !json.Valid(got) || !strings.Contains(string(got), `"wasserstein":2,`) {
		t.Errorf("--out: exit %d, stdout %q, stderr %q, file %q", code, out, errOut, got)
	}
}

func TestEvalErrors(t *testing.T) {
	const ok = `{"cat": 1}` + "\n"
	for _, tc := range []struct {
		name  string
		files map[string]string // p.jsonl, q.jsonl, t.tree default to fine ones
		args  []string          // default: --tree t.tree p.jsonl q.jsonl
		code  int
		msgs  []string // parts of stderr; $D is the directory
	}{
		{"more predictions", map[string]string{"p.jsonl": ok + ok + "\n" + ok, "q.jsonl": ok}, nil, 1,
			[]string{`$D/p.jsonl:2: distribution 2 has no partner: $D/p.jsonl has 3 distributions, $D/q.jsonl has 1`,
				"eval pairs prediction r with target r"}},
		{"more targets", map[string]string{"q.jsonl": ok + ok}, nil, 1,
			[]string{`$D/q.jsonl:2: distribution 2 has no partner: $D/p.jsonl has 1 distribution, $D/q.jsonl has 2`}},
		{"no rows", map[string]string{"p.jsonl": "\n", "q.jsonl": ""}, nil, 1,
			[]string{`$D/p.jsonl and $D/q.jsonl hold no distributions`}},
		{"malformed target", map[string]string{"q.jsonl": ok + `{"cat": 1`}, nil, 1,
			[]string{`$D/q.jsonl:2: syntax error`}},
		{"unknown label", map[string]string{"p.jsonl": `{"fish": 1}`}, nil, 1,
			[]string{`$D/p.jsonl:1: unknown label: "fish"`}},
		{"sum", map[string]string{"p.jsonl": `{"cat": 0.5}`}, nil, 1,
			[]string{`$D/p.jsonl:1: masses do not sum to 1: sum is 0.5`, "--normalize"}},
		{"bad tree", map[string]string{"t.tree": "a\tb\t-1\n"}, nil, 1,
			[]string{"$D/t.tree:1: invalid weight"}},
		{"missing file", nil, []string{"--tree", "$D/t.tree", "$D/p.jsonl", "$D/missing.jsonl"}, 1,
			[]string{"$D/missing.jsonl", "no such file"}},
		{"no --tree", nil, []string{"$D/p.jsonl", "$D/q.jsonl"}, 2, []string{"--tree is required"}},
		{"one file", nil, []string{"--tree", "$D/t.tree", "$D/p.jsonl"}, 2, []string{"got 1 argument\n"}},
		{"stdin twice", nil, []string{"--tree", "$D/t.tree", "-", "-"}, 2, []string{"only one of PRED and TARGET"}},
		{"bad format", nil, []string{"--format", "csv", "--tree", "$D/t.tree", "$D/p.jsonl", "$D/q.jsonl"}, 2,
			[]string{`--format must be text or json, not "csv"`, "see 'twl eval --help'"}},
		{"unknown flag", nil, []string{"--clip", "--tree", "$D/t.tree", "$D/p.jsonl", "$D/q.jsonl"}, 2,
			[]string{"flag provided but not defined: --clip"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"t.tree": fig1Tree, "p.jsonl": ok, "q.jsonl": ok}
			for k, v := range tc.files {
				files[k] = v
			}
			dir := write(t, files)
			args := tc.args
			if args == nil {
				args = []string{"--tree", "$D/t.tree", "$D/p.jsonl", "$D/q.jsonl"}
			}
			full := []string{"eval"}
			for _, a := range args {
				full = append(full, strings.ReplaceAll(a, "$D", dir))
			}
			code, out, errOut := twl(t, "", full...)
			withLine := !strings.Contains(tc.name, "missing") && tc.name != "no rows"
			expectFailure(t, code, out, errOut, tc.code, tc.msgs, dir, withLine)
		})
	}
}
