package distance_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/distance"
	"github.com/twl-ldl/twl/labeldist"
)

// rawRows returns n rows over L labels with masses that do not sum to 1
// (scaled by factors from 0.01 to 100), some listing zero masses, one with
// no mass at all, and copies of earlier rows.
func rawRows(rng *rand.Rand, n, L int) *labeldist.Rows {
	var s labeldist.Rows
	for r := range n {
		if r > 3 && rng.IntN(5) == 0 {
			s.Append(s.Row(rng.IntN(r)))
			continue
		}
		if r == 2 {
			s.Append([]int{1}, []float64{0})
			continue
		}
		scale := math.Pow(10, 4*rng.Float64()-2)
		var idx []int
		var mass []float64
		for i := range L {
			if rng.IntN(4) == 0 {
				v := float64(rng.IntN(9)) * scale
				idx, mass = append(idx, i), append(mass, v)
			}
		}
		s.Append(idx, mass)
	}
	return &s
}

// TestTWEngine compares tw's Pairwise (the all-pairs engine on raw masses)
// with its Rows (tw.Sparse, pair by pair) and with the definition
// (bruteTW), on rows that are not proportions, including rows of negative
// and non-finite masses, which Pairwise hands to tw.Sparse. The tolerance is
// relative to S_a + S_b, the rows' distances to the empty row by bruteTW.
// Pairs of equal rows must be exactly 0.
func TestTWEngine(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, L := range []int{2, 7, 60, 300} {
		tr, parent, weight := randomTree(t, rng, L)
		A, B := rawRows(rng, 90, L), rawRows(rng, 130, L)
		// Rows the engine does not take.
		A.Append([]int{0, L - 1}, []float64{-0.5, 1})
		B.Append([]int{L - 1}, []float64{math.NaN()})
		B.Append(A.Row(5))
		A.Append(B.Row(7))
		m := distance.NewTW(tr, nil)
		got := pairwise(t, m, A, B)
		nA, nB := A.Rows(), B.Rows()
		zero := make([]float64, L)
		for i := range nA {
			a := dense(A, i, L)
			sa := bruteTW(parent, weight, a, zero)
			for j := range nB {
				b := dense(B, j, L)
				sb := bruteTW(parent, weight, b, zero)
				g := got[i*nB+j]
				want := bruteTW(parent, weight, a, b)
				var ref [1]float64
				if err := m.Rows(context.Background(), ref[:], A.Subset([]int{i}), B.Subset([]int{j})); err != nil {
					t.Fatal(err)
				}
				if math.IsNaN(want) {
					if !math.IsNaN(g) {
						t.Fatalf("L=%d (%d, %d) = %v, want NaN", L, i, j, g)
					}
					continue
				}
				if !closeMass(g, want, math.Abs(sa), math.Abs(sb)) || !closeMass(g, ref[0], math.Abs(sa), math.Abs(sb)) {
					t.Fatalf("L=%d (%d, %d) = %.17g, definition %.17g, tw.Sparse %.17g (S %g + %g)", L, i, j, g, want, ref[0], sa, sb)
				}
				if want == 0 && g != 0 && sa == sb {
					ai, am := A.Row(i)
					bi, bm := B.Row(j)
					if equalRows(ai, am, bi, bm) {
						t.Fatalf("L=%d (%d, %d): equal rows at %g, want 0", L, i, j, g)
					}
				}
			}
		}
	}
}

func equalRows(ai []int, am []float64, bi []int, bm []float64) bool {
	if len(ai) != len(bi) {
		return false
	}
	for k := range ai {
		if ai[k] != bi[k] || am[k] != bm[k] {
			return false
		}
	}
	return true
}

// TestTWEngineChunks checks that tw's Pairwise gives the same bits whatever
// the cut of A into calls and the number of workers.
func TestTWEngineChunks(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	tr, _, _ := randomTree(t, rng, 200)
	A, B := rawRows(rng, 300, 200), rawRows(rng, 270, 200)
	nA, nB := A.Rows(), B.Rows()
	var ref []float64
	for _, w := range []int{1, 2, 4} {
		m := distance.NewTW(tr, &distance.Options{Workers: w})
		cols, err := m.Columns(context.Background(), B)
		if err != nil {
			t.Fatal(err)
		}
		for _, chunk := range []int{1, 7, nA} {
			got := make([]float64, nA*nB)
			for lo := 0; lo < nA; lo += chunk {
				hi := min(lo+chunk, nA)
				if err := m.Pairwise(context.Background(), got[lo*nB:hi*nB], A.Subset(seq(hi)[lo:]), cols); err != nil {
					t.Fatal(err)
				}
			}
			if ref == nil {
				ref = got
				continue
			}
			for k := range got {
				if math.Float64bits(got[k]) != math.Float64bits(ref[k]) {
					t.Fatalf("%d workers, chunks of %d: (%d, %d) = %v, one worker in one call %v", w, chunk, k/nB, k%nB, got[k], ref[k])
				}
			}
		}
	}
}

// TestTWEngineMemory checks that tw's Columns refuses, before preparing,
// rows whose preparation would pass MaxBytes, and that the need it states
// is enough.
func TestTWEngineMemory(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	tr, _, _ := randomTree(t, rng, 200)
	B := rawRows(rng, 300, 200)
	c, err := distance.NewTW(tr, nil).Columns(context.Background(), B)
	if err != nil {
		t.Fatal(err)
	}
	_, err = distance.NewTW(tr, &distance.Options{MaxBytes: B.Bytes() + 10}).Columns(context.Background(), B)
	me, ok := err.(*distance.MemoryError)
	if !ok || me.Method != "tw" || me.Need < c.Bytes() {
		t.Fatalf("over the limit: %v (columns hold %d bytes)", err, c.Bytes())
	}
	if _, err := distance.NewTW(tr, &distance.Options{MaxBytes: me.Need}).Columns(context.Background(), B); err != nil {
		t.Fatalf("at the stated need: %v", err)
	}
}
