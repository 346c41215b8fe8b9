package lpref

import (
	"math"
	"testing"
)

// TestW1Hand checks small problems whose optimum is known by hand.
func TestW1Hand(t *testing.T) {
	for _, tc := range []struct {
		name string
		cost []float64
		a, b []float64
		want float64
	}{
		// Moving all mass from point 0 to point 1 at distance 3 costs 3.
		{"point masses", []float64{0, 3, 3, 0}, []float64{1, 0}, []float64{0, 1}, 3},
		// Identical histograms cost nothing.
		{"identical", []float64{0, 1, 1, 0}, []float64{0.5, 0.5}, []float64{0.5, 0.5}, 0},
		// Three points on a line at 0, 1, 2: moving 1/2 from 0 to 2 costs 1.
		{"line", []float64{0, 1, 2, 1, 0, 1, 2, 1, 0}, []float64{0.5, 0.5, 0}, []float64{0, 0.5, 0.5}, 1},
	} {
		got, err := W1(tc.cost, tc.a, tc.b)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: W1 = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestW1Errors(t *testing.T) {
	if _, err := W1([]float64{0, 1, 1, 0}, []float64{1, 0}, []float64{0.5, 0}); err == nil {
		t.Error("unequal masses: want an error")
	}
	if _, err := W1([]float64{0, 1, 1}, []float64{1, 0}, []float64{0, 1}); err == nil {
		t.Error("wrong cost length: want an error")
	}
}
