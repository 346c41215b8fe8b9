package unifrac

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// tipTable returns n samples of up to k tips of tr each, counts 0 to 9
// (some zero), a few samples empty when empty is set.
func tipTable(rng *rand.Rand, tr *tree.Tree, n, k int, empty bool) *Table {
	var tips []int32
	for i := range tr.Len() {
		if tr.IsLeaf(i) {
			tips = append(tips, int32(i))
		}
	}
	tab := &Table{Indptr: []int{0}}
	for s := range n {
		m := 1 + rng.IntN(k)
		if empty && rng.IntN(8) == 0 {
			m = 0
		}
		for range m {
			tab.Indices = append(tab.Indices, tips[rng.IntN(len(tips))])
			tab.Values = append(tab.Values, float64(rng.IntN(10)))
		}
		if m > 0 && !empty {
			tab.Indices = append(tab.Indices, tips[rng.IntN(len(tips))])
			tab.Values = append(tab.Values, float64(1+rng.IntN(9)))
		}
		tab.Indptr = append(tab.Indptr, len(tab.Indices))
		tab.IDs = append(tab.IDs, "s"+itoa(s))
	}
	return tab
}

// checkMatrix compares got with want: within tol relative to the larger of
// |want| and the matrix's largest value times 1e-3; a NaN of the
// reference (0/0: two samples reaching no branch of positive weight) must
// be 0.
func checkMatrix(t *testing.T, what string, n int, got, want []float64, tol float64) {
	t.Helper()
	big := 0.0
	for _, x := range want {
		if !math.IsNaN(x) {
			big = max(big, math.Abs(x))
		}
	}
	for k := range got {
		w := want[k]
		if math.IsNaN(w) {
			w = 0
		}
		if diff := math.Abs(got[k] - w); diff > tol*max(math.Abs(w), 1e-3*big) && diff > 1e-300 {
			t.Fatalf("%s: pair (%d, %d) = %.17g, want %.17g", what, k/n, k%n, got[k], want[k])
		}
	}
}

// TestOptionsReference compares every method, with and without Raw,
// BypassTips and VarianceAdjusted, to reference on random trees
// (zero-length branches, nodes with one child) and tables of tips, some
// samples sharing nothing, and checks that the values do not depend on
// the number of workers, nor (variance adjusted) on whether the one-sided
// sums are global or per tile.
func TestOptionsReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 1))
	ctx := context.Background()
	for _, c := range underRace([]struct{ L, n, k int }{{6, 5, 2}, {50, 30, 6}, {200, 300, 20}}, 2) {
		tr := randomTree(t, rng, c.L)
		for _, raw := range []bool{false, true} {
			tab := tipTable(rng, tr, c.n, c.k, raw)
			for _, m := range methods {
				for _, c2 := range []struct{ bypass, vaw bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
					bypass := c2.bypass
					o := Options{Alpha: 0.5, Raw: raw, BypassTips: bypass, VarianceAdjusted: c2.vaw}
					want := reference(tr, tab, m, o)
					var first []float64
					for _, workers := range []int{1, 3} {
						o.Workers = workers
						vawPerTile = c2.vaw && workers == 3 // one-sided sums per tile
						e, err := New(tr, tab, m, &o)
						vawPerTile = false
						if err != nil {
							t.Fatal(err)
						}
						got := make([]float64, c.n*c.n)
						if err := e.Matrix(ctx, got); err != nil {
							t.Fatal(err)
						}
						what := m.String()
						if raw {
							what += " raw"
						}
						if bypass {
							what += " bypass"
						}
						if c2.vaw {
							what += " vaw"
						}
						checkMatrix(t, what, c.n, got, want, 1e-11)
						if first == nil {
							first = got
						}
						for k := range got {
							if math.Float64bits(got[k]) != math.Float64bits(first[k]) {
								t.Fatalf("%s: pair %d differs with %d workers", what, k, workers)
							}
						}
					}
				}
			}
		}
	}
}

// TestBypassListed checks the tips that a table lists without counts:
// they keep their parent's branch in the pruned tree, as ssu keeps every
// observation of its table, whether they come as zero entries or in
// Listed. The tree ((A:1,B:2)x:3,(C:4,D:5)y:6); with S1 = {A:1, B:2,
// D:5} and S2 = {B:3, D:1}: with C listed, y keeps its branch (6), and the
// weighted unnormalized distance is |3/8 − 3/4|·3 + |5/8 − 1/4|·6 = 3.375;
// without C, y and D merge into one tip branch and only x's is left:
// 1.125. ssu 1.2 (-m weighted_unnormalized_fp64 -f) writes the same two
// values for the BIOM tables with and without the all-zero observation C.
func TestBypassListed(t *testing.T) {
	tr, err := tree.FromParents([]int{-1, 0, 1, 1, 0, 4, 4}, []float64{0, 3, 1, 2, 6, 4, 5},
		[]string{"r", "x", "A", "B", "y", "C", "D"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	base := Table{Indptr: []int{0, 3, 5}, Indices: []int32{2, 3, 6, 3, 6}, Values: []float64{1, 2, 5, 3, 1}}
	zero := Table{Indptr: []int{0, 4, 6}, Indices: []int32{2, 3, 5, 6, 3, 6}, Values: []float64{1, 2, 0, 5, 3, 1}}
	listed := base
	listed.Listed = []int32{5}
	for _, c := range []struct {
		name string
		tab  Table
		want float64
	}{{"without C", base, 1.125}, {"C as a zero entry", zero, 3.375}, {"C in Listed", listed, 3.375}} {
		e, err := New(tr, &c.tab, WeightedUnnormalized, &Options{BypassTips: true})
		if err != nil {
			t.Fatal(err)
		}
		d := make([]float64, 1)
		if err := e.Condensed(context.Background(), d); err != nil {
			t.Fatal(err)
		}
		if math.Abs(d[0]-c.want) > 1e-15 {
			t.Errorf("%s: %v, want %v", c.name, d[0], c.want)
		}
	}
	if _, err := New(tr, &Table{Indptr: []int{0, 1}, Indices: []int32{2}, Values: []float64{1}, Listed: []int32{7}}, Unweighted, nil); err == nil {
		t.Error("a listed node out of range is accepted")
	}
	if _, err := NewColumns(tr, &base, Unweighted, &Options{BypassTips: true}); err == nil {
		t.Error("NewColumns accepts BypassTips")
	}
}

// TestFaithPD compares with referenceFaith on random trees and tables
// (counts on internal nodes, zero counts, repeated nodes, empty samples)
// and checks that the values depend neither on the workers nor on the
// order of a row's entries.
func TestFaithPD(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 2))
	for _, c := range []struct{ L, n, k int }{{1, 3, 1}, {7, 5, 3}, {300, 130, 20}, {2000, 200, 60}} {
		tr := randomTree(t, rng, c.L)
		tab := randomTable(rng, c.L, c.n, c.k)
		tab.Values[tab.Indptr[1]-1] = 0 // the first sample may be empty
		want := referenceFaith(tr, tab)
		var first []float64
		for _, workers := range []int{1, 2, 5} {
			got := make([]float64, c.n)
			if err := FaithPD(got, tr, tab, &Options{Workers: workers}); err != nil {
				t.Fatal(err)
			}
			for s := range got {
				if math.Abs(got[s]-want[s]) > 1e-12*want[s] {
					t.Fatalf("L=%d sample %d: %v, want %v", c.L, s, got[s], want[s])
				}
			}
			if first == nil {
				first = got
			}
			for s := range got {
				if math.Float64bits(got[s]) != math.Float64bits(first[s]) {
					t.Fatalf("sample %d differs with %d workers", s, workers)
				}
			}
		}
		rev := *tab
		rev.Indices = append([]int32(nil), tab.Indices...)
		rev.Values = append([]float64(nil), tab.Values...)
		for s := range tab.Len() {
			lo, hi := tab.Indptr[s], tab.Indptr[s+1]
			for a, b := lo, hi-1; a < b; a, b = a+1, b-1 {
				rev.Indices[a], rev.Indices[b] = rev.Indices[b], rev.Indices[a]
				rev.Values[a], rev.Values[b] = rev.Values[b], rev.Values[a]
			}
		}
		got := make([]float64, c.n)
		if err := FaithPD(got, tr, &rev, nil); err != nil {
			t.Fatal(err)
		}
		for s := range got {
			if got[s] != first[s] {
				t.Fatalf("sample %d: %v with its row reversed, %v", s, got[s], first[s])
			}
		}
	}
	tr := randomTree(t, rng, 10)
	if err := FaithPD(make([]float64, 1), tr, &Table{Indptr: []int{0, 1}, Indices: []int32{3}, Values: []float64{-1}}, nil); err == nil {
		t.Error("a negative count is accepted")
	}
}

// TestVarianceAdjustedLayouts checks that Condensed, Rows in shards and
// Matrix agree bit for bit for the variance-adjusted methods (the rows of
// a shard gathered into blocks of their own), with the one-sided sums
// global or per tile.
func TestVarianceAdjustedLayouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 3))
	tr := randomTree(t, rng, 150)
	tab := tipTable(rng, tr, 300, 12, false)
	n := tab.Len()
	ctx := context.Background()
	defer func() { vawPerTile = false }()
	// Under the race detector, the two kernels' methods only.
	for _, m := range underRace([]Method{WeightedNormalized, Unweighted, WeightedUnnormalized, UnweightedUnnormalized, Generalized}, 2) {
		var ref []float64
		for _, perTile := range []bool{false, true} {
			vawPerTile = perTile
			e, err := New(tr, tab, m, &Options{Alpha: 0.5, VarianceAdjusted: true, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			full := make([]float64, n*n)
			if err := e.Matrix(ctx, full); err != nil {
				t.Fatal(err)
			}
			if ref == nil {
				ref = full
			}
			cond := make([]float64, n*(n-1)/2)
			if err := e.Condensed(ctx, cond); err != nil {
				t.Fatal(err)
			}
			rows := make([]float64, n*n)
			for i0 := 0; i0 < n; i0 += 110 {
				i1 := min(i0+110, n)
				if err := e.Rows(ctx, rows[i0*n:i1*n], i0, i1); err != nil {
					t.Fatal(err)
				}
			}
			k := 0
			for i := range n {
				for j := range n {
					x := full[i*n+j]
					if math.Float64bits(x) != math.Float64bits(ref[i*n+j]) || math.Float64bits(rows[i*n+j]) != math.Float64bits(x) || x != full[j*n+i] {
						t.Fatalf("%v per tile %v: (%d, %d): matrix %v, first %v, rows %v, transposed %v", m, perTile, i, j, x, ref[i*n+j], rows[i*n+j], full[j*n+i])
					}
					if j > i {
						if cond[k] != x {
							t.Fatalf("%v: condensed (%d, %d) = %v, matrix %v", m, i, j, cond[k], x)
						}
						k++
					}
				}
			}
		}
	}
}

// TestVarianceAdjustedInternal compares the variance-adjusted methods with
// reference on tables with counts on internal nodes, repeated nodes and
// zero counts (randomTable), with and without Raw.
func TestVarianceAdjustedInternal(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 6))
	tr := randomTree(t, rng, 120)
	tab := randomTable(rng, 120, 280, 10)
	for _, m := range methods {
		for _, raw := range []bool{false, true} {
			o := Options{Alpha: 0.5, Raw: raw, VarianceAdjusted: true}
			got := matrixOf(t, tr, tab, m, &o)
			checkMatrix(t, m.String()+" internal", tab.Len(), got, reference(tr, tab, m, o), 1e-11)
		}
	}
}

// TestColumnsVarianceAdjusted checks the variance-adjusted Columns: Query
// of a table A against columns B gives the engine's values for the pairs
// of A and B, bit for bit (the engine of the joined table), and the
// reference's; Self gives Query's values of B against itself, bit for bit,
// diagonal included; the values do not depend on how A is cut into calls.
func TestColumnsVarianceAdjusted(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 7))
	tr := randomTree(t, rng, 100)
	A, B := tipTable(rng, tr, 60, 10, false), tipTable(rng, tr, 270, 10, false)
	all := join(A, B)
	nA, nB, n := A.Len(), B.Len(), all.Len()
	ctx := context.Background()
	for _, m := range underRace([]Method{WeightedNormalized, Unweighted, WeightedUnnormalized, UnweightedUnnormalized, Generalized}, 2) {
		for _, raw := range []bool{false, true} {
			o := Options{Alpha: 0.5, Raw: raw, VarianceAdjusted: true}
			eng := matrixOf(t, tr, all, m, &o)
			want := reference(tr, all, m, o)
			cols, err := NewColumns(tr, B, m, &o)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]float64, nA*nB)
			const cut = 25
			if err := cols.Query(ctx, got[:cut*nB], &Table{Indptr: A.Indptr[:cut+1], Indices: A.Indices[:A.Indptr[cut]], Values: A.Values[:A.Indptr[cut]]}); err != nil {
				t.Fatal(err)
			}
			rest := &Table{Indptr: make([]int, nA-cut+1), Indices: A.Indices[A.Indptr[cut]:], Values: A.Values[A.Indptr[cut]:]}
			for k := range rest.Indptr {
				rest.Indptr[k] = A.Indptr[cut+k] - A.Indptr[cut]
			}
			if err := cols.Query(ctx, got[cut*nB:], rest); err != nil {
				t.Fatal(err)
			}
			for i := range nA {
				for j := range nB {
					g, e := got[i*nB+j], eng[i*n+nA+j]
					if math.Float64bits(g) != math.Float64bits(e) {
						t.Fatalf("%v raw=%v: Query (%d, %d) = %v, engine %v", m, raw, i, j, g, e)
					}
				}
			}
			checkMatrix(t, m.String()+" columns", n, eng, want, 1e-11)
			q := queryAll(t, cols, B)
			cond, diag := selfOf(t, cols)
			for i := range nB {
				if math.Float64bits(diag[i]) != math.Float64bits(q[i*nB+i]) || diag[i] > 1e-12 {
					t.Fatalf("%v raw=%v: diagonal %d = %v, Query %v", m, raw, i, diag[i], q[i*nB+i])
				}
				for j := i + 1; j < nB; j++ {
					g := cond[i*nB-i*(i+1)/2+j-i-1]
					if math.Float64bits(g) != math.Float64bits(q[i*nB+j]) || math.Float64bits(g) != math.Float64bits(q[j*nB+i]) {
						t.Fatalf("%v raw=%v: Self (%d, %d) = %v, Query %v and %v", m, raw, i, j, g, q[i*nB+j], q[j*nB+i])
					}
				}
			}
		}
	}
}

// TestVarianceAdjustedEqual checks that equal samples (the same counts,
// listed in another order) are at distance exactly 0 with variance
// adjustment, for every method, in the engine and in Columns, and so are
// two samples on one tip, whose every branch holds all their counts (a
// zero divisor everywhere: 0/0, which ssu writes as NaN).
func TestVarianceAdjustedEqual(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 8))
	tr := randomTree(t, rng, 200)
	tab := tipTable(rng, tr, 280, 15, false)
	// Sample 2k+1 is sample 2k with its row reversed.
	for s := 0; s+1 < tab.Len(); s += 2 {
		lo, hi := tab.Indptr[s], tab.Indptr[s+1]
		row := &Table{Indptr: []int{0}}
		for k := hi - 1; k >= lo; k-- {
			row.Indices = append(row.Indices, tab.Indices[k])
			row.Values = append(row.Values, tab.Values[k])
		}
		tab = splice(tab, s+1, row)
	}
	for _, m := range methods {
		o := &Options{Alpha: 0.5, VarianceAdjusted: true}
		d := matrixOf(t, tr, tab, m, o)
		n := tab.Len()
		cols, err := NewColumns(tr, tab, m, o)
		if err != nil {
			t.Fatal(err)
		}
		q := queryAll(t, cols, tab)
		for s := 0; s+1 < n; s += 2 {
			if d[s*n+s+1] != 0 || q[s*n+s+1] != 0 || q[s*n+s] != 0 {
				t.Fatalf("%v: equal samples %d and %d at %v (Query %v, itself %v)", m, s, s+1, d[s*n+s+1], q[s*n+s+1], q[s*n+s])
			}
		}
	}
	tip := int32(0)
	for !tr.IsLeaf(int(tip)) {
		tip++
	}
	one := &Table{Indptr: []int{0, 1, 2}, Indices: []int32{tip, tip}, Values: []float64{3, 5}}
	for _, m := range methods {
		if d := matrixOf(t, tr, one, m, &Options{Alpha: 0.5, VarianceAdjusted: true})[1]; d != 0 {
			t.Errorf("%v: two samples on one tip at %v", m, d)
		}
	}
}

// splice returns tab with sample s's row replaced by row's first.
func splice(tab *Table, s int, row *Table) *Table {
	out := &Table{Indptr: []int{0}, IDs: tab.IDs}
	for i := range tab.Len() {
		idx, val := tab.Indices[tab.Indptr[i]:tab.Indptr[i+1]], tab.Values[tab.Indptr[i]:tab.Indptr[i+1]]
		if i == s {
			idx, val = row.Indices, row.Values
		}
		out.Indices = append(out.Indices, idx...)
		out.Values = append(out.Values, val...)
		out.Indptr = append(out.Indptr, len(out.Indices))
	}
	return out
}
