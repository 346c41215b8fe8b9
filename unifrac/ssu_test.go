package unifrac

import (
	"context"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestSSU compares with the recorded output of Striped UniFrac (ssu, from
// the Debian package unifrac-tools) on a random 40-tip tree and 12 samples
// of 8 tips, made in testdata by
//
//	/usr/bin/python3 gen.py 40 12 8 7 ssu_small
//	ssu -i ssu_small.biom -t ssu_small.nwk -m METHOD_fp64 -o ssu_small.out.METHOD.tsv
//	ssu -i ssu_small.biom -t ssu_small.nwk -m generalized_fp64 -a 0.5 -o ssu_small.out.generalized0.5.tsv
//
// for METHOD weighted_normalized, weighted_unnormalized and unweighted
// (ssu_small.tsv holds the counts of ssu_small.biom as triplets), and
// the same commands with -f (bypass tips), --vaw (variance adjusted) and
// both into ssu_small.out.*.f.tsv, *.vaw.tsv and *.vaw.f.tsv (ssu 1.2 of
// unifrac-tools 1.2-2). ssu_small.biom lists all 40 tips,
// 4 of them without counts: for -f they are in the table's Listed. The
// values in ssu_small.out.*.tsv are ssu's, printed to 16 significant
// digits; they must agree to 1e-7 relative. They agree to about 1e-8:
// ssu keeps branch lengths in float32 (rounding the lengths read here to
// float32 brings the differences down to about 1e-15).
func TestSSU(t *testing.T) {
	tr, err := readNewick("testdata/ssu_small.nwk")
	if err != nil {
		t.Fatal(err)
	}
	tab, err := readTriplets("testdata/ssu_small.tsv", tr)
	if err != nil {
		t.Fatal(err)
	}
	listed := &Table{}
	*listed = *tab
	for i := range tr.Len() {
		if tr.IsLeaf(i) && !slices.Contains(tab.Indices, int32(i)) {
			listed.Listed = append(listed.Listed, int32(i))
		}
	}
	if len(listed.Listed) != 4 {
		t.Fatalf("%d tips without counts, want 4", len(listed.Listed))
	}
	type ssuCase struct {
		m           Method
		alpha       float64
		file        string
		bypass, vaw bool
	}
	var cases []ssuCase
	for _, c := range []ssuCase{
		{WeightedNormalized, 0, "weighted_normalized", false, false},
		{WeightedUnnormalized, 0, "weighted_unnormalized", false, false},
		{Unweighted, 0, "unweighted", false, false},
		{Generalized, 0.5, "generalized0.5", false, false},
	} {
		f, vf, vff := c, c, c
		f.file, f.bypass = c.file+".f", true
		vf.file, vf.vaw = c.file+".vaw", true
		vff.file, vff.bypass, vff.vaw = c.file+".vaw.f", true, true
		cases = append(cases, c, f, vf, vff)
	}
	for _, c := range cases {
		ids, want := readMatrix(t, "testdata/ssu_small.out."+c.file+".tsv")
		e, err := New(tr, listed, c.m, &Options{Alpha: c.alpha, BypassTips: c.bypass, VarianceAdjusted: c.vaw})
		if err != nil {
			t.Fatal(err)
		}
		n := e.Len()
		if strings.Join(ids, " ") != strings.Join(e.IDs(), " ") {
			t.Fatalf("%s: ids %v, want %v", c.file, e.IDs(), ids)
		}
		got := make([]float64, n*n)
		if err := e.Matrix(context.Background(), got); err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for k := range got {
			diff := math.Abs(got[k] - want[k])
			if want[k] != 0 {
				diff /= math.Abs(want[k])
			}
			worst = max(worst, diff)
			if diff > 1e-7 {
				if worst > 1e-3 {
					t.Fatalf("%s: (%d, %d) = %.17g, ssu %.17g", c.file, k/n, k%n, got[k], want[k])
				}
				t.Errorf("%s: (%d, %d) = %.17g, ssu %.17g", c.file, k/n, k%n, got[k], want[k])
			}
		}
		t.Logf("%s: largest relative difference from ssu %.3g", c.file, worst)
	}
}

// readMatrix reads ssu's TSV: a header of sample ids, then one row per
// sample.
func readMatrix(t *testing.T, path string) ([]string, []float64) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	ids := strings.Split(lines[0], "\t")[1:]
	var m []float64
	for _, l := range lines[1:] {
		for _, f := range strings.Split(l, "\t")[1:] {
			x, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatal(err)
			}
			m = append(m, x)
		}
	}
	if len(m) != len(ids)*len(ids) {
		t.Fatalf("%s: %d values for %d ids", path, len(m), len(ids))
	}
	return ids, m
}
