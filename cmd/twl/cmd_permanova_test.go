package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/distmat"
)

// The matrix of scikit-bio's test_call_unequal_group_sizes (its
// test_permanova.py at tag 0.5.8), in the TSV layout, with the metadata
// in a different order and an extra sample, as scikit-bio's DataFrame
// grouping allows.
const (
	permanovaDM = "\ts1\ts2\ts3\ts4\ts5\ts6\n" +
		"s1\t0.0\t1.0\t0.1\t0.5678\t1.0\t1.0\n" +
		"s2\t1.0\t0.0\t0.002\t0.42\t0.998\t0.0\n" +
		"s3\t0.1\t0.002\t0.0\t1.0\t0.123\t1.0\n" +
		"s4\t0.5678\t0.42\t1.0\t0.0\t0.123\t0.43\n" +
		"s5\t1.0\t0.998\t0.123\t0.123\t0.0\t0.5\n" +
		"s6\t1.0\t0.0\t1.0\t0.43\t0.5\t0.0\n"
	permanovaMeta = "sample-id\tgroup\tother\n" +
		"s6\tControl\tx\n" +
		"s2\tTreatment1\t\n" +
		"s7\tTreatment9\tx\n" +
		"s3\tTreatment2\ty\n" +
		"s4\tTreatment1\ty\n" +
		"s5\tControl\tx\n" +
		"s1\tControl\ty\n"
)

// permanovaResult is the JSON output.
type permanovaResult struct {
	Method        string  `json:"method"`
	StatisticName string  `json:"test_statistic_name"`
	SampleSize    int     `json:"sample_size"`
	Groups        int     `json:"number_of_groups"`
	F             float64 `json:"test_statistic"`
	P             any     `json:"p_value"`
	Permutations  int     `json:"permutations"`
	Seed          uint64  `json:"seed"`
	Column        string  `json:"column"`
	GroupList     []struct {
		Name    string `json:"name"`
		Samples int    `json:"samples"`
	} `json:"groups"`
}

func TestPermanovaCLI(t *testing.T) {
	dir := write(t, map[string]string{"d.tsv": permanovaDM, "m.tsv": permanovaMeta})
	dm, meta := filepath.Join(dir, "d.tsv"), filepath.Join(dir, "m.tsv")
	args := []string{"permanova", "--dm", dm, "--metadata", meta, "--column", "group"}
	code, out, errOut := twl(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// The fields of scikit-bio's Series; F as scikit-bio's suite states it
	// (0.578848), the groups as np.unique orders them.
	for _, want := range []string{
		"method name             PERMANOVA\n",
		"test statistic name     pseudo-F\n",
		"sample size             6\n",
		"number of groups        3\n",
		"test statistic          0.5788484\n",
		"number of permutations  999\n",
		"groups of \"group\":\n    3  Control\n    2  Treatment1\n    1  Treatment2\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// JSON, bit for bit the same with any number of workers.
	var first string
	for _, w := range []string{"1", "2", "5"} {
		code, js, errOut := twl(t, "", append(args, "--format", "json", "--workers", w, "--seed", "9")...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if first == "" {
			first = js
		} else if js != first {
			t.Errorf("--workers %s: %s, --workers 1: %s", w, js, first)
		}
	}
	var r permanovaResult
	if err := json.Unmarshal([]byte(first), &r); err != nil {
		t.Fatal(err)
	}
	// skbio 0.5.8: 0.578848377475543 (permanova/testdata/skbio.json, case
	// "unequal"); p: the exact permutation p-value is 0.65 (60 labellings,
	// counted in package permanova's TestExactPValue), 999 permutations
	// estimate it within about 0.015.
	p, _ := r.P.(float64)
	if r.Method != "PERMANOVA" || r.StatisticName != "pseudo-F" || r.SampleSize != 6 || r.Groups != 3 || r.Permutations != 999 ||
		r.Seed != 9 || r.Column != "group" || len(r.GroupList) != 3 || r.GroupList[0].Name != "Control" || r.GroupList[0].Samples != 3 ||
		math.Abs(r.F-0.578848377475543) > 1e-14 || math.Abs(p-0.65) > 0.06 {
		t.Errorf("json: %+v", r)
	}
	// No permutations: p is NaN, as scikit-bio's with permutations=0.
	_, js, _ := twl(t, "", append(args, "--format", "json", "--permutations", "0")...)
	if !strings.Contains(js, `"p_value":"NaN"`) || !strings.Contains(js, `"permutations":0`) {
		t.Errorf("--permutations 0: %s", js)
	}
	_, txt, _ := twl(t, "", append(args, "--permutations", "0")...)
	if !strings.Contains(txt, "p-value                 NaN\n") {
		t.Errorf("--permutations 0: %s", txt)
	}

	// The same matrix as .npy with its ids: the same result.
	ids := []string{"s1", "s2", "s3", "s4", "s5", "s6"}
	m, err := distmat.Read(strings.NewReader(permanovaDM), "d.tsv", nil)
	if err != nil {
		t.Fatal(err)
	}
	npy := filepath.Join(dir, "d.npy")
	f, _ := os.Create(npy)
	w, _ := distmat.NewWriter(f, distmat.NPY, ids, nil)
	w.WriteRows(m.D)
	w.Close()
	f.Close()
	g, _ := os.Create(distmat.IDsPath(npy))
	distmat.WriteIDs(g, ids)
	g.Close()
	_, js, errOut = twl(t, "", "permanova", "--dm", npy, "--metadata", meta, "--column", "group", "--format", "json", "--seed", "9")
	if js != first {
		t.Errorf(".npy: %s %s, .tsv: %s", js, errOut, first)
	}
}

func TestPermanovaBadInput(t *testing.T) {
	asym := strings.Replace(permanovaDM, "s4\t0.5678\t0.42", "s4\t0.5678\t0.4201", 1)
	dir := write(t, map[string]string{
		"d.tsv":     permanovaDM,
		"m.tsv":     permanovaMeta,
		"asym.tsv":  asym,
		"diag.tsv":  strings.Replace(permanovaDM, "s3\t0.1\t0.002\t0.0", "s3\t0.1\t0.002\t0.5", 1),
		"neg.tsv":   strings.Replace(permanovaDM, "s5\t1.0\t0.998\t0.123\t0.123", "s5\t1.0\t0.998\t0.123\t-0.123", 1),
		"bad.tsv":   strings.Replace(permanovaDM, "0.998\t0.0", "0.998\tzero", 1),
		"nohdr.tsv": strings.TrimPrefix(permanovaDM, "\t"),
		"few.tsv":   "\ts1\ts2\ns1\t0\t1\ns2\t1\t0\n",
		"miss.tsv":  strings.Replace(permanovaMeta, "s3\tTreatment2\ty\n", "", 1),
		"one.tsv":   "sample-id\tgroup\ns1\ta\ns2\ta\ns3\ta\ns4\ta\ns5\ta\ns6\ta\n",
		"uniq.tsv":  "sample-id\tgroup\ns1\ta\ns2\tb\ns3\tc\ns4\td\ns5\te\ns6\tf\n",
		"badm.tsv":  "sample-id\tgroup\ns1\t\"a\n",
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	base := func(dm, meta, column string, extra ...string) []string {
		return append([]string{"permanova", "--dm", p(dm), "--metadata", p(meta), "--column", column}, extra...)
	}
	for _, c := range []struct {
		name     string
		args     []string
		code     int
		msgs     []string
		withLine bool
	}{
		{"asymmetric", base("asym.tsv", "m.tsv", "group"), 1, []string{"$D/asym.tsv:3: the distance from \"s2\" to \"s4\": 0.42, but entry (4, 2) is 0.4201: the matrix is not symmetric"}, true},
		{"diagonal", base("diag.tsv", "m.tsv", "group"), 1, []string{"$D/diag.tsv:4: the distance from \"s3\" to \"s3\": 0.5 on the diagonal"}, true},
		{"negative", base("neg.tsv", "m.tsv", "group"), 1, []string{"$D/neg.tsv:5: the distance from \"s4\" to \"s5\": 0.123, but entry (5, 4) is -0.123"}, true},
		{"not a number", base("bad.tsv", "m.tsv", "group"), 1, []string{"$D/bad.tsv:3: invalid matrix file: row \"s2\", column 6 (\"s6\"): \"zero\" is not a number"}, true},
		{"no header tab", base("nohdr.tsv", "m.tsv", "group"), 1, []string{"$D/nohdr.tsv:1: invalid matrix file: the header must start with a tab"}, true},
		{"metadata syntax", base("d.tsv", "badm.tsv", "group"), 1, []string{"$D/badm.tsv:2: cell 2: unterminated double quote"}, true},
		{"no column", base("d.tsv", "m.tsv", "site"), 1, []string{`$D/m.tsv: no column "site"; the columns are "group", "other"`}, false},
		{"missing sample", base("d.tsv", "miss.tsv", "group"), 1, []string{`$D/miss.tsv: 1 of 6 samples have no metadata: "s3"`}, false},
		{"empty value", base("d.tsv", "m.tsv", "other"), 1, []string{`$D/m.tsv: 1 of 6 samples have no value in column "other": "s2" (--drop-missing leaves them out)`}, false},
		{"one group", base("d.tsv", "one.tsv", "group"), 1, []string{`$D/one.tsv: column "group": all samples are in one group`}, false},
		{"all unique", base("d.tsv", "uniq.tsv", "group"), 1, []string{`$D/uniq.tsv: column "group": every sample is in a group of its own`}, false},
		{"no file", base("none.tsv", "m.tsv", "group"), 1, []string{"none.tsv: no such file"}, false},
		{"no npy ids", base("none.npy", "m.tsv", "group"), 1, []string{"none.npy"}, false},
		{"no dm", []string{"permanova", "--metadata", p("m.tsv"), "--column", "group"}, 2, []string{"--dm is required"}, false},
		{"no metadata", []string{"permanova", "--dm", p("d.tsv"), "--column", "group"}, 2, []string{"--metadata is required"}, false},
		{"no column flag", []string{"permanova", "--dm", p("d.tsv"), "--metadata", p("m.tsv")}, 2, []string{"--column is required"}, false},
		{"negative permutations", base("d.tsv", "m.tsv", "group", "--permutations", "-1"), 2, []string{"--permutations -1 is negative"}, false},
		{"negative workers", base("d.tsv", "m.tsv", "group", "--workers", "-2"), 2, []string{"--workers -2 is negative"}, false},
		{"format", base("d.tsv", "m.tsv", "group", "--format", "csv"), 2, []string{`--format must be text or json, not "csv"`}, false},
		{"argument", base("d.tsv", "m.tsv", "group", "extra"), 2, []string{`unexpected argument "extra"`}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := twl(t, "", c.args...)
			expectFailure(t, code, out, errOut, c.code, c.msgs, dir, c.withLine)
		})
	}
	// --drop-missing: the samples without a value are left out, as QIIME 2's
	// beta-group-significance leaves them out; the result is that of the
	// matrix without them.
	code, got, errOut := twl(t, "", base("d.tsv", "m.tsv", "other", "--drop-missing", "--format", "json")...)
	if code != 0 {
		t.Fatalf("--drop-missing: exit %d: %s", code, errOut)
	}
	lines := strings.Split(permanovaDM, "\n")
	var sub []string
	for _, l := range lines[:len(lines)-1] {
		cells := strings.Split(l, "\t")
		if cells[0] == "s2" {
			continue
		}
		sub = append(sub, strings.Join(append(cells[:2:2], cells[3:]...), "\t"))
	}
	if err := os.WriteFile(p("sub.tsv"), []byte(strings.Join(sub, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, want, _ := twl(t, "", base("sub.tsv", "m.tsv", "other", "--format", "json")...)
	if strings.Replace(got, `"left_out":1`, `"left_out":0`, 1) != want || !strings.Contains(got, `"sample_size":5`) {
		t.Errorf("--drop-missing: %s\nthe matrix without s2: %s", got, want)
	}
	_, txt, _ := twl(t, "", base("d.tsv", "m.tsv", "other", "--drop-missing")...)
	if !strings.HasSuffix(txt, "left out: 1 sample with no value in \"other\"\n") {
		t.Errorf("--drop-missing: %s", txt)
	}

	// A matrix with fewer samples than the metadata is tested on its own
	// samples: the metadata's other rows are ignored.
	if code, out, errOut := twl(t, "", base("few.tsv", "m.tsv", "group", "--permutations", "0")...); code == 0 || !strings.Contains(errOut, "every sample is in a group of its own") {
		t.Errorf("two samples, two groups: exit %d, %s%s", code, out, errOut)
	}
}

// TestDocumentedPermanova runs the command of docs/permanova.md from the
// repository's root and compares its output, and that of the JSON
// example, with what the page shows.
func TestDocumentedPermanova(t *testing.T) {
	t.Chdir("../..")
	const page = "docs/permanova.md"
	args := docCommand(t, docBlock(t, page, "## On the command line"))
	want := docBlock(t, page, "prints")
	if code, got, errOut := twl(t, "", args...); code != 0 || got != want {
		t.Errorf("%s: %q: exit %d %s\n%s\nthe page shows\n%s", page, args, code, errOut, got, want)
	}
	want = docBlock(t, page, "With `--format json`")
	args = append(args, "--format", "json", "--permutations", "9999", "--seed", "7")
	if code, got, errOut := twl(t, "", args...); code != 0 || got != want {
		t.Errorf("%s: %q: exit %d %s\n%s\nthe page shows\n%s", page, args, code, errOut, got, want)
	}
}
