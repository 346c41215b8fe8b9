package dataset

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestStandardizer(t *testing.T) {
	x := mat.NewDense(3, 3, []float64{
		1, 5, 2,
		3, 5, 4,
		5, 5, 9,
	})
	orig := mat.DenseCopyOf(x)
	for _, tc := range []struct {
		name        string
		rows        []int
		mean, scale []float64
	}{
		// By hand: column 0 has deviations -2, 0, 2 from 3: variance 8/3;
		// column 1 is constant: scale 1; column 2 has deviations -3, -1, 4
		// from 5: variance 26/3.
		{"all rows", nil, []float64{3, 5, 5}, []float64{math.Sqrt(8.0 / 3), 1, math.Sqrt(26.0 / 3)}},
		// Rows 0 and 1: means 2, 5, 3; deviations ±1, 0, ±1.
		{"rows 0 and 1", []int{0, 1}, []float64{2, 5, 3}, []float64{1, 1, 1}},
		// A single row: every feature is constant.
		{"one row", []int{2}, []float64{5, 5, 9}, []float64{1, 1, 1}},
	} {
		var s Standardizer
		s.Fit(x, tc.rows)
		if !near(s.Mean, tc.mean, 1e-15) || !near(s.Scale, tc.scale, 1e-15) {
			t.Errorf("%s: Mean %v, Scale %v, want %v, %v", tc.name, s.Mean, s.Scale, tc.mean, tc.scale)
		}
		dst := mat.NewDense(3, 3, nil)
		s.Transform(dst, x)
		if !mat.Equal(x, orig) {
			t.Fatalf("%s: Transform changed its input", tc.name)
		}
		for i := range 3 {
			for k := range 3 {
				if want := (x.At(i, k) - tc.mean[k]) / tc.scale[k]; math.Abs(dst.At(i, k)-want) > 1e-14 {
					t.Errorf("%s: dst[%d, %d] = %v, want %v", tc.name, i, k, dst.At(i, k), want)
				}
			}
		}
		in := mat.DenseCopyOf(x)
		s.Transform(in, in)
		if !mat.Equal(in, dst) {
			t.Errorf("%s: Transform in place differs", tc.name)
		}
	}
	// The constant column maps to exactly 0, and the standardized columns
	// have mean 0 and population variance 1.
	var s Standardizer
	s.Fit(x, nil)
	z := mat.NewDense(3, 3, nil)
	s.Transform(z, x)
	for k := range 3 {
		var m, v float64
		for i := range 3 {
			m += z.At(i, k) / 3
		}
		for i := range 3 {
			v += (z.At(i, k) - m) * (z.At(i, k) - m) / 3
		}
		want := 1.0
		if k == 1 {
			want = 0
		}
		if math.Abs(m) > 1e-15 || math.Abs(v-want) > 1e-15 {
			t.Errorf("column %d: mean %v, variance %v", k, m, v)
		}
	}
}

// TestStandardizerExtremes checks features near the ends of the float64
// range, where squaring deviations would overflow or underflow. By hand:
// values a and 3a have mean 2a and population standard deviation a.
func TestStandardizerExtremes(t *testing.T) {
	for _, a := range []float64{1e200, 1e-200, 5e307} {
		x := mat.NewDense(2, 1, []float64{a, 3 * a})
		var s Standardizer
		s.Fit(x, nil)
		if math.Abs(s.Mean[0]-2*a) > 1e-15*a || math.Abs(s.Scale[0]-a) > 1e-15*a {
			t.Errorf("a = %v: Mean %v, Scale %v", a, s.Mean, s.Scale)
		}
	}
}

func TestStandardizerPanics(t *testing.T) {
	x := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	var s Standardizer
	for _, f := range []func(){
		func() { s.Fit(x, []int{}) },
		func() { s.Fit(x, []int{2}) },
		func() { s.Fit(x, nil); s.Transform(mat.NewDense(2, 1, nil), mat.NewDense(2, 1, nil)) },
		func() { s.Fit(x, nil); s.Transform(mat.NewDense(1, 2, nil), x) },
	} {
		if !panics(f) {
			t.Error("no panic")
		}
	}
}

func near(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol*math.Max(1, math.Abs(b[i])) {
			return false
		}
	}
	return true
}
