package metric

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/tree"
)

// mlBenchData returns a random forest of L labels with about L/20 roots (a
// random recursive forest: shallow, as genre hierarchies are), n random
// predicted distributions and n label sets, each a random label and up to
// three of its ancestors (BlurbGenreCollection's documents have 3–4).
func mlBenchData(b *testing.B, L, n int) (*tree.Tree, []float64, [][]int) {
	rng := rand.New(rand.NewPCG(1, uint64(L)))
	tr, err := tree.FromParents(testutil.RandomParents(rng, L, max(1, L/20)), nil, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	P := make([]float64, 0, n*L)
	Y := make([][]int, n)
	for r := range Y {
		P = append(P, testutil.Dist(rng, L)...)
		for v := rng.IntN(L); v >= 0 && len(Y[r]) < 4; v = tr.Parent(v) {
			Y[r] = append(Y[r], v)
		}
		slices.Sort(Y[r])
	}
	return tr, P, Y
}

// BenchmarkMultiLabelRow times each per-row measure at k = 5.
func BenchmarkMultiLabelRow(b *testing.B) {
	for _, L := range []int{147, 1000, 100000} {
		tr, P, Y := mlBenchData(b, L, 64)
		ml := NewMultiLabel(tr, 5)
		for _, m := range []struct {
			name string
			f    func(p []float64, y []int) float64
		}{
			{"PseudoRecall", ml.PseudoRecall},
			{"TopKCost", ml.TopKCost},
			{"SampleAUC", ml.SampleAUC},
		} {
			b.Run(fmt.Sprintf("%s/L=%d", m.name, L), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(8 * L))
				r := 0
				for b.Loop() {
					m.f(P[r*L:(r+1)*L], Y[r])
					r = (r + 1) % len(Y)
				}
			})
		}
	}
}

// BenchmarkMultiLabelEvaluate times Evaluate on 20 000 documents at the
// size of BlurbGenreCollection (147 labels), and on 2 000 at 1000 labels.
func BenchmarkMultiLabelEvaluate(b *testing.B) {
	for _, c := range []struct{ L, n int }{{147, 20000}, {1000, 2000}} {
		b.Run(fmt.Sprintf("L=%d/n=%d", c.L, c.n), func(b *testing.B) {
			tr, P, Y := mlBenchData(b, c.L, c.n)
			ml := NewMultiLabel(tr, 5)
			b.ReportAllocs()
			b.SetBytes(int64(8 * len(P)))
			for b.Loop() {
				ml.Evaluate(P, Y)
			}
		})
	}
}

// BenchmarkAbove2Sum times 32 768 negatives placed among 80 000 positives
// (the micro AUC of 20 000 documents with 4 labels each), by above2Sum's
// lockstep searches and by above2 one negative at a time. Scores are
// exponential, as a softmax's are, and do not tie.
func BenchmarkAbove2Sum(b *testing.B) {
	rng := rand.New(rand.NewPCG(4, 5))
	pos := make([]uint64, 80000)
	for i := range pos {
		pos[i] = key(rng.ExpFloat64() / 50)
	}
	slices.Sort(pos)
	xs := make([]uint64, 1<<15)
	for i := range xs {
		xs[i] = key(rng.ExpFloat64() / 150)
	}
	b.Run("lockstep", func(b *testing.B) {
		for b.Loop() {
			above2Sum(pos, xs)
		}
	})
	b.Run("one-by-one", func(b *testing.B) {
		for b.Loop() {
			var s int64
			for _, x := range xs {
				s += above2(pos, x)
			}
		}
	})
}
