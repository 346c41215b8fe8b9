package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
)

// writeVec writes n random words with d-dimensional vectors as a .vec file
// (with its header line) and returns its path and the words.
func writeVec(t *testing.T, dir string, n, d int, seed uint64) (string, []string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d %d\n", n, d)
	var words []string
	for i := range n {
		w := fmt.Sprintf("w%d", i)
		words = append(words, w)
		sb.WriteString(w)
		for range d {
			fmt.Fprintf(&sb, " %.4f", rng.NormFloat64()+float64(i%3)*4)
		}
		sb.WriteString("\n")
	}
	path := filepath.Join(dir, "v.vec")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, words
}

// TestTreeBuild builds cluster and quad trees from a .vec file: every word
// is a leaf, weights are finite and non-negative, and the same seed gives
// the same file byte for byte.
func TestTreeBuild(t *testing.T) {
	dir := t.TempDir()
	vec, words := writeVec(t, dir, 60, 5, 1)
	for _, method := range []string{"cluster", "quad"} {
		var first []byte
		for run := range 2 {
			out := filepath.Join(dir, fmt.Sprintf("%s%d.tree", method, run))
			code, _, errOut := twl(t, "", "tree", "build", "--emb", vec, "--method", method, "--seed", "7", "--out", out)
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", method, code, errOut)
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if run == 0 {
				first = b
				tr, err := tree.ReadFile(out, nil)
				if err != nil {
					t.Fatal(err)
				}
				leaves := map[string]bool{}
				for _, l := range tsw.Leaves(tr) {
					leaves[l] = true
				}
				for _, w := range words {
					if !leaves[w] {
						t.Fatalf("%s: %q is not a leaf", method, w)
					}
				}
				if len(leaves) != len(words) {
					t.Errorf("%s: %d leaves for %d words", method, len(leaves), len(words))
				}
				for i := range tr.Len() {
					if w := tr.Weight(i); i != tr.Root() && !(w >= 0 && !math.IsInf(w, 0)) {
						t.Fatalf("%s: weight %v above %q", method, w, tr.Name(i))
					}
				}
			} else if string(b) != string(first) {
				t.Errorf("%s: the same seed gave another tree", method)
			}
		}
	}
	code, _, errOut := twl(t, "", "tree", "build", "--emb", vec, "--method", "quad", "--k", "3", "--out", filepath.Join(dir, "x"))
	if code != 2 || !strings.Contains(errOut, "--k applies only with --method cluster") {
		t.Errorf("--k with quad: exit %d, %s", code, errOut)
	}
	code, _, errOut = twl(t, "", "tree", "build", "--emb", vec, "--method", "quad", "--depth", "64", "--out", filepath.Join(dir, "x"))
	if code != 2 || !strings.Contains(errOut, "--depth must be at most 50 with --method quad") {
		t.Errorf("--depth 64 with quad: exit %d, %s", code, errOut)
	}
}

// TestTreeBuildLabels builds a tree over label names from the mean vectors
// of their words; a label with no known word is an error naming its line.
func TestTreeBuildLabels(t *testing.T) {
	dir := t.TempDir()
	vec, _ := writeVec(t, dir, 12, 3, 2)
	labels := filepath.Join(dir, "labels.txt")
	os.WriteFile(labels, []byte("w0 w3\nw1\n\n# a comment\nw2.w5 w8\nw4\n"), 0o644)
	out := filepath.Join(dir, "l.tree")
	code, _, errOut := twl(t, "", "tree", "build", "--emb", vec, "--labels", labels, "--k", "2", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	tr, err := tree.ReadFile(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := tsw.Leaves(tr); len(got) != 4 {
		t.Errorf("leaves %q, want the 4 labels", got)
	}
	for _, name := range []string{"w0 w3", "w1", "w2.w5 w8", "w4"} {
		if i, ok := tr.Index(name); !ok || !tr.IsLeaf(i) {
			t.Errorf("label %q is not a leaf", name)
		}
	}
	os.WriteFile(labels, []byte("w0\nnothing known\n"), 0o644)
	code, _, errOut = twl(t, "", "tree", "build", "--emb", vec, "--labels", labels, "--out", out)
	if code != 1 || !strings.Contains(errOut, labels+":2: no word of the label \"nothing known\"") {
		t.Errorf("unknown label: exit %d, %s", code, errOut)
	}
}

// TestDistanceTrees checks 'distance --trees' against the mean of 'distance
// --tree' over the same trees (the tree-sliced distance by its definition),
// row by row and with --pairwise, within 1e-12.
func TestDistanceTrees(t *testing.T) {
	dir := t.TempDir()
	vec, words := writeVec(t, dir, 40, 4, 3)
	var treesArg []string
	for s, method := range []string{"cluster", "cluster", "quad"} {
		out := filepath.Join(dir, fmt.Sprintf("t%d.tree", s))
		if code, _, errOut := twl(t, "", "tree", "build", "--emb", vec, "--method", method, "--seed", fmt.Sprint(s+1), "--out", out); code != 0 {
			t.Fatal(errOut)
		}
		treesArg = append(treesArg, out)
	}
	rng := rand.New(rand.NewPCG(4, 5))
	for _, name := range []string{"a.jsonl", "b.jsonl"} {
		var sb strings.Builder
		for range 9 {
			sb.WriteString("{")
			for k, i := range rng.Perm(len(words))[:4] {
				if k > 0 {
					sb.WriteString(",")
				}
				fmt.Fprintf(&sb, "%q:0.25", words[i])
			}
			sb.WriteString("}\n")
		}
		os.WriteFile(filepath.Join(dir, name), []byte(sb.String()), 0o644)
	}
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	for _, pairwise := range []bool{false, true} {
		extra := []string{}
		if pairwise {
			extra = []string{"--pairwise"}
		}
		var mean []float64
		for _, tr := range treesArg {
			code, out, errOut := twl(t, "", append([]string{"distance", "--tree", tr, a, b}, extra...)...)
			if code != 0 {
				t.Fatal(errOut)
			}
			v := parseNumbers(t, strings.NewReplacer("\t", "\n").Replace(out))
			if mean == nil {
				mean = make([]float64, len(v))
			}
			for i := range v {
				mean[i] += v[i] / float64(len(treesArg))
			}
		}
		code, out, errOut := twl(t, "", append([]string{"distance", "--trees", strings.Join(treesArg, ","), a, b}, extra...)...)
		if code != 0 {
			t.Fatal(errOut)
		}
		got := parseNumbers(t, strings.NewReplacer("\t", "\n").Replace(out))
		if len(got) != len(mean) {
			t.Fatalf("pairwise %v: %d distances, want %d", pairwise, len(got), len(mean))
		}
		for i := range got {
			if math.Abs(got[i]-mean[i]) > 1e-12*max(1, mean[i]) {
				t.Errorf("pairwise %v, distance %d: %v, mean of the trees %v", pairwise, i, got[i], mean[i])
			}
		}
	}
	// The embeddings of B's rows that --pairwise --trees holds count
	// against --max-memory.
	code, out, errOut := twl(t, "", "distance", "--pairwise", "--max-memory", "2kB", "--trees", strings.Join(treesArg, ","), a, b)
	if code != 1 || out != "" || !strings.Contains(errOut, "--pairwise --trees holds the tree embeddings of all its rows in memory") {
		t.Errorf("--pairwise --trees over --max-memory: exit %d, stdout %q, stderr %s", code, out, errOut)
	}
	// Trees whose leaves differ are refused, naming the files.
	small := filepath.Join(dir, "small.tree")
	if code, _, errOut := twl(t, "", "tree", "build", "--emb", vec, "--max-words", "30", "--out", small); code != 0 {
		t.Fatal(errOut)
	}
	for _, list := range [][]string{{small, treesArg[0]}, {treesArg[0], small}} {
		code, _, errOut = twl(t, "", "distance", "--trees", strings.Join(list, ","), a, b)
		if code != 1 || !strings.Contains(errOut, "the trees must have the same leaves") || !strings.Contains(errOut, small) {
			t.Errorf("--trees %v: exit %d, %s", list, code, errOut)
		}
	}
	code, _, errOut = twl(t, "", "distance", "--trees", "", a, b)
	if code != 2 || !strings.Contains(errOut, "--trees is empty") {
		t.Errorf("--trees '': exit %d, %s", code, errOut)
	}
	code, _, errOut = twl(t, "", "distance", "--trees", treesArg[0], "--tree", treesArg[1], a, b)
	if code != 2 || !strings.Contains(errOut, "exclude each other") {
		t.Errorf("--tree with --trees: exit %d, %s", code, errOut)
	}
}

// TestTrainTrees trains KL + λ·TSW over two trees built from label vectors
// (flat labels): the model's labels are the trees' leaves, its loss names
// the tree-sliced distance, and its predictions score with eval. A loss
// other than kl and kl+tsw with --trees is a usage error.
func TestTrainTrees(t *testing.T) {
	dir := t.TempDir()
	vec, words := writeVec(t, dir, 8, 3, 6)
	var ts []string
	for s := range 2 {
		out := filepath.Join(dir, fmt.Sprintf("l%d.tree", s))
		if code, _, errOut := twl(t, "", "tree", "build", "--emb", vec, "--k", "2", "--seed", fmt.Sprint(s+1), "--out", out); code != 0 {
			t.Fatal(errOut)
		}
		ts = append(ts, out)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	var data strings.Builder
	for range 40 {
		c := rng.IntN(len(words))
		fmt.Fprintf(&data, `{"x":[%g,%g],"y":{%q:0.75,%q:0.25}}`+"\n", float64(c)+rng.NormFloat64()*0.1, rng.NormFloat64(), words[c], words[(c+1)%len(words)])
	}
	dataPath := filepath.Join(dir, "d.jsonl")
	os.WriteFile(dataPath, []byte(data.String()), 0o644)
	model := filepath.Join(dir, "m.json")
	code, _, errOut := twl(t, "", "train", "--data", dataPath, "--trees", strings.Join(ts, ","), "--loss", "kl+tsw",
		"--lambda", "0.5", "--epochs", "5", "--quiet", "--out", model)
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, errOut)
	}
	b, _ := os.ReadFile(model)
	if !strings.Contains(string(b), `kl+0.5·tsw(T=2,`) {
		t.Errorf("the model's loss is not KL + 0.5·TSW over 2 trees: %.300s", b)
	}
	pred := filepath.Join(dir, "p.jsonl")
	if code, _, errOut := twl(t, "", "predict", "--model", model, "--data", dataPath, "--out", pred, "--targets", filepath.Join(dir, "y.jsonl")); code != 0 {
		t.Fatal(errOut)
	}
	if code, _, errOut := twl(t, "", "distance", "--trees", strings.Join(ts, ","), pred, filepath.Join(dir, "y.jsonl")); code != 0 {
		t.Fatalf("distance --trees on the predictions: %s", errOut)
	}
	code, _, errOut = twl(t, "", "train", "--data", dataPath, "--trees", ts[0], "--loss", "kl+tw", "--out", model)
	if code != 2 || !strings.Contains(errOut, "with --trees, --loss must be kl or kl+tsw") {
		t.Errorf("kl+tw with --trees: exit %d, %s", code, errOut)
	}
}
