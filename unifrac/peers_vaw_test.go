package unifrac

import "testing"

// TestPeerSSUVarianceAdjusted reproduces test_vaw_unifrac_weighted_normalized
// of unifrac-binaries' src/test_su.cpp: variance-adjusted weighted
// normalized UniFrac of the same table, "as computed by GUniFrac", to 1e-6.
func TestPeerSSUVarianceAdjusted(t *testing.T) {
	tr := peerTree(t, suTree)
	tab := denseTable(t, tr, suObs, suTable)
	want := fromStripes([][]float64{
		{0.4086040, 0.3798594, 0.7713254, 0.6666667, 0.4735991, 0.2766318},
		{0.6240185, 0.6884992, 0.8812897, 0.2709298, 0.2857143, 0.4735781},
		{0.4639481, 0.6807616, 0.5047114, 0.4639481, 0.6807616, 0.5047114}}, 6)
	got := matrixOf(t, tr, tab, WeightedNormalized, &Options{VarianceAdjusted: true})
	within(t, "vaw weighted_normalized", 6, got, want, 1e-6)
}

// TestPeerCrawfordVarianceAdjusted reproduces the --vaw run of
// unifrac-binaries' ci/crawford_test.sh: ssu -m unweighted_fp64 --vaw on
// the crawford table and tree (ci/test.ssu_vaw.exp), to 5e-5.
func TestPeerCrawfordVarianceAdjusted(t *testing.T) {
	tr, tab := crawford(t)
	crawfordMatrix(t, tr, tab, "crawford.unweighted_vaw.exp", &Options{VarianceAdjusted: true})
}
