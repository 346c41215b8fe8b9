package main

import (
	"context"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/biom"
	"github.com/twl-ldl/twl/newick"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/unifrac"
)

// ssuSmallListed is ssuSmallTable with a row of zeros for each tip of the
// tree that has no count, as ssu_small.biom lists all 40 tips (ssu -f
// keeps their branches in the tree it prunes to the table).
func ssuSmallListed(t *testing.T, dir string) string {
	path := ssuSmallTable(t, dir)
	tr, err := newick.ReadFile(ufSmall+".nwk", nil)
	if err != nil {
		t.Fatal(err)
	}
	data := mustRead(t, path)
	lines := strings.Split(strings.TrimSuffix(data, "\n"), "\n")
	nSamples := len(strings.Split(lines[0], "\t")) - 1
	var extra strings.Builder
	for i := range tr.Len() {
		name := tr.Name(i)
		if tr.IsLeaf(i) && !strings.Contains(data, "\n"+name+"\t") {
			extra.WriteString(name + strings.Repeat("\t0", nSamples) + "\n")
		}
	}
	if extra.Len() == 0 {
		t.Fatal("every tip has counts")
	}
	if err := os.WriteFile(path, []byte(data+extra.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestUnifracOptions runs --variance-adjusted and --bypass-tips, alone and
// together, for every method ssu has, and compares with ssu's recorded
// outputs (ssu -m METHOD_fp64 [--vaw] [-f], see unifrac/ssu_test.go) to
// 1e-7; --method unweighted_unnormalized and --absolute give the
// engine's values with the same options, bit for bit (the .npy output).
func TestUnifracOptions(t *testing.T) {
	dir := t.TempDir()
	table := ssuSmallListed(t, dir)
	for _, c := range []struct{ method, alpha, file string }{
		{"weighted_normalized", "", "weighted_normalized"},
		{"weighted_unnormalized", "", "weighted_unnormalized"},
		{"unweighted", "", "unweighted"},
		{"generalized", "0.5", "generalized0.5"},
	} {
		for _, o := range []struct {
			flags  []string
			suffix string
		}{
			{[]string{"--variance-adjusted"}, ".vaw"},
			{[]string{"--bypass-tips"}, ".f"},
			{[]string{"--variance-adjusted", "--bypass-tips"}, ".vaw.f"},
		} {
			out := filepath.Join(dir, "d.tsv")
			args := []string{"unifrac", "--tree", ufSmall + ".nwk", "--table", table, "--method", c.method, "--out", out}
			if c.alpha != "" {
				args = append(args, "--alpha", c.alpha)
			}
			if code, _, errOut := twl(t, "", append(args, o.flags...)...); code != 0 {
				t.Fatalf("%s %v: exit %d: %s", c.method, o.flags, code, errOut)
			}
			gotIDs, got := readMatrix(t, out)
			ssuIDs, ssu := readMatrix(t, ufSmall+".out."+c.file+o.suffix+".tsv")
			if !slices.Equal(gotIDs, ssuIDs) {
				t.Fatalf("%s: ids %q, ssu's %q", c.file, gotIDs, ssuIDs)
			}
			for i := range got {
				for j := range got {
					if d := math.Abs(got[i][j] - ssu[i][j]); d > 1e-7*math.Max(1, ssu[i][j]) {
						t.Errorf("%s%s (%d,%d): %v, ssu %v", c.file, o.suffix, i, j, got[i][j], ssu[i][j])
					}
				}
			}
		}
	}
	tr, err := newick.ReadFile(ufSmall+".nwk", nil)
	if err != nil {
		t.Fatal(err)
	}
	tab := tableOf(t, tr, table)
	for _, c := range []struct {
		method string
		m      unifrac.Method
		flags  []string
		o      unifrac.Options
	}{
		{"unweighted_unnormalized", unifrac.UnweightedUnnormalized, nil, unifrac.Options{}},
		{"unweighted_unnormalized", unifrac.UnweightedUnnormalized, []string{"--variance-adjusted", "--bypass-tips"}, unifrac.Options{VarianceAdjusted: true, BypassTips: true}},
		{"weighted_normalized", unifrac.WeightedNormalized, []string{"--absolute"}, unifrac.Options{Raw: true}},
		{"weighted_unnormalized", unifrac.WeightedUnnormalized, []string{"--absolute", "--variance-adjusted"}, unifrac.Options{Raw: true, VarianceAdjusted: true}},
	} {
		npy := filepath.Join(dir, "d.npy")
		args := append([]string{"unifrac", "--tree", ufSmall + ".nwk", "--table", table, "--method", c.method, "--out", npy}, c.flags...)
		if code, _, errOut := twl(t, "", args...); code != 0 {
			t.Fatalf("%s %v: exit %d: %s", c.method, c.flags, code, errOut)
		}
		e, err := unifrac.New(tr, tab, c.m, &c.o)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]float64, e.Len()*e.Len())
		if err := e.Matrix(context.Background(), want); err != nil {
			t.Fatal(err)
		}
		got := npyValues(t, npy)
		for k := range want {
			if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
				t.Fatalf("%s %v: value %d = %v, engine %v", c.method, c.flags, k, got[k], want[k])
			}
		}
	}
	// A partial file names the options with the method, and merge refuses
	// parts computed with different ones.
	p1, p2 := filepath.Join(dir, "a.part"), filepath.Join(dir, "b.part")
	base := []string{"unifrac", "--tree", ufSmall + ".nwk", "--table", table, "--method", "unweighted"}
	if code, _, errOut := twl(t, "", append(base, "--variance-adjusted", "--bypass-tips", "--shard", "1/2", "--out", p1)...); code != 0 {
		t.Fatalf("shard 1: exit %d: %s", code, errOut)
	}
	if !strings.Contains(mustRead(t, p1), "\nmethod unweighted+variance-adjusted+bypass-tips\n") {
		t.Errorf("partial file header: %q", mustRead(t, p1)[:200])
	}
	if code, _, errOut := twl(t, "", append(base, "--bypass-tips", "--shard", "2/2", "--out", p2)...); code != 0 {
		t.Fatalf("shard 2: exit %d: %s", code, errOut)
	}
	if code, _, errOut := twl(t, "", "unifrac", "merge", p1, p2, "--out", filepath.Join(dir, "m.tsv")); code != 1 || !strings.Contains(errOut, "method") {
		t.Errorf("merge of parts with different options: exit %d: %s", code, errOut)
	}
}

// tableOf reads a table file and maps it onto tr.
func tableOf(t *testing.T, tr *tree.Tree, path string) *unifrac.Table {
	t.Helper()
	b, err := biom.ReadFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := unifrac.TableOf(tr, b)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// npyValues returns the float64 values of a .npy file.
func npyValues(t *testing.T, path string) []float64 {
	t.Helper()
	data := []byte(mustRead(t, path))
	hl := int(binary.LittleEndian.Uint16(data[8:10]))
	vals := data[10+hl:]
	out := make([]float64, len(vals)/8)
	for k := range out {
		out[k] = math.Float64frombits(binary.LittleEndian.Uint64(vals[8*k:]))
	}
	return out
}
