package distance_test

import (
	"context"
	"errors"
	"github.com/twl-ldl/twl/internal/race"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/distance"
	"github.com/twl-ldl/twl/labeldist"
)

// selfRows returns n raw rows (rawRows) with rows the engine does not
// take: a negative mass, a NaN mass and masses whose sum overflows.
func selfRows(rng *rand.Rand, n, L int) *labeldist.Rows {
	R := rawRows(rng, n, L)
	R.Append([]int{0, L - 1}, []float64{-0.5, 1})
	R.Append([]int{L - 1}, []float64{math.NaN()})
	if L > 1 {
		R.Append([]int{0, 1}, []float64{math.MaxFloat64, math.MaxFloat64})
	}
	R.Append(R.Row(0))
	return R
}

// TestTWSelf checks that Self's rows are Pairwise's with A = B, bit for
// bit, whatever the cut of the rows, on sizes on both sides of the
// engine's blocks, with rows the engine does not take; and the values
// against the definition (bruteTW) to rounding relative to the rows'
// masses (as TestTWEngine).
func TestTWSelf(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	cases := []struct{ L, n int }{{2, 1}, {7, 20}, {60, 252}, {60, 253}, {300, 520}}
	if testing.Short() || race.Enabled {
		cases = cases[:4] // past the 252-row blocks still
	}
	for _, c := range cases {
		tr, parent, weight := randomTree(t, rng, c.L)
		B := selfRows(rng, c.n, c.L)
		n := B.Rows()
		for _, workers := range []int{1, 3} {
			m := distance.NewTW(tr, &distance.Options{Workers: workers})
			cols, err := m.Columns(context.Background(), B)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]float64, n*n)
			if err := m.Pairwise(context.Background(), want, B, cols); err != nil {
				t.Fatal(err)
			}
			if !cols.Symmetric() {
				t.Fatal("tw's Columns are not symmetric")
			}
			s, err := distance.NewSelf(context.Background(), cols)
			if err != nil {
				t.Fatal(err)
			}
			for _, stripe := range []int{1, 7, n} {
				got := make([]float64, n*n)
				for lo := 0; lo < n; lo += stripe {
					hi := min(lo+stripe, n)
					s.Rows(got[lo*n:hi*n], lo, hi)
				}
				for k := range got {
					if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
						t.Fatalf("L=%d n=%d workers=%d stripes of %d: (%d, %d) = %v, Pairwise %v", c.L, n, workers, stripe, k/n, k%n, got[k], want[k])
					}
				}
			}
		}
		zero := make([]float64, c.L)
		m := distance.NewTW(tr, nil)
		cols, err := m.Columns(context.Background(), B)
		if err != nil {
			t.Fatal(err)
		}
		s, err := distance.NewSelf(context.Background(), cols)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]float64, n*n)
		s.Rows(got, 0, n)
		for i := range n {
			a := dense(B, i, c.L)
			sa := bruteTW(parent, weight, a, zero)
			for j := range n {
				b := dense(B, j, c.L)
				sb := bruteTW(parent, weight, b, zero)
				w, g := bruteTW(parent, weight, a, b), got[i*n+j]
				if bad := func(r int) bool { return r >= c.n && r < n-1 }; bad(i) || bad(j) {
					continue // tw.Sparse's pairs: the bits of Pairwise (above) are the check
				}
				if !closeMass(g, w, math.Abs(sa), math.Abs(sb)) {
					t.Fatalf("L=%d (%d, %d) = %.17g, definition %.17g (S %g + %g)", c.L, i, j, g, w, sa, sb)
				}
			}
		}
	}
}

// TestTWSelfMemory checks that NewSelf refuses, before computing, a
// matrix that does not fit in MaxBytes beside the Columns, with a need
// that is then enough.
func TestTWSelfMemory(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	tr, _, _ := randomTree(t, rng, 100)
	B := rawRows(rng, 400, 100)
	c, err := distance.NewTW(tr, nil).Columns(context.Background(), B)
	if err != nil {
		t.Fatal(err)
	}
	n := B.Rows()
	if got, want := distance.SelfBytes(n), int64(8*(n*(n-1)/2+n)); got != want {
		t.Fatalf("SelfBytes(%d) = %d, want %d", n, got, want)
	}
	// The least limit the Columns take, below what they and the matrix
	// hold.
	_, err = distance.NewTW(tr, &distance.Options{MaxBytes: c.Bytes()}).Columns(context.Background(), B)
	var me *distance.MemoryError
	if !errors.As(err, &me) {
		t.Fatalf("Columns under their need: %v", err)
	}
	if me.Need >= c.Bytes()+distance.SelfBytes(n) {
		t.Fatalf("the Columns' need %d leaves room for the matrix", me.Need)
	}
	m := distance.NewTW(tr, &distance.Options{MaxBytes: me.Need})
	cols, err := m.Columns(context.Background(), B)
	if err != nil {
		t.Fatalf("the Columns alone: %v", err)
	}
	_, err = distance.NewSelf(context.Background(), cols)
	if !errors.As(err, &me) || me.Need != c.Bytes()+distance.SelfBytes(n) || me.Method != "tw" {
		t.Fatalf("over the limit: %v, want a need of %d", err, c.Bytes()+distance.SelfBytes(n))
	}
	m = distance.NewTW(tr, &distance.Options{MaxBytes: me.Need})
	if cols, err = m.Columns(context.Background(), B); err != nil {
		t.Fatal(err)
	}
	if _, err := distance.NewSelf(context.Background(), cols); err != nil {
		t.Fatalf("at the stated need: %v", err)
	}
}

// TestTWSelfProgress checks that Options.Progress counts the n(n−1)/2
// pairs of NewSelf and that a cancelled context stops it.
func TestTWSelfProgress(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	tr, _, _ := randomTree(t, rng, 80)
	B := rawRows(rng, 700, 80)
	n := B.Rows()
	pairs := 0
	m := distance.NewTW(tr, &distance.Options{Workers: 1, Progress: func(p int) { pairs += p }})
	cols, err := m.Columns(context.Background(), B)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := distance.NewSelf(context.Background(), cols); err != nil {
		t.Fatal(err)
	}
	if pairs != n*(n-1)/2 {
		t.Fatalf("progress counted %d pairs, want %d", pairs, n*(n-1)/2)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := distance.NewSelf(ctx, cols); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

// TestSymmetric checks which methods' Columns are symmetric: tw only.
func TestSymmetric(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 48))
	tr, _, _ := randomTree(t, rng, 20)
	B := randomRows(rng, 5, 20)
	emd, err := distance.NewEMD(tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	sl, _, _, _ := slicedCase(t, rng, 6, 20)
	for _, m := range []distance.Method{distance.NewTW(tr, nil), emd, distance.NewTSW(sl, nil)} {
		R := B
		if m.Name() == "tsw" {
			R = randomRows(rng, 5, sl.Len())
		}
		c, err := m.Columns(context.Background(), R)
		if err != nil {
			t.Fatal(err)
		}
		if c.Symmetric() != (m.Name() == "tw") {
			t.Fatalf("%s: Symmetric() = %v", m.Name(), c.Symmetric())
		}
	}
}
