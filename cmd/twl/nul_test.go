package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNULRefused: an id or label holding a NUL byte is refused by every
// reader of ids and labels, with the file and line, exit 1 (the BIOM
// formats in biom.TestNULInIDs, HDF5 strings in hdf5.TestFixedStringNUL).
// Tree names cannot hold one, so a label with a NUL names no node.
func TestNULRefused(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"t.nwk":       "((A:1,B:1):1,C:2);\n",
		"table.tsv":   "#OTU ID\tS1\tS2\nA\t3\t1\nB\t1\t0\nC\t0\t2\n",
		"nul.json":    `{"rows":[{"id":"A"},{"id":"C"}],"columns":[{"id":"S\u00001"},{"id":"S2"}],"matrix_type":"sparse","data":[[0,0,1],[1,1,2],[0,1,1]]}`,
		"meta.tsv":    "sample-id\tgroup\nS1\ta\x00b\nS2\tb\n",
		"quoted.nwk":  "((A:1,'B\x001':1):1,C:2);\n",
		"plain.nwk":   "((A:1,B\x001:1):1,\nC:2);\n",
		"g.tree":      "r\ta\nr\tb\n",
		"nul.tree":    "r\ta\nr\tb\x001\n",
		"n.taxonomy":  "Root\tx\nx\ty\x001\n",
		"ok.jsonl":    `{"a": 1}` + "\n",
		"nul.jsonl":   `{"a": 1}` + "\n" + `{"a\u0000": 1}` + "\n",
		"data.jsonl":  `{"x": [1], "y": {"a\u0000": 1}}` + "\n",
		"docs.jsonl":  `{"text": "hello world", "labels": ["a"]}` + "\n" + `{"text": "hi", "labels": ["a\u0000b"]}` + "\n",
		"docs2.jsonl": `{"text": "hello world", "labels": ["a"]}` + "\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"unifrac", "--tree", "$D/t.nwk", "--table", "$D/nul.json", "--method", "unweighted", "--out", "-"},
			`$D/nul.json: invalid id: sample 1 has an id holding a NUL byte, "S\x001"`},
		{[]string{"unifrac", "--tree", "$D/t.nwk", "--table", "$D/table.tsv", "--method", "unweighted", "--out", "-",
			"--pcoa", "1", "--metadata", "$D/meta.tsv", "--color-by", "group", "--plot", "$D/p.svg"},
			"$D/meta.tsv:2: a NUL byte at column 5: ids and values may not hold one"},
		{[]string{"unifrac", "--tree", "$D/quoted.nwk", "--table", "$D/table.tsv", "--method", "unweighted", "--out", "-"},
			`$D/quoted.nwk:1: invalid tip label: at byte 6: name "B\x001" contains a control character`},
		{[]string{"unifrac", "--tree", "$D/plain.nwk", "--table", "$D/table.tsv", "--method", "unweighted", "--out", "-"},
			`$D/plain.nwk:1: invalid tip label: at byte 6: name "B\x001" contains a control character`},
		{[]string{"distance", "--tree", "$D/nul.tree", "$D/ok.jsonl", "$D/ok.jsonl"}, "$D/nul.tree:2: syntax error: NUL byte at column 4"},
		{[]string{"distance", "--tree", "taxonomy:$D/n.taxonomy", "$D/ok.jsonl", "$D/ok.jsonl"}, "$D/n.taxonomy:2: syntax error: NUL byte at column 4"},
		{[]string{"distance", "--tree", "$D/g.tree", "$D/nul.jsonl", "$D/ok.jsonl"}, `$D/nul.jsonl:2: unknown label: "a\x00"`},
		{[]string{"train", "--data", "$D/data.jsonl", "--tree", "$D/g.tree", "--out", "$D/m.json", "--quiet"}, `$D/data.jsonl:1: unknown label: "a\x00"`},
		{[]string{"text", "stats", "--data", "$D/docs.jsonl"}, `$D/docs.jsonl:2: invalid label: column 27: label "a\x00b" holds a NUL byte`},
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
	}
}
