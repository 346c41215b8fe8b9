package unifrac

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// TestGroupSums checks the tables of a group's terms against the sums of
// the lengths of each mask's branches taken one by one in increasing
// order (the definition of a term), for every byte and for tables built
// for a part of the bits only.
func TestGroupSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for range 20 {
		var w [groupBits]float64
		for i := range w {
			w[i] = rng.Float64() * math.Pow(10, float64(rng.IntN(6)-3))
		}
		used := groupMask(rng.Uint64())
		var lut [groupBytes][256]float64
		groupSums(&lut, &w, used)
		for h := range groupBytes {
			u := uint8(used >> (8 * h))
			for m := range 256 {
				if m >= 1<<bitLen(u) {
					continue // past the table's built part
				}
				var want float64
				for i := range 8 {
					if m&(1<<i) != 0 {
						want += w[8*h+i]
					}
				}
				if got := lut[h][m]; math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("byte %d mask %#x: table %v, sum %v", h, m, got, want)
				}
			}
		}
		for range 200 {
			m := groupMask(rng.Uint64()) & used
			var want float64
			for h := range groupBytes {
				var s float64
				for i := range 8 {
					if m&(1<<(8*h+i)) != 0 {
						s += w[8*h+i]
					}
				}
				want += s
			}
			if got := groupTerm(&w, m); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("groupTerm(%#x) = %v, want %v", m, got, want)
			}
		}
	}
}

func bitLen(u uint8) int {
	n := 0
	for u != 0 {
		n++
		u >>= 1
	}
	return n
}

// groupCase returns the entries of a block of n samples over nsp sparse
// branches: sample l reaches each branch of its range with probability
// dens, and the masks of each sample by group, built directly.
func groupCase(rng *rand.Rand, n, nsp int, dens float64) (*entries, [][]groupMask) {
	ent := &entries{}
	ent.reserve(0, false, false)
	ng := (nsp + groupBits - 1) / groupBits
	masks := make([][]groupMask, n)
	for l := range n {
		masks[l] = make([]groupMask, ng)
		lo := rng.IntN(nsp)
		hi := lo + rng.IntN(nsp-lo+1)
		// Branches in a random order, as a walk lists them.
		for _, b := range rng.Perm(nsp) {
			if b >= lo && b < hi && rng.Float64() < dens {
				ent.add(int32(b), uint8(l), 0, 0)
				masks[l][b/groupBits] |= 1 << (b % groupBits)
			}
		}
	}
	return ent, masks
}

// TestSparseGroups checks the unweighted pair sums of two blocks against
// their definition computed pair by pair from the samples' masks (each
// group's term in increasing group order), bit for bit, for sparse and
// rich samples, across two blocks and within one.
func TestSparseGroups(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	for _, c := range []struct {
		na, nb, nsp int
		dens        float64
	}{{5, 7, 40, 0.5}, {256, 256, 300, 0.02}, {256, 200, 300, 0.3}, {200, 256, 500, 0.9}, {256, 256, 64, 1}} {
		wsp := make([]float64, c.nsp)
		for i := range wsp {
			wsp[i] = rng.Float64()
		}
		var scratch []int32
		ea, ma := groupCase(rng, c.na, c.nsp, c.dens)
		eb, mb := groupCase(rng, c.nb, c.nsp, c.dens)
		ba, bb := makeGroupBlock(ea, &scratch), makeGroupBlock(eb, &scratch)
		// The blocks hold the masks, by increasing group and place.
		for _, x := range []struct {
			b *block
			m [][]groupMask
		}{{&ba, ma}, {&bb, mb}} {
			k := 0
			for g := range x.m[0] {
				var want []int
				for l := range x.m {
					if x.m[l][g] != 0 {
						want = append(want, l)
					}
				}
				if len(want) == 0 {
					continue
				}
				if x.b.br[k] != int32(g) || int(x.b.ptr[k+1]-x.b.ptr[k]) != len(want) {
					t.Fatalf("group %d: block has group %d with %d entries, want %d", g, x.b.br[k], x.b.ptr[k+1]-x.b.ptr[k], len(want))
				}
				for j, l := range want {
					p := x.b.ptr[k] + int32(j)
					if int(x.b.loc[p]) != l || x.b.bits[p] != x.m[l][g] {
						t.Fatalf("group %d entry %d: (%d, %#x), want (%d, %#x)", g, j, x.b.loc[p], x.b.bits[p], l, x.m[l][g])
					}
				}
				k++
			}
			if k != len(x.b.br) {
				t.Fatalf("block has %d groups, want %d", len(x.b.br), k)
			}
		}
		ref := func(a, b []groupMask) float64 {
			var s float64
			for g := range a {
				if m := a[g] & b[g]; m != 0 {
					w := groupLens(wsp, int32(g))
					s += groupTerm(&w, m)
				}
			}
			return s
		}
		acc := make([]float64, blockSize*blockSize)
		sparseMin(acc, &ba, &bb, wsp, false, false)
		for i := range c.na {
			for j := range c.nb {
				if got, want := acc[i*blockSize+j], ref(ma[i], mb[j]); math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("%+v: pair (%d, %d) = %v, want %v", c, i, j, got, want)
				}
			}
		}
		clear(acc)
		sparseMin(acc, &ba, &ba, wsp, true, true)
		var tot [blockSize]float64
		groupTotals(&tot, &ba, wsp)
		for i := range c.na {
			if want := ref(ma[i], ma[i]); math.Float64bits(tot[i]) != math.Float64bits(want) {
				t.Fatalf("%+v: total of %d = %v, want %v", c, i, tot[i], want)
			}
			for j := range c.na {
				want := 0.0
				if i < j {
					want = ref(ma[i], ma[j])
				}
				if got := acc[i*blockSize+j]; math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("%+v: diagonal pair (%d, %d) = %v, want %v", c, i, j, got, want)
				}
			}
		}
	}
}

// richTable returns n samples that each hold a random half or more of the
// nodes of one of a few subtrees (with their counts), so that samples of
// one subtree reach most of its branches: groups of branches with many
// bits shared by many pairs.
func richTable(rng *rand.Rand, L, n int) *Table {
	tab := &Table{Indptr: []int{0}}
	for s := range n {
		lo := rng.IntN(4) * L / 4
		span := L/4 - rng.IntN(L/8)
		for i := lo; i < lo+span && i < L; i++ {
			if rng.IntN(3) != 0 {
				tab.Indices = append(tab.Indices, int32(i))
				tab.Values = append(tab.Values, float64(1+rng.IntN(9)))
			}
		}
		tab.Indices = append(tab.Indices, int32(rng.IntN(L)))
		tab.Values = append(tab.Values, 1)
		tab.Indptr = append(tab.Indptr, len(tab.Indices))
		tab.IDs = append(tab.IDs, "r"+itoa(s))
	}
	return tab
}

// TestUnweightedRich checks unweighted distances between rich samples
// against the brute force (to 1e-12) in every layout, and that copies of a
// sample (the same branches reached) are at exactly 0 in Matrix, Rows and
// Columns.
func TestUnweightedRich(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	L := 600
	if short() {
		L = 150
	}
	tr := randomTree(t, rng, L)
	tab, pairs := withCopies(rng, richTable(rng, L, 560), 80, true)
	n := tab.Len()
	want := bruteForce(tr, tab, Unweighted, 0)
	ctx := context.Background()
	for _, frac := range []float64{0, defaultDense, 2} {
		e := mustNew(t, tr, tab, Unweighted, &Options{Workers: 2}, frac)
		got := make([]float64, n*n)
		if err := e.Matrix(ctx, got); err != nil {
			t.Fatal(err)
		}
		rows := make([]float64, 300*n)
		if err := e.Rows(ctx, rows, 200, 500); err != nil {
			t.Fatal(err)
		}
		for k := range got {
			if diff := math.Abs(got[k] - want[k]); diff > 1e-12*math.Abs(want[k]) && diff > 1e-15 {
				t.Fatalf("dense≥%g: pair (%d, %d) = %.17g, want %.17g", frac, k/n, k%n, got[k], want[k])
			}
			if i := k / n; i >= 200 && i < 500 && math.Float64bits(rows[k-200*n]) != math.Float64bits(got[k]) {
				t.Fatalf("dense≥%g: Rows (%d, %d) = %v, Matrix %v", frac, i, k%n, rows[k-200*n], got[k])
			}
		}
		for _, p := range pairs {
			if d := got[p[0]*n+p[1]]; d != 0 {
				t.Fatalf("dense≥%g: copies (%d, %d) at %g", frac, p[0], p[1], d)
			}
		}
	}
	cols, err := NewColumns(tr, tab, Unweighted, nil)
	if err != nil {
		t.Fatal(err)
	}
	q := make([]float64, n*n)
	if err := cols.Query(ctx, q, tab); err != nil {
		t.Fatal(err)
	}
	for _, p := range pairs {
		if d := q[p[0]*n+p[1]]; d != 0 {
			t.Fatalf("Columns.Query: copies (%d, %d) at %g", p[0], p[1], d)
		}
	}
	for k := range q {
		if diff := math.Abs(q[k] - want[k]); diff > 1e-12*math.Abs(want[k]) && diff > 1e-15 {
			t.Fatalf("Columns.Query: pair (%d, %d) = %.17g, want %.17g", k/n, k%n, q[k], want[k])
		}
	}
}
