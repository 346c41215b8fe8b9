package permanova

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

// brute is Anderson's pseudo-F written out from the definitions, with no
// code shared with the package: SS_T = (1/N)·Σ_{i<j} d²_ij, SS_W =
// Σ_g (1/n_g)·Σ_{i<j in g} d²_ij, F = ((SS_T − SS_W)/(G−1)) / (SS_W/(N−G)).
func brute(d []float64, n int, labels []string) float64 {
	size := map[string]int{}
	for _, l := range labels {
		size[l]++
	}
	var sT, sW float64
	within := map[string]float64{}
	for i := range n {
		for j := i + 1; j < n; j++ {
			sq := d[i*n+j] * d[i*n+j]
			sT += sq
			if labels[i] == labels[j] {
				within[labels[i]] += sq
			}
		}
	}
	sT /= float64(n)
	for g, w := range within {
		sW += w / float64(size[g])
	}
	G := float64(len(size))
	return ((sT - sW) / (G - 1)) / (sW / (float64(n) - G))
}

// randomMatrix returns the Euclidean distances of n random points in dim
// dimensions, the points of group labels[i] shifted by shift along an axis
// of their own.
func randomMatrix(rng *rand.Rand, n, dim int, shift float64, labels []string) []float64 {
	x := make([]float64, n*dim)
	axis := map[string]int{}
	for i := range n {
		for k := range dim {
			x[i*dim+k] = rng.NormFloat64()
		}
		a, ok := axis[labels[i]]
		if !ok {
			a = len(axis) % dim
			axis[labels[i]] = a
		}
		x[i*dim+a] += shift
	}
	d := make([]float64, n*n)
	for i := range n {
		for j := range i {
			s := 0.0
			for k := range dim {
				t := x[i*dim+k] - x[j*dim+k]
				s += t * t
			}
			d[i*n+j], d[j*n+i] = math.Sqrt(s), math.Sqrt(s)
		}
	}
	return d
}

// labelsOf returns n labels cycling through g groups: "g0", "g1", ….
func labelsOf(n, g int) []string {
	l := make([]string, n)
	for i := range l {
		l[i] = fmt.Sprintf("g%d", i%g)
	}
	return l
}

func mustNew(t testing.TB, d []float64, n int) *Matrix {
	t.Helper()
	m, err := New(d, n, 0)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func relClose(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))
}

// TestPseudoFByHand checks the statistic on matrices small enough to work
// out on paper.
func TestPseudoFByHand(t *testing.T) {
	cases := []struct {
		name   string
		n      int
		d      []float64
		labels []string
		want   float64
	}{
		// Pairs {1,2} and {3,4}: SS_T = (1+1+16+9+4+9)/4 = 10, SS_W =
		// (1² + 3²)/2 = 5, F = (10−5)/1 / (5/2) = 2.
		{"ties", 4, []float64{0, 1, 1, 4, 1, 0, 3, 2, 1, 3, 0, 3, 4, 2, 3, 0}, []string{"a", "a", "b", "b"}, 2},
		// SS_T = (1+25+16+9+4+9)/4 = 16, SS_W = (1+9)/2 = 5, F = 11/(5/2)
		// = 4.4.
		{"no ties", 4, []float64{0, 1, 5, 4, 1, 0, 3, 2, 5, 3, 0, 3, 4, 2, 3, 0}, []string{"a", "a", "b", "b"}, 4.4},
		// Groups {1,2}, {3}, {4,5}: d12 = 1, d45 = 2, every other pair 3.
		// SS_T = (1 + 4 + 8·9)/5 = 77/5, SS_W = 1/2 + 4/2 = 5/2, SS_A =
		// 77/5 − 5/2 = 129/10, F = (129/10)/2 / ((5/2)/2) = 129/25 = 5.16.
		{"singleton", 5, []float64{
			0, 1, 3, 3, 3,
			1, 0, 3, 3, 3,
			3, 3, 0, 3, 3,
			3, 3, 3, 0, 2,
			3, 3, 3, 2, 0}, []string{"a", "a", "s", "b", "b"}, 5.16},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := mustNew(t, c.d, c.n)
			r, err := m.Test(context.Background(), c.labels, &Options{Permutations: -1})
			if err != nil {
				t.Fatal(err)
			}
			if !relClose(r.F, c.want, 1e-15) {
				t.Errorf("F = %.17g, want %v", r.F, c.want)
			}
			if !math.IsNaN(r.P) || r.Permutations != 0 {
				t.Errorf("no permutations: P = %v, Permutations = %d; want NaN, 0", r.P, r.Permutations)
			}
		})
	}
}

// skbioFixtures are the cases of testdata/skbio.json: scikit-bio 0.5.8's
// permanova (Debian python3-skbio) run by testdata/skbio_fixtures.py on
// its own test suite's matrices and on seeded random ones.
type skbioFixtures struct {
	Skbio string
	Cases []struct {
		Name       string
		Note       string
		Matrix     [][]float64
		Grouping   []string
		SampleSize int `json:"sample_size"`
		Groups     int
		F          float64
		P          float64
	}
}

func readFixtures(t *testing.T) skbioFixtures {
	t.Helper()
	b, err := os.ReadFile("testdata/skbio.json")
	if err != nil {
		t.Fatal(err)
	}
	var f skbioFixtures
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if f.Skbio != "0.5.8" || len(f.Cases) < 8 {
		t.Fatalf("fixtures of scikit-bio %s, %d cases", f.Skbio, len(f.Cases))
	}
	return f
}

// TestSkbio compares the pseudo-F with scikit-bio's on its own test cases
// (whose expected values its suite states: 2.0, 4.4, 0.578848, verified
// there against R's vegan::adonis) and on random matrices. scikit-bio sums
// in another order, so the values agree to rounding, not bit for bit. Its
// p-values come from NumPy's generator, which twl does not use: each is an
// estimate of the same exact permutation p-value as twl's, so the two
// must be within a few standard errors of each other.
func TestSkbio(t *testing.T) {
	f := readFixtures(t)
	suite := map[string]float64{"ties": 2.0, "no_ties": 4.4, "unequal": 0.578848}
	for _, c := range f.Cases {
		t.Run(c.Name, func(t *testing.T) {
			n := len(c.Matrix)
			d := slices.Concat(c.Matrix...)
			m := mustNew(t, d, n)
			r, err := m.Test(context.Background(), c.Grouping, &Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if r.N != c.SampleSize || r.Groups != c.Groups || r.Permutations != 999 {
				t.Errorf("N %d, groups %d, permutations %d; skbio: %d, %d, 999", r.N, r.Groups, r.Permutations, c.SampleSize, c.Groups)
			}
			if !relClose(r.F, c.F, 1e-13) {
				t.Errorf("F = %.17g, skbio %.17g", r.F, c.F)
			}
			if want, ok := suite[c.Name]; ok && !relClose(r.F, want, 1e-6) {
				t.Errorf("F = %.17g, scikit-bio's suite expects %v", r.F, want)
			}
			// Two independent estimates from 999 permutations: the
			// difference has a standard error of √(2p(1−p)/999).
			p := (r.P + c.P) / 2
			se := math.Sqrt(2 * p * (1 - p) / 999)
			if math.Abs(r.P-c.P) > 5*se+2.0/1000 {
				t.Errorf("p = %v, skbio %v (standard error of the difference %.3f)", r.P, c.P, se)
			}
		})
	}
}

// TestBrute compares the statistic with the definitions on random
// matrices and groupings, singletons and unequal sizes included.
func TestBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 60 {
		n := 2 + rng.IntN(70)
		g := 1 + rng.IntN(n-1)
		if n > 2 && g == 1 {
			g = 2
		}
		labels := make([]string, n)
		for i := range labels {
			labels[i] = fmt.Sprintf("L%d", rng.IntN(g))
		}
		d := randomMatrix(rng, n, 1+rng.IntN(5), rng.Float64(), labels)
		m := mustNew(t, d, n)
		r, err := m.Test(context.Background(), labels, &Options{Permutations: -1})
		if errors.Is(err, ErrOneGroup) || errors.Is(err, ErrAllUnique) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if want := brute(d, n, labels); !relClose(r.F, want, 1e-11) {
			t.Errorf("trial %d (n %d, %d groups): F = %.17g, definition %.17g", trial, n, r.Groups, r.F, want)
		}
	}
}

// TestPartitionOnly: the statistic depends on the partition of the
// samples, not on the names or numbers of the groups, bit for bit, so a
// permutation that regroups the samples as observed counts as reaching
// the observed statistic.
func TestPartitionOnly(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := 37
	d := randomMatrix(rng, n, 3, 0.3, labelsOf(n, 4))
	m := mustNew(t, d, n)
	groups := make([]int, n)
	for i := range groups {
		groups[i] = rng.IntN(4)
	}
	f := m.PseudoF(groups)
	relabel := []int{2, 0, 3, 1}
	other := make([]int, n)
	names := make([]string, n)
	for i, g := range groups {
		other[i] = relabel[g]
		names[i] = fmt.Sprint("group ", 7-g)
	}
	if g := m.PseudoF(other); math.Float64bits(g) != math.Float64bits(f) {
		t.Errorf("relabelled: %.17g, first %.17g", g, f)
	}
	r, err := m.Test(context.Background(), names, &Options{Permutations: -1})
	if err != nil {
		t.Fatal(err)
	}
	if math.Float64bits(r.F) != math.Float64bits(f) {
		t.Errorf("Test: %.17g, PseudoF %.17g", r.F, f)
	}
}

// exactP returns the exact permutation p-value of labels on d: the share of
// all n! orderings of the labels whose statistic is at least the observed
// one, found by enumerating the distinct labellings (each stands for the
// same number of orderings). Ties are decided by PseudoF, which gives the
// same bits for the same partition.
func exactP(m *Matrix, labels []string) float64 {
	n := len(labels)
	names := slices.Compact(slices.Sorted(slices.Values(labels)))
	counts := make([]int, len(names))
	for _, l := range labels {
		counts[slices.Index(names, l)]++
	}
	groups := make([]int, n)
	for i, l := range labels {
		groups[i] = slices.Index(names, l)
	}
	f0 := m.PseudoF(groups)
	cur := make([]int, n)
	var hit, all int
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			all++
			if m.PseudoF(cur) >= f0 {
				hit++
			}
			return
		}
		for g := range counts {
			if counts[g] > 0 {
				counts[g]--
				cur[i] = g
				rec(i + 1)
				counts[g]++
			}
		}
	}
	rec(0)
	return float64(hit) / float64(all)
}

// TestExactPValue: with many permutations the p-value approaches the exact
// permutation p-value, found by enumerating every labelling; the check
// allows 4.5 standard errors of the estimate.
func TestExactPValue(t *testing.T) {
	f := readFixtures(t)
	rng := rand.New(rand.NewPCG(7, 8))
	type tcase struct {
		name   string
		d      []float64
		n      int
		labels []string
	}
	var cases []tcase
	for _, c := range f.Cases[:3] { // scikit-bio's own 4- and 6-sample cases
		cases = append(cases, tcase{c.Name, slices.Concat(c.Matrix...), len(c.Matrix), c.Grouping})
	}
	l9 := []string{"a", "a", "a", "b", "b", "b", "c", "c", "c"} // 1680 labellings
	cases = append(cases, tcase{"nine in threes", randomMatrix(rng, 9, 2, 0.6, l9), 9, l9})
	l10 := []string{"x", "y", "x", "y", "x", "y", "x", "y", "x", "y"} // 252 labellings
	cases = append(cases, tcase{"ten in halves", randomMatrix(rng, 10, 3, 0.4, l10), 10, l10})
	const P = 20000
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := mustNew(t, c.d, c.n)
			exact := exactP(m, c.labels)
			r, err := m.Test(context.Background(), c.labels, &Options{Permutations: P, Seed: 11})
			if err != nil {
				t.Fatal(err)
			}
			se := math.Sqrt(exact * (1 - exact) / P)
			if math.Abs(r.P-exact) > 4.5*se+1.0/P {
				t.Errorf("p = %v, exact %v (standard error %.4f)", r.P, exact, se)
			}
			t.Logf("p %.4f, exact %.4f", r.P, exact)
		})
	}
	// Hand check of the first case: of the three partitions into pairs,
	// {12|34} gives F = 2, {13|24} F = 6 and {14|23} F = −0.4, so the
	// exact p-value is 2/3.
	if p := exactP(mustNew(t, slices.Concat(f.Cases[0].Matrix...), 4), f.Cases[0].Grouping); math.Abs(p-2.0/3) > 1e-15 {
		t.Errorf("exact p of scikit-bio's ties case %v, want 2/3", p)
	}
}

// TestNullUniform: with no effect, p-values are close to uniform on
// {1/(P+1), …, 1}; the deciles of 400 tests are checked by a chi-square
// test (9 degrees of freedom; 27.9 is its 0.999 quantile).
func TestNullUniform(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const tests, P = 400, 99
	var bins [10]int
	for trial := range tests {
		n := 12 + rng.IntN(10)
		labels := labelsOf(n, 2+rng.IntN(3))
		rng.Shuffle(n, func(i, j int) { labels[i], labels[j] = labels[j], labels[i] })
		d := randomMatrix(rng, n, 4, 0, labels)
		r, err := mustNew(t, d, n).Test(context.Background(), labels, &Options{Permutations: P, Seed: uint64(trial)})
		if err != nil {
			t.Fatal(err)
		}
		bins[min(9, int((r.P-1e-9)*10))]++
	}
	chi := 0.0
	for _, b := range bins {
		e := float64(tests) / 10
		chi += (float64(b) - e) * (float64(b) - e) / e
	}
	if chi > 27.9 {
		t.Errorf("p-value deciles %v: chi-square %.1f > 27.9", bins, chi)
	}
	t.Logf("deciles %v, chi-square %.1f", bins, chi)
}

// TestLargeEffect: groups far apart give the smallest p-value there is,
// 1/(P+1): no permutation reaches the observed statistic.
func TestLargeEffect(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	n := 40
	labels := labelsOf(n, 2)
	d := randomMatrix(rng, n, 3, 20, labels)
	r, err := mustNew(t, d, n).Test(context.Background(), labels, &Options{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if r.P != 1.0/1000 {
		t.Errorf("p = %v, want 1/1000", r.P)
	}
}

// TestWorkers: the statistics of every permutation, and so the p-value,
// are the same bits whatever the number of workers; and a test with fewer
// permutations draws the first ones of a test with more.
func TestWorkers(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{3, 9, 64, 203} {
		labels := labelsOf(n, 3)
		d := randomMatrix(rng, n, 3, 0.2, labels)
		m := mustNew(t, d, n)
		groups := make([]int32, n)
		sizes := make([]int, 3)
		for i := range groups {
			groups[i] = int32(i % 3)
			sizes[i%3]++
		}
		ref, err := m.statistics(context.Background(), groups, sizes, 1100, 42, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []int{2, 3, 7} {
			m2, err := New(d, n, w)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(m2.tri, m.tri) || m2.sT != m.sT {
				t.Errorf("n %d: the matrix built with %d workers differs", n, w)
			}
			got, _ := m2.statistics(context.Background(), groups, sizes, 1100, 42, w)
			if !slices.EqualFunc(got, ref, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) || len(got) != 1101 {
				t.Errorf("n %d: %d workers give other statistics", n, w)
			}
		}
		few, _ := m.statistics(context.Background(), groups, sizes, 99, 42, 2)
		same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
		if !slices.EqualFunc(few, ref[:100], same) {
			t.Errorf("n %d: 99 permutations are not the first 99 of 1100", n)
		}
		if n > 3 {
			other, _ := m.statistics(context.Background(), groups, sizes, 99, 43, 2)
			if slices.EqualFunc(other, few, same) {
				t.Errorf("n %d: seeds 42 and 43 draw the same permutations", n)
			}
		}
	}
}

func TestGroupingErrors(t *testing.T) {
	d := []float64{0, 1, 2, 1, 0, 3, 2, 3, 0}
	m := mustNew(t, d, 3)
	if _, err := m.Test(context.Background(), []string{"a", "a", "a"}, nil); !errors.Is(err, ErrOneGroup) {
		t.Errorf("one group: %v", err)
	}
	if _, err := m.Test(context.Background(), []string{"a", "b", "c"}, nil); !errors.Is(err, ErrAllUnique) {
		t.Errorf("all unique: %v", err)
	}
	one := mustNew(t, []float64{0}, 1)
	if _, err := one.Test(context.Background(), []string{"a"}, nil); !errors.Is(err, ErrAllUnique) {
		t.Errorf("one sample: %v (scikit-bio says its groups are all unique)", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Test(ctx, []string{"a", "a", "b"}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestMatrixErrors(t *testing.T) {
	cases := []struct {
		name     string
		d        []float64
		row, col int
		msg      string
	}{
		{"asymmetric", []float64{0, 1, 2, 1, 0, 3, 2, 3.0000000001, 0}, 1, 2, "not symmetric"},
		{"diagonal", []float64{0, 1, 2, 1, 0.5, 3, 2, 3, 0}, 1, 1, "diagonal"},
		{"last diagonal", []float64{0, 1, 2, 1, 0, 3, 2, 3, 1e-300}, 2, 2, "diagonal"},
		{"negative", []float64{0, -1, 2, -1, 0, 3, 2, 3, 0}, 0, 1, "negative"},
		{"NaN", []float64{0, 1, 2, 1, 0, math.NaN(), 2, math.NaN(), 0}, 1, 2, "not a finite number"},
		{"infinite", []float64{0, 1, math.Inf(1), 1, 0, 3, math.Inf(1), 3, 0}, 0, 2, "not a finite number"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(c.d, 3, 0)
			var de *DataError
			if !errors.As(err, &de) || de.Row != c.row || de.Col != c.col || !strings.Contains(de.Msg, c.msg) {
				t.Errorf("got %v; want entry (%d, %d): …%s…", err, c.row+1, c.col+1, c.msg)
			}
		})
	}
	if _, err := New([]float64{0, 1e200, 1e200, 0}, 2, 0); err == nil || !strings.Contains(err.Error(), "overflows") {
		t.Errorf("squares that overflow: %v", err)
	}
}

// TestZeroWithin: groups whose members are all at distance 0 leave no
// variation within groups: F is +Inf (and NaN when there is none between
// them either), as in scikit-bio, where NumPy divides by zero.
func TestZeroWithin(t *testing.T) {
	d := []float64{
		0, 0, 1, 1,
		0, 0, 1, 1,
		1, 1, 0, 0,
		1, 1, 0, 0}
	r, err := mustNew(t, d, 4).Test(context.Background(), []string{"a", "a", "b", "b"}, &Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Only the two labellings of the observed partition reach +Inf: about
	// a third of the permutations.
	if !math.IsInf(r.F, 1) || r.P < 0.25 || r.P > 0.42 {
		t.Errorf("F %v, p %v; want +Inf, about 1/3", r.F, r.P)
	}
	r, err = mustNew(t, make([]float64, 16), 4).Test(context.Background(), []string{"a", "a", "b", "b"}, &Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// NaN ≥ NaN is false, so no permutation counts: p = 1/(P+1), as
	// NumPy's comparison gives.
	if !math.IsNaN(r.F) || r.P != 1.0/1000 {
		t.Errorf("all zero: F %v, p %v; want NaN, 0.001", r.F, r.P)
	}
}

// TestKernel compares the assembly kernels (where the machine has them)
// with their Go forms bit for bit.
func TestKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for chunks := 1; chunks < 70; chunks++ {
		row := make([]float64, 8*chunks)
		for i := range row {
			if rng.IntN(5) > 0 {
				row[i] = rng.ExpFloat64() * math.Pow(10, float64(rng.IntN(20)-10))
			}
		}
		var m [4][]byte
		for q := range m {
			m[q] = make([]byte, chunks)
			for c := range m[q] {
				m[q][c] = byte(rng.Uint32())
			}
		}
		if got, want := maskSum(row, m[0]), maskSumGo(row, m[0]); math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("%d chunks: maskSum %.17g, Go %.17g", chunks, got, want)
		}
		var got, want [4]float64
		maskSum4(&got, row, m[0], m[1], m[2], m[3])
		maskSum4Go(&want, row, m[0], m[1], m[2], m[3])
		if got != want {
			t.Errorf("%d chunks: maskSum4 %v, Go %v", chunks, got, want)
		}
		// And the Go form against a plain sum in its order.
		var bank [2][8]float64
		for c := range chunks {
			for k := range 8 {
				if m[1][c]>>k&1 == 1 {
					bank[c%2][k] += row[8*c+k]
				}
			}
		}
		v := func(k int) float64 { return bank[0][k] + bank[1][k] }
		if s := ((v(0) + v(4)) + (v(2) + v(6))) + ((v(1) + v(5)) + (v(3) + v(7))); s != want[1] {
			t.Errorf("%d chunks: Go form %.17g, plain sum %.17g", chunks, want[1], s)
		}
	}
}

func TestShuffleUniform(t *testing.T) {
	// Every ordering of 4 elements about equally often: 24 cells of
	// 24000 shuffles, chi-square with 23 degrees of freedom (49.7: 0.999).
	counts := map[[4]int32]int{}
	for k := range 24000 {
		x := []int32{0, 1, 2, 3}
		shuffle(x, rand.NewPCG(1, uint64(k)))
		counts[[4]int32(x)]++
	}
	chi := 0.0
	for _, c := range counts {
		chi += float64((c-1000)*(c-1000)) / 1000
	}
	if len(counts) != 24 || chi > 49.7 {
		t.Errorf("%d orderings, chi-square %.1f", len(counts), chi)
	}
}
