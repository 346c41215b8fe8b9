package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// genresTree is a small forest of genres for the text tests.
const genresTree = "Fiction\tFantasy\nFantasy\tEpic Fantasy\nNonfiction\tCooking\n"

// genresTaxonomy is the same forest as a toolkit taxonomy.
const genresTaxonomy = "Root\tFiction\tNonfiction\nFiction\tFantasy\nFantasy\tEpic Fantasy\nNonfiction\tCooking\n"

const genresDocs = `{"text": "Dragons and kings, dragons!", "labels": ["Epic Fantasy"]}
{"text": "Soup for kings.", "labels": ["Cooking"]}
{"text": "", "labels": ["Fantasy", "Cooking"]}
`

// TestTextStats checks the statistics of three documents, counted by hand:
// 4, 3 and 0 tokens; "dragons" and "kings" twice, the others once, so
// --min-count 2 keeps 2 words covering 4 of 7 tokens; label sets closed
// under ancestors: {Fiction, Fantasy, Epic Fantasy}, {Nonfiction, Cooking},
// {Fiction, Fantasy, Nonfiction, Cooking}: 9 labels in all.
func TestTextStats(t *testing.T) {
	dir := write(t, map[string]string{"g.tree": genresTree, "g.taxonomy": genresTaxonomy, "d.jsonl": genresDocs,
		"e.vec": "2 3\ndragons 1 2 3\nsoup 0 0 1\n"})
	for _, tr := range []string{"g.tree", "g.taxonomy"} {
		code, out, errOut := twl(t, "", "text", "stats", "--data", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, tr),
			"--emb", filepath.Join(dir, "e.vec"), "--format", "json", "--allow-empty")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var got struct {
			Labels    []string
			Embedding map[string]any
			Stats     map[string]any
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		s := got.Stats
		for k, want := range map[string]float64{"documents": 3, "tokens": 7, "empty_documents": 1, "tokens_max": 4,
			"types": 5, "vocab_words": 2, "vocab_token_coverage": 4.0 / 7, "labels_used": 5, "labels_max": 4,
			"labels_per_document": 3} {
			if s[k] != want {
				t.Errorf("%s: %s = %v, want %v", tr, k, s[k], want)
			}
		}
		// Of the vocabulary words dragons, kings: dragons has a vector; it
		// is 2 of the 7 tokens.
		if e := got.Embedding; e["in_vocabulary"] != 1.0 || e["missing"] != 1.0 || e["token_coverage"] != 2.0/7 || e["dim"] != 3.0 {
			t.Errorf("%s: embedding %v", tr, e)
		}
		docs := map[string]float64{}
		for i, name := range got.Labels {
			docs[name] = s["label_documents"].([]any)[i].(float64)
		}
		if docs["Fantasy"] != 2 || docs["Epic Fantasy"] != 1 || docs["Nonfiction"] != 2 || docs["Cooking"] != 2 || docs["Fiction"] != 2 {
			t.Errorf("%s: label documents %v", tr, docs)
		}
	}
	code, out, errOut := twl(t, "", "text", "stats", "--data", filepath.Join(dir, "d.jsonl"), "--tree", filepath.Join(dir, "g.tree"), "--max-len", "2", "--allow-empty")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"3 documents", "7 in all", "--max-len 2 truncates 2 documents, keeping 4 tokens", "1 document without a token",
		"\n     3        1        1          1            1\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestTextStatsErrors(t *testing.T) {
	dir := write(t, map[string]string{"g.tree": genresTree, "d.jsonl": genresDocs,
		"bad.jsonl":  "{\"text\": \"a\", \"labels\": [\"Fantasy\"]}\n{\"text\": \"b\", \"labels\": [\"Jazz\"]}\n",
		"sets.jsonl": "[\"Fantasy\"]\n", "cyc.taxonomy": "Root\tx\na\tb\nb\ta\n", "ragged.vec": "2 3\nx 1 2 3\ny 1 2\n"})
	for _, c := range []struct {
		args     []string
		status   int
		msgs     []string
		withLine bool
	}{
		{[]string{"--tree", "$D/g.tree"}, 2, []string{"--data is required"}, false},
		{[]string{"--data", "$D/d.jsonl", "extra"}, 2, []string{"takes no arguments"}, false},
		{[]string{"--data", "$D/d.jsonl", "--keep", "middle"}, 2, []string{`--keep "middle": must be first or last`}, false},
		{[]string{"--data", "$D/bad.jsonl", "--tree", "$D/g.tree"}, 1, []string{"$D/bad.jsonl:2: unknown label", `"Jazz"`}, true},
		{[]string{"--data", "$D/sets.jsonl"}, 1, []string{"holds label sets", "no text"}, false},
		{[]string{"--data", "$D/d.jsonl", "--tree", "$D/cyc.taxonomy", "--allow-empty"}, 1, []string{"$D/cyc.taxonomy:3: cycle"}, true},
		{[]string{"--data", "$D/d.jsonl", "--emb", "$D/ragged.vec", "--allow-empty"}, 1, []string{"$D/ragged.vec:3:"}, true},
		{[]string{"--data", "$D/d.jsonl"}, 1, []string{"$D/d.jsonl:3: empty text", "--allow-empty"}, true},
		{[]string{"--data", "$D/BlurbGenreCollection_EN_train.txt"}, 1, []string{"uni-hamburg.de"}, false},
	} {
		args := []string{"text", "stats"}
		for _, a := range c.args {
			args = append(args, strings.ReplaceAll(a, "$D", dir))
		}
		code, out, errOut := twl(t, "", args...)
		expectFailure(t, code, out, errOut, c.status, c.msgs, dir, c.withLine)
	}
	code, out, errOut := twl(t, "", "text", "nope")
	expectFailure(t, code, out, errOut, 2, []string{`unknown command "nope"`, "stats"}, dir, false)
}

// TestReadLabelTree checks which files are read as taxonomies: by prefix or
// extension; a file with a Root<TAB> line and neither is refused as
// ambiguous (a one-child taxonomy reads as an edge list without error),
// and edges:FILE reads it as an edge list with Root a node.
func TestReadLabelTree(t *testing.T) {
	dir := write(t, map[string]string{
		"b.tree":     "Root\tcs\ncs\tcs.lg\n",
		"c.taxonomy": "Root\tcs\ncs\tcs.lg\tcs.cv\n",
		"plain.tree": "cs\tcs.lg\n",
	})
	for _, c := range []struct {
		spec     string
		root     bool // Root is a label
		children int  // children of cs
	}{
		{"c.taxonomy", false, 2}, {"taxonomy:$D/b.tree", false, 1}, {"edges:$D/b.tree", true, 1}, {"plain.tree", false, 1},
	} {
		spec := strings.ReplaceAll(c.spec, "$D", dir)
		if !strings.Contains(c.spec, ":") {
			spec = filepath.Join(dir, spec)
		}
		tr, err := tree.Open(spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, root := tr.Index("Root")
		cs, _ := tr.Index("cs")
		if root != c.root || len(tr.Children(nil, cs)) != c.children {
			t.Errorf("%s: Root a label %v, cs has %d children", c.spec, root, len(tr.Children(nil, cs)))
		}
	}
	_, err := tree.Open(filepath.Join(dir, "b.tree"), nil)
	if err == nil || !strings.Contains(err.Error(), "b.tree:1: a line starts with Root") || !strings.Contains(err.Error(), "taxonomy:") {
		t.Errorf("ambiguous file: error %v", err)
	}
	// An output that is the input given as taxonomy:FILE is refused.
	code, out, errOut := twl(t, "", "text", "stats", "--data", filepath.Join(dir, "plain.tree"), "--tree",
		"taxonomy:"+filepath.Join(dir, "c.taxonomy"), "--out", filepath.Join(dir, "c.taxonomy"))
	expectFailure(t, code, out, errOut, 2, []string{"--out $D/c.taxonomy would overwrite --tree $D/c.taxonomy"}, dir, false)
}

// TestTextFastTextCorpus checks that a corpus in fastText's supervised
// format is read as the same documents written as JSON Lines: 'twl text
// stats' and 'twl eval --multilabel' print the same for both.
func TestTextFastTextCorpus(t *testing.T) {
	dir := write(t, map[string]string{
		"g.tree": "Fiction\tFantasy\nFantasy\tEpic_Fantasy\nNonfiction\tCooking\n",
		"d.jsonl": `{"text": "Dragons and kings, dragons!", "labels": ["Epic_Fantasy"]}
{"text": "Soup for kings.", "labels": ["Cooking"]}
{"text": "Kings cook", "labels": ["Fantasy", "Cooking"]}
`,
		// The same: labels first, last and among the words.
		"d.txt": "__label__Epic_Fantasy Dragons and kings, dragons!\nSoup for kings. __label__Cooking\n__label__Fantasy Kings __label__Cooking cook\n",
		// The labels alone, as a truth file for eval.
		"y.txt": "__label__Epic_Fantasy\n__label__Cooking\n__label__Fantasy __label__Cooking\n",
		"p.jsonl": `{"Epic_Fantasy": 0.5, "Cooking": 0.5}
{"Cooking": 1}
{"Fantasy": 0.25, "Fiction": 0.25, "Nonfiction": 0.5}
`,
	})
	run := func(args ...string) string {
		t.Helper()
		code, out, errOut := twl(t, "", args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errOut)
		}
		return out
	}
	tr := filepath.Join(dir, "g.tree")
	for _, args := range [][]string{
		{"text", "stats", "--tree", tr, "--min-count", "1", "--data"},
		{"eval", "--multilabel", "--k", "2", "--tree", tr, filepath.Join(dir, "p.jsonl")},
	} {
		jl := run(append(args, filepath.Join(dir, "d.jsonl"))...)
		ft := run(append(args, filepath.Join(dir, "d.txt"))...)
		ft = strings.ReplaceAll(strings.ReplaceAll(ft, "d.txt (fasttext)", "d.jsonl (jsonl)"), "d.txt", "d.jsonl")
		if jl != ft || !strings.Contains(jl, "3 documents") && !strings.Contains(jl, "pseudo_recall") {
			t.Errorf("%q: JSON Lines:\n%s\nfastText:\n%s", args, jl, ft)
		}
	}
	eval := []string{"eval", "--multilabel", "--k", "2", "--tree", tr, filepath.Join(dir, "p.jsonl")}
	if jl, y := run(append(eval, filepath.Join(dir, "d.jsonl"))...), run(append(eval, filepath.Join(dir, "y.txt"))...); jl != strings.ReplaceAll(y, "y.txt", "d.jsonl") {
		t.Errorf("eval against labels alone:\n%s\nagainst the documents:\n%s", y, jl)
	}
}

// TestTextPredictLayouts trains a bag on a fastText training file and
// checks 'twl text predict': plain text lines from standard input predict
// as the same texts in JSON Lines; --format fasttext writes the same labels
// and masses (to 6 significant digits) as the JSON Lines; --consistent
// sets are closed under ancestors in the tree, within --top; and the
// misuses are refused.
func TestTextPredictLayouts(t *testing.T) {
	const tr = "Fiction\tFantasy\nFantasy\tEpic_Fantasy\nNonfiction\tCooking\nPoetry\n"
	var train strings.Builder
	for i := range 60 {
		fmt.Fprintf(&train, "%s\n", []string{"__label__Epic_Fantasy dragons and swords", "soup recipe __label__Cooking", "__label__Poetry roses are red", "__label__Fantasy elves"}[i%4])
	}
	texts := []string{"dragons everywhere", "a soup of roses", "elves and swords", "nothing known"}
	var jl strings.Builder
	for _, s := range texts {
		fmt.Fprintf(&jl, "{\"text\": %q}\n", s)
	}
	dir := write(t, map[string]string{"g.tree": tr, "train.txt": train.String(), "new.jsonl": jl.String(),
		"sets.jsonl": "[\"Poetry\"]\n", "s.tree": genresTree, "s.jsonl": toyDocs(20)})
	run := func(stdin string, args ...string) string {
		t.Helper()
		code, out, errOut := twl(t, stdin, args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errOut)
		}
		return out
	}
	model := filepath.Join(dir, "m.model")
	gt := filepath.Join(dir, "g.tree")
	run("", "text", "train", "--train", filepath.Join(dir, "train.txt"), "--tree", gt, "--emb-dim", "8", "--buckets", "1000",
		"--epochs", "5", "--min-count", "1", "--quiet", "--out", model)
	predict := func(stdin string, args ...string) []string {
		t.Helper()
		out := run(stdin, append([]string{"text", "predict", "--model", model}, args...)...)
		return strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	}
	all := predict("", "--data", filepath.Join(dir, "new.jsonl"))
	if plain := predict(strings.Join(texts, "\n")+"\n", "--data", "-"); !slices.Equal(plain, all) || len(all) != len(texts) {
		t.Fatalf("plain text from standard input:\n%q\nJSON Lines:\n%q", plain, all)
	}
	lt, err := tree.ReadFile(gt, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"0", "2"} {
		ft := predict("", "--data", filepath.Join(dir, "new.jsonl"), "--format", "fasttext", "--top", k)
		cons := predict("", "--data", filepath.Join(dir, "new.jsonl"), "--consistent", "--tree", gt, "--top", k)
		for i, line := range all {
			var p map[string]float64
			if err := json.Unmarshal([]byte(line), &p); err != nil {
				t.Fatal(err)
			}
			// The fastText line: pairs, the labels by decreasing mass.
			f := strings.Fields(ft[i])
			n := len(p)
			if k == "2" {
				n = 2
			}
			if len(f) != 2*n {
				t.Fatalf("--top %s: %q, want %d labels", k, ft[i], n)
			}
			last := 2.0
			for j := 0; j < len(f); j += 2 {
				name, ok := strings.CutPrefix(f[j], "__label__")
				if !ok || f[j+1] != strconv.FormatFloat(p[name], 'g', 6, 64) || p[name] > last {
					t.Errorf("--top %s line %d: %q %q, the JSON line has %v", k, i+1, f[j], f[j+1], p[name])
				}
				last = p[name]
			}
			// The consistent set.
			var c map[string]float64
			if err := json.Unmarshal([]byte(cons[i]), &c); err != nil {
				t.Fatal(err)
			}
			if k == "2" && len(c) != 2 || k == "0" && len(c) != len(p) {
				t.Errorf("--consistent --top %s: %v", k, c)
			}
			for name, v := range c {
				l, _ := lt.Index(name)
				if u := lt.Parent(l); v != p[name] || u >= 0 && c[lt.Name(u)] == 0 {
					t.Errorf("--consistent --top %s line %d: %v is not closed, or its masses not the model's %v", k, i+1, c, p)
				}
			}
		}
	}

	// Misuse.
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--data", filepath.Join(dir, "new.jsonl"), "--consistent"}, 2, "--consistent needs --tree"},
		{[]string{"--data", filepath.Join(dir, "new.jsonl"), "--format", "csv"}, 2, `--format "csv": must be jsonl or fasttext`},
		{[]string{"--data", filepath.Join(dir, "sets.jsonl")}, 1, "holds label sets"},
		{[]string{"--data", filepath.Join(dir, "new.jsonl"), "--consistent", "--tree", filepath.Join(dir, "s.tree")}, 1, "was trained on another tree"},
	} {
		code, _, errOut := twl(t, "", append([]string{"text", "predict", "--model", model}, c.args...)...)
		if code != c.code || !strings.Contains(errOut, c.msg) {
			t.Errorf("%q: exit %d, %q; want %d, %q", c.args, code, errOut, c.code, c.msg)
		}
	}
	// A model whose labels hold spaces cannot be written as fastText's.
	spaced := filepath.Join(dir, "s.model")
	run("", "text", "train", "--train", filepath.Join(dir, "s.jsonl"), "--tree", filepath.Join(dir, "s.tree"), "--emb-dim", "8", "--buckets", "1000",
		"--epochs", "2", "--min-count", "1", "--quiet", "--out", spaced)
	code, out, errOut := twl(t, "", "text", "predict", "--model", spaced, "--data", filepath.Join(dir, "new.jsonl"), "--format", "fasttext")
	if code != 1 || out != "" || !strings.Contains(errOut, `the label "Epic Fantasy" holds white space`) {
		t.Errorf("labels with spaces: exit %d, %q %q", code, out, errOut)
	}
}

// TestFastTextWorkflow runs a fastText user's files through twl without
// converting them: a training file and a test file in fastText's
// supervised format, 'twl text train', 'twl text predict --format fasttext
// [--top 5]' and 'twl eval --multilabel --normalize' of those predictions
// against the test file. The scores must be those of the same predictions
// written as JSON Lines (every label's mass at full precision; for --top 5,
// the five of highest mass, rescaled to sum 1, written here from the JSON
// Lines), within the rounding of the fastText layout's 6 digits.
func TestFastTextWorkflow(t *testing.T) {
	const tr = "Fiction\tFantasy\nFantasy\tEpic_Fantasy\nNonfiction\tCooking\nPoetry\n"
	docs := []string{"__label__Epic_Fantasy dragons and swords", "soup recipe __label__Cooking", "__label__Poetry roses are red",
		"__label__Fantasy elves", "__label__Poetry __label__Cooking a poem of soup"}
	var train, test strings.Builder
	for i := range 60 {
		fmt.Fprintln(&train, docs[i%len(docs)])
	}
	for _, s := range []string{"__label__Epic_Fantasy swords and elves", "__label__Cooking roses soup", "__label__Poetry __label__Fantasy red elves", "__label__Nonfiction nothing known"} {
		fmt.Fprintln(&test, s)
	}
	dir := write(t, map[string]string{"labels.tree": tr, "train.txt": train.String(), "test.txt": test.String()})
	path := func(name string) string { return filepath.Join(dir, name) }
	run := func(args ...string) string {
		t.Helper()
		code, out, errOut := twl(t, "", args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errOut)
		}
		return out
	}
	run("text", "train", "--train", path("train.txt"), "--tree", path("labels.tree"), "--emb-dim", "8", "--buckets", "1000",
		"--epochs", "5", "--min-count", "1", "--quiet", "--out", path("m.model"))
	run("text", "predict", "--model", path("m.model"), "--data", path("test.txt"), "--out", path("p.jsonl"))
	run("text", "predict", "--model", path("m.model"), "--data", path("test.txt"), "--format", "fasttext", "--out", path("p.txt"))
	run("text", "predict", "--model", path("m.model"), "--data", path("test.txt"), "--format", "fasttext", "--top", "5", "--out", path("p5.txt"))

	// The five labels of highest mass of each JSON line (equal masses in
	// the tree's order, as documented), rescaled.
	lt, err := tree.ReadFile(path("labels.tree"), nil)
	if err != nil {
		t.Fatal(err)
	}
	index := func(name string) int { i, _ := lt.Index(name); return i }
	var top5 strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(readFile(t, path("p.jsonl"))), "\n") {
		var p map[string]float64
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatal(err)
		}
		names := slices.SortedFunc(maps.Keys(p), func(a, b string) int { return cmp.Or(cmp.Compare(p[b], p[a]), index(a)-index(b)) })[:5]
		sum := 0.0
		for _, n := range names {
			sum += p[n]
		}
		q := map[string]float64{}
		for _, n := range names {
			q[n] = p[n] / sum
		}
		b, _ := json.Marshal(q)
		fmt.Fprintf(&top5, "%s\n", b)
	}
	if err := os.WriteFile(path("p5.jsonl"), []byte(top5.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	eval := func(pred string) map[string]float64 {
		t.Helper()
		out := run("eval", "--multilabel", "--normalize", "--k", "5", "--format", "json", "--tree", path("labels.tree"), path(pred), path("test.txt"))
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatal(err)
		}
		scores := map[string]float64{}
		for k, v := range m {
			if f, ok := v.(float64); ok {
				scores[k] = f
			}
		}
		return scores
	}
	for _, c := range [][2]string{{"p.txt", "p.jsonl"}, {"p5.txt", "p5.jsonl"}} {
		got, want := eval(c[0]), eval(c[1])
		if len(want) < 10 || want["rows"] != 4 {
			t.Fatalf("%s: the scores of the JSON Lines: %v", c[1], want)
		}
		for k, w := range want {
			if g, ok := got[k]; !ok || math.Abs(g-w) > 1e-4*max(1, math.Abs(w)) {
				t.Errorf("%s: %s = %v, %s gives %v", c[0], k, g, c[1], w)
			}
		}
	}
}
