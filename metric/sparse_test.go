package metric

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// sparseRow draws a distribution on k of L labels, as increasing labels and
// masses, and its dense form.
func sparseRow(rng *rand.Rand, L, k int) ([]int, []float64, []float64) {
	dense := make([]float64, L)
	var s float64
	for _, i := range rng.Perm(L)[:k] {
		dense[i] = rng.ExpFloat64()
		s += dense[i]
	}
	var idx []int
	var m []float64
	for i := range dense {
		if dense[i] != 0 {
			dense[i] /= s
			idx = append(idx, i)
			m = append(m, dense[i])
		}
	}
	return idx, m, dense
}

// TestRowSparse compares RowSparse with Row on the same rows made dense:
// every measure but wasserstein bit for bit, wasserstein to 1e-12 (the
// sparse and dense tree-Wasserstein algorithms round differently), with and
// without clipping, on rows that share labels, rows that share none, and a
// prediction that misses a target label (kl = +Inf).
func TestRowSparse(t *testing.T) {
	tr := tree.Random(2000, rand.NewPCG(1, 2))
	L := tr.Len()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, clip := range []bool{false, true} {
		e := NewEvaluator(tr, &Options{Clip: clip})
		want, got := make([]float64, len(Names)), make([]float64, len(Names))
		for trial := range 300 {
			pi, pm, p := sparseRow(rng, L, 1+rng.IntN(30))
			qi, qm, q := sparseRow(rng, L, 1+rng.IntN(30))
			if trial%3 == 0 {
				qi, qm, q = pi, pm, p
				if len(pi) > 1 {
					_, _, q = sparseRow(rng, L, 1)
					qi, qm = nil, nil
					// q: the masses of p, re-drawn, on p's labels.
					var s float64
					for range pi {
						qm = append(qm, rng.Float64()+0.1)
						s += qm[len(qm)-1]
					}
					clear(q)
					for k, i := range pi {
						qm[k] /= s
						q[i] = qm[k]
					}
					qi = pi
				}
			}
			e.Row(want, p, q)
			e.RowSparse(got, pi, pm, qi, qm)
			for m, name := range Names {
				if name == "wasserstein" {
					if math.Abs(got[m]-want[m]) > 1e-12*max(1, want[m]) {
						t.Fatalf("clip %v trial %d: wasserstein %v, dense %v", clip, trial, got[m], want[m])
					}
					continue
				}
				if math.Float64bits(got[m]) != math.Float64bits(want[m]) {
					t.Fatalf("clip %v trial %d: %s %v, dense %v", clip, trial, name, got[m], want[m])
				}
			}
		}
	}
}

// TestSummary compares the streaming Summary with Evaluate's two-pass mean
// and standard deviation (gonum's stat.MeanStdDev) over rows that include an
// infinite kl.
func TestSummary(t *testing.T) {
	tr := tree.Random(50, rand.NewPCG(5, 6))
	L := tr.Len()
	rng := rand.New(rand.NewPCG(7, 8))
	for _, rows := range []int{1, 2, 37} {
		var P, Q []float64
		for range rows {
			_, _, p := sparseRow(rng, L, 5)
			_, _, q := sparseRow(rng, L, 5)
			P, Q = append(P, p...), append(Q, q...)
		}
		e := NewEvaluator(tr, nil)
		want := e.Evaluate(P, Q)
		var s Summary
		row := make([]float64, len(Names))
		for r := range rows {
			e.Row(row, P[r*L:(r+1)*L], Q[r*L:(r+1)*L])
			s.Add(row)
		}
		got := s.Result()
		if got.Rows != rows || s.Rows() != rows {
			t.Fatalf("rows %d, want %d", got.Rows, rows)
		}
		for _, name := range Names {
			for _, c := range []struct {
				what     string
				got, exp float64
			}{{"mean", got.Mean[name], want.Mean[name]}, {"std", got.Std[name], want.Std[name]}} {
				same := c.got == c.exp || math.IsNaN(c.got) && math.IsNaN(c.exp) ||
					math.Abs(c.got-c.exp) <= 1e-12*math.Abs(c.exp)
				if !same {
					t.Errorf("%d rows: %s %s = %v, Evaluate %v", rows, name, c.what, c.got, c.exp)
				}
			}
		}
	}
	var empty Summary
	if r := empty.Result(); !math.IsNaN(r.Mean["kl"]) || r.Rows != 0 {
		t.Errorf("empty summary: %v rows, mean %v", r.Rows, r.Mean["kl"])
	}
}
