package tw

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// randomSparse returns a distribution with k distinct labels out of L,
// masses from a Dirichlet(1) draw (normalized exponentials).
func randomSparse(rng *rand.Rand, L, k int) ([]int, []float64) {
	idx := rng.Perm(L)[:k]
	m := make([]float64, k)
	var s float64
	for i := range m {
		m[i] = rng.ExpFloat64()
		s += m[i]
	}
	for i := range m {
		m[i] /= s
	}
	return idx, m
}

func scatter(L int, idx []int, m []float64) []float64 {
	d := make([]float64, L)
	for k, i := range idx {
		d[i] += m[k]
	}
	return d
}

// TestSparseAgainstDense compares Sparse.Distance, forced onto its sparse
// form, with the dense sweep of Workspace.Distance (an independent
// algorithm: subtree sums over every node) on random trees, chains, stars
// and forests, with masses on internal nodes, shared labels, and labels
// listed with zero mass.
func TestSparseAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	forest, err := tree.FromParents([]int{-1, 0, 0, -1, 3, 3, 4, -1}, []float64{0, 0.5, 2, 0, 1, 3, 0.25, 0}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	trees := map[string]*tree.Tree{
		"random": tree.Random(500, rand.NewPCG(3, 4)),
		"chain":  tree.Chain(300),
		"star":   tree.Star(200),
		"forest": forest,
		"bfs":    tree.Random(400, rand.NewPCG(5, 6)).BreadthFirst(),
		"one":    tree.Chain(1),
	}
	for name, tr := range trees {
		L := tr.Len()
		ws := NewWorkspace(tr)
		s := NewSparse(tr)
		s.denseAbove = math.MaxInt
		for trial := range 200 {
			ka, kb := 1+rng.IntN(min(L, 12)), 1+rng.IntN(min(L, 12))
			ai, am := randomSparse(rng, L, ka)
			bi, bm := randomSparse(rng, L, kb)
			if trial%5 == 0 {
				// b shares a's labels, one of them with zero mass.
				bi = append([]int(nil), ai...)
				bm = append([]float64(nil), am...)
				bm[0], bm[len(bm)-1] = bm[0]+bm[len(bm)-1], 0
			}
			want := ws.Distance(scatter(L, ai, am), scatter(L, bi, bm))
			got := s.Distance(ai, am, bi, bm)
			if math.Abs(got-want) > 1e-12*max(1, want) {
				t.Fatalf("%s trial %d: sparse %v, dense %v", name, trial, got, want)
			}
			// The dense fallback gives the same value.
			s.denseAbove = 0
			if d := s.Distance(ai, am, bi, bm); math.Abs(d-want) > 1e-12*max(1, want) {
				t.Fatalf("%s trial %d: fallback %v, dense %v", name, trial, d, want)
			}
			s.denseAbove = math.MaxInt
		}
	}
}

// TestSparseHand checks values worked out by hand on the weighted tree
//
//	r ─2─ x ─3─ y
//	r ─5─ z
//
// (labels r, x, y, z = 0, 1, 2, 3).
func TestSparseHand(t *testing.T) {
	tr, err := tree.FromParents([]int{-1, 0, 1, 0}, []float64{0, 2, 3, 5}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSparse(tr)
	s.denseAbove = math.MaxInt
	cases := []struct {
		ai   []int
		am   []float64
		bi   []int
		bm   []float64
		want float64
	}{
		{[]int{2}, []float64{1}, []int{3}, []float64{1}, 10},          // y → z: 3 + 2 + 5
		{[]int{2}, []float64{1}, []int{1}, []float64{1}, 3},           // y → x
		{[]int{2, 3}, []float64{0.5, 0.5}, []int{0}, []float64{1}, 5}, // 0.5·5 + 0.5·5
		{[]int{1}, []float64{1}, []int{1}, []float64{1}, 0},           // equal
		{nil, nil, nil, nil, 0},                                       // both empty
		{[]int{0, 2}, []float64{0, 1}, []int{2}, []float64{1}, 0},     // a zero listed
	}
	for i, c := range cases {
		if got := s.Distance(c.ai, c.am, c.bi, c.bm); got != c.want {
			t.Errorf("case %d: %v, want %v (by hand)", i, got, c.want)
		}
	}
	// Finite masses whose sum overflows are not NaN: the same as the dense
	// sweep, 0 here (a = b).
	s.denseAbove = math.MaxInt
	if got := s.Distance([]int{1, 3}, []float64{1e308, 1e308}, []int{1, 3}, []float64{1e308, 1e308}); got != 0 {
		t.Errorf("huge equal masses give %v, want 0", got)
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		for _, label := range []int{0, 1, 2} { // the root, an inner node, a leaf
			for _, dense := range []int{math.MaxInt, 0} {
				s.denseAbove = dense
				if got := s.Distance([]int{label}, []float64{bad}, []int{3}, []float64{1}); !math.IsNaN(got) {
					t.Errorf("mass %v at label %d (dense above %d) gives %v, want NaN", bad, label, dense, got)
				}
				if got := s.Distance([]int{3}, []float64{1}, []int{label, 3}, []float64{bad, 1}); !math.IsNaN(got) {
					t.Errorf("b: mass %v at label %d (dense above %d) gives %v, want NaN", bad, label, dense, got)
				}
			}
		}
	}
}

func TestSparsePanics(t *testing.T) {
	s := NewSparse(tree.Chain(10))
	for name, f := range map[string]func(){
		"length": func() { s.Distance([]int{1}, nil, nil, nil) },
		"range":  func() { s.Distance([]int{10}, []float64{1}, nil, nil) },
		"neg":    func() { s.Distance(nil, nil, []int{-1}, []float64{1}) },
		"nil":    func() { NewSparse(nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// BenchmarkSparse times one distance between distributions of 20 labels on
// random trees of 10⁵ and 10⁶ nodes, beside the dense sweep.
func BenchmarkSparse(b *testing.B) {
	for _, L := range []int{100_000, 1_000_000} {
		tr := tree.Random(L, rand.NewPCG(7, 8))
		rng := rand.New(rand.NewPCG(9, 10))
		const pairs = 64
		ai, am := make([][]int, pairs), make([][]float64, pairs)
		bi, bm := make([][]int, pairs), make([][]float64, pairs)
		for k := range pairs {
			ai[k], am[k] = randomSparse(rng, L, 20)
			bi[k], bm[k] = randomSparse(rng, L, 20)
		}
		b.Run(sparseBenchName("sparse", L), func(b *testing.B) {
			s := NewSparse(tr)
			b.ReportAllocs()
			for i := range b.N {
				k := i % pairs
				s.Distance(ai[k], am[k], bi[k], bm[k])
			}
		})
		b.Run(sparseBenchName("dense", L), func(b *testing.B) {
			s := NewSparse(tr)
			s.denseAbove = 0
			b.ReportAllocs()
			for i := range b.N {
				k := i % pairs
				s.Distance(ai[k], am[k], bi[k], bm[k])
			}
		})
	}
}

func sparseBenchName(form string, L int) string {
	if L >= 1_000_000 {
		return form + "/L=1e6"
	}
	return form + "/L=1e5"
}

// Distances between distributions held by their non-zero labels, on a chain
// of a million labels: each costs microseconds, not a sweep of the tree.
func ExampleSparse() {
	t := tree.Chain(1_000_000) // 0 — 1 — 2 — … — 999999, unit weights
	s := NewSparse(t)
	// Half the mass 10 steps from the other distribution's mass, half at
	// the same label: 0.5 · 10.
	fmt.Println(s.Distance([]int{500_000, 900_000}, []float64{0.5, 0.5}, []int{500_010, 900_000}, []float64{0.5, 0.5}))
	// Output: 5
}
