package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/biom"
	"github.com/twl-ldl/twl/newick"
	"github.com/twl-ldl/twl/ordination"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/unifrac"
)

const ufSmall = "../../unifrac/testdata/ssu_small" // ssu's recorded case (see unifrac/ssu_test.go)

// otuTable writes counts[sample][obs] as a classic TSV OTU table.
func otuTable(samples, obs []string, counts [][]float64) string {
	var b strings.Builder
	b.WriteString("#OTU ID\t" + strings.Join(samples, "\t") + "\n")
	for o, id := range obs {
		b.WriteString(id)
		for s := range samples {
			b.WriteString("\t" + strconv.FormatFloat(counts[s][o], 'g', -1, 64))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// ssuSmallTable converts ssu_small.tsv (sample, tip, count lines) to an OTU
// table in dir and returns its path.
func ssuSmallTable(t *testing.T, dir string) string {
	data, err := os.ReadFile(ufSmall + ".tsv")
	if err != nil {
		t.Fatal(err)
	}
	var samples, obs []string
	si, oi := map[string]int{}, map[string]int{}
	type cell struct {
		s, o int
		v    float64
	}
	var cells []cell
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Split(line, "\t")
		if _, ok := si[f[0]]; !ok {
			si[f[0]] = len(samples)
			samples = append(samples, f[0])
		}
		if _, ok := oi[f[1]]; !ok {
			oi[f[1]] = len(obs)
			obs = append(obs, f[1])
		}
		v, _ := strconv.ParseFloat(f[2], 64)
		cells = append(cells, cell{si[f[0]], oi[f[1]], v})
	}
	counts := make([][]float64, len(samples))
	for s := range counts {
		counts[s] = make([]float64, len(obs))
	}
	for _, c := range cells {
		counts[c.s][c.o] += c.v
	}
	path := filepath.Join(dir, "small.tsv")
	if err := os.WriteFile(path, []byte(otuTable(samples, obs, counts)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// readMatrix parses a matrix in ssu's TSV layout.
func readMatrix(t *testing.T, path string) ([]string, [][]float64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if !strings.HasPrefix(lines[0], "\t") {
		t.Fatalf("%s: header %q", path, lines[0])
	}
	ids := strings.Split(lines[0][1:], "\t")
	var m [][]float64
	for i, line := range lines[1:] {
		f := strings.Split(line, "\t")
		if len(f) != len(ids)+1 || f[0] != ids[i] {
			t.Fatalf("%s:%d: %q", path, i+2, line)
		}
		row := make([]float64, len(ids))
		for j, s := range f[1:] {
			if row[j], err = strconv.ParseFloat(s, 64); err != nil {
				t.Fatal(err)
			}
		}
		m = append(m, row)
	}
	if len(m) != len(ids) {
		t.Fatalf("%s: %d rows for %d ids", path, len(m), len(ids))
	}
	return ids, m
}

// bruteUniFrac computes the distance by the definitions of package
// unifrac's documentation, branch by branch: the mass of a sample below
// each edge is summed over the tips of the edge's subtree.
func bruteUniFrac(tr *tree.Tree, p, q []float64, m unifrac.Method, alpha float64) float64 {
	var num, den float64
	for v := range tr.Len() {
		if v == tr.Root() {
			continue
		}
		var a, b float64
		for u := range tr.Len() {
			if tr.InSubtree(u, v) {
				a += p[u]
				b += q[u]
			}
		}
		w := tr.Weight(v)
		switch m {
		case unifrac.WeightedUnnormalized:
			num += w * math.Abs(a-b)
		case unifrac.WeightedNormalized:
			num += w * math.Abs(a-b)
			den += w * (a + b)
		case unifrac.Unweighted:
			if (a > 0) != (b > 0) {
				num += w
			}
			if a > 0 || b > 0 {
				den += w
			}
		case unifrac.Generalized:
			if a+b > 0 {
				num += w * math.Pow(a+b, alpha) * math.Abs(a-b) / (a + b)
				den += w * math.Pow(a+b, alpha)
			}
		}
	}
	if m == unifrac.WeightedUnnormalized {
		return num
	}
	return num / den
}

// proportions returns each sample's proportions on the tree's nodes.
func proportions(t *testing.T, tr *tree.Tree, table string) ([]string, [][]float64) {
	b, err := biom.ReadFile(table, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ps [][]float64
	for s := range b.Samples {
		p := make([]float64, tr.Len())
		idx, val := b.Row(s)
		var sum float64
		for _, v := range val {
			sum += v
		}
		for k, o := range idx {
			i, _ := tr.Index(b.Observations[o])
			p[i] += val[k] / sum
		}
		ps = append(ps, p)
	}
	return b.Samples, ps
}

// TestUnifracSSU runs the command on ssu's recorded case: the matrix agrees
// with ssu's fp64 output to 1e-7 (ssu keeps branch lengths in float32) and
// with the brute-force sums over branches to 1e-12; the .npy output holds
// the very float64 values of the TSV's engine, bit for bit.
func TestUnifracSSU(t *testing.T) {
	dir := t.TempDir()
	table := ssuSmallTable(t, dir)
	tr, err := newick.ReadFile(ufSmall+".nwk", nil)
	if err != nil {
		t.Fatal(err)
	}
	ids, ps := proportions(t, tr, table)
	for _, c := range []struct {
		m     unifrac.Method
		alpha string
		file  string
	}{
		{unifrac.WeightedNormalized, "", "weighted_normalized"},
		{unifrac.WeightedUnnormalized, "", "weighted_unnormalized"},
		{unifrac.Unweighted, "", "unweighted"},
		{unifrac.Generalized, "0.5", "generalized0.5"},
	} {
		args := []string{"unifrac", "--tree", ufSmall + ".nwk", "--table", table, "--method", c.m.String()}
		alpha := 1.0
		if c.alpha != "" {
			args = append(args, "--alpha", c.alpha)
			alpha, _ = strconv.ParseFloat(c.alpha, 64)
		}
		out := filepath.Join(dir, c.file+".tsv")
		if code, _, errOut := twl(t, "", append(args, "--out", out)...); code != 0 {
			t.Fatalf("%s: exit %d: %s", c.file, code, errOut)
		}
		gotIDs, got := readMatrix(t, out)
		ssuIDs, ssu := readMatrix(t, ufSmall+".out."+c.file+".tsv")
		if !slices.Equal(gotIDs, ssuIDs) || !slices.Equal(gotIDs, ids) {
			t.Fatalf("%s: ids %q, ssu's %q", c.file, gotIDs, ssuIDs)
		}
		for i := range got {
			for j := range got {
				if d := math.Abs(got[i][j] - ssu[i][j]); d > 1e-7*math.Max(1, ssu[i][j]) {
					t.Errorf("%s (%d,%d): %v, ssu %v", c.file, i, j, got[i][j], ssu[i][j])
				}
				want := 0.0
				if i != j {
					want = bruteUniFrac(tr, ps[i], ps[j], c.m, alpha)
				}
				if d := math.Abs(got[i][j] - want); d > 1e-12*math.Max(1, want) {
					t.Errorf("%s (%d,%d): %v, brute force %v", c.file, i, j, got[i][j], want)
				}
			}
		}
		// npy: the engine's values, bit for bit, and the ids beside them.
		npy := filepath.Join(dir, c.file+".npy")
		if code, _, errOut := twl(t, "", append(args, "--out", npy)...); code != 0 {
			t.Fatalf("%s npy: exit %d: %s", c.file, code, errOut)
		}
		b, err := biom.ReadFile(table, nil)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := unifrac.TableOf(tr, b)
		if err != nil {
			t.Fatal(err)
		}
		e, err := unifrac.New(tr, tab, c.m, &unifrac.Options{Alpha: alpha})
		if err != nil {
			t.Fatal(err)
		}
		n := len(ids)
		want := make([]float64, n*n)
		if err := e.Matrix(context.Background(), want); err != nil {
			t.Fatal(err)
		}
		data := mustRead(t, npy)
		hl := int(binary.LittleEndian.Uint16([]byte(data[8:10])))
		vals := data[10+hl:]
		if len(vals) != 8*n*n {
			t.Fatalf("%s npy: %d bytes of values", c.file, len(vals))
		}
		for k := range want {
			if got := binary.LittleEndian.Uint64([]byte(vals[8*k:])); got != math.Float64bits(want[k]) {
				t.Fatalf("%s npy value %d: %v, engine %v", c.file, k, math.Float64frombits(got), want[k])
			}
			// The TSV holds the same values to 16 digits.
			if d := math.Abs(got[k/n][k%n] - want[k]); d > 1e-15*math.Max(1, want[k]) {
				t.Fatalf("%s tsv value %d: %v, npy %v", c.file, k, got[k/n][k%n], want[k])
			}
		}
		if sc := mustRead(t, filepath.Join(dir, c.file+".ids.txt")); sc != strings.Join(ids, "\n")+"\n" {
			t.Errorf("%s: ids sidecar %q", c.file, sc)
		}
	}
}

// TestUnifracMatchesSSUBytes: on the small table of testdata/unifrac the
// TSV is byte for byte ssu's (the values in testdata/unifrac/README.md).
func TestUnifracMatchesSSUBytes(t *testing.T) {
	out := filepath.Join(t.TempDir(), "d.tsv")
	code, _, errOut := twl(t, "", "unifrac", "--tree", "../../testdata/unifrac/tree.nwk", "--table", "../../testdata/unifrac/table.biom",
		"--method", "weighted_unnormalized", "--out", out)
	want := "\tS1\tS2\tS3\nS1\t0\t1.46764705882353\t1.5125\nS2\t1.46764705882353\t0\t2.165441176470588\nS3\t1.5125\t2.165441176470588\t0\n"
	if got := mustRead(t, out); code != 0 || got != want {
		t.Errorf("exit %d (%s), got\n%s", code, errOut, got)
	}
}

// randomCase writes a random tree of tips tips and a table of n samples in
// dir and returns their paths.
func randomCase(t *testing.T, dir string, tips, n int, seed uint64) (string, string) {
	r := rand.New(rand.NewPCG(seed, 9))
	// A random binary tree: join two random subtrees until one is left.
	nodes := make([]string, tips)
	obs := make([]string, tips)
	for i := range nodes {
		obs[i] = fmt.Sprintf("OTU%d", i)
		nodes[i] = fmt.Sprintf("%s:%.3f", obs[i], r.Float64())
	}
	for len(nodes) > 1 {
		i := r.IntN(len(nodes))
		a := nodes[i]
		nodes = slices.Delete(nodes, i, i+1)
		j := r.IntN(len(nodes))
		nodes[j] = fmt.Sprintf("(%s,%s):%.3f", a, nodes[j], r.Float64())
	}
	samples := make([]string, n)
	counts := make([][]float64, n)
	for s := range samples {
		samples[s] = fmt.Sprintf("S%d", s)
		counts[s] = make([]float64, tips)
		for range 1 + r.IntN(5) {
			counts[s][r.IntN(tips)] += float64(1 + r.IntN(9))
		}
	}
	tp, bp := filepath.Join(dir, "r.nwk"), filepath.Join(dir, "r.tsv")
	os.WriteFile(tp, []byte(nodes[0]+";\n"), 0o644)
	os.WriteFile(bp, []byte(otuTable(samples, obs, counts)), 0o644)
	return tp, bp
}

// TestUnifracShards: the shards of the command, merged in any order, give
// the one-shot bytes, TSV and npy, for several N and shard counts.
func TestUnifracShards(t *testing.T) {
	for _, n := range []int{1, 2, 3, 12, 300} {
		dir := t.TempDir()
		tp, bp := randomCase(t, dir, 30, n, uint64(n))
		for _, m := range []string{"weighted_normalized", "generalized"} {
			base := []string{"unifrac", "--tree", tp, "--table", bp, "--method", m}
			for _, f := range []string{"tsv", "npy"} {
				one := filepath.Join(dir, "one."+f)
				if code, _, errOut := twl(t, "", append(base, "--out", one)...); code != 0 {
					t.Fatalf("n=%d: %s", n, errOut)
				}
				for _, shards := range []int{1, 2, 3, 5} {
					var parts []string
					for i := shards; i >= 1; i-- {
						p := filepath.Join(dir, fmt.Sprintf("p%d-%d.part", i, shards))
						if code, _, errOut := twl(t, "", append(base, "--shard", fmt.Sprintf("%d/%d", i, shards), "--out", p)...); code != 0 {
							t.Fatalf("n=%d shard %d/%d: %s", n, i, shards, errOut)
						}
						parts = append(parts, p)
					}
					merged := filepath.Join(dir, "merged."+f)
					if code, _, errOut := twl(t, "", append(append([]string{"unifrac", "merge"}, parts...), "--out", merged)...); code != 0 {
						t.Fatalf("n=%d merge %d: %s", n, shards, errOut)
					}
					if mustRead(t, merged) != mustRead(t, one) {
						t.Errorf("n=%d %s %s: %d shards merged differ from one shot", n, m, f, shards)
					}
					if f == "npy" && mustRead(t, filepath.Join(dir, "merged.ids.txt")) != mustRead(t, filepath.Join(dir, "one.ids.txt")) {
						t.Errorf("n=%d: ids sidecars differ", n)
					}
				}
			}
		}
	}
}

// TestUnifracMergeRefuses: parts of another method, a missing shard and a
// repeated one are refused, and nothing is written.
func TestUnifracMergeRefuses(t *testing.T) {
	dir := t.TempDir()
	tp, bp := randomCase(t, dir, 20, 10, 1)
	part := func(m, shard string) string {
		p := filepath.Join(dir, m+strings.ReplaceAll(shard, "/", "of")+".part")
		if code, _, errOut := twl(t, "", "unifrac", "--tree", tp, "--table", bp, "--method", m, "--shard", shard, "--out", p); code != 0 {
			t.Fatal(errOut)
		}
		return p
	}
	a1, a2, a3 := part("unweighted", "1/3"), part("unweighted", "2/3"), part("unweighted", "3/3")
	b2 := part("weighted_normalized", "2/3")
	before := dirNames(t, dir)
	out := filepath.Join(dir, "d.tsv")
	for _, c := range []struct {
		parts []string
		msg   string
	}{
		{[]string{a1, a3}, "rows 4 to 6 (1-based) are in no part: missing shard 2/3"},
		{[]string{a1, a2, a2, a3}, "overlap"},
		{[]string{a1, b2, a3}, `method "unweighted" differs from "weighted_normalized"`},
		{[]string{a1, a2, bp}, bp + " is not a partial file of 'twl unifrac --shard'"},
	} {
		code, out2, errOut := twl(t, "", append(append([]string{"unifrac", "merge"}, c.parts...), "--out", out)...)
		expectFailure(t, code, out2, errOut, 1, []string{c.msg}, dir, false)
		if strings.Count(errOut, "\n") != 1 {
			t.Errorf("not one line: %q", errOut)
		}
		if after := dirNames(t, dir); !slices.Equal(after, before) {
			t.Errorf("the folder holds %q", after)
		}
	}
}

// TestUnifracBadInput: each bad input is one line on standard error, exit 1
// (2 for the command line), and nothing written.
func TestUnifracBadInput(t *testing.T) {
	good, err := os.ReadFile("../../testdata/unifrac/table.biom")
	if err != nil {
		t.Fatal(err)
	}
	tree := "((O1:1,O2:2)0.95:0.5,(O_3:1.5,'O 4':0.25):1,O5:3);"
	table := "#OTU ID\tS1\tS2\nO1\t1\t0\nO2\t0\t3\n"
	dir := write(t, map[string]string{
		"t.nwk":       tree,
		"trunc.biom":  string(good[:len(good)/2]),
		"notable.tsv": "just some words\n",
		"unbal.nwk":   "((O1:1,O2:2):0.5,O5:3;",
		"dup.nwk":     "((O1:1,O2:2):0.5,O1:3);",
		"missing.tsv": "#OTU ID\tS1\tS2\nO1\t1\t0\nOTU9\t1\t1\nOTU12\t2\t2\nx\t1\t1\nO2\t1\t3\n",
		"neg.tsv":     "#OTU ID\tS1\tS2\nO1\t1\t-2\nO2\t0\t3\n",
		"empty.tsv":   "#OTU ID\tS1\tS2\tS3\nO1\t1\t0\t4\nO2\t0\t0\t3\n",
		"ok.tsv":      table,
		"none.tsv":    "#OTU ID\nO1\n",
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	before := dirNames(t, dir)
	out := p("d.tsv")
	run := func(tr, tab string, extra ...string) []string {
		return append([]string{"unifrac", "--tree", p(tr), "--table", p(tab), "--method", "unweighted", "--out", out}, extra...)
	}
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{run("t.nwk", "trunc.biom"), 1, p("trunc.biom") + ": "},
		{run("t.nwk", "notable.tsv"), 1, p("notable.tsv") + ":1: "},
		{run("unbal.nwk", "ok.tsv"), 1, p("unbal.nwk") + ":1: newick syntax error"},
		{run("dup.nwk", "ok.tsv"), 1, "O1"},
		// Both bad: the tree's error, although the two are read at once.
		{run("unbal.nwk", "notable.tsv"), 1, p("unbal.nwk") + ":1: newick syntax error"},
		{run("t.nwk", "missing.tsv"), 1, "table " + p("missing.tsv") + ": 3 observation ids are not tips of tree " + p("t.nwk") + ": OTU9, OTU12, x (ssu refuses them too)"},
		{run("t.nwk", "neg.tsv"), 1, p("neg.tsv") + ":2: invalid count"},
		{run("t.nwk", "empty.tsv"), 1, "table " + p("empty.tsv") + `: sample "S2": no counts`},
		{run("t.nwk", "none.tsv"), 1, "table " + p("none.tsv") + ": no samples"},
		{run("t.nwk", "ok.tsv", "--shard", "0/3"), 2, `--shard "0/3" is not I/N`},
		{run("t.nwk", "ok.tsv", "--shard", "4/3"), 2, `--shard "4/3" is not I/N`},
		{run("t.nwk", "ok.tsv", "--shard", "x/y"), 2, `--shard "x/y" is not I/N`},
		{run("t.nwk", "ok.tsv", "--alpha", "0.5"), 2, "--alpha is the exponent of --method generalized, not of unweighted"},
		{[]string{"unifrac", "--tree", p("t.nwk"), "--table", p("ok.tsv"), "--method", "bray", "--out", out}, 2,
			`unknown --method "bray" (available: weighted_normalized, weighted_unnormalized, unweighted, generalized)`},
		{run("t.nwk", "ok.tsv", "--max-memory", "1KiB"), 1, "more than --max-memory 1KiB"},
		{run("t.nwk", "ok.tsv", "--format", "csv"), 2, `--format "csv"`},
		{[]string{"unifrac", "--tree", p("t.nwk"), "--table", p("ok.tsv"), "--method", "unweighted", "--out", p("t.nwk")}, 2, "would overwrite --tree " + p("t.nwk")},
		{run("t.nwk", "ok.tsv", "--shard", "1/2", "--format", "npy"), 2, "--format is the format of the merged matrix"},
	} {
		code, stdout, errOut := twl(t, "", c.args...)
		expectFailure(t, code, stdout, errOut, c.code, []string{c.msg}, dir, false)
		if c.code == 1 && strings.Count(errOut, "\n") != 1 {
			t.Errorf("%q: not one line: %q", c.args, errOut)
		}
		if after := dirNames(t, dir); !slices.Equal(after, before) {
			t.Errorf("%q: the folder holds %q", c.args, after)
		}
	}
	// An unwritable output fails before the inputs are read (here the
	// table does not even exist).
	code, stdout, errOut := twl(t, "", "unifrac", "--tree", p("t.nwk"), "--table", p("nope.biom"), "--method", "unweighted", "--out", p("ok.tsv/sub"))
	expectFailure(t, code, stdout, errOut, 1, []string{"cannot write " + p("ok.tsv/sub")}, dir, false)
}

// errAfter is a context cancelled after its Err has been asked calls
// times: a stop in the middle of a run, at a point the test chooses.
type errAfter struct {
	context.Context
	calls int
}

func (c *errAfter) Err() error {
	if c.calls--; c.calls < 0 {
		return context.Canceled
	}
	return nil
}

// TestUnifracCancelled stops a run of several stripes after its first
// stripe is written: the folder holds nothing new, no temporary file.
func TestUnifracCancelled(t *testing.T) {
	dir := t.TempDir()
	tp, bp := randomCase(t, dir, 40, 700, 3)
	before := dirNames(t, dir)
	for _, extra := range [][]string{{"--out", filepath.Join(dir, "d.tsv")}, {"--out", filepath.Join(dir, "d.npy")},
		{"--out", filepath.Join(dir, "p.part"), "--shard", "1/1"}} {
		ctx := &errAfter{Context: context.Background(), calls: 8}
		var out, errb bytes.Buffer
		args := append([]string{"unifrac", "--tree", tp, "--table", bp, "--method", "unweighted", "--max-memory", "8MB", "--workers", "1"}, extra...)
		code := runContext(ctx, args, strings.NewReader(""), &out, &errb)
		if code != 1 || !strings.Contains(errb.String(), "context canceled") || ctx.calls > 0 {
			t.Errorf("%q: exit %d, stderr %q, %d calls left", extra, code, errb.String(), ctx.calls)
		}
		if after := dirNames(t, dir); !slices.Equal(after, before) {
			t.Errorf("%q: the folder holds %q", extra, after)
		}
	}
	code, _, errOut := twlStopped(t, "unifrac", "--tree", tp, "--table", bp, "--method", "unweighted", "--out", filepath.Join(dir, "d.tsv"))
	if code != 130 || !strings.Contains(errOut, "no file is left half-written") {
		t.Errorf("SIGINT: exit %d, %q", code, errOut)
	}
	if after := dirNames(t, dir); !slices.Equal(after, before) {
		t.Errorf("SIGINT: the folder holds %q", after)
	}
}

// TestUnifracPCoA: --pcoa analyses the whole matrix the command wrote. The
// expected coordinates come from package ordination run on the matrix read
// back from the TSV (16 significant digits, hence the tolerance); 300
// samples span two stripes of rows, so a stripe copied to the wrong place
// would show.
func TestUnifracPCoA(t *testing.T) {
	dir := t.TempDir()
	tp, bp := randomCase(t, dir, 40, 300, 7)
	out := filepath.Join(dir, "d.tsv")
	plot := filepath.Join(dir, "p.png")
	args := []string{"unifrac", "--tree", tp, "--table", bp, "--method", "weighted_unnormalized", "--out", out}
	if code, _, errOut := twl(t, "", append(args, "--pcoa", "3", "--plot", plot)...); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	ids, rows := readMatrix(t, out)
	n := len(ids)
	d := make([]float64, 0, n*n)
	for _, r := range rows {
		d = append(d, r...)
	}
	var want ordination.Result
	if err := ordination.PCoA(&want, d, n, 3); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "d.pcoa.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if !strings.HasPrefix(line, "#") {
			got = append(got, strings.Split(line, "\t"))
		}
	}
	if len(got) != n+1 || got[0][0] != "sample-id" {
		t.Fatalf("table has %d lines, header %q", len(got), got[0])
	}
	for i, row := range got[1:] {
		if row[0] != ids[i] {
			t.Fatalf("row %d is sample %q, the matrix's is %q", i+1, row[0], ids[i])
		}
		for k := range 3 {
			v, err := strconv.ParseFloat(row[k+1], 64)
			w := want.Coords[i*3+k]
			if err != nil || math.Abs(v-w) > 1e-9*(1+math.Abs(w)) {
				t.Fatalf("%s PC%d = %s, from the matrix %v", ids[i], k+1, row[k+1], w)
			}
		}
	}
	if fi, err := os.Stat(plot); err != nil || fi.Size() == 0 {
		t.Fatalf("plot: %v", err)
	}
	// The analysis needs the whole matrix: refused with --shard, and
	// counted against --max-memory (300² values are 703 KiB).
	if code, _, errOut := twl(t, "", "unifrac", "--tree", tp, "--table", bp, "--method", "unweighted",
		"--shard", "1/2", "--out", filepath.Join(dir, "p1"), "--pcoa", "2"); code != 2 || !strings.Contains(errOut, "--pcoa needs the whole matrix") {
		t.Errorf("--pcoa with --shard: exit %d: %s", code, errOut)
	}
	if code, _, errOut := twl(t, "", append(args[:len(args)-1], filepath.Join(dir, "e.tsv"), "--pcoa", "2", "--max-memory", "600KiB")...); code != 1 || !strings.Contains(errOut, "--pcoa holds the 300×300 matrix") {
		t.Errorf("--pcoa over --max-memory: exit %d: %s", code, errOut)
	}
}
