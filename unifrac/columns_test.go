package unifrac

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// join returns the samples of a followed by those of b, as one table.
func join(a, b *Table) *Table {
	out := &Table{Indptr: []int{0}}
	for _, t := range []*Table{a, b} {
		for s := range t.Len() {
			lo, hi := t.Indptr[s], t.Indptr[s+1]
			out.Indices = append(out.Indices, t.Indices[lo:hi]...)
			out.Values = append(out.Values, t.Values[lo:hi]...)
			out.Indptr = append(out.Indptr, len(out.Indices))
		}
	}
	return out
}

// sampleRange returns samples [lo, hi) of t as a table.
func sampleRange(t *Table, lo, hi int) *Table {
	out := &Table{Indptr: []int{0}}
	for s := lo; s < hi; s++ {
		a, b := t.Indptr[s], t.Indptr[s+1]
		out.Indices = append(out.Indices, t.Indices[a:b]...)
		out.Values = append(out.Values, t.Values[a:b]...)
		out.Indptr = append(out.Indptr, len(out.Indices))
	}
	return out
}

// rescale multiplies the counts of every sample by a random factor, so
// that raw masses differ from proportions and totals differ.
func rescale(rng *rand.Rand, t *Table) *Table {
	out := sampleRange(t, 0, t.Len())
	for s := range out.Len() {
		f := 0.1 + 3*rng.Float64()
		for k := out.Indptr[s]; k < out.Indptr[s+1]; k++ {
			out.Values[k] *= f
		}
	}
	return out
}

// TestColumnsBruteForce checks Query against the brute-force distances of
// the definitions (bruteForceRaw on the queries and columns joined into one
// table), with proportions and raw masses.
func TestColumnsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range underRace([]struct{ L, nA, nB, k int }{{5, 3, 7, 3}, {60, 30, 40, 8}, {300, 270, 300, 30}, {200, 300, 530, 12}}, 3) {
		c.L, c.k = shrinkTree(c.L, c.k)
		tr := randomTree(t, rng, c.L)
		A := rescale(rng, randomTable(rng, c.L, c.nA, c.k))
		B := rescale(rng, randomTable(rng, c.L, c.nB, c.k))
		all := join(A, B)
		n := c.nA + c.nB
		for _, raw := range []bool{false, true} {
			for _, m := range methods {
				for _, alpha := range []float64{0, 0.5, 1} {
					if m != Generalized && alpha != 0 {
						continue
					}
					// Only the pairs of a query and a column are compared.
					want := bruteForcePairs(tr, all, m, alpha, raw, func(i, j int) bool { return i < c.nA && j >= c.nA })
					cols, err := NewColumns(tr, B, m, &Options{Alpha: alpha, Raw: raw})
					if err != nil {
						t.Fatal(err)
					}
					got := make([]float64, c.nA*c.nB)
					if err := cols.Query(context.Background(), got, A); err != nil {
						t.Fatal(err)
					}
					for i := range c.nA {
						for j := range c.nB {
							g, w := got[i*c.nB+j], want[i*n+c.nA+j]
							if diff := math.Abs(g - w); diff > 1e-12*math.Abs(w) && diff > 1e-13 {
								t.Fatalf("L=%d raw=%v %v α=%g: (%d, %d) = %.17g, want %.17g", c.L, raw, m, alpha, i, j, g, w)
							}
						}
					}
				}
			}
		}
	}
}

// TestColumnsChunks checks that the distances are the same bits whatever
// the cut of the queries into calls and the number of workers.
func TestColumnsChunks(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	L, nB, nA := 400, 600, 530
	if short() {
		L, nB, nA = 100, 300, 270 // past the 256-sample blocks still
	}
	tr := randomTree(t, rng, L)
	B := randomTable(rng, L, nB, 25)
	A := rescale(rng, randomTable(rng, L, nA, 25))
	nA, nB = A.Len(), B.Len()
	for _, m := range methods {
		var ref []float64
		for _, workers := range []int{1, 2, 4} {
			cols, err := NewColumns(tr, B, m, &Options{Alpha: 0.5, Workers: workers, Raw: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, chunk := range []int{1, 7, nA} {
				got := make([]float64, nA*nB)
				for lo := 0; lo < nA; lo += chunk {
					hi := min(lo+chunk, nA)
					if err := cols.Query(context.Background(), got[lo*nB:hi*nB], sampleRange(A, lo, hi)); err != nil {
						t.Fatal(err)
					}
				}
				if ref == nil {
					ref = got
					continue
				}
				for k := range got {
					if math.Float64bits(got[k]) != math.Float64bits(ref[k]) {
						t.Fatalf("%v workers=%d chunk=%d: (%d, %d) = %v, 1 worker in one call %v", m, workers, chunk, k/nB, k%nB, got[k], ref[k])
					}
				}
			}
		}
	}
}

// TestColumnsSame checks that a query equal to a column is at distance
// exactly 0 (weighted and unweighted methods), the queries being the
// columns themselves, alone and among others, with raw masses and
// proportions.
func TestColumnsSame(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	tr := randomTree(t, rng, 300)
	B := rescale(rng, randomTable(rng, 300, 700, 30))
	n := B.Len()
	for _, raw := range []bool{false, true} {
		for _, m := range []Method{WeightedUnnormalized, WeightedNormalized, Unweighted} {
			cols, err := NewColumns(tr, B, m, &Options{Raw: raw})
			if err != nil {
				t.Fatal(err)
			}
			got := make([]float64, n*n)
			if err := cols.Query(context.Background(), got, B); err != nil {
				t.Fatal(err)
			}
			one := make([]float64, n)
			for i := range n {
				if got[i*n+i] != 0 {
					t.Fatalf("raw=%v %v: sample %d against itself = %g, want 0", raw, m, i, got[i*n+i])
				}
				if i%50 == 0 {
					if err := cols.Query(context.Background(), one, sampleRange(B, i, i+1)); err != nil {
						t.Fatal(err)
					}
					if one[i] != 0 {
						t.Fatalf("raw=%v %v: sample %d alone against itself = %g, want 0", raw, m, i, one[i])
					}
				}
			}
		}
	}
}

// TestColumnsRawZero checks raw samples with no mass: the weighted
// unnormalized distance of an empty sample to b is Σ_e w_e b_e, that of
// two empty samples 0 (brute force).
func TestColumnsRawZero(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	tr := randomTree(t, rng, 50)
	B := rescale(rng, randomTable(rng, 50, 20, 5))
	empty := &Table{Indptr: []int{0, 0, 1}, Indices: []int32{3}, Values: []float64{0}}
	B2 := join(B, empty)
	all := join(empty, B2)
	want := bruteForceRaw(tr, all, WeightedUnnormalized, 0, true)
	cols, err := NewColumns(tr, B2, WeightedUnnormalized, &Options{Raw: true})
	if err != nil {
		t.Fatal(err)
	}
	nB := B2.Len()
	got := make([]float64, 2*nB)
	if err := cols.Query(context.Background(), got, empty); err != nil {
		t.Fatal(err)
	}
	n := all.Len()
	for i := range 2 {
		for j := range nB {
			if w := want[i*n+2+j]; math.Abs(got[i*nB+j]-w) > 1e-12*w {
				t.Fatalf("(%d, %d) = %g, want %g", i, j, got[i*nB+j], w)
			}
		}
	}
	if _, err := NewColumns(tr, B2, WeightedUnnormalized, nil); err == nil {
		t.Fatal("NewColumns accepted an empty sample without Raw")
	}
}

// TestColumnsMemory checks that MaxBytes refuses before preparing, with a
// need that bounds what the columns then hold.
func TestColumnsMemory(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	tr := randomTree(t, rng, 400)
	B := randomTable(rng, 400, 600, 25)
	for _, m := range methods {
		cols, err := NewColumns(tr, B, m, &Options{Alpha: 0.5})
		if err != nil {
			t.Fatal(err)
		}
		_, err = NewColumns(tr, B, m, &Options{Alpha: 0.5, MaxBytes: 1000})
		var me *MemoryError
		if !errors.As(err, &me) || me.Limit != 1000 {
			t.Fatalf("%v: MaxBytes 1000 gave %v", m, err)
		}
		if me.Need < cols.Bytes() || me.Need > 2*cols.Bytes() {
			t.Fatalf("%v: need %d for columns of %d bytes", m, me.Need, cols.Bytes())
		}
		if _, err := NewColumns(tr, B, m, &Options{Alpha: 0.5, MaxBytes: me.Need}); err != nil {
			t.Fatalf("%v: MaxBytes = need: %v", m, err)
		}
	}
}
