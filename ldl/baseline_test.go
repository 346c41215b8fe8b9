package ldl

import (
	"errors"
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
// over the y > 0, summed here from the definition (every third row lists
// every label, the others some).
func TestUniformLossTerms(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	tr := tree.Random(40, rand.NewPCG(53, 54))
	const n = 70
	L := tr.Len()
	d := train.Data{X: make([]float64, n), Y: make([]float64, n*L), N: n, In: 1, L: L}
	for i := range d.Y {
		if rng.IntN(3) > 0 || i/L%3 == 0 { // rows 0, 3, …: every label
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

// TestUniformBound checks the lower bound of the uniform baseline against
// the baseline evaluated (uniformLoss): never above it, and for KL alone
// within 10⁻⁶ of it (the bound is then the value itself, less its margin);
// no bound for a distance that may be negative (Sinkhorn), or without the
// targets' terms. It also checks that a check whose loss is below
// DivergedFactor times the bound does not evaluate the baseline, and that
// a divergent loss is still reported with the evaluated baseline.
func TestUniformBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(55, 56))
	tr := tree.Random(30, rand.NewPCG(57, 58))
	const n = 50
	L := tr.Len()
	d := train.Data{X: make([]float64, n), Y: make([]float64, n*L), N: n, In: 1, L: L}
	for r := range n {
		var s float64
		for j := range L {
			if rng.IntN(4) > 0 {
				d.Y[r*L+j] = rng.ExpFloat64()
				s += d.Y[r*L+j]
			}
		}
		for j := range L {
			d.Y[r*L+j] /= s
		}
	}
	sparse := d
	sparse.Y, sparse.YSparse = nil, sparseRows(mat.NewDense(n, L, d.Y))
	rows := []int{3, 1, 4, 15, 9, 26, 5, 35, 8, 49}
	for _, data := range []train.Data{d, sparse} {
		for _, l := range []*loss.Mixed{loss.NewKL(L), loss.NewKLTW(tr, 0.5)} {
			terms := targetTerms(l, data)
			lb, exact := uniformBound(l, data, rows, terms), uniformLoss(l, data, rows, terms)
			if math.IsNaN(lb) || lb > exact || l.Dist == nil && math.Abs(lb-exact) > 1e-6*math.Abs(exact) {
				t.Errorf("sparse %v, %s: bound %v, baseline %v", data.Y == nil, l.Name(), lb, exact)
			}
			if l.Dist != nil && !(exact-lb > 1e-3) {
				t.Errorf("sparse %v, %s: bound %v, baseline %v: the TW term is missing from the baseline", data.Y == nil, l.Name(), lb, exact)
			}
			if lb := uniformBound(l, data, rows, nil); !math.IsNaN(lb) {
				t.Errorf("sparse %v, %s: a bound %v without the terms", data.Y == nil, l.Name(), lb)
			}
		}
	}
	sk := &loss.Mixed{L: L, Lambda: 0.5, Dist: &loss.Sinkhorn{}}
	if lb := uniformBound(sk, d, rows, make([]float64, n)); !math.IsNaN(lb) {
		t.Errorf("Sinkhorn: a bound %v", lb)
	}

	l := loss.NewKLTW(tr, 0.5)
	b := uniformBaselines(l, d, rows, nil, targetTerms(l, d))
	if err := b.epochEnd(train.Epoch{TrainLoss: 2 * b.bound[0]}); err != nil || b.known[0] {
		t.Errorf("a loss of twice the bound: %v, baseline evaluated %v; want no error, not evaluated", err, b.known[0])
	}
	exact := uniformLoss(l, d, rows, nil)
	err := b.epochEnd(train.Epoch{TrainLoss: 1000 * exact})
	if !errors.Is(err, ErrDiverged) || !b.known[0] || math.Float64bits(b.value[0]) != math.Float64bits(exact) {
		t.Errorf("a loss of 1000 times the baseline: %v, baseline %v (evaluated %v); want ErrDiverged and %v", err, b.value[0], b.known[0], exact)
	}
}
