package unifrac

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// withCopies returns tab followed by copies of some of its samples whose
// distance to the original is zero by definition: the same entries; the
// same entries listed in another order; the counts times 3 (the same
// proportions, exactly, for small integer counts); and for keepTips, the
// same nodes with other positive counts (the same branches reached, which
// is all Unweighted sees). It returns the pairs (original, copy).
func withCopies(rng *rand.Rand, tab *Table, copies int, keepTips bool) (*Table, [][2]int) {
	out := &Table{Indptr: []int{0}}
	shuffle := false
	add := func(s int, f func(c float64) float64) {
		lo := len(out.Indices)
		for k := tab.Indptr[s]; k < tab.Indptr[s+1]; k++ {
			out.Indices = append(out.Indices, tab.Indices[k])
			out.Values = append(out.Values, f(tab.Values[k]))
		}
		if shuffle {
			idx, val := out.Indices[lo:], out.Values[lo:]
			rng.Shuffle(len(idx), func(i, j int) {
				idx[i], idx[j] = idx[j], idx[i]
				val[i], val[j] = val[j], val[i]
			})
		}
		out.Indptr = append(out.Indptr, len(out.Indices))
		out.IDs = append(out.IDs, "c"+itoa(len(out.IDs)))
	}
	n := tab.Len()
	for s := range n {
		add(s, func(c float64) float64 { return c })
	}
	var pairs [][2]int
	for range copies {
		s := rng.IntN(n)
		var f func(float64) float64
		shuffle = false
		switch rng.IntN(4) {
		case 0:
			f = func(c float64) float64 { return c }
		case 3:
			f = func(c float64) float64 { return c }
			shuffle = true
		case 1:
			f = func(c float64) float64 { return 3 * c }
		default:
			if !keepTips {
				f = func(c float64) float64 { return c }
				break
			}
			f = func(c float64) float64 {
				if c == 0 {
					return 0
				}
				return float64(1 + rng.IntN(9))
			}
		}
		pairs = append(pairs, [2]int{s, out.Len()})
		add(s, f)
	}
	return out, pairs
}

// TestIdenticalSamplesZero checks that a sample and its copy (see
// withCopies) are at distance exactly 0, as the definition gives and ssu
// writes, in every layout, with any number of workers, from Matrix, Rows
// and Columns: the totals are summed in the order in which a pair's shared
// sum adds its terms, so S_a + S_b − 2·shared cancels exactly.
func TestIdenticalSamplesZero(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	L, n0 := 500, 560
	if short() {
		L, n0 = 100, 300
	}
	tr := randomTree(t, rng, L)
	base := randomTable(rng, L, n0, 30)
	ctx := context.Background()
	for _, m := range methods {
		tab, pairs := withCopies(rng, base, 120, m == Unweighted)
		n := tab.Len()
		check := func(what string, d []float64, ld, i0 int) {
			t.Helper()
			for _, p := range pairs {
				for _, ij := range [][2]int{{p[0], p[1]}, {p[1], p[0]}} {
					i, j := ij[0]-i0, ij[1]
					if i < 0 || i*ld+j >= len(d) {
						continue
					}
					if d[i*ld+j] != 0 {
						t.Fatalf("%v %s: copies (%d, %d) at %g, want 0", m, what, ij[0], ij[1], d[i*ld+j])
					}
				}
			}
		}
		for _, frac := range []float64{0, defaultDense, 2} {
			for _, workers := range []int{1, 2} {
				e := mustNew(t, tr, tab, m, &Options{Alpha: 0.5, Workers: workers}, frac)
				full := make([]float64, n*n)
				if err := e.Matrix(ctx, full); err != nil {
					t.Fatal(err)
				}
				check("Matrix", full, n, 0)
				hi := min(550, n) // rows across the 256-row blocks
				rows := make([]float64, (hi-250)*n)
				if err := e.Rows(ctx, rows, 250, hi); err != nil {
					t.Fatal(err)
				}
				check(fmt.Sprintf("Rows(250, %d)", hi), rows, n, 250)
			}
		}
		cols, err := NewColumns(tr, tab, m, nil)
		if err != nil {
			t.Fatal(err)
		}
		q := make([]float64, n*n)
		if err := cols.Query(ctx, q, tab); err != nil {
			t.Fatal(err)
		}
		check("Columns.Query", q, n, 0)
		cond := make([]float64, n*(n-1)/2)
		diag := make([]float64, n)
		if err := cols.Self(ctx, cond, diag); err != nil {
			t.Fatal(err)
		}
		self := make([]float64, n*n)
		k := 0
		for i := range n {
			for j := i + 1; j < n; j++ {
				self[i*n+j], self[j*n+i] = cond[k], cond[k]
				k++
			}
		}
		check("Columns.Self", self, n, 0)
	}
}
