package unifrac

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// randomTree returns a random tree on L nodes (parent[i] < i) with random
// branch lengths, a tenth of them zero.
func randomTree(t testing.TB, rng *rand.Rand, L int) *tree.Tree {
	parent := make([]int, L)
	weight := make([]float64, L)
	parent[0] = -1
	for i := 1; i < L; i++ {
		// Bias towards recent nodes for deeper trees.
		parent[i] = i - 1 - rng.IntN(min(i, 1+rng.IntN(20)))
		weight[i] = rng.Float64()
		if rng.IntN(10) == 0 {
			weight[i] = 0
		}
	}
	tr, err := tree.FromParents(parent, weight, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// randomTable returns n samples of about k nodes each (any node, internal
// ones included, with some zero and repeated entries); some samples share
// a popular subset so that branches range from sparse to dense.
func randomTable(rng *rand.Rand, L, n, k int) *Table {
	tab := &Table{Indptr: []int{0}}
	for s := range n {
		m := 1 + rng.IntN(k)
		for range m {
			var i int
			if rng.IntN(3) == 0 {
				i = rng.IntN(min(L, 10))
			} else {
				i = rng.IntN(L)
			}
			c := float64(rng.IntN(20))
			tab.Indices = append(tab.Indices, int32(i))
			tab.Values = append(tab.Values, c)
		}
		tab.Indices = append(tab.Indices, int32(rng.IntN(L)))
		tab.Values = append(tab.Values, 1+float64(rng.IntN(5)))
		tab.Indptr = append(tab.Indptr, len(tab.Indices))
		tab.IDs = append(tab.IDs, "s"+string(rune('A'+s%26))+itoa(s))
	}
	return tab
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// bruteForce computes the full distance matrix from the definitions: the
// mass of every branch by summing, for each node of the sample, its
// proportion into all its ancestors, then the sums over all branches.
func bruteForce(tr *tree.Tree, tab *Table, m Method, alpha float64) []float64 {
	return bruteForceRaw(tr, tab, m, alpha, false)
}

// bruteForceRaw is bruteForce with the counts used as masses as they are
// when raw is set.
func bruteForceRaw(tr *tree.Tree, tab *Table, m Method, alpha float64, raw bool) []float64 {
	return bruteForcePairs(tr, tab, m, alpha, raw, nil)
}

// bruteForcePairs is bruteForceRaw for the pairs (i, j) for which pair
// returns true (all pairs when pair is nil); the others are left 0.
func bruteForcePairs(tr *tree.Tree, tab *Table, m Method, alpha float64, raw bool, pair func(i, j int) bool) []float64 {
	L := tr.Len()
	n := tab.Len()
	mass := make([][]float64, n)
	for s := range n {
		a := make([]float64, L)
		var sum float64
		for k := tab.Indptr[s]; k < tab.Indptr[s+1]; k++ {
			sum += tab.Values[k]
		}
		for k := tab.Indptr[s]; k < tab.Indptr[s+1]; k++ {
			p := tab.Values[k] / sum
			if raw {
				p = tab.Values[k]
			}
			for v := int(tab.Indices[k]); v >= 0; v = tr.Parent(v) {
				a[v] += p
			}
		}
		mass[s] = a
	}
	d := make([]float64, n*n)
	for i := range n {
		for j := range n {
			if pair != nil && !pair(i, j) {
				continue
			}
			var num, den float64
			for v := range L {
				w := tr.Weight(v)
				if tr.Parent(v) < 0 {
					continue
				}
				a, b := mass[i][v], mass[j][v]
				switch m {
				case WeightedUnnormalized:
					num += w * math.Abs(a-b)
					den = 1
				case WeightedNormalized:
					num += w * math.Abs(a-b)
					den += w * (a + b)
				case Unweighted:
					if (a > 0) != (b > 0) {
						num += w
					}
					if a > 0 || b > 0 {
						den += w
					}
				case UnweightedUnnormalized:
					if (a > 0) != (b > 0) {
						num += w
					}
					den = 1
				case Generalized:
					if a+b > 0 {
						num += w * math.Pow(a+b, alpha) * math.Abs(a-b) / (a + b)
						den += w * math.Pow(a+b, alpha)
					}
				}
			}
			if den != 0 {
				d[i*n+j] = num / den
			}
		}
	}
	return d
}

func mustNew(t testing.TB, tr *tree.Tree, tab *Table, m Method, opts *Options, frac float64) *Engine {
	t.Helper()
	e, err := newEngine(tr, tab, m, opts, frac, true)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

var methods = []Method{WeightedUnnormalized, WeightedNormalized, Unweighted, Generalized, UnweightedUnnormalized}

func TestBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range underRace([]struct{ L, n, k int }{{5, 7, 3}, {60, 40, 8}, {300, 300, 30}, {200, 530, 12}}, 3) {
		c.L, c.k = shrinkTree(c.L, c.k)
		tr := randomTree(t, rng, c.L)
		tab := randomTable(rng, c.L, c.n, c.k)
		for _, m := range methods {
			for _, alpha := range []float64{0, 0.5, 1} {
				if m != Generalized && alpha != 0 {
					continue
				}
				want := bruteForce(tr, tab, m, alpha)
				for _, frac := range []float64{0, defaultDense, 0.6, 2} {
					e := mustNew(t, tr, tab, m, &Options{Alpha: alpha}, frac)
					got := make([]float64, c.n*c.n)
					if err := e.Matrix(context.Background(), got); err != nil {
						t.Fatal(err)
					}
					for k := range got {
						if diff := math.Abs(got[k] - want[k]); diff > 1e-12*math.Abs(want[k]) && diff > 1e-15 {
							t.Fatalf("L=%d n=%d %v α=%g dense≥%g: pair (%d, %d) = %.17g, want %.17g (rel %.3g)",
								c.L, c.n, m, alpha, frac, k/c.n, k%c.n, got[k], want[k], diff/math.Abs(want[k]))
						}
					}
				}
			}
		}
	}
}

// TestLayouts checks that Matrix, Condensed, Rows in shards and the float32
// forms agree bit for bit, whatever the number of workers.
func TestLayouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	L, n := 400, 700
	if short() {
		L, n = 100, 520
	}
	tr := randomTree(t, rng, L)
	tab := randomTable(rng, L, n, 25)
	ctx := context.Background()
	for _, m := range methods {
		var ref []float64
		for _, workers := range layoutWorkers() {
			e := mustNew(t, tr, tab, m, &Options{Alpha: 0.5, Workers: workers}, defaultDense)
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
			full32 := make([]float32, n*n)
			if err := e.Matrix32(ctx, full32); err != nil {
				t.Fatal(err)
			}
			k := 0
			for i := range n {
				for j := range n {
					if math.Float64bits(full[i*n+j]) != math.Float64bits(ref[i*n+j]) {
						t.Fatalf("%v workers=%d: (%d, %d) = %v, 1 worker %v", m, workers, i, j, full[i*n+j], ref[i*n+j])
					}
					if full[i*n+j] != full[j*n+i] || (i == j && full[i*n+j] != 0) {
						t.Fatalf("%v: matrix not symmetric with zero diagonal at (%d, %d)", m, i, j)
					}
					if full32[i*n+j] != float32(full[i*n+j]) {
						t.Fatalf("%v: Matrix32 (%d, %d)", m, i, j)
					}
					if j > i {
						if cond[k] != full[i*n+j] {
							t.Fatalf("%v: Condensed (%d, %d) = %v, Matrix %v", m, i, j, cond[k], full[i*n+j])
						}
						k++
					}
				}
			}
			for _, cut := range [][2]int{{0, n}, {0, 1}, {5, 300}, {255, 257}, {511, n}, {n, n}} {
				i0, i1 := cut[0], cut[1]
				r := make([]float64, (i1-i0)*n)
				if err := e.Rows(ctx, r, i0, i1); err != nil {
					t.Fatal(err)
				}
				r32 := make([]float32, (i1-i0)*n)
				if err := e.Rows32(ctx, r32, i0, i1); err != nil {
					t.Fatal(err)
				}
				for k := range r {
					if math.Float64bits(r[k]) != math.Float64bits(full[i0*n+k]) || r32[k] != float32(r[k]) {
						t.Fatalf("%v: Rows(%d, %d) element %d = %v, Matrix %v", m, i0, i1, k, r[k], full[i0*n+k])
					}
				}
			}
		}
	}
}

// TestGrouping checks that ordering the samples by clade changes no bit:
// the engine in the table's order is the reference.
func TestGrouping(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	tr := randomTree(t, rng, 300)
	tab := randomTable(rng, 300, 600, 12)
	n := tab.Len()
	ctx := context.Background()
	for _, m := range methods {
		opts := &Options{Alpha: 0.7, Workers: 3}
		g, err := newEngine(tr, tab, m, opts, defaultDense, true)
		if err != nil {
			t.Fatal(err)
		}
		if g.perm == nil || slices.IsSorted(g.perm) {
			t.Fatalf("%v: samples not reordered", m)
		}
		plain, err := newEngine(tr, tab, m, opts, defaultDense, false)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]float64, n*n)
		got := make([]float64, n*n)
		if err := plain.Matrix(ctx, want); err != nil {
			t.Fatal(err)
		}
		if err := g.Matrix(ctx, got); err != nil {
			t.Fatal(err)
		}
		for k := range got {
			if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
				t.Fatalf("%v: (%d, %d) = %v grouped, %v in table order", m, k/n, k%n, got[k], want[k])
			}
		}
	}
}

// TestHand checks a four-node tree by hand: root → u (1), u → A (2),
// u → B (3), root → C (4); X = {A: 1, B: 1}, Z = {A: 3, C: 1}.
func TestHand(t *testing.T) {
	tr, err := tree.FromParents([]int{-1, 0, 1, 1, 0}, []float64{0, 1, 2, 3, 4},
		[]string{"r", "u", "A", "B", "C"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tab := &Table{IDs: []string{"X", "Z"}, Indptr: []int{0, 2, 4},
		Indices: []int32{2, 3, 2, 4}, Values: []float64{1, 1, 3, 1}}
	// Branch masses: X: A .5, B .5, u 1, C 0; Z: A .75, B 0, u .75, C .25.
	h := math.Sqrt
	for _, c := range []struct {
		m     Method
		alpha float64
		want  float64
	}{
		{WeightedUnnormalized, 0, 2*0.25 + 3*0.5 + 1*0.25 + 4*0.25},
		{WeightedNormalized, 0, 3.25 / (2*1.25 + 3*0.5 + 1*1.75 + 4*0.25)},
		{Unweighted, 0, (3.0 + 4) / (1 + 2 + 3 + 4)},
		{Generalized, 0.5, (2*h(1.25)*0.25/1.25 + 3*h(0.5) + 1*h(1.75)*0.25/1.75 + 4*h(0.25)) /
			(2*h(1.25) + 3*h(0.5) + h(1.75) + 4*h(0.25))},
		{Generalized, 1, 3.25 / 6.75},
	} {
		for _, frac := range []float64{0, 2} {
			e := mustNew(t, tr, tab, c.m, &Options{Alpha: c.alpha}, frac)
			got := make([]float64, 1)
			if err := e.Condensed(context.Background(), got); err != nil {
				t.Fatal(err)
			}
			if math.Abs(got[0]-c.want) > 1e-15 {
				t.Errorf("%v α=%g dense≥%g: %.17g, want %.17g", c.m, c.alpha, frac, got[0], c.want)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	tr := tree.Random(5, rand.NewPCG(1, 1))
	for _, tab := range []*Table{
		{Indptr: []int{0, 1}, Indices: []int32{5}, Values: []float64{1}},
		{Indptr: []int{0, 1}, Indices: []int32{1}, Values: []float64{-1}},
		{Indptr: []int{0, 1}, Indices: []int32{1}, Values: []float64{math.NaN()}},
		{Indptr: []int{0, 1}, Indices: []int32{1}, Values: []float64{0}},
		{Indptr: []int{0, 2}, Indices: []int32{1}, Values: []float64{1}},
		{IDs: []string{"a", "b"}, Indptr: []int{0, 1}, Indices: []int32{1}, Values: []float64{1}},
	} {
		if _, err := New(tr, tab, Unweighted, nil); err == nil {
			t.Errorf("New(%+v) = nil error", tab)
		}
	}
	tab := &Table{Indptr: []int{0, 1, 2}, Indices: []int32{1, 2}, Values: []float64{1, 1}}
	if _, err := New(tr, tab, Generalized, &Options{Alpha: math.Inf(1)}); err == nil {
		t.Error("infinite alpha accepted")
	}
	e, err := New(tr, tab, Unweighted, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := e.Matrix(ctx, make([]float64, 4)); err == nil {
		t.Error("cancelled context: nil error")
	}
	defer func() {
		if recover() == nil {
			t.Error("short destination did not panic")
		}
	}()
	e.Matrix(context.Background(), make([]float64, 3))
}

func TestProgress(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	tr := randomTree(t, rng, 100)
	tab := randomTable(rng, 100, 600, 10)
	last, total := 0, 0
	e := mustNew(t, tr, tab, WeightedNormalized, &Options{Workers: 2, Progress: func(done, tot int) {
		if done != last+1 {
			t.Errorf("progress %d after %d", done, last)
		}
		last, total = done, tot
	}}, defaultDense)
	if err := e.Condensed(context.Background(), make([]float64, 600*599/2)); err != nil {
		t.Fatal(err)
	}
	if last != total || total != 6 {
		t.Errorf("progress ended at %d of %d, want 6 of 6", last, total)
	}
}
