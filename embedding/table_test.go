package embedding

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"
)

func smallVectors(t *testing.T) *Vectors {
	t.Helper()
	v, err := ReadVec(strings.NewReader("3 2\nthe 1 2\ncat -1 0.5\ndog 3 -4\n"), "small.vec")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestNewTableFound(t *testing.T) {
	v := smallVectors(t)
	words := []string{"dog", "zebra", "the", "dog", "", "cat", "Cat"}
	tab := NewTable(words, v, rand.NewPCG(1, 2), nil)
	if tab.Dim != 2 || len(tab.Data) != 2*len(words) || len(tab.Found) != len(words) {
		t.Fatalf("Dim %d, %d values, %d Found", tab.Dim, len(tab.Data), len(tab.Found))
	}
	wantFound := []Found{InVocab, Missing, InVocab, InVocab, Missing, InVocab, Missing}
	if !slices.Equal(tab.Found, wantFound) {
		t.Errorf("Found = %v, want %v", tab.Found, wantFound)
	}
	if want := (Coverage{Words: 7, InVocab: 4, Subword: 0, Random: 3}); tab.Coverage != want {
		t.Errorf("Coverage = %+v, want %+v", tab.Coverage, want)
	}
	dst := make([]float32, 2)
	for i, w := range words {
		if tab.Found[i] == Missing {
			if r := tab.Row(i); r[0] == 0 && r[1] == 0 {
				t.Errorf("row %d (%q) is zero, want random", i, w)
			}
			continue
		}
		v.Lookup(dst, w)
		if !slices.Equal(tab.Row(i), dst) {
			t.Errorf("row %d (%q) = %v, want %v", i, w, tab.Row(i), dst)
		}
	}
	if s := tab.Coverage.String(); s != "7 words: 4 in vocabulary, 0 from subwords, 3 random (57.1% found)" {
		t.Errorf("Coverage.String() = %q", s)
	}
	if s := (Coverage{}).String(); s != "0 words: 0 in vocabulary, 0 from subwords, 0 random" {
		t.Errorf("empty Coverage.String() = %q", s)
	}

	// A fastText model gives subword vectors.
	m, _ := readFixture(t, "sg")
	tab = NewTable([]string{"café", "cafés", "</s>", "the"}, m, rand.NewPCG(1, 2), nil)
	if want := []Found{InVocab, Subword, InVocab, InVocab}; !slices.Equal(tab.Found, want) {
		t.Errorf("fastText: Found = %v, want %v", tab.Found, want)
	}
	if tab.Coverage.Subword != 1 || tab.Coverage.Random != 0 {
		t.Errorf("fastText: Coverage = %+v", tab.Coverage)
	}
}

// TestNewTableDeterministic: the same words, source and seed give the same
// table bit for bit; random rows are drawn from the source in the order of
// the words, Dim normal variates each, scaled by σ.
func TestNewTableDeterministic(t *testing.T) {
	v := smallVectors(t)
	words := []string{"a", "the", "b", "cat", "c", "a"}
	t1 := NewTable(words, v, rand.NewPCG(7, 8), nil)
	t2 := NewTable(words, v, rand.NewPCG(7, 8), nil)
	for i := range t1.Data {
		if math.Float32bits(t1.Data[i]) != math.Float32bits(t2.Data[i]) {
			t.Fatalf("two tables from the same seed differ at %d: %v, %v", i, t1.Data[i], t2.Data[i])
		}
	}
	// σ is the population standard deviation of the 4 found components,
	// computed by gonum's stat.PopMeanStdDev.
	_, sigma := stat.PopMeanStdDev([]float64{1, 2, -1, 0.5}, nil)
	rng := rand.New(rand.NewPCG(7, 8))
	for i, w := range words {
		if t1.Found[i] != Missing {
			continue
		}
		for j, x := range t1.Row(i) {
			if want := float32(rng.NormFloat64() * sigma); x != want {
				t.Errorf("%q[%d] = %v, want %v", w, j, x, want)
			}
		}
	}
	// The two rows of "a" are two draws, not one.
	if slices.Equal(t1.Row(0), t1.Row(5)) {
		t.Error("the two rows of a repeated missing word are equal")
	}
	t3 := NewTable(words, v, rand.NewPCG(7, 9), nil)
	for i, f := range t1.Found {
		if same := slices.Equal(t1.Row(i), t3.Row(i)); same != (f != Missing) {
			t.Errorf("row %d (%v): another seed gives the same row: %v", i, f, same)
		}
	}
}

// TestNewTableScale checks the scale of random rows statistically: 2000
// random rows of 50 components have a standard deviation within 2% of σ
// (the sampling error is about 0.2%), a mean within 4 standard errors of
// 0, and 68.27% ± 1% of their components within σ of 0, as a normal has.
func TestNewTableScale(t *testing.T) {
	const n, dim, missing = 500, 50, 2000
	rng := rand.New(rand.NewPCG(3, 4))
	words := make([]string, n+missing)
	data := make([]float32, n*dim)
	found := make([]float64, n*dim)
	for i := range words {
		words[i] = fmt.Sprint("w", i)
	}
	for i := range data {
		data[i] = float32(0.5 + 0.3*rng.NormFloat64())
		found[i] = float64(data[i])
	}
	v, err := NewVectors(words[:n], dim, data)
	if err != nil {
		t.Fatal(err)
	}
	_, foundStd := stat.PopMeanStdDev(found, nil)
	for _, tc := range []struct {
		name  string
		src   Source
		opts  *TableOptions
		sigma float64
	}{
		{"scale of the vectors found", v, nil, foundStd},
		{"Scale set", v, &TableOptions{Scale: 2, Dim: 7}, 2},
		{"no source", nil, &TableOptions{Dim: dim}, 1 / math.Sqrt(dim)},
		{"no source, Scale set", nil, &TableOptions{Dim: dim, Scale: 0.01}, 0.01},
		{"nothing found", v, nil, 1 / math.Sqrt(dim)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := words
			if tc.src == nil || tc.name == "nothing found" {
				w = words[n:]
			}
			tab := NewTable(w, tc.src, rand.NewPCG(5, 6), tc.opts)
			if tab.Dim != dim {
				t.Fatalf("Dim = %d", tab.Dim)
			}
			var random []float64
			for i, f := range tab.Found {
				if f == Missing {
					for _, x := range tab.Row(i) {
						random = append(random, float64(x))
					}
				}
			}
			if len(random) != missing*dim {
				t.Fatalf("%d random values", len(random))
			}
			mean, std := stat.PopMeanStdDev(random, nil)
			if math.Abs(std/tc.sigma-1) > 0.02 {
				t.Errorf("std of random rows %v, want %v", std, tc.sigma)
			}
			if se := tc.sigma / math.Sqrt(float64(len(random))); math.Abs(mean) > 4*se {
				t.Errorf("mean of random rows %v, want 0 ± %v", mean, 4*se)
			}
			var in int
			for _, x := range random {
				if math.Abs(x) <= tc.sigma {
					in++
				}
			}
			if p := float64(in) / float64(len(random)); math.Abs(p-0.6827) > 0.01 {
				t.Errorf("%.4f of the components within σ, want 0.6827", p)
			}
		})
	}
}

func TestNewTablePanics(t *testing.T) {
	v := smallVectors(t)
	pcg := rand.NewPCG(1, 1)
	mustPanic(t, "nil rand.Source", func() { NewTable([]string{"the"}, v, nil, nil) })
	mustPanic(t, "no source, no Dim", func() { NewTable([]string{"the"}, nil, pcg, nil) })
	mustPanic(t, "no source, Dim 0", func() { NewTable([]string{"the"}, nil, pcg, &TableOptions{Scale: 1}) })
	mustPanic(t, "negative Scale", func() { NewTable(nil, v, pcg, &TableOptions{Scale: -1}) })
	mustPanic(t, "NaN Scale", func() { NewTable(nil, v, pcg, &TableOptions{Scale: math.NaN()}) })
	mustPanic(t, "infinite Scale", func() { NewTable(nil, v, pcg, &TableOptions{Scale: math.Inf(1)}) })
	mustPanic(t, "Row out of range", func() { NewTable([]string{"the"}, v, pcg, nil).Row(1) })
	// No words is not a mistake.
	if tab := NewTable(nil, v, pcg, nil); len(tab.Data) != 0 || tab.Coverage != (Coverage{}) {
		t.Errorf("no words: %+v", tab)
	}
}
