package unifrac_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/newick"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/unifrac"
)

// TestTinyBranchLengths: distances on a tree whose branch lengths are all
// multiplied by a power of two are computed right while every product of
// a length and a mass stays a normal float64, and refused (ErrUnderflow)
// once one could not; subnormal lengths are refused where they are read.
//
// The tree ((A:1,B:1):1,C:2) with S1 = {A: 3, B: 1} and S2 = {A: 1, C: 2},
// by hand: the branches' masses in S1 and S2 are A .75 and 1/3, B .25 and
// 0, AB 1 and 1/3, C 0 and 2/3; Σ b·|a−b| = 5/12 + 3/12 + 8/12 + 2·(8/12)
// = 8/3 (weighted unnormalized); each sample's Σ b·a is 2, so weighted
// normalized is (8/3)/4 = 2/3, and so is generalized with α = 1; unweighted
// is the unshared length, B and C, 3, over the length reached, 5: 0.6.
func TestTinyBranchLengths(t *testing.T) {
	build := func(unit float64) *tree.Tree {
		tr, err := tree.FromParents([]int{-1, 0, 1, 1, 0}, []float64{0, unit, unit, unit, 2 * unit},
			[]string{"root", "AB", "A", "B", "C"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	table := func(tr *tree.Tree) *unifrac.Table {
		A, _ := tr.Index("A")
		B, _ := tr.Index("B")
		C, _ := tr.Index("C")
		return &unifrac.Table{IDs: []string{"S1", "S2"}, Indptr: []int{0, 2, 4},
			Indices: []int32{int32(A), int32(B), int32(A), int32(C)}, Values: []float64{3, 1, 1, 2}}
	}
	dist := func(tr *tree.Tree, m unifrac.Method) (float64, error) {
		e, err := unifrac.New(tr, table(tr), m, &unifrac.Options{Alpha: 1})
		if err != nil {
			return 0, err
		}
		d := make([]float64, 1)
		return d[0], e.Condensed(context.Background(), d)
	}
	hand := map[unifrac.Method]float64{unifrac.WeightedUnnormalized: 8.0 / 3, unifrac.WeightedNormalized: 2.0 / 3,
		unifrac.Generalized: 2.0 / 3, unifrac.Unweighted: 0.6}
	for _, m := range unifrac.Methods {
		one, err := dist(build(1), m)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(one-hand[m]) > 1e-15 {
			t.Errorf("%s, unit lengths: %v, by hand %v", m, one, hand[m])
		}
		// 2⁻¹⁰⁰⁰: the least product, 2⁻¹⁰⁰⁰·1/4, is normal. Scaling by a
		// power of two is exact, so the distance is the unit one's bit for
		// bit (times the scale for weighted unnormalized).
		want := one
		if m == unifrac.WeightedUnnormalized {
			want = one * 0x1p-1000
		}
		if got, err := dist(build(0x1p-1000), m); err != nil || got != want {
			t.Errorf("%s, lengths 2⁻¹⁰⁰⁰: %v, %v; want %v", m, got, err, want)
		}
		// 2⁻¹⁰²¹: the length of B times S1's mass 1/4 is 2⁻¹⁰²³,
		// subnormal. The ratios are refused; unweighted sums lengths
		// alone, exactly; weighted unnormalized is 8/3·2⁻¹⁰²¹ to within a
		// few units of 2⁻¹⁰⁷⁴, the spacing of float64 there.
		got, err := dist(build(0x1p-1021), m)
		ratio := m == unifrac.WeightedNormalized || m == unifrac.Generalized
		switch {
		case m == unifrac.Unweighted && (err != nil || got != one):
			t.Errorf("unweighted, lengths 2⁻¹⁰²¹: %v, %v; want %v (sums of lengths alone)", got, err, one)
		case m == unifrac.WeightedUnnormalized && (err != nil || math.Abs(got-one*0x1p-1021) > 8*0x1p-1074):
			t.Errorf("weighted unnormalized, lengths 2⁻¹⁰²¹: %v, %v; want %v", got, err, one*0x1p-1021)
		case ratio && !errors.Is(err, unifrac.ErrUnderflow):
			t.Errorf("%s, lengths 2⁻¹⁰²¹: %v, %v; want ErrUnderflow", m, got, err)
		case ratio && !strings.Contains(err.Error(), "the shortest branch, 4.450147717014403e-308 long, times the smallest mass of sample \"S1\", 0.25"):
			t.Errorf("%s: %v", m, err)
		}
	}

	// Subnormal lengths are refused as they are read, with the line:
	// 5e-324 is the smallest float64 (and 7e-324 would read as it).
	_, err := newick.Parse([]byte("((A:1,B:1):1,\nC:5e-324);\n"), "t.nwk", nil)
	if err == nil || !strings.HasPrefix(err.Error(), "t.nwk:2: ") || !strings.Contains(err.Error(), "branch length 5e-324 is below 2.2e-308") {
		t.Errorf("Newick: %v", err)
	}
	_, err = tree.Read(strings.NewReader("r\tA\t1\nr\tB\t5e-324\n"), "t.tree", nil)
	if err == nil || !strings.HasPrefix(err.Error(), "t.tree:2: ") || !strings.Contains(err.Error(), "weight 5e-324 is below 2.2e-308") {
		t.Errorf("edge list: %v", err)
	}
	if _, err := tree.FromParents([]int{-1, 0}, []float64{0, 0x1p-1023}, nil, nil); err == nil {
		t.Error("FromParents took a subnormal weight")
	}
}
