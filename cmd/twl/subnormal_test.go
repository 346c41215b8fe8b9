package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSubnormalRefused: lengths, weights, counts and masses below 2.2e-308
// (subnormal float64s, which hold fewer digits than the file gives, and
// whose products underflow) are refused with the file and line, exit 1,
// nothing written; lengths that are normal but whose products with a
// sample's masses would not be are refused naming the tree and the table.
// Before, tiny.nwk with table.tsv gave weighted normalized UniFrac 1 for
// S1–S2, by hand 2/3 (t.nwk's distance, the lengths scaled alike: see
// unifrac.TestTinyBranchLengths).
func TestSubnormalRefused(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"tiny.nwk":   "((A:5e-324,B:5e-324):5e-324,\nC:1e-323);\n",
		"small.nwk":  "((A:1e-307,B:1e-307):1e-307,C:2e-307);\n",
		"t.nwk":      "((A:1,B:1):1,C:2);\n",
		"table.tsv":  "#OTU ID\tS1\tS2\nA\t3\t1\nB\t1\t0\nC\t0\t2\n",
		"rare.tsv":   "#OTU ID\tS1\tS2\nA\t30\t1\nB\t1\t0\nC\t0\t2\n",
		"tiny.tsv":   "#OTU ID\tS1\tS2\nA\t3\t1\nB\t1e-320\t0\nC\t0\t2\n",
		"tiny.json":  `{"rows":[{"id":"A"},{"id":"B"}],"columns":[{"id":"S1"},{"id":"S2"}],"matrix_type":"sparse",` + "\n" + `"data":[[0,0,1],` + "\n" + `[1,1,7e-324]]}`,
		"tiny.tree":  "r\ta\t1\nr\tb\t5e-324\n",
		"g.tree":     "r\ta\t1\nr\tb\t1\n",
		"tiny.jsonl": `{"a": 7e-324, "b": 1e-323}` + "\n",
		"one.jsonl":  `{"a": 1}` + "\n",
		// Numbers below the subnormals, which read as 0: before, vanish.nwk
		// gave every distance 0 (by hand, the distances of t.nwk, as the
		// lengths are scaled alike), and a count of 1e-400 was absent.
		"vanish.nwk":  "((A:1e-400,B:1e-400):1e-400,\nC:2e-400);\n",
		"vanish.tsv":  "#OTU ID\tS1\tS2\nA\t3\t1\nB\t1e-400\t0\nC\t0\t2\n",
		"vanish.json": `{"rows":[{"id":"A"},{"id":"B"}],"columns":[{"id":"S1"},{"id":"S2"}],"matrix_type":"sparse",` + "\n" + `"data":[[0,0,1],` + "\n" + `[1,1,1e-400]]}`,
		"vanish.tree": "r\ta\t1\nr\tb\t1e-400\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := snapshot(t, dir)
	uni := func(tree, table, method string) []string {
		return []string{"unifrac", "--tree", "$D/" + tree, "--table", "$D/" + table, "--method", method, "--out", "$D/d.tsv"}
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{uni("tiny.nwk", "table.tsv", "weighted_normalized"), "$D/tiny.nwk:1: invalid branch length: at byte 4: branch length 5e-324 is below 2.2e-308, the smallest normal float64"},
		{uni("tiny.nwk", "table.tsv", "unweighted"), "$D/tiny.nwk:1: invalid branch length"},
		// S1 of rare.tsv has the mass 1/31 on B: 1e-307/31 is subnormal.
		{uni("small.nwk", "rare.tsv", "weighted_normalized"),
			"twl: tree $D/small.nwk and table $D/rare.tsv: branch lengths times masses underflow float64: the shortest branch, 1e-307 long, times the smallest mass of sample \"S1\", 0.03225806451612903, is below 2.2e-308"},
		{uni("t.nwk", "tiny.tsv", "weighted_normalized"), "$D/tiny.tsv:3: invalid count: count 1e-320 of observation \"B\" in sample \"S1\" is below 2.2e-308"},
		// BIOM JSON counts are checked once the matrix is read, without
		// a line; 7e-324 reads as 5e-324.
		{uni("t.nwk", "tiny.json", "weighted_normalized"), "$D/tiny.json: invalid count: count 5e-324 of observation \"B\" in sample \"S2\" is below 2.2e-308"},
		{[]string{"distance", "--tree", "$D/tiny.tree", "$D/one.jsonl", "$D/one.jsonl"}, "$D/tiny.tree:2: invalid weight: edge \"r\"→\"b\": weight 5e-324 is below 2.2e-308"},
		{uni("vanish.nwk", "table.tsv", "weighted_normalized"), "$D/vanish.nwk:1: invalid branch length: at byte 4: branch length 1e-400 is below 2.2e-308, the smallest normal float64"},
		{uni("vanish.nwk", "table.tsv", "unweighted"), "$D/vanish.nwk:1: invalid branch length"},
		{uni("t.nwk", "vanish.tsv", "unweighted"), "$D/vanish.tsv:3: invalid count: count 1e-400 of sample \"S1\" is below 2.2e-308"},
		{uni("t.nwk", "vanish.json", "unweighted"), "$D/vanish.json: invalid count: BIOM 1.0 JSON: number 1e-400 is below 2.2e-308"},
		{[]string{"distance", "--tree", "$D/vanish.tree", "$D/one.jsonl", "$D/one.jsonl"}, "$D/vanish.tree:2: invalid weight: weight 1e-400 is below 2.2e-308"},
		{[]string{"distance", "--normalize", "--tree", "$D/g.tree", "$D/tiny.jsonl", "$D/one.jsonl"}, "$D/tiny.jsonl:1: masses too small to rescale: they sum to 1.5e-323"},
	} {
		args := make([]string, len(c.args))
		for i, a := range c.args {
			args[i] = strings.ReplaceAll(a, "$D", dir)
		}
		code, stdout, errOut := twl(t, "", args...)
		expectFailure(t, code, stdout, errOut, 1, []string{c.msg}, dir, false)
		if strings.Count(errOut, "\n") != 1 {
			t.Errorf("%q: not one line: %q", c.args, errOut)
		}
		if after := snapshot(t, dir); len(after) != len(before) {
			t.Errorf("%q: files written: %v", c.args, after)
		}
	}
	// A mass below 2.2e-308 in a row that sums to 1 (a prediction's far
	// tail) is read as it is: TW between {a: 1, b: 5e-324} and {a: 1} is
	// 5e-324, the mass moved over the edge r→b of weight 1. (--pairwise
	// computes Σ w·a + Σ w·b − 2·Σ w·min(a, b), whose absolute error, about
	// 1e-16 of the totals, takes it to 0, as it does a mass of 1e-20.)
	tail := filepath.Join(dir, "tail.jsonl")
	os.WriteFile(tail, []byte(`{"a": 1, "b": 5e-324}`+"\n"), 0o644)
	for _, c := range []struct {
		extra []string
		want  string
	}{{nil, "5e-324\n"}, {[]string{"--pairwise"}, "0\n"}} {
		args := append([]string{"distance", "--tree", filepath.Join(dir, "g.tree"), tail, filepath.Join(dir, "one.jsonl")}, c.extra...)
		code, stdout, errOut := twl(t, "", args...)
		if code != 0 || stdout != c.want {
			t.Errorf("%q: exit %d, %q, %s; want %q", c.extra, code, stdout, errOut, c.want)
		}
	}
	// The unit tree and table of unifrac.TestTinyBranchLengths: 2/3.
	code, stdout, errOut := twl(t, "", "unifrac", "--tree", filepath.Join(dir, "t.nwk"), "--table", filepath.Join(dir, "table.tsv"),
		"--method", "weighted_normalized", "--out", "-")
	if code != 0 || !strings.Contains(stdout, "S1\t0\t0.6666666666666") {
		t.Errorf("unit tree: exit %d, %q, %s", code, stdout, errOut)
	}
}
