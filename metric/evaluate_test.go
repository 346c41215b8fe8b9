package metric

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/internal/lpref"
	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/tree"
)

// figure1 returns the tree of Figure 1 of the paper, unit weights, in the
// user order animal, mammal, reptile, dog, cat, lizard, snake.
func figure1(t testing.TB) *tree.Tree {
	tr, err := tree.FromParents([]int{-1, 0, 0, 1, 1, 2, 2}, nil,
		[]string{"animal", "mammal", "reptile", "dog", "cat", "lizard", "snake"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// Point masses and mixtures on the Figure 1 tree.
var (
	dog    = []float64{0, 0, 0, 1, 0, 0, 0}
	cat    = []float64{0, 0, 0, 0, 1, 0, 0}
	snake  = []float64{0, 0, 0, 0, 0, 0, 1}
	mammal = []float64{0, 1, 0, 0, 0, 0, 0}
	pet    = []float64{0, 0, 0, 0.5, 0.5, 0, 0} // cat .5, dog .5
)

// TestEvaluateFigure1 scores four predictions of "cat" on the tree of
// Figure 1, and checks every per-row value, mean and sample standard
// deviation against a hand computation.
func TestEvaluateFigure1(t *testing.T) {
	P := slices.Concat(dog, snake, mammal, pet)
	Q := slices.Concat(cat, cat, cat, cat)
	const e = Eps
	sqrt2, c4 := math.Sqrt2, math.Sqrt(10)/3 // Clark: 2 labels at 1; (1 + 1/9) for row 4
	for _, tc := range []struct {
		name string
		clip bool
		// per row, and mean, std; nil std means NaN
		values    map[string][4]float64
		mean, std map[string]float64
	}{
		{
			name: "exact",
			values: map[string][4]float64{
				// dog→mammal→cat; snake→reptile→animal→mammal→cat;
				// mammal→cat; half the mass dog→mammal→cat.
				"wasserstein": {2, 4, 1, 1},
				// The first three miss the target's mass; ln(1/.5).
				"kl":        {inf, inf, inf, math.Ln2},
				"chebyshev": {1, 1, 1, 0.5},
				// Two labels with |p−q|/(p+q) = 1; then 1 and .5/1.5.
				"clark":        {sqrt2, sqrt2, sqrt2, c4},
				"canberra":     {2, 2, 2, 4.0 / 3},
				"cosine":       {0, 0, 0, math.Sqrt(0.5)},
				"intersection": {0, 0, 0, 0.5},
			},
			// wasserstein: mean 8/4 = 2, squared deviations 0+4+1+1 = 6, /3.
			// chebyshev and intersection: deviations ±.125, .375: (3·.015625 +
			// .140625)/3 = .0625. canberra: mean 11/6, deviations 1/6 (×3) and
			// −1/2: (3/36 + 9/36)/3 = 1/9. cosine and clark: by the definition,
			// mean m = Σx/4, std = sqrt(Σ(x−m)²/3).
			mean: map[string]float64{"wasserstein": 2, "kl": inf, "chebyshev": 0.875,
				"clark": (3*sqrt2 + c4) / 4, "canberra": 11.0 / 6,
				"cosine": math.Sqrt(0.5) / 4, "intersection": 0.125},
			std: map[string]float64{"wasserstein": math.Sqrt(2), "kl": nan, "chebyshev": 0.25,
				"clark":        math.Sqrt((3*math.Pow(sqrt2-(3*sqrt2+c4)/4, 2) + math.Pow(c4-(3*sqrt2+c4)/4, 2)) / 3),
				"canberra":     1.0 / 3,
				"cosine":       math.Sqrt((3*math.Pow(math.Sqrt(0.5)/4, 2) + math.Pow(3*math.Sqrt(0.5)/4, 2)) / 3),
				"intersection": 0.25},
		},
		{
			// PyLDL: every zero becomes ε before KL, Clark and Canberra.
			// Rows 1–3: KL = 1·ln(1/ε) + ε·ln(ε/1) + 5·ε·ln(ε/ε) = (1−ε)·ln(1/ε);
			// Clark and Canberra terms become (1−ε)/(1+ε) on the two labels
			// and 0 on the five where both are ε. Row 4: KL = ln 2 + ε·ln(2ε);
			// Clark² = ((.5−ε)/(.5+ε))² + (1/3)², Canberra = (.5−ε)/(.5+ε) + 1/3.
			name: "clip",
			clip: true,
			values: map[string][4]float64{
				"wasserstein": {2, 4, 1, 1},
				"kl": {(1 - e) * 52 * math.Ln2, (1 - e) * 52 * math.Ln2, (1 - e) * 52 * math.Ln2,
					math.Ln2 + e*math.Log(2*e)},
				"chebyshev": {1, 1, 1, 0.5},
				"clark": {sqrt2 * (1 - e) / (1 + e), sqrt2 * (1 - e) / (1 + e), sqrt2 * (1 - e) / (1 + e),
					math.Sqrt(math.Pow((0.5-e)/(0.5+e), 2) + 1.0/9)},
				"canberra": {2 * (1 - e) / (1 + e), 2 * (1 - e) / (1 + e), 2 * (1 - e) / (1 + e),
					(0.5-e)/(0.5+e) + 1.0/3},
				"cosine":       {0, 0, 0, math.Sqrt(0.5)},
				"intersection": {0, 0, 0, 0.5},
			},
		},
	} {
		ev := NewEvaluator(figure1(t), &Options{Clip: tc.clip})
		Pc, Qc := slices.Clone(P), slices.Clone(Q)
		res := ev.Evaluate(P, Q)
		if !slices.Equal(P, Pc) || !slices.Equal(Q, Qc) {
			t.Errorf("%s: Evaluate modified its inputs", tc.name)
		}
		if res.Rows != 4 || len(res.Values) != len(Names) || len(res.Mean) != len(Names) || len(res.Std) != len(Names) {
			t.Fatalf("%s: Rows %d, %d values, %d means, %d stds", tc.name, res.Rows, len(res.Values), len(res.Mean), len(res.Std))
		}
		for name, want := range tc.values {
			got := res.Values[name]
			for r := range want {
				if !same(got[r], want[r], 1e-14) {
					t.Errorf("%s: %s row %d = %v, want %v", tc.name, name, r, got[r], want[r])
				}
			}
		}
		for name, want := range tc.mean {
			if got := res.Mean[name]; !same(got, want, 1e-15) {
				t.Errorf("%s: mean %s = %v, want %v", tc.name, name, got, want)
			}
		}
		for name, want := range tc.std {
			if got := res.Std[name]; !same(got, want, 1e-15) {
				t.Errorf("%s: std %s = %v, want %v", tc.name, name, got, want)
			}
		}
	}
}

func TestEvaluateEdgeCases(t *testing.T) {
	ev := NewEvaluator(figure1(t), nil)
	// One row: the sample standard deviation is undefined.
	res := ev.Evaluate(dog, cat)
	if res.Rows != 1 || res.Mean["wasserstein"] != 2 || !math.IsNaN(res.Std["wasserstein"]) {
		t.Errorf("one row: Rows %d, mean %v, std %v; want 1, 2, NaN", res.Rows, res.Mean["wasserstein"], res.Std["wasserstein"])
	}
	// No rows.
	res = ev.Evaluate(nil, nil)
	if res.Rows != 0 || !math.IsNaN(res.Mean["kl"]) || len(res.Values["kl"]) != 0 {
		t.Errorf("no rows: Rows %d, mean %v", res.Rows, res.Mean["kl"])
	}
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"P and Q of different lengths", func() { ev.Evaluate(dog, slices.Concat(cat, cat)) }},
		{"not a multiple of L", func() { ev.Evaluate(dog[:5], cat[:5]) }},
		{"short dst", func() { ev.Row(make([]float64, 6), dog, cat) }},
		{"short p", func() { ev.Row(make([]float64, 7), dog[:6], cat[:6]) }},
	} {
		if p, v := testutil.Panics(tc.f); !p || !strings.HasPrefix(v.(string), "metric: ") {
			t.Errorf("%s: panicked %v with %v", tc.name, p, v)
		}
	}
}

// TestRowMatchesFunctions checks Evaluator.Row against the per-row
// functions and the exact optimal transport cost of an LP solver on the
// tree metric (package lpref, independent of package tw), on random trees
// with random weights.
func TestRowMatchesFunctions(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 30 {
		n := 2 + rng.IntN(10)
		parent := testutil.RandomParents(rng, n, 1)
		weight := testutil.UniformWeights(rng, n)
		tr, err := tree.FromParents(parent, weight, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		p, q := testutil.SparseDist(rng, n, 3), testutil.Dist(rng, n)
		if i%2 == 0 {
			p, q = q, p
		}
		row := make([]float64, len(Names))
		NewEvaluator(tr, nil).Row(row, p, q)
		w1, err := lpref.W1(testutil.TreeMetric(parent, weight, 0), p, q)
		if err != nil {
			t.Fatal(err)
		}
		want := []float64{w1, KL(p, q), Chebyshev(p, q), Clark(p, q), Canberra(p, q), Cosine(p, q), Intersection(p, q)}
		for m := range want {
			tol := 0.0
			if m == 0 {
				tol = 1e-9 // the LP solver's accuracy
			}
			if !same(row[m], want[m], tol) {
				t.Errorf("tree %d: %s = %v, want %v", i, Names[m], row[m], want[m])
			}
		}
	}
}

func TestRowAllocs(t *testing.T) {
	tr := figure1(t)
	row := make([]float64, len(Names))
	for _, clip := range []bool{false, true} {
		ev := NewEvaluator(tr, &Options{Clip: clip})
		if n := testing.AllocsPerRun(100, func() { ev.Row(row, pet, cat) }); n != 0 {
			t.Errorf("Clip %v: Row allocates %v times", clip, n)
		}
	}
}

// TestNamesCopy checks that changing Names does not change the results.
func TestNamesCopy(t *testing.T) {
	saved := slices.Clone(Names)
	defer copy(Names, saved)
	Names[0] = "changed"
	res := NewEvaluator(figure1(t), nil).Evaluate(dog, cat)
	if _, ok := res.Mean["wasserstein"]; !ok {
		t.Error("changing Names changed the keys of Result")
	}
}
