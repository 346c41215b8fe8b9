package testutil

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTreeMetricHand checks TreeMetric on trees whose distances are known by
// hand.
func TestTreeMetricHand(t *testing.T) {
	for _, tc := range []struct {
		name   string
		parent []int
		weight []float64
		vw     float64
		want   []float64
	}{
		// Path 0 —2— 1 —3— 2 (node 1 is the root): d(0,2) = 2+3.
		{"path", []int{1, -1, 1}, []float64{2, 0, 3}, 0, []float64{
			0, 2, 5,
			2, 0, 3,
			5, 3, 0,
		}},
		// Two lone roots joined by virtual edges of weight 1.5: d = 3.
		{"forest", []int{-1, -1}, nil, 1.5, []float64{
			0, 3,
			3, 0,
		}},
		// Forest {0 → 1 (w 4)}, {2}: d(1, 2) = 4 + 0.5 + 0.5.
		{"forest with edge", []int{-1, 0, -1}, []float64{9, 4, 9}, 0.5, []float64{
			0, 4, 1,
			4, 0, 5,
			1, 5, 0,
		}},
		{"single", []int{-1}, nil, 1, []float64{0}},
	} {
		got := TreeMetric(tc.parent, tc.weight, tc.vw)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestTreeMetricNotATree(t *testing.T) {
	// 0 and 1 are each other's parent: a 2-cycle, plus a root 2.
	if ok, _ := Panics(func() { TreeMetric([]int{1, 0, -1}, nil, 1) }); !ok {
		t.Error("cycle: no panic")
	}
}

func TestGenerators(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n < 30; n++ {
		for _, p := range [][]float64{Dist(rng, n), SparseDist(rng, n, 3)} {
			var s float64
			for _, v := range p {
				if v < 0 {
					t.Fatalf("negative mass %v", v)
				}
				s += v
			}
			if math.Abs(s-1) > 1e-12 {
				t.Errorf("n=%d: sum %v", n, s)
			}
		}
		for roots := 1; roots <= n; roots += 3 {
			par := RandomParents(rng, n, roots)
			got := 0
			for _, p := range par {
				if p < 0 {
					got++
				}
			}
			if got != roots {
				t.Errorf("n=%d: %d roots, want %d", n, got, roots)
			}
			TreeMetric(par, nil, 1) // panics if not a forest
		}
	}
	if ok, v := Panics(func() { panic("x") }); !ok || v != "x" {
		t.Errorf("Panics = %v, %v", ok, v)
	}
	if ok, _ := Panics(func() {}); ok {
		t.Error("Panics reported a panic for a function that returned")
	}
}

// TestJSONKeys checks the keys of a hand-written object, in its order and
// not in sorted order, nested keys left out.
func TestJSONKeys(t *testing.T) {
	got, err := JSONKeys([]byte(`{"b": 1, "a": {"z": [1, {"y": 2}]}, "c": "x"}`))
	if err != nil || fmt.Sprint(got) != "[b a c]" {
		t.Errorf("got %q, %v; want [b a c]", got, err)
	}
	if _, err := JSONKeys([]byte(`[1]`)); err == nil {
		t.Error("an array: no error")
	}
}
