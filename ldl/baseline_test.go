package ldl

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/twl-ldl/twl/loss"
	"github.com/twl-ldl/twl/train"
	"github.com/twl-ldl/twl/tree"
)

// TestUniformLossTerms checks the baseline computed with the targets'
// terms (targetTerms, then EvalTerms) against the one computed by Eval
// alone, bit for bit, on dense and sparse targets with zeros, for 70 rows
// (two batches of the baseline's 64); and targetTerms against Σ y log y
// over the y > 0, summed here from the definition.
func TestUniformLossTerms(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	tr := tree.Random(40, rand.NewPCG(53, 54))
	const n = 70
	L := tr.Len()
	d := train.Data{X: make([]float64, n), Y: make([]float64, n*L), N: n, In: 1, L: L}
	for i := range d.Y {
		if rng.IntN(3) > 0 {
			d.Y[i] = rng.ExpFloat64()
		}
	}
	sparse := d
	sparse.Y, sparse.YSparse = nil, sparseRows(mat.NewDense(n, L, d.Y))
	rows := make([]int, n)
	for i := range rows {
		rows[i] = n - 1 - i
	}
	l := loss.NewKLTW(tr, 0.5)
	for _, data := range []train.Data{d, sparse} {
		terms := targetTerms(l, data)
		for r := range n {
			var want float64
			for _, y := range d.Y[r*L : (r+1)*L] {
				if y > 0 {
					want += y * math.Log(y)
				}
			}
			if math.Float64bits(terms[r]) != math.Float64bits(want) {
				t.Fatalf("sparse %v: row %d: term %v, want %v", data.Y == nil, r, terms[r], want)
			}
		}
		got, want := uniformLoss(l, data, rows, terms), uniformLoss(l, data, rows, nil)
		if math.Float64bits(got) != math.Float64bits(want) || math.IsNaN(want) {
			t.Errorf("sparse %v: baseline with the terms %v, without %v", data.Y == nil, got, want)
		}
	}
}
