package unifrac

import (
	"bufio"
	"context"
	"errors"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/biom"
	"github.com/twl-ldl/twl/newick"
	"github.com/twl-ldl/twl/tree"
)

// The test cases of other UniFrac implementations, their expected values
// recorded as fixtures: biocore/unifrac-binaries (src/test_su.cpp and
// ci/crawford_test.sh, the C++ of ssu and faithpd), biocore/unifrac
// (unifrac/tests/test_api.py) and scikit-bio (skbio/diversity/beta/tests/
// test_unifrac.py, skbio/diversity/alpha/tests/test_pd.py). Each case
// says where it comes from and keeps the peer's tolerance. Their data
// files are in testdata/peers (see its README.md).

// peerTree parses a Newick string.
func peerTree(t *testing.T, s string) *tree.Tree {
	t.Helper()
	tr, err := newick.Parse([]byte(s), "tree", nil)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// denseTable returns the table whose sample s has count rows[s][o] on
// the tip named obs[o] (zero counts left out).
func denseTable(t *testing.T, tr *tree.Tree, obs []string, rows [][]float64) *Table {
	t.Helper()
	tab := &Table{Indptr: []int{0}}
	for s, r := range rows {
		for o, c := range r {
			if c == 0 {
				continue
			}
			i, ok := tr.Index(obs[o])
			if !ok {
				t.Fatalf("no tip %q", obs[o])
			}
			tab.Indices = append(tab.Indices, int32(i))
			tab.Values = append(tab.Values, c)
		}
		tab.Indptr = append(tab.Indptr, len(tab.Indices))
		tab.IDs = append(tab.IDs, "S"+strconv.Itoa(s+1))
	}
	return tab
}

// matrixOf returns the N×N matrix of tab on tr by method m with options o.
func matrixOf(t *testing.T, tr *tree.Tree, tab *Table, m Method, o *Options) []float64 {
	t.Helper()
	e, err := New(tr, tab, m, o)
	if err != nil {
		t.Fatal(err)
	}
	d := make([]float64, e.Len()*e.Len())
	if err := e.Matrix(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	return d
}

// fromStripes returns the N×N matrix that ssu's stripes hold: stripe s
// holds at k the distance between samples k and (k+s+1) mod N.
func fromStripes(stripes [][]float64, n int) []float64 {
	d := make([]float64, n*n)
	for s, st := range stripes {
		for k := range n {
			l := (k + s + 1) % n
			d[k*n+l], d[l*n+k] = st[k], st[k]
		}
	}
	return d
}

// within fails unless |got − want| ≤ tol for each entry.
func within(t *testing.T, what string, n int, got, want []float64, tol float64) {
	t.Helper()
	for k := range want {
		if !(math.Abs(got[k]-want[k]) <= tol) {
			t.Errorf("%s: (%d, %d) = %.10g, want %.10g", what, k/n, k%n, got[k], want[k])
		}
	}
}

// The table and tree of unifrac-binaries' src/test_su.cpp (src/test.biom,
// src/test.tre): observations GG_OTU_1 … GG_OTU_5, samples Sample1 …
// Sample6.
var (
	suTree  = "(GG_OTU_1:1,(GG_OTU_2:1,GG_OTU_3:1):1,(GG_OTU_5:1,GG_OTU_4:1):1);"
	suObs   = []string{"GG_OTU_1", "GG_OTU_2", "GG_OTU_3", "GG_OTU_4", "GG_OTU_5"}
	suTable = [][]float64{ // sample by observation
		{0, 5, 0, 2, 0},
		{0, 1, 0, 1, 1},
		{1, 0, 1, 1, 1},
		{0, 2, 4, 0, 0},
		{0, 3, 0, 0, 0},
		{0, 1, 2, 1, 0},
	}
)

// TestPeerSSU reproduces the UniFrac cases of unifrac-binaries'
// src/test_su.cpp, with its tolerance of 1e-6: the expected stripes of
// each test, as the file writes them.
func TestPeerSSU(t *testing.T) {
	tr := peerTree(t, suTree)
	tab := denseTable(t, tr, suObs, suTable)
	for _, c := range []struct {
		name    string
		m       Method
		o       Options
		stripes [][]float64
	}{
		// test_unnormalized_weighted_unifrac
		{"weighted_unnormalized", WeightedUnnormalized, Options{}, [][]float64{
			{1.52380952, 1.25, 2.75, 1.33333333, 2., 1.07142857},
			{2.17857143, 2.66666667, 3.25, 1.0, 1.14285714, 1.83333333},
			{1.9047619, 2.66666667, 1.75, 1.9047619, 2.66666667, 1.75}}},
		// test_normalized_weighted_unifrac
		{"weighted_normalized", WeightedNormalized, Options{}, [][]float64{
			{0.38095238, 0.33333333, 0.73333333, 0.33333333, 0.5, 0.26785714},
			{0.58095238, 0.66666667, 0.86666667, 0.25, 0.28571429, 0.45833333},
			{0.47619048, 0.66666667, 0.46666667, 0.47619048, 0.66666667, 0.46666667}}},
		// test_unweighted_unifrac
		{"unweighted", Unweighted, Options{}, [][]float64{
			{0.2, 0.42857143, 0.71428571, 0.33333333, 0.6, 0.2},
			{0.57142857, 0.66666667, 0.85714286, 0.4, 0.5, 0.33333333},
			{0.6, 0.6, 0.42857143, 0.6, 0.6, 0.42857143}}},
		// test_unweighted_unifrac_fast ("unweighted unifrac no tips":
		// bypass_tips = true)
		{"unweighted, bypass tips", Unweighted, Options{BypassTips: true}, [][]float64{
			{0., 0., 0.5, 0., 0.5, 0.},
			{0., 0.5, 0.5, 0.5, 0.5, 0.},
			{0.5, 0.5, 0., 0.5, 0.5, 0.}}},
		// test_unnormalized_unweighted_unifrac
		{"unweighted_unnormalized", UnweightedUnnormalized, Options{}, [][]float64{
			{1, 3, 5, 1, 3, 1},
			{4, 4, 6, 2, 2, 2},
			{3, 3, 3, 3, 3, 3}}},
		// test_generalized_unifrac, α = 1 (weighted normalized)
		{"generalized α=1", Generalized, Options{Alpha: 1}, [][]float64{
			{0.38095238, 0.33333333, 0.73333333, 0.33333333, 0.5, 0.26785714},
			{0.58095238, 0.66666667, 0.86666667, 0.25, 0.28571429, 0.45833333},
			{0.47619048, 0.66666667, 0.46666667, 0.47619048, 0.66666667, 0.46666667}}},
		// test_generalized_unifrac, α = 0 ("as computed by GUniFrac v1.0")
		{"generalized α=0", Generalized, Options{Alpha: 0}, [][]float64{
			{0.4408392, 0.5102041, 0.8649351, 0.5000000, 0.7485714, 0.3278410},
			{0.6886965, 0.7500000, 0.9428571, 0.4857143, 0.5833333, 0.5208125},
			{0.7060606, 0.8000000, 0.5952381, 0.7060606, 0.8000000, 0.5952381}}},
		// test_generalized_unifrac, α = 0.5 (GUniFrac v1.0)
		{"generalized α=0.5", Generalized, Options{Alpha: 0.5}, [][]float64{
			{0.4040518, 0.4160597, 0.8005220, 0.4117216, 0.6188282, 0.2995673},
			{0.6285560, 0.7071068, 0.9073159, 0.3485667, 0.4082483, 0.4860856},
			{0.5869439, 0.7302479, 0.5218198, 0.5869439, 0.7302479, 0.5218198}}},
	} {
		got := matrixOf(t, tr, tab, c.m, &c.o)
		within(t, c.name, 6, got, fromStripes(c.stripes, 6), 1e-6)
	}
}

// TestPeerFaithSSU reproduces test_faith_pd and test_faith_pd_shear of
// unifrac-binaries' src/test_su.cpp (trees src/test_faith.tre and
// src/test_faith_shear.tre, the second with tips the table does not
// have), to 1e-6.
func TestPeerFaithSSU(t *testing.T) {
	want := []float64{6., 7., 8., 5., 4., 7.}
	for _, s := range []string{
		"((GG_OTU_1:1,(GG_OTU_2:1,GG_OTU_3:1):1):2,(GG_OTU_5:1,GG_OTU_4:1):1);",
		"((GG_OTU_1:1,(GG_OTU_2:1,GG_OTU_3:1,GG_OTU_ex:9):1):2,(GG_OTU_5:1,GG_OTU_4:1,GG_OTU_ex2:12):1);",
	} {
		tr := peerTree(t, s)
		got := make([]float64, 6)
		if err := FaithPD(got, tr, denseTable(t, tr, suObs, suTable), nil); err != nil {
			t.Fatal(err)
		}
		within(t, "faith", 1, got, want, 1e-6)
	}
}

// TestPeerAbsoluteQuantification reproduces the absolute-quantification
// cases of unifrac-binaries' src/testdata/validation_tests.sh:
// ssu -m weighted_normalized on absquant.biom and absquant.tree with
// --normalize-sample-counts false (test.absquant.wn.dm) and true
// (test.absquant_not.wn.dm), compared by compare_unifrac_dm.py to 1e-5.
func TestPeerAbsoluteQuantification(t *testing.T) {
	tr := peerTree(t, "((T1:0.1,(T2:0.05,T3:0.05):0.02):0.3,(T4:0.2,(T5:0.1,T6:0.15,T7:0.2):0.05):0.4);")
	tab := denseTable(t, tr, []string{"T1", "T2", "T3", "T4", "T5", "T6", "T7"}, [][]float64{
		{2, 0, 5, 3, 0, 0, 0}, // SampleA
		{0, 3, 0, 0, 9, 6, 0}, // SampleB
		{4, 0, 7, 0, 0, 0, 3}, // SampleC
	})
	raw := matrixOf(t, tr, tab, WeightedNormalized, &Options{Raw: true})
	within(t, "counts as they are", 3, raw, []float64{
		0, 0.693834, 0.272899,
		0.693834, 0, 0.707595,
		0.272899, 0.707595, 0}, 1e-5)
	norm := matrixOf(t, tr, tab, WeightedNormalized, nil)
	within(t, "proportions", 3, norm, []float64{
		0, 0.646859, 0.206144,
		0.646860, 0, 0.692871,
		0.206144, 0.692871, 0}, 1e-5)
}

// readSquare reads a tab-separated square matrix with a header line of ids
// (the first cell empty) and returns the ids and values.
func readSquare(t *testing.T, path string) ([]string, []float64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var ids []string
	var d []float64
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if ids == nil {
			ids = fs
			continue
		}
		for _, x := range fs[1:] {
			v, err := strconv.ParseFloat(x, 64)
			if err != nil {
				t.Fatal(err)
			}
			d = append(d, v)
		}
	}
	if len(d) != len(ids)*len(ids) {
		t.Fatalf("%s: %d values for %d ids", path, len(d), len(ids))
	}
	return ids, d
}

// readPairs reads "id<TAB>value" lines, skipping lines that do not parse
// (a header).
func readPairs(t *testing.T, path string) map[string]float64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		fs := strings.Fields(line)
		if len(fs) != 2 {
			continue
		}
		if v, err := strconv.ParseFloat(fs[1], 64); err == nil {
			out[fs[0]] = v
		}
	}
	return out
}

// crawford reads the crawford tree and table of testdata/peers.
func crawford(t *testing.T) (*tree.Tree, *Table) {
	t.Helper()
	tr, err := newick.ReadFile("testdata/peers/crawford.tre", nil)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := readTriplets("testdata/peers/crawford.tsv", tr)
	if err != nil {
		t.Fatal(err)
	}
	return tr, tab
}

// TestPeerCrawford reproduces ci/crawford_test.sh of unifrac-binaries:
// ssu -m unweighted_fp64 and faithpd on the crawford table and tree,
// which the script compares to the expected files to 4 decimals (the test
// asks for 5e-5).
func TestPeerCrawford(t *testing.T) {
	tr, tab := crawford(t)
	n := tab.Len()
	crawfordMatrix(t, tr, tab, "crawford.unweighted.exp", &Options{})
	want := readPairs(t, "testdata/peers/crawford.faith.exp")
	got := make([]float64, n)
	if err := FaithPD(got, tr, tab, nil); err != nil {
		t.Fatal(err)
	}
	for s, id := range tab.IDs {
		if w, ok := want[id]; !ok || math.Abs(got[s]-w) > 5e-5 {
			t.Errorf("faith %s: %v, want %v", id, got[s], w)
		}
	}
}

// crawfordMatrix compares the unweighted matrix of tab on tr with options
// o with the expected file, to 5e-5.
func crawfordMatrix(t *testing.T, tr *tree.Tree, tab *Table, file string, o *Options) {
	t.Helper()
	ids, want := readSquare(t, "testdata/peers/"+file)
	if strings.Join(ids, " ") != strings.Join(tab.IDs, " ") {
		t.Fatalf("%s: ids %v, table %v", file, ids, tab.IDs)
	}
	got := matrixOf(t, tr, tab, Unweighted, o)
	within(t, file, tab.Len(), got, want, 5e-5)
}

// TestPeerUnifracMeta reproduces test_meta_unifrac of biocore/unifrac's
// unifrac/tests/test_api.py: unweighted UniFrac of e1.biom on t1.newick,
// [[0, 10/16, 8/13], [10/16, 0, 8/17], [8/13, 8/17, 0]], to 6 decimals.
func TestPeerUnifracMeta(t *testing.T) {
	tr, err := newick.ReadFile("testdata/peers/e1.t1.newick", nil)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := readTriplets("testdata/peers/e1.tsv", tr)
	if err != nil {
		t.Fatal(err)
	}
	got := matrixOf(t, tr, tab, Unweighted, nil)
	within(t, "e1", 3, got, []float64{0, 10 / 16., 8 / 13., 10 / 16., 0, 8 / 17., 8 / 13., 8 / 17., 0}, 5e-7)
}

// The data of scikit-bio's test_unifrac.py and test_pd.py (setUp): b1
// (samples A–F; test_pd.py's fifth row is [2, 0, 3, 0, 0]) on t1, whose
// root has one child and which has branches of length 0, and t2.
var (
	skT1 = "(((((OTU1:0.5,OTU2:0.5):0.5,OTU3:1.0):1.0):0.0,(OTU4:0.75,OTU5:0.75):1.25):0.0)root;"
	// t1 with tips the table does not have.
	skT1Extra = "(((((OTU1:0.5,OTU2:0.5):0.5,OTU3:1.0):1.0):0.0,(OTU4:0.75,(OTU5:0.25,(OTU6:0.5,OTU7:0.5):0.5):0.5):1.25):0.0)root;"
	skT2      = "((OTU1:0.1, OTU2:0.2):0.3, (OTU3:0.5, OTU4:0.7):1.1)root;"
	skObs1    = []string{"OTU1", "OTU2", "OTU3", "OTU4", "OTU5"}
	skObs2    = []string{"OTU1", "OTU2", "OTU3", "OTU4"}
	skB1      = [][]float64{
		{1, 3, 0, 1, 0},
		{0, 2, 0, 4, 4},
		{0, 0, 6, 2, 1},
		{0, 0, 1, 1, 1},
		{5, 3, 5, 0, 0},
		{0, 0, 0, 3, 5},
	}
)

// skPairs lists the expected values of scikit-bio's test_unweighted_unifrac,
// test_weighted_unifrac and test_weighted_unifrac_normalized (pairs (i, j)
// of b1, i < j, in the tests' order), checked to 7 decimals as
// assertAlmostEqual does.
var skPairs = []struct {
	m    Method
	want []float64
}{
	{Unweighted, []float64{0.238095238095, 0.52, 0.52, 0.545454545455, 0.619047619048,
		0.347826086957, 0.347826086957, 0.68, 0.421052631579,
		0.0, 0.68, 0.421052631579,
		0.68, 0.421052631579,
		1.0}},
	{WeightedUnnormalized, []float64{2.4, 1.86666666667, 2.53333333333, 1.35384615385, 3.2,
		2.26666666667, 0.933333333333, 3.2, 0.8375,
		1.33333333333, 1.89743589744, 2.66666666667,
		2.66666666667, 1.33333333333,
		4.0}},
	{WeightedNormalized, []float64{0.6, 0.466666666667, 0.633333333333, 0.338461538462, 0.8,
		0.566666666667, 0.233333333333, 0.8, 0.209375,
		0.333333333333, 0.474358974359, 0.666666666667,
		0.666666666667, 0.333333333333,
		1.0}},
}

// TestPeerScikitBio reproduces scikit-bio's UniFrac tests
// (skbio/diversity/beta/tests/test_unifrac.py): the pairs of b1 on t1
// (zero-length branches, a node with one child), the same on t1 with
// extra tips (test_*_extra_tips), identity and symmetry, the root not
// observed (t2), the minimal tree, samples that share only the root
// (test_*_non_overlapping) and the zero-count cases, to 7 decimals.
func TestPeerScikitBio(t *testing.T) {
	const tol = 5e-8
	for _, ts := range []string{skT1, skT1Extra} {
		tr := peerTree(t, ts)
		tab := denseTable(t, tr, skObs1, skB1)
		for _, c := range skPairs {
			got := matrixOf(t, tr, tab, c.m, nil)
			k := 0
			for i := range 6 {
				if got[i*6+i] != 0 {
					t.Errorf("%v: d(%d, %d) = %v", c.m, i, i, got[i*6+i])
				}
				for j := i + 1; j < 6; j++ {
					if math.Abs(got[i*6+j]-c.want[k]) > tol || got[i*6+j] != got[j*6+i] {
						t.Errorf("%v: d(%d, %d) = %.12g, want %.12g", c.m, i, j, got[i*6+j], c.want[k])
					}
					k++
				}
			}
		}
	}
	// test_unweighted_unifrac_non_overlapping, test_weighted_unifrac_
	// non_overlapping_normalized: samples that share the root only.
	tr1 := peerTree(t, skT1)
	nonOverlap := denseTable(t, tr1, skObs1, [][]float64{{1, 1, 1, 0, 0}, {0, 0, 0, 1, 1}})
	for _, m := range []Method{Unweighted, WeightedNormalized} {
		if d := matrixOf(t, tr1, nonOverlap, m, nil)[1]; math.Abs(d-1) > tol {
			t.Errorf("%v non-overlapping: %v, want 1", m, d)
		}
	}
	// test_*_root_not_observed on t2: pairs of samples and the expected
	// values (QIIME 1.9.1 and by hand, as the tests say).
	tr2 := peerTree(t, skT2)
	for _, c := range []struct {
		m    Method
		a, b []float64
		want float64
	}{
		{Unweighted, []float64{1, 1, 0, 0}, []float64{1, 0, 0, 0}, 0.2 / (0.1 + 0.2 + 0.3)},
		{Unweighted, []float64{0, 0, 1, 1}, []float64{0, 0, 1, 0}, 0.7 / (1.1 + 0.5 + 0.7)},
		{WeightedUnnormalized, []float64{1, 0, 0, 0}, []float64{1, 1, 0, 0}, 0.15},
		{WeightedUnnormalized, []float64{0, 0, 1, 1}, []float64{0, 0, 1, 0}, 0.6},
		{WeightedNormalized, []float64{1, 0, 0, 0}, []float64{1, 1, 0, 0}, 0.1764705882},
		{WeightedNormalized, []float64{0, 0, 1, 1}, []float64{0, 0, 1, 0}, 0.1818181818},
	} {
		tab := denseTable(t, tr2, skObs2, [][]float64{c.a, c.b})
		if d := matrixOf(t, tr2, tab, c.m, nil)[1]; math.Abs(d-c.want) > tol {
			t.Errorf("%v root not observed %v %v: %v, want %v", c.m, c.a, c.b, d, c.want)
		}
	}
	// The minimal tree and the zero-count cases have an empty sample,
	// which twl refuses unless the masses are given as they are (Raw):
	// scikit-bio's empty sample is a vector of zeros, the other sample
	// its proportions, given here as Raw masses. test_unweighted_minimal_
	// trees (1.0), test_weighted_minimal_trees (0.25).
	trm := peerTree(t, "(OTU1:0.25, OTU2:0.25)root;")
	minimal := denseTable(t, trm, []string{"OTU1", "OTU2"}, [][]float64{{1, 0}, {0, 0}})
	if d := matrixOf(t, trm, minimal, Unweighted, &Options{Raw: true})[1]; d != 1 {
		t.Errorf("unweighted minimal tree: %v, want 1", d)
	}
	if d := matrixOf(t, trm, minimal, WeightedUnnormalized, &Options{Raw: true})[1]; d != 0.25 {
		t.Errorf("weighted minimal tree: %v, want 0.25", d)
	}
	// test_unweighted_unifrac_zero_counts (1.0 and 0.0),
	// test_weighted_unifrac_zero_counts (0.0 and 2.0),
	// test_weighted_unifrac_zero_counts_normalized (0.0 and 1.0).
	third := 1.0 / 3
	zero := denseTable(t, tr1, skObs1, [][]float64{{third, third, third, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}})
	for _, c := range []struct {
		m         Method
		one, both float64
	}{{Unweighted, 1, 0}, {WeightedUnnormalized, 2, 0}, {WeightedNormalized, 1, 0}} {
		d := matrixOf(t, tr1, zero, c.m, &Options{Raw: true})
		if math.Abs(d[1]-c.one) > tol || d[5] != c.both {
			t.Errorf("%v zero counts: %v and %v, want %v and %v", c.m, d[1], d[5], c.one, c.both)
		}
	}
}

// TestPeerQiimeTinyTest reproduces the QIIME 1.9.1 "tiny test" of
// scikit-bio (qiime-191-tt): the unweighted, weighted and weighted
// normalized distance matrices that QIIME 1.9.1 wrote (12 significant
// digits; checked to 1e-9 here) and Faith's PD (test_faith_pd_qiime_tiny_test,
// 5 decimals; checked to 7 decimals). QIIME's matrices also hold the
// sample not16S.1, which has no counts in the table once its
// observations not in the tree are removed; QIIME gave it distance 1 to
// every other sample, twl refuses an empty sample, and it is not
// compared.
func TestPeerQiimeTinyTest(t *testing.T) {
	dir := "testdata/peers/qiime-191-tt/"
	tr, err := newick.ReadFile(dir+"tree.nwk", nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(dir + "otu-table.tsv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	sids := strings.Split(lines[1], "\t")[1:]
	var obs []string
	rows := make([][]float64, len(sids))
	for _, line := range lines[2:] {
		fs := strings.Split(line, "\t")
		obs = append(obs, fs[0])
		for s, x := range fs[1:] {
			v, err := strconv.ParseFloat(x, 64)
			if err != nil {
				t.Fatal(err)
			}
			rows[s] = append(rows[s], v)
		}
	}
	tab := denseTable(t, tr, obs, rows)
	n := len(sids)
	for _, c := range []struct {
		file string
		m    Method
	}{
		{"unweighted_unifrac_dm.txt", Unweighted},
		{"weighted_unifrac_dm.txt", WeightedUnnormalized},
		{"weighted_normalized_unifrac_dm.txt", WeightedNormalized},
	} {
		ids, want := readSquare(t, dir+c.file)
		at := map[string]int{}
		for k, id := range ids {
			at[id] = k
		}
		got := matrixOf(t, tr, tab, c.m, nil)
		for i, a := range sids {
			for j, b := range sids {
				w := want[at[a]*len(ids)+at[b]]
				if math.Abs(got[i*n+j]-w) > 1e-9*math.Max(1, w) {
					t.Errorf("%s: d(%s, %s) = %.12g, want %.12g", c.file, a, b, got[i*n+j], w)
				}
			}
		}
	}
	want := readPairs(t, dir+"faith-pd.txt")
	got := make([]float64, n)
	if err := FaithPD(got, tr, tab, nil); err != nil {
		t.Fatal(err)
	}
	for s, id := range sids {
		if math.Abs(got[s]-want[id]) > 5e-8 {
			t.Errorf("faith %s: %v, want %v", id, got[s], want[id])
		}
	}
}

// TestPeerFaithScikitBio reproduces scikit-bio's test_pd.py: test_faith_pd
// (b1 of test_pd.py on t1), test_faith_pd_extra_tips,
// test_faith_pd_none_observed, test_faith_pd_all_observed,
// test_faith_pd_one_observed, test_faith_pd_minimal and
// test_faith_pd_root_not_observed, to 7 decimals.
func TestPeerFaithScikitBio(t *testing.T) {
	const tol = 5e-8
	rows := [][]float64{
		{1, 3, 0, 1, 0},
		{0, 2, 0, 4, 4},
		{0, 0, 6, 2, 1},
		{0, 0, 1, 1, 1},
		{2, 0, 3, 0, 0},
		{0, 0, 0, 0, 0}, // none observed: 0
		{1, 1, 1, 1, 1}, // all observed: the sum of the branch lengths
		{1, 2, 3, 4, 5},
		{1, 0, 0, 0, 0}, // one observed: 2
	}
	all := 0.5 + 0.5 + 0.5 + 1 + 1 + 0 + 0.75 + 0.75 + 1.25 + 0
	want := []float64{4.5, 4.75, 4.75, 4.75, 3.0, 0, all, all, 2}
	for _, ts := range []string{skT1, skT1Extra} {
		tr := peerTree(t, ts)
		got := make([]float64, len(rows))
		if err := FaithPD(got, tr, denseTable(t, tr, skObs1, rows), nil); err != nil {
			t.Fatal(err)
		}
		within(t, "faith", 1, got, want, tol)
	}
	trm := peerTree(t, "(OTU1:0.25, OTU2:0.25)root;")
	got := make([]float64, 1)
	if err := FaithPD(got, trm, denseTable(t, trm, []string{"OTU1", "OTU2"}, [][]float64{{1, 0}}), nil); err != nil || got[0] != 0.25 {
		t.Errorf("faith minimal: %v %v, want 0.25", got, err)
	}
	tr2 := peerTree(t, skT2)
	got = make([]float64, 2)
	if err := FaithPD(got, tr2, denseTable(t, tr2, skObs2, [][]float64{{1, 1, 0, 0}, {0, 0, 1, 1}}), nil); err != nil {
		t.Fatal(err)
	}
	within(t, "faith root not observed", 1, got, []float64{0.6, 2.3}, tol)
}

// TestPeerUnifracEdges reproduces two cases of biocore/unifrac's
// unifrac/tests/test_api.py: test_faith_pd_zero_branches_omitted (branches
// without a length count 0: [1, 1, 0, 0, 0] on
// ((OTU1:0.5,OTU2:0.5),(OTU3:1.0,(OTU4:0.5,OTU5:0.75):1.0):1.0)root; has
// PD 1.0) and test_ssu_table_not_subset_tree /
// test_faith_pd_table_not_subset_tree (a table with an observation the
// tree does not have is refused: here TableOf's *MissingTipsError).
func TestPeerUnifracEdges(t *testing.T) {
	tr := peerTree(t, "((OTU1:0.5,OTU2:0.5),(OTU3:1.0,(OTU4:0.5,OTU5:0.75):1.0):1.0)root;")
	got := make([]float64, 1)
	if err := FaithPD(got, tr, denseTable(t, tr, skObs1, [][]float64{{1, 1, 0, 0, 0}}), nil); err != nil || math.Abs(got[0]-1) > 5e-8 {
		t.Errorf("faith with a branch without length: %v %v, want 1", got[0], err)
	}
	tr = peerTree(t, "((OTU1:0.5,OTU3:1.0):1.0)root;")
	b := &biom.Table{Samples: []string{"foo"}, Observations: []string{"OTU1", "OTU2"},
		Indptr: []int{0, 1}, Indices: []int32{0}, Data: []float64{1}}
	var me *MissingTipsError
	if _, err := TableOf(tr, b); !errors.As(err, &me) || me.Count != 1 || me.IDs[0] != "OTU2" {
		t.Errorf("a table not covered by the tree: %v", err)
	}
}
