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
