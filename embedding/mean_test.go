package embedding

import "testing"

// TestMean checks Mean against hand-computed means of a three-word table.
func TestMean(t *testing.T) {
	src, err := NewVectors([]string{"a", "b", "c"}, 2, []float32{1, 2, 3, 6, -1, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	dst := []float64{7, 7} // overwritten
	cases := []struct {
		words []string
		want  []float64
		found int
	}{
		{[]string{"a", "b"}, []float64{2, 4}, 2},                          // ((1+3)/2, (2+6)/2)
		{[]string{"a", "a", "b", "zzz"}, []float64{5.0 / 3, 10.0 / 3}, 3}, // a counts twice, zzz missing
		{[]string{"c"}, []float64{-1, 0.5}, 1},
		{[]string{"zzz"}, []float64{0, 0}, 0},
		{nil, []float64{0, 0}, 0},
	}
	for _, c := range cases {
		found := Mean(dst, src, c.words)
		if found != c.found || dst[0] != c.want[0] || dst[1] != c.want[1] {
			t.Errorf("Mean(%q) = %v, %d; want %v, %d", c.words, dst, found, c.want, c.found)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Mean with a short dst did not panic")
		}
	}()
	Mean(make([]float64, 1), src, []string{"a"})
}
