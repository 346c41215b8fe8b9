package metric

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/tree"
)

// Labels of the Figure 1 tree, in its user order (see figure1).
const (
	animal = iota
	mammalL
	reptile
	dogL
	catL
	lizard
	snakeL
)

// TestMultiLabelFigure1 checks the per-row measures on the tree of Figure 1
// (unit weights) against hand computations.
func TestMultiLabelFigure1(t *testing.T) {
	ml := NewMultiLabel(figure1(t), 3)
	for _, tc := range []struct {
		name         string
		p            []float64
		y            []int
		recall, cost float64
		auc          float64
	}{
		{
			// Ranking: cat .5, dog .2, snake .2 (tie: dog has the smaller
			// index), mammal .1, then the zeros by index: animal, reptile,
			// lizard. Top 3 = {cat, dog, snake}, of which only cat is in y.
			// Cost: cat 0; dog → mammal 1; snake → animal 2 (reptile,
			// animal); (0 + 1 + 2)/3. AUC: positives animal 0, mammal .1,
			// cat .5 against reptile 0, dog .2, lizard 0, snake .2: animal
			// ties the two zeros (½ + ½), mammal beats them (2), cat beats
			// all four: U = 7 of 3·4.
			"ancestor-closed, ties", []float64{0, 0.1, 0, 0.2, 0.5, 0, 0.2}, []int{animal, mammalL, catL},
			1.0 / 3, 1, 7.0 / 12,
		},
		{
			// Four-way tie at .25: dog, cat, lizard, snake in index order.
			// Top 2 = {dog, cat}: 1/2. Top 3 costs dog → cat 2, cat 0,
			// lizard → snake 2: 4/3. AUC: each positive (.25) beats the
			// three zeros and ties dog and lizard: 3 + 1 = 4, U = 8 of 2·5.
			"four-way tie, not closed", []float64{0, 0, 0, 0.25, 0.25, 0.25, 0.25}, []int{catL, snakeL},
			0.5, 4.0 / 3, 0.8,
		},
		{
			// All tied: the ranking is the index order. Top 1 = animal ∉ y.
			// Top 3 = animal, mammal, reptile, at 2, 3, 1 from snake.
			// AUC of constant scores: ½.
			"constant scores", []float64{1, 1, 1, 1, 1, 1, 1}, []int{snakeL},
			0, 2, 0.5,
		},
		{
			// Every label true: recall 1, cost 0, no negatives (NaN).
			"every label", dog, []int{0, 1, 2, 3, 4, 5, 6},
			1, 0, nan,
		},
		{
			// A point mass on a leaf, y the leaf's ancestors: top 3 = dog,
			// then animal, mammal (zeros by index); recall of top 2 {dog,
			// animal} = 1/2; cost dog → mammal 1, animal 0, mammal 0: 1/3.
			// AUC: the positives at 0 tie the four other zeros and lose to
			// dog: U = 2·(4·½) of 2·5.
			"ancestors only", dog, []int{animal, mammalL},
			0.5, 1.0 / 3, 0.4,
		},
	} {
		pc, yc := slices.Clone(tc.p), slices.Clone(tc.y)
		if got := ml.PseudoRecall(tc.p, tc.y); !same(got, tc.recall, 1e-15) {
			t.Errorf("%s: PseudoRecall = %v, want %v", tc.name, got, tc.recall)
		}
		if got := ml.TopKCost(tc.p, tc.y); !same(got, tc.cost, 1e-15) {
			t.Errorf("%s: TopKCost = %v, want %v", tc.name, got, tc.cost)
		}
		if got := ml.SampleAUC(tc.p, tc.y); !same(got, tc.auc, 1e-15) {
			t.Errorf("%s: SampleAUC = %v, want %v", tc.name, got, tc.auc)
		}
		if !slices.Equal(tc.p, pc) || !slices.Equal(tc.y, yc) {
			t.Errorf("%s: inputs modified", tc.name)
		}
	}
}

// TestMultiLabelForest checks top-k cost through the virtual root of a
// forest, by hand: fiction → {fantasy, scifi}, nonfiction → cooking.
func TestMultiLabelForest(t *testing.T) {
	parent := []int{-1, 0, 0, -1, 3}
	names := []string{"fiction", "fantasy", "scifi", "nonfiction", "cooking"}
	p := []float64{0.05, 0.15, 0.1, 0.3, 0.4}
	y := []int{1} // fantasy
	for _, tc := range []struct {
		vw   float64
		cost float64
	}{
		// Top 2: cooking, nonfiction. cooking → nonfiction → root →
		// fiction → fantasy: 1 + vw + vw + 1; nonfiction: one edge less.
		{1, (4 + 3) / 2.0},
		{0.5, (3 + 2) / 2.0},
	} {
		tr, err := tree.FromParents(parent, nil, names, &tree.Options{VirtualRootWeight: tc.vw})
		if err != nil {
			t.Fatal(err)
		}
		ml := NewMultiLabel(tr, 2)
		if got := ml.TopKCost(p, y); !same(got, tc.cost, 1e-15) {
			t.Errorf("virtual weight %v: TopKCost = %v, want %v", tc.vw, got, tc.cost)
		}
		// Top 1 = cooking ∉ y; fantasy (.15) beats fiction and scifi and
		// loses to the two others: 2 of 4.
		if got := ml.PseudoRecall(p, y); got != 0 {
			t.Errorf("PseudoRecall = %v, want 0", got)
		}
		if got := ml.SampleAUC(p, y); got != 0.5 {
			t.Errorf("SampleAUC = %v, want 0.5", got)
		}
	}
}

// TestMultiLabelEvaluateHand checks Evaluate on three rows of the Figure 1
// tree against a hand computation of every field.
func TestMultiLabelEvaluateHand(t *testing.T) {
	P := slices.Concat(
		[]float64{0, 0.1, 0, 0.2, 0.5, 0, 0.2},
		[]float64{0, 0, 0, 0.25, 0.25, 0.25, 0.25},
		dog,
	)
	Y := [][]int{{animal, mammalL, catL}, {catL, snakeL}, {0, 1, 2, 3, 4, 5, 6}}
	Pc := slices.Clone(P)
	res := NewMultiLabel(figure1(t), 3).Evaluate(P, Y)
	if !slices.Equal(P, Pc) {
		t.Error("Evaluate modified P")
	}
	// Rows 1 and 2 are the first two cases of TestMultiLabelFigure1. Row 3
	// holds every label: recall 1; top 3 = dog, animal, mammal, all in y:
	// cost 0; no negatives: skipped from roc_auc_samples.
	values := map[string][]float64{
		"pseudo_recall":   {1.0 / 3, 0.5, 1},
		"top_k_cost":      {1, 4.0 / 3, 0},
		"roc_auc_samples": {7.0 / 12, 0.8, nan},
	}
	// Label AUCs over the three rows (positive rows: negative rows):
	// animal 0, 0 : 0 → ½; mammal .1, 0 : 0 → (1 + ½)/2; reptile 0 : 0, 0
	// → ½; dog 1 : .2, .25 → 1; cat in every row → skipped; lizard 0 : 0,
	// .25 → (½ + 0)/2; snake .25, 0 : .2 → (1 + 0)/2.
	labelAUC := []float64{0.5, 0.75, 0.5, 1, nan, 0.25, 0.5}
	// Micro: the 12 positive scores are seven zeros, .1, .25, .25, .5, 1;
	// the 9 negatives five zeros (5 above, 7 tied: 8.5 each), two .2 (4
	// above each), two .25 (2 above, 2 tied: 3 each): U = 42.5 + 8 + 6 =
	// 56.5 of 12·9 = 108.
	// Means and sample standard deviations, by hand:
	//   recall 1/3, 1/2, 1: mean 11/18, deviations −5, −2, 7 (/18): sqrt(78/324/2)
	//   cost 1, 4/3, 0: mean 7/9, deviations 2, 5, −7 (/9): sqrt(78/81/2)
	//   samples 7/12, 4/5: mean 83/120, std |7/12 − 4/5|/√2 = (13/60)/√2
	//   macro over six labels: mean 3.5/6 = 7/12, deviations −1, 2, −1,
	//   5, −4, −1 (/12): sqrt(48/144/5)
	mean := map[string]float64{"pseudo_recall": 11.0 / 18, "top_k_cost": 7.0 / 9,
		"roc_auc": 56.5 / 108, "roc_auc_macro": 7.0 / 12, "roc_auc_samples": 83.0 / 120}
	std := map[string]float64{"pseudo_recall": math.Sqrt(39) / 18, "top_k_cost": math.Sqrt(39) / 9,
		"roc_auc_macro": math.Sqrt(1.0 / 15), "roc_auc_samples": 13.0 / 60 / math.Sqrt2}

	if res.Rows != 3 || res.K != 3 || res.SkippedLabels != 1 || res.SkippedRows != 1 {
		t.Errorf("Rows %d, K %d, SkippedLabels %d, SkippedRows %d; want 3, 3, 1, 1",
			res.Rows, res.K, res.SkippedLabels, res.SkippedRows)
	}
	if len(res.Values) != 3 || len(res.Mean) != 5 || len(res.Std) != 4 {
		t.Errorf("%d values, %d means, %d stds; want 3, 5, 4", len(res.Values), len(res.Mean), len(res.Std))
	}
	if _, ok := res.Std["roc_auc"]; ok {
		t.Error("Std has a roc_auc entry")
	}
	for name, want := range values {
		for r, w := range want {
			if got := res.Values[name][r]; !same(got, w, 1e-15) {
				t.Errorf("%s row %d = %v, want %v", name, r, got, w)
			}
		}
	}
	for l, w := range labelAUC {
		if got := res.LabelAUC[l]; !same(got, w, 1e-15) {
			t.Errorf("LabelAUC[%d] = %v, want %v", l, got, w)
		}
	}
	for name, w := range mean {
		if got := res.Mean[name]; !same(got, w, 1e-15) {
			t.Errorf("mean %s = %v, want %v", name, got, w)
		}
	}
	for name, w := range std {
		if got := res.Std[name]; !same(got, w, 1e-15) {
			t.Errorf("std %s = %v, want %v", name, got, w)
		}
	}
}

// mlCase is one case of testdata/multilabel.json, written by
// testdata/gen_multilabel.py with scikit-learn and networkx.
type mlCase struct {
	Name          string
	Parent        []int
	Weight        []float64
	VirtualWeight float64 `json:"virtual_weight"`
	K             int
	P             [][]float64
	Y             [][]int
	Want          struct {
		PseudoRecall  []float64  `json:"pseudo_recall"`
		TopKCost      []float64  `json:"top_k_cost"`
		RocAUCSamples []*float64 `json:"roc_auc_samples"` // null where skipped
		LabelAUC      []*float64 `json:"label_auc"`
		Mean, Std     map[string]float64
		SkippedLabels int `json:"skipped_labels"`
		SkippedRows   int `json:"skipped_rows"`
	}
}

func orNaN(x []*float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = nan
		if v != nil {
			out[i] = *v
		}
	}
	return out
}

// TestMultiLabelSklearn compares Evaluate and the per-row methods with
// scikit-learn 1.2.1's roc_auc_score (micro, macro and samples averages on
// the labels and rows with both classes, and binary per label and per row)
// and with pseudo-recall and top-k cost computed by a full sort and
// networkx's Dijkstra shortest paths, from testdata/multilabel.json (see
// testdata/gen_multilabel.py for the cases: random forests, unit and random
// weights, a virtual root weight of 0.5, rounded scores with many ties,
// constant rows, closed and arbitrary label sets, rows with every label,
// labels in no row).
func TestMultiLabelSklearn(t *testing.T) {
	data, err := os.ReadFile("testdata/multilabel.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct{ Cases []mlCase }
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Cases) < 5 {
		t.Fatalf("%d cases in testdata/multilabel.json", len(file.Cases))
	}
	const tol = 1e-12
	for _, c := range file.Cases {
		tr, err := tree.FromParents(c.Parent, c.Weight, nil, &tree.Options{VirtualRootWeight: c.VirtualWeight})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		ml := NewMultiLabel(tr, c.K)
		P := slices.Concat(c.P...)
		res := ml.Evaluate(P, c.Y)
		want := map[string][]float64{
			"pseudo_recall":   c.Want.PseudoRecall,
			"top_k_cost":      c.Want.TopKCost,
			"roc_auc_samples": orNaN(c.Want.RocAUCSamples),
		}
		for name, w := range want {
			for r := range w {
				if got := res.Values[name][r]; !same(got, w[r], tol) {
					t.Errorf("%s: %s row %d = %v, want %v", c.Name, name, r, got, w[r])
				}
			}
		}
		// The per-row methods give Evaluate's values bit for bit.
		for r, y := range c.Y {
			p := c.P[r]
			for _, f := range []struct {
				name string
				got  float64
			}{
				{"pseudo_recall", ml.PseudoRecall(p, y)},
				{"top_k_cost", ml.TopKCost(p, y)},
				{"roc_auc_samples", ml.SampleAUC(p, y)},
			} {
				if w := res.Values[f.name][r]; !same(f.got, w, 0) {
					t.Errorf("%s: row %d: method %s = %v, Evaluate %v", c.Name, r, f.name, f.got, w)
				}
			}
		}
		for l, w := range orNaN(c.Want.LabelAUC) {
			if got := res.LabelAUC[l]; !same(got, w, tol) {
				t.Errorf("%s: LabelAUC[%d] = %v, want %v", c.Name, l, got, w)
			}
		}
		for _, name := range MultiLabelNames {
			if got, w := res.Mean[name], c.Want.Mean[name]; !same(got, w, tol) {
				t.Errorf("%s: mean %s = %v, want %v", c.Name, name, got, w)
			}
			if name == "roc_auc" {
				continue
			}
			if got, w := res.Std[name], c.Want.Std[name]; !same(got, w, tol) {
				t.Errorf("%s: std %s = %v, want %v", c.Name, name, got, w)
			}
		}
		if res.SkippedLabels != c.Want.SkippedLabels || res.SkippedRows != c.Want.SkippedRows {
			t.Errorf("%s: skipped %d labels, %d rows; want %d, %d", c.Name,
				res.SkippedLabels, res.SkippedRows, c.Want.SkippedLabels, c.Want.SkippedRows)
		}
	}
}

// TestAUCHand checks AUC on small cases by hand.
func TestAUCHand(t *testing.T) {
	T, F := true, false
	for _, tc := range []struct {
		name   string
		scores []float64
		pos    []bool
		want   float64
	}{
		{"perfect", []float64{0.1, 0.9, 0.8, 0.2}, []bool{F, T, T, F}, 1},
		{"reversed", []float64{0.9, 0.1, 0.2, 0.8}, []bool{F, T, T, F}, 0},
		// Positives .5, .3 against .4, .1: .5 beats both, .3 beats .1: 3/4.
		{"one swap", []float64{0.5, 0.4, 0.3, 0.1}, []bool{T, F, T, F}, 0.75},
		// Positives 1, 1 against 1, 0: each ties one (½) and beats one: 3/4.
		{"ties", []float64{1, 1, 1, 0}, []bool{T, T, F, F}, 0.75},
		{"all tied", []float64{2, 2, 2}, []bool{T, F, F}, 0.5},
		// ±Inf order as numbers: +Inf beats −Inf and ties +Inf.
		{"infinities", []float64{inf, -inf, inf}, []bool{T, F, F}, 0.75},
		{"no negatives", []float64{1, 2}, []bool{T, T}, nan},
		{"no positives", []float64{1, 2}, []bool{F, F}, nan},
		{"empty", nil, nil, nan},
		{"NaN positive", []float64{nan, 0}, []bool{T, F}, nan},
		{"NaN negative", []float64{1, nan}, []bool{T, F}, nan},
		// −0 ties +0 (½) and loses to 1: ½ of 2 pairs.
		{"signed zeros", []float64{math.Copysign(0, -1), 0, 1}, []bool{T, F, F}, 0.25},
		// Subnormals and negatives order as numbers: the positive
		// 2⁻¹⁰⁷⁴ beats 0, −2⁻¹⁰⁷⁴ and −1, and loses to 2⁻¹⁰⁷³.
		{"subnormals", []float64{0x1p-1074, 0, -0x1p-1074, -1, 0x1p-1073}, []bool{T, F, F, F, F}, 0.75},
	} {
		if got := AUC(tc.scores, tc.pos); !same(got, tc.want, 1e-15) {
			t.Errorf("%s: AUC = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestKey checks that key orders scores as < and == do, on special values
// and random ones of every magnitude and sign.
func TestKey(t *testing.T) {
	x := []float64{math.Inf(-1), -math.MaxFloat64, -1, -0x1p-1022, -0x1p-1074, math.Copysign(0, -1),
		0, 0x1p-1074, 0x1p-1073, 0x1p-1022, 0.5, 1, math.Nextafter(1, 2), math.MaxFloat64, math.Inf(1)}
	rng := rand.New(rand.NewPCG(13, 14))
	for range 500 {
		v := math.Float64frombits(rng.Uint64())
		if !math.IsNaN(v) {
			x = append(x, v)
		}
	}
	for _, a := range x {
		for _, b := range x {
			if (a < b) != (key(a) < key(b)) || (a == b) != (key(a) == key(b)) {
				t.Fatalf("key(%v) = %#x, key(%v) = %#x", a, key(a), b, key(b))
			}
		}
	}
}

// aucPairs is AUC straight from the definition, over all n₊·n₋ pairs.
func aucPairs(s []float64, pos []bool) float64 {
	var u float64
	var np, nn int
	for i := range s {
		if !pos[i] {
			nn++
			continue
		}
		np++
		for j := range s {
			switch {
			case pos[j]:
			case s[i] > s[j]:
				u++
			case s[i] == s[j]:
				u += 0.5
			}
		}
	}
	return u / float64(np*nn)
}

// TestAUCProperties checks AUC against the pairwise definition, AUC(−s) =
// 1 − AUC(s), and invariance under a strictly increasing transform, on
// random scores with many ties.
func TestAUCProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range 300 {
		n := 2 + rng.IntN(40)
		s, neg, tr := make([]float64, n), make([]float64, n), make([]float64, n)
		pos := make([]bool, n)
		levels := 1 + rng.IntN(8) // few distinct values: ties
		for j := range s {
			s[j] = float64(rng.IntN(levels)) / 8
			neg[j] = -s[j]
			tr[j] = math.Exp(3*s[j]) - 5 // strictly increasing
			pos[j] = rng.IntN(3) == 0
		}
		pos[0], pos[1] = true, false
		got := AUC(s, pos)
		if want := aucPairs(s, pos); math.Abs(got-want) > 1e-15 {
			t.Errorf("case %d: AUC = %v, pairwise %v", i, got, want)
		}
		if g := AUC(neg, pos); math.Abs(g-(1-got)) > 1e-15 {
			t.Errorf("case %d: AUC(−s) = %v, 1 − AUC(s) = %v", i, g, 1-got)
		}
		if g := AUC(tr, pos); g != got {
			t.Errorf("case %d: AUC(f(s)) = %v, AUC(s) = %v", i, g, got)
		}
	}
}

// randomLabels returns a random label set over L labels: a random node and
// its ancestors when closed, else up to four random labels.
func randomLabels(rng *rand.Rand, tr *tree.Tree, closed bool) []int {
	L := tr.Len()
	var y []int
	if closed {
		for v := rng.IntN(L); v >= 0; v = tr.Parent(v) {
			y = append(y, v)
		}
	} else {
		y = rng.Perm(L)[:1+rng.IntN(min(4, L))]
	}
	slices.Sort(y)
	return y
}

// TestMultiLabelBruteForce compares the per-row methods with a full stable
// sort of the labels (the ranking by definition), the pairwise AUC, and
// distances from testutil.TreeMetric (breadth-first search, sharing no code
// with tree.Distance), on random weighted forests with tied scores.
func TestMultiLabelBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for i := range 200 {
		L := 1 + rng.IntN(30)
		parent := testutil.RandomParents(rng, L, 1+rng.IntN(3))
		weight := testutil.DyadicWeights(rng, L)
		tr, err := tree.FromParents(parent, weight, nil, &tree.Options{VirtualRootWeight: 0.75})
		if err != nil {
			t.Fatal(err)
		}
		D := testutil.TreeMetric(parent, weight, 0.75)
		k := 1 + rng.IntN(L)
		ml := NewMultiLabel(tr, k)
		p := make([]float64, L)
		for j := range p {
			p[j] = float64(rng.IntN(4)) / 4
		}
		var y []int
		switch i % 3 {
		case 0, 1:
			y = randomLabels(rng, tr, i%3 == 0)
		default: // large sets, up to every label
			y = rng.Perm(L)[:1+rng.IntN(L)]
			slices.Sort(y)
		}
		inY := make([]bool, L)
		for _, l := range y {
			inY[l] = true
		}

		order := make([]int, L)
		for j := range order {
			order[j] = j
		}
		sort.SliceStable(order, func(a, b int) bool { return p[order[a]] > p[order[b]] })
		hits := 0
		for _, l := range order[:len(y)] {
			if inY[l] {
				hits++
			}
		}
		var cost float64
		for _, l := range order[:k] {
			d := inf
			for _, v := range y {
				d = min(d, D[l*L+v])
			}
			cost += d
		}
		wantAUC := nan
		if len(y) < L {
			wantAUC = aucPairs(p, inY)
		}
		if got, want := ml.PseudoRecall(p, y), float64(hits)/float64(len(y)); got != want {
			t.Errorf("case %d: PseudoRecall = %v, want %v", i, got, want)
		}
		// Dyadic weights: every distance and sum is exact.
		if got, want := ml.TopKCost(p, y), cost/float64(k); got != want {
			t.Errorf("case %d: TopKCost = %v, want %v", i, got, want)
		}
		if got := ml.SampleAUC(p, y); !same(got, wantAUC, 1e-15) {
			t.Errorf("case %d: SampleAUC = %v, want %v", i, got, wantAUC)
		}
	}
}

// TestMultiLabelProperties checks, on random trees and scores: invariance
// of every measure under a strictly increasing transform of the scores;
// recall 1 and cost 0 when p puts all its mass on y (k ≤ |y|); and the
// mirror property of the per-row AUC.
func TestMultiLabelProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for i := range 40 {
		L := 5 + rng.IntN(60)
		tr := tree.Random(L, rng)
		n := 2 + rng.IntN(30)
		k := 1 + rng.IntN(5)
		ml := NewMultiLabel(tr, k)
		P, Pt := make([]float64, n*L), make([]float64, n*L)
		Y := make([][]int, n)
		for j := range P {
			P[j] = math.Round(rng.Float64()*100) / 100
			Pt[j] = math.Log(P[j]+0.5) * 7 // strictly increasing
		}
		for r := range Y {
			Y[r] = randomLabels(rng, tr, r%2 == 0)
		}
		a, b := ml.Evaluate(P, Y), ml.Evaluate(Pt, Y)
		for _, name := range MultiLabelNames {
			if a.Mean[name] != b.Mean[name] && !(math.IsNaN(a.Mean[name]) && math.IsNaN(b.Mean[name])) {
				t.Errorf("case %d: %s = %v, after a monotone transform %v", i, name, a.Mean[name], b.Mean[name])
			}
		}
		for r, y := range Y {
			p := P[r*L : (r+1)*L]
			neg := make([]float64, L)
			for j, v := range p {
				neg[j] = -v
			}
			if got, want := ml.SampleAUC(neg, y), 1-ml.SampleAUC(p, y); math.Abs(got-want) > 1e-15 {
				t.Errorf("case %d row %d: AUC(−p) = %v, 1 − AUC(p) = %v", i, r, got, want)
			}
			// All mass on y, spread unevenly; the cost needs k ≤ |y|.
			q := make([]float64, L)
			for _, l := range y {
				q[l] = 0.1 + rng.Float64()
			}
			if got := ml.PseudoRecall(q, y); got != 1 {
				t.Errorf("case %d row %d: PseudoRecall of mass on y = %v", i, r, got)
			}
			if len(y) >= k {
				if got := ml.TopKCost(q, y); got != 0 {
					t.Errorf("case %d row %d: TopKCost of mass on y = %v", i, r, got)
				}
			}
			if len(y) < L {
				if got := ml.SampleAUC(q, y); got != 1 {
					t.Errorf("case %d row %d: SampleAUC of mass on y = %v", i, r, got)
				}
			}
		}
	}
}

func TestMultiLabelNaN(t *testing.T) {
	ml := NewMultiLabel(figure1(t), 2)
	p := []float64{0, 0.1, nan, 0.2, 0.5, 0, 0.2}
	y := []int{animal, catL}
	for name, got := range map[string]float64{
		"PseudoRecall": ml.PseudoRecall(p, y), "TopKCost": ml.TopKCost(p, y), "SampleAUC": ml.SampleAUC(p, y),
	} {
		if !math.IsNaN(got) {
			t.Errorf("%s with a NaN score = %v, want NaN", name, got)
		}
	}
	// In Evaluate, the NaN (row 0, reptile) makes row 0, reptile's AUC and
	// the micro AUC NaN; the other rows and labels keep their values.
	P := slices.Concat(p, []float64{0, 0, 0, 0.25, 0.25, 0.25, 0.25}, []float64{0.1, 0, 0.5, 0, 0.3, 0, 0.1})
	Y := [][]int{y, {catL, snakeL}, {reptile}}
	res := ml.Evaluate(P, Y)
	if v := res.Values["pseudo_recall"]; !math.IsNaN(v[0]) || v[1] != 0.5 {
		t.Errorf("pseudo_recall = %v, want [NaN 0.5 …]", v)
	}
	if !math.IsNaN(res.Mean["roc_auc"]) || !math.IsNaN(res.LabelAUC[reptile]) || math.IsNaN(res.LabelAUC[snakeL]) {
		t.Errorf("micro %v, reptile %v, snake %v; want NaN, NaN, a number",
			res.Mean["roc_auc"], res.LabelAUC[reptile], res.LabelAUC[snakeL])
	}
	if res.SkippedLabels != 3 { // mammal, dog, lizard: in no row
		t.Errorf("SkippedLabels = %d, want 3", res.SkippedLabels)
	}
}

func TestMultiLabelEdgeCases(t *testing.T) {
	tr := figure1(t)
	ml := NewMultiLabel(tr, 7)
	if ml.Len() != 7 || ml.K() != 7 {
		t.Errorf("Len %d, K %d", ml.Len(), ml.K())
	}
	// No rows: every mean NaN, every label skipped.
	res := ml.Evaluate(nil, nil)
	for _, name := range MultiLabelNames {
		if !math.IsNaN(res.Mean[name]) {
			t.Errorf("no rows: mean %s = %v", name, res.Mean[name])
		}
	}
	if res.Rows != 0 || res.SkippedLabels != 7 {
		t.Errorf("no rows: Rows %d, SkippedLabels %d", res.Rows, res.SkippedLabels)
	}
	// One row: standard deviations NaN; micro = the row's AUC.
	res = ml.Evaluate(pet, [][]int{{catL}})
	if !math.IsNaN(res.Std["pseudo_recall"]) || res.Mean["roc_auc"] != res.Values["roc_auc_samples"][0] {
		t.Errorf("one row: std %v, micro %v, sample %v", res.Std["pseudo_recall"], res.Mean["roc_auc"], res.Values["roc_auc_samples"][0])
	}
	// k = L: the cost averages over every label.
	// Distances to cat: 2, 1, 3, 2, 0, 4, 4.
	if got := ml.TopKCost(pet, []int{catL}); got != 16.0/7 {
		t.Errorf("TopKCost with k = L = %v, want 16/7", got)
	}

	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"k = 0", func() { NewMultiLabel(tr, 0) }},
		{"k > L", func() { NewMultiLabel(tr, 8) }},
		{"short p", func() { ml.PseudoRecall(dog[:6], []int{1}) }},
		{"empty y", func() { ml.TopKCost(dog, nil) }},
		{"negative label", func() { ml.SampleAUC(dog, []int{-1, 2}) }},
		{"label out of range", func() { ml.PseudoRecall(dog, []int{2, 7}) }},
		{"unsorted y", func() { ml.TopKCost(dog, []int{3, 2}) }},
		{"duplicate label", func() { ml.SampleAUC(dog, []int{2, 2}) }},
		{"P not rows × L", func() { ml.Evaluate(dog, [][]int{{1}, {2}}) }},
		{"bad row in Evaluate", func() { ml.Evaluate(slices.Concat(dog, dog), [][]int{{1}, {}}) }},
		{"AUC lengths", func() { AUC([]float64{1, 2}, []bool{true}) }},
		{"unknown name", func() { MultiLabelLowerIsBetter("recall") }},
	} {
		if p, v := testutil.Panics(tc.f); !p || !strings.HasPrefix(v.(string), "metric: ") {
			t.Errorf("%s: panicked %v with %v", tc.name, p, v)
		}
	}
	if p, v := testutil.Panics(func() { ml.Evaluate(slices.Concat(dog, dog), [][]int{{1}, {}}) }); p &&
		!strings.Contains(v.(string), "row 1") {
		t.Errorf("bad row: panic %q does not name the row", v)
	}
}

func TestMultiLabelNames(t *testing.T) {
	want := map[string]bool{"pseudo_recall": false, "top_k_cost": true, "roc_auc": false,
		"roc_auc_macro": false, "roc_auc_samples": false}
	if len(MultiLabelNames) != len(want) {
		t.Fatalf("MultiLabelNames = %q", MultiLabelNames)
	}
	for _, n := range MultiLabelNames {
		if got, ok := want[n]; !ok || MultiLabelLowerIsBetter(n) != got {
			t.Errorf("MultiLabelLowerIsBetter(%q) = %v", n, MultiLabelLowerIsBetter(n))
		}
	}
	// Changing MultiLabelNames changes nothing else.
	saved := slices.Clone(MultiLabelNames)
	defer copy(MultiLabelNames, saved)
	MultiLabelNames[0] = "changed"
	res := NewMultiLabel(figure1(t), 1).Evaluate(dog, [][]int{{dogL}})
	if _, ok := res.Mean["pseudo_recall"]; !ok {
		t.Error("changing MultiLabelNames changed the keys of MultiLabelResult")
	}
}

func TestMultiLabelAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	tr := tree.Random(200, rng)
	ml := NewMultiLabel(tr, 5)
	p := testutil.Dist(rng, 200)
	for _, y := range [][]int{{3}, randomLabels(rng, tr, true), rng.Perm(200)[:150]} {
		slices.Sort(y)
		for _, f := range []struct {
			name string
			f    func()
		}{
			{"PseudoRecall", func() { ml.PseudoRecall(p, y) }},
			{"TopKCost", func() { ml.TopKCost(p, y) }},
			{"SampleAUC", func() { ml.SampleAUC(p, y) }},
		} {
			if n := testing.AllocsPerRun(50, f.f); n != 0 {
				t.Errorf("%s with |y| = %d allocates %v times", f.name, len(y), n)
			}
		}
	}
}

// TestMultiLabelEvaluateBlocks checks Evaluate's AUCs over rows against
// AUC (itself checked against the pairwise definition) on the pooled pairs
// and on each column, in shapes where the rows span several blocks
// (L = 147, 600 rows: blocks of 222) or every block is one row
// (L = 40 000), with tied scores.
func TestMultiLabelEvaluateBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, c := range []struct{ L, n int }{{147, 600}, {40000, 3}, {5, 1000}} {
		tr := tree.Random(c.L, rng)
		P := make([]float64, c.n*c.L)
		for j := range P {
			P[j] = float64(rng.IntN(50)) / 50
		}
		Y := make([][]int, c.n)
		pos := make([]bool, len(P))
		for r := range Y {
			Y[r] = randomLabels(rng, tr, r%2 == 0)
			for _, l := range Y[r] {
				pos[r*c.L+l] = true
			}
		}
		res := NewMultiLabel(tr, 1).Evaluate(P, Y)
		if got, want := res.Mean["roc_auc"], AUC(P, pos); got != want {
			t.Errorf("L %d: micro = %v, want %v", c.L, got, want)
		}
		col, colPos := make([]float64, c.n), make([]bool, c.n)
		for l := range c.L {
			for r := range c.n {
				col[r], colPos[r] = P[r*c.L+l], pos[r*c.L+l]
			}
			if got, want := res.LabelAUC[l], AUC(col, colPos); !same(got, want, 0) {
				t.Fatalf("L %d: LabelAUC[%d] = %v, want %v", c.L, l, got, want)
			}
		}
	}
}
