package report

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// TestFloatJSON: finite values round-trip as numbers, NaN and the
// infinities as strings; other strings are errors.
func TestFloatJSON(t *testing.T) {
	for _, v := range []float64{0, -1.5, 1e-300, math.NaN(), math.Inf(1), math.Inf(-1)} {
		b, err := json.Marshal(Float(v))
		if err != nil {
			t.Fatal(err)
		}
		var back Float
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !(float64(back) == v || math.IsNaN(v) && math.IsNaN(float64(back))) {
			t.Errorf("%v → %s → %v", v, b, back)
		}
	}
	var f Float
	if err := json.Unmarshal([]byte(`"x"`), &f); err == nil {
		t.Error(`"x" read as a Float`)
	}
}

// TestEpochFilter passes every second epoch line and the last, and every
// other line, with the prefix.
func TestEpochFilter(t *testing.T) {
	var out bytes.Buffer
	f := &EpochFilter{W: &out, Prefix: "> ", Every: 2}
	in := "epoch 1/3  loss 1\nepoch 2/3  loss 0.5\nnote\nepoch 3/3 loss 0.2\n"
	// Written in pieces that split lines.
	for _, part := range []string{in[:10], in[10:30], in[30:]} {
		if _, err := f.Write([]byte(part)); err != nil {
			t.Fatal(err)
		}
	}
	if want := "> epoch 2/3  loss 0.5\n> note\n> epoch 3/3 loss 0.2\n"; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

// TestPairedTNaN: pairs with a NaN are left out of the test and the counts.
func TestPairedTNaN(t *testing.T) {
	nan := math.NaN()
	c := PairedT([]float64{1, 2, nan, 4}, []float64{2, nan, 5, 5}, false)
	if c.N != 2 || c.BBetter != 2 || c.ABetter != 0 || c.MeanDiff != 1 || c.SDDiff != 0 {
		t.Errorf("%+v", c)
	}
}

// The expected values are worked by hand: centred x = (−1.5, −0.5, 0.5,
// 1.5) and y = (−1.5, 0.5, −0.5, 1.5) have the cross sum 4 and squared sums
// 5 each, so r = 4/5.
func TestCorrelation(t *testing.T) {
	for _, c := range []struct {
		x, y []float64
		want float64
	}{
		{[]float64{1, 2, 3, 4}, []float64{1, 3, 2, 4}, 0.8},
		{[]float64{1, 2, 3}, []float64{2, 4, 6}, 1},
		{[]float64{1, 2, 3}, []float64{3, 2, 1}, -1},
		{[]float64{1, 2, 3}, []float64{5, 5, 5}, math.NaN()}, // y constant
		{[]float64{7, 7}, []float64{1, 2}, math.NaN()},       // x constant
		{[]float64{1}, []float64{2}, math.NaN()},             // one pair
	} {
		got := Correlation(c.x, c.y)
		if math.IsNaN(c.want) != math.IsNaN(got) || !math.IsNaN(got) && math.Abs(got-c.want) > 1e-15 {
			t.Errorf("Correlation(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}
