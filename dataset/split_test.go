package dataset

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// isPartition reports whether parts hold each of 0..n-1 exactly once, each
// part sorted ascending.
func isPartition(n int, parts ...[]int) bool {
	seen := make([]bool, n)
	count := 0
	for _, p := range parts {
		if !slices.IsSorted(p) {
			return false
		}
		for _, i := range p {
			if i < 0 || i >= n || seen[i] {
				return false
			}
			seen[i] = true
			count++
		}
	}
	return count == n
}

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		n      int
		frac   float64
		nTrain int // round(frac·n), half away from zero
	}{
		{10, 0.7, 7},
		{5, 0.5, 3}, // round(2.5) = 3
		{7, 0, 0},
		{7, 1, 7},
		{0, 0.5, 0},
		{1, 0.4, 0},
		{1000, 0.8, 800},
	} {
		train, test := Split(tc.n, tc.frac, rand.NewPCG(1, 1))
		if len(train) != tc.nTrain || len(test) != tc.n-tc.nTrain || !isPartition(tc.n, train, test) {
			t.Errorf("Split(%d, %v): train %v, test %v", tc.n, tc.frac, train, test)
		}
	}
	a1, b1 := Split(100, 0.5, rand.NewPCG(7, 8))
	a2, b2 := Split(100, 0.5, rand.NewPCG(7, 8))
	a3, _ := Split(100, 0.5, rand.NewPCG(7, 9))
	if !reflect.DeepEqual(a1, a2) || !reflect.DeepEqual(b1, b2) {
		t.Error("Split differs for the same seed")
	}
	if reflect.DeepEqual(a1, a3) {
		t.Error("Split is the same for different seeds")
	}
	for _, bad := range []func(){
		func() { Split(-1, 0.5, rand.NewPCG(1, 1)) },
		func() { Split(10, 1.5, rand.NewPCG(1, 1)) },
		func() { Split(10, -0.1, rand.NewPCG(1, 1)) },
	} {
		if !panics(bad) {
			t.Error("no panic")
		}
	}
}

func TestKFold(t *testing.T) {
	for _, tc := range []struct {
		n, k  int
		sizes []int // n/k, the first n mod k folds one more
	}{
		{10, 3, []int{4, 3, 3}},
		{10, 5, []int{2, 2, 2, 2, 2}},
		{7, 7, []int{1, 1, 1, 1, 1, 1, 1}},
		{5, 1, []int{5}},
		{11, 4, []int{3, 3, 3, 2}},
	} {
		folds := KFold(tc.n, tc.k, rand.NewPCG(2, 3))
		sizes := make([]int, len(folds))
		for f, fold := range folds {
			sizes[f] = len(fold)
			if train := Complement(tc.n, fold); !isPartition(tc.n, train, fold) {
				t.Errorf("KFold(%d, %d): fold %d and its complement %v are no partition", tc.n, tc.k, f, train)
			}
		}
		if !reflect.DeepEqual(sizes, tc.sizes) || !isPartition(tc.n, folds...) {
			t.Errorf("KFold(%d, %d) = %v, want sizes %v", tc.n, tc.k, folds, tc.sizes)
		}
	}
	f1 := KFold(50, 5, rand.NewPCG(4, 5))
	f2 := KFold(50, 5, rand.NewPCG(4, 5))
	f3 := KFold(50, 5, rand.NewPCG(4, 6))
	if !reflect.DeepEqual(f1, f2) || reflect.DeepEqual(f1, f3) {
		t.Error("KFold is not determined by its seed")
	}
	for _, bad := range []func(){
		func() { KFold(5, 0, rand.NewPCG(1, 1)) },
		func() { KFold(5, 6, rand.NewPCG(1, 1)) },
		func() { Complement(3, []int{3}) },
	} {
		if !panics(bad) {
			t.Error("no panic")
		}
	}
}

func TestSubset(t *testing.T) {
	ds := &Dataset{
		X:      mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6}),
		Y:      mat.NewDense(3, 2, []float64{1, 0, 0.5, 0.5, 0, 1}),
		Labels: []string{"a", "b"},
		Lines:  []int{1, 3, 4},
	}
	s := Subset(ds, []int{2, 0, 2})
	if !mat.Equal(s.X, mat.NewDense(3, 2, []float64{5, 6, 1, 2, 5, 6})) ||
		!mat.Equal(s.Y, mat.NewDense(3, 2, []float64{0, 1, 1, 0, 0, 1})) ||
		!reflect.DeepEqual(s.Lines, []int{4, 1, 4}) || !reflect.DeepEqual(s.Labels, ds.Labels) {
		t.Errorf("Subset = %v %v %v %q", mat.Formatted(s.X), mat.Formatted(s.Y), s.Lines, s.Labels)
	}
	s.X.Set(0, 0, 99)
	s.Labels[0] = "z"
	if ds.X.At(2, 0) != 5 || ds.Labels[0] != "a" {
		t.Error("Subset shares storage with its input")
	}
	ds.Lines = nil
	if s := Subset(ds, []int{1}); s.Lines != nil {
		t.Errorf("Lines = %v, want nil", s.Lines)
	}
	if !panics(func() { Subset(ds, nil) }) || !panics(func() { Subset(ds, []int{3}) }) {
		t.Error("no panic")
	}
}

// TestPartition checks sizes, disjointness and coverage, the agreement with
// Split for two parts, and the paper's 64/16/20 sizes at BlurbGenreCollection's
// n = 91,894 (58,812 / 14,703 / 18,379: round(0.64 n), round(0.80 n) − that,
// the rest, computed by hand).
func TestPartition(t *testing.T) {
	for _, c := range []struct {
		n     int
		fracs []float64
		sizes []int
	}{
		{91894, []float64{0.64, 0.16, 0.20}, []int{58812, 14703, 18379}},
		{10, []float64{0.64, 0.16, 0.20}, []int{6, 2, 2}},
		{0, []float64{0.5, 0.5}, []int{0, 0}},
		{7, []float64{1}, []int{7}},
		{5, []float64{0, 1, 0}, []int{0, 5, 0}},
	} {
		parts := Partition(c.n, c.fracs, rand.NewPCG(1, 2))
		seen := make([]bool, c.n)
		for k, p := range parts {
			if len(p) != c.sizes[k] {
				t.Errorf("n=%d %v: part %d has %d, want %d", c.n, c.fracs, k, len(p), c.sizes[k])
			}
			if !slices.IsSorted(p) {
				t.Errorf("part %d not sorted", k)
			}
			for _, i := range p {
				if seen[i] {
					t.Fatalf("index %d twice", i)
				}
				seen[i] = true
			}
		}
		if slices.Contains(seen, false) {
			t.Errorf("n=%d: an index in no part", c.n)
		}
	}
	a, b := Split(100, 0.7, rand.NewPCG(3, 4))
	parts := Partition(100, []float64{0.7, 0.3}, rand.NewPCG(3, 4))
	if !slices.Equal(a, parts[0]) || !slices.Equal(b, parts[1]) {
		t.Error("Partition with two parts differs from Split")
	}
	for _, bad := range [][]float64{{0.5, 0.6}, {-0.1, 1.1}, {}, {math.NaN(), 1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Partition(10, %v) did not panic", bad)
				}
			}()
			Partition(10, bad, rand.NewPCG(1, 1))
		}()
	}
}
