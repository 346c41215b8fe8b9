package tsw_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/tsw"
)

// densify returns the sparse vector x as a dense one of length E.
func densify(x tsw.SparseVec, E int) []float64 {
	d := make([]float64, E)
	for k, i := range x.Index {
		d[i] = x.Value[k]
	}
	return d
}

// TestSparseEmbed: SparseEmbed is Embed on the dense form, bit for bit,
// restricted to its non-zero entries, with strictly increasing indices; and
// L1 of two embeddings is Distance and SparseDistance to rounding (1e-12
// relative: the three sum the same terms in different orders). Bit for bit
// because SparseEmbed adds the same subtree masses in the order of
// tw.Workspace.Embed; the zero terms it skips change no sum. Trees with
// points on internal nodes, forests (a virtual root), T = 1 (no scaling)
// and several T; bags of 1 to 40 points with explicit zero masses.
func TestSparseEmbed(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	const n = 60
	for _, tc := range []struct {
		name string
		T    int
		spec treeSpec
	}{
		{"one tree", 1, treeSpec{internal: 30, onNodes: 5}},
		{"T=4", 4, treeSpec{internal: 30, onNodes: 5}},
		{"forests", 3, treeSpec{internal: 20, roots: 3, onNodes: 2}},
		{"dyadic, deep", 5, treeSpec{internal: 200, dyadic: true}},
	} {
		s, _ := newSliced(t, rng, n, tc.T, tc.spec)
		E := s.EmbedLen()
		dense := make([]float64, E)
		var ea, eb tsw.SparseVec
		for trial := range 40 {
			a := testutil.SparseDist(rng, n, 1+trial%40)
			b := testutil.SparseDist(rng, n, 1+rng.IntN(40))
			ai, am := sparseOf(rng, a)
			bi, bm := sparseOf(rng, b)
			ea = s.SparseEmbed(ea, ai, am)
			eb = s.SparseEmbed(eb, bi, bm)
			s.Embed(dense, a)
			for k := 1; k < len(ea.Index); k++ {
				if ea.Index[k] <= ea.Index[k-1] {
					t.Fatalf("%s: indices not increasing: %v", tc.name, ea.Index)
				}
			}
			if len(ea.Index) != len(ea.Value) {
				t.Fatalf("%s: %d indices, %d values", tc.name, len(ea.Index), len(ea.Value))
			}
			for _, v := range ea.Value {
				if v == 0 {
					t.Fatalf("%s: a zero entry stored", tc.name)
				}
			}
			if got := densify(ea, E); !slices.Equal(got, dense) {
				for k := range got {
					if got[k] != dense[k] {
						t.Fatalf("%s: entry %d: SparseEmbed %.17g, Embed %.17g", tc.name, k, got[k], dense[k])
					}
				}
			}
			got := tsw.L1(ea, eb)
			if want := s.SparseDistance(ai, am, bi, bm); !relClose(got, want, 1e-12) {
				t.Errorf("%s: L1 %.17g, SparseDistance %.17g", tc.name, got, want)
			}
			if want := s.Distance(a, b); !relClose(got, want, 1e-12) {
				t.Errorf("%s: L1 %.17g, Distance %.17g", tc.name, got, want)
			}
			if v := tsw.L1(ea, ea); v != 0 {
				t.Errorf("%s: L1(Φ(a), Φ(a)) = %v", tc.name, v)
			}
			if v, w := tsw.L1(eb, ea), got; v != w {
				t.Errorf("%s: L1 not symmetric: %v, %v", tc.name, v, w)
			}
		}
	}
}

// TestSparseEmbedEdge: the empty distribution embeds to the empty vector
// (L1 against it is the ℓ₁ norm, TSW against zero mass); an index listed
// twice counts with the sum of its masses; a clone embeds alike.
func TestSparseEmbedEdge(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	const n = 20
	s, _ := newSliced(t, rng, n, 3, treeSpec{internal: 10, onNodes: 2, dyadic: true})
	e := s.SparseEmbed(tsw.SparseVec{}, nil, nil)
	if e.Len() != 0 {
		t.Errorf("empty distribution: %d entries", e.Len())
	}
	a := s.SparseEmbed(tsw.SparseVec{}, []int{3, 7}, []float64{0.5, 0.5})
	if got, want := tsw.L1(a, e), s.SparseDistance([]int{3, 7}, []float64{0.5, 0.5}, nil, nil); !relClose(got, want, 1e-12) {
		t.Errorf("L1 against the empty vector %v, SparseDistance %v", got, want)
	}
	// Dyadic weights and masses: the sums are exact.
	twice := s.SparseEmbed(tsw.SparseVec{}, []int{3, 7, 3}, []float64{0.25, 0.5, 0.25})
	if !slices.Equal(twice.Index, a.Index) || !slices.Equal(twice.Value, a.Value) {
		t.Errorf("index listed twice: %v, want %v", twice, a)
	}
	c := s.Clone().SparseEmbed(tsw.SparseVec{}, []int{3, 7}, []float64{0.5, 0.5})
	if !slices.Equal(c.Index, a.Index) || !slices.Equal(c.Value, a.Value) {
		t.Errorf("clone: %v, want %v", c, a)
	}
}

// TestSparseEmbedNonFinite: a NaN or an infinite mass makes the embedding's
// entries NaN, so that L1 against it is NaN, as SparseDistance is; and the
// scratch is clean afterwards.
func TestSparseEmbedNonFinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	const n = 30
	s, _ := newSliced(t, rng, n, 4, treeSpec{internal: 15, onNodes: 2})
	ai, am := sparseOf(rng, testutil.SparseDist(rng, n, 6))
	bi, bm := sparseOf(rng, testutil.SparseDist(rng, n, 6))
	want := s.SparseEmbed(tsw.SparseVec{}, ai, am)
	eb := s.SparseEmbed(tsw.SparseVec{}, bi, bm)
	var e tsw.SparseVec
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		for _, k := range []int{0, len(am) - 1} {
			m := slices.Clone(am)
			m[k] = bad
			e = s.SparseEmbed(e, ai, m)
			if e.Len() == 0 || !allNaN(e.Value) {
				t.Errorf("mass %v: embedding %v, want NaN entries", bad, e.Value)
			}
			if v, sd := tsw.L1(e, eb), s.SparseDistance(ai, m, bi, bm); !math.IsNaN(v) || !math.IsNaN(sd) {
				t.Errorf("mass %v: L1 %v, SparseDistance %v", bad, v, sd)
			}
			if v := s.SparseEmbed(tsw.SparseVec{}, ai, am); !slices.Equal(v.Index, want.Index) || !slices.Equal(v.Value, want.Value) {
				t.Fatalf("after mass %v: embedding changed", bad)
			}
		}
	}
}

// TestSparseEmbedAllocs: SparseEmbed into a dst with room, after its first
// call, and L1 allocate nothing.
func TestSparseEmbedAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 48))
	const n = 100
	s, _ := newSliced(t, rng, n, 4, treeSpec{internal: 40, onNodes: 10})
	ai, am := sparseOf(rng, testutil.SparseDist(rng, n, 20))
	bi, bm := sparseOf(rng, testutil.SparseDist(rng, n, 20))
	x := s.SparseEmbed(tsw.SparseVec{}, ai, am)
	y := s.SparseEmbed(tsw.SparseVec{}, bi, bm)
	if got := testing.AllocsPerRun(20, func() { x = s.SparseEmbed(x, ai, am) }); got != 0 {
		t.Errorf("SparseEmbed: %v allocations per call", got)
	}
	if got := testing.AllocsPerRun(20, func() { tsw.L1(x, y) }); got != 0 {
		t.Errorf("L1: %v allocations per call", got)
	}
}

// TestSparseEmbedPanics: programmer errors panic with a tsw: message.
func TestSparseEmbedPanics(t *testing.T) {
	rng := rand.New(rand.NewPCG(49, 50))
	s, _ := newSliced(t, rng, 10, 2, treeSpec{internal: 5})
	for name, f := range map[string]func(){
		"lengths":      func() { s.SparseEmbed(tsw.SparseVec{}, []int{1, 2}, []float64{1}) },
		"index":        func() { s.SparseEmbed(tsw.SparseVec{}, []int{10}, []float64{1}) },
		"negative":     func() { s.SparseEmbed(tsw.SparseVec{}, []int{-1}, []float64{1}) },
		"L1 x lengths": func() { tsw.L1(tsw.SparseVec{Index: []int32{1}}, tsw.SparseVec{}) },
		"L1 y lengths": func() { tsw.L1(tsw.SparseVec{}, tsw.SparseVec{Value: []float64{1}}) },
	} {
		func() {
			defer func() {
				if r, ok := recover().(string); !ok || len(r) < 5 || r[:5] != "tsw: " {
					t.Errorf("%s: panic %v, want a tsw: panic", name, r)
				}
			}()
			f()
		}()
	}
}

// BenchmarkSparseEmbedL1 compares, on T = 4 benchmark trees (10⁴ nodes)
// and bags of 70 points, the cost of one distance by SparseDistance with
// that of L1 between two embeddings made beforehand, and the cost of one
// embedding.
func BenchmarkSparseEmbedL1(b *testing.B) {
	const T, k = 4, 70
	s := benchSliced(b, T)
	rng := rand.New(rand.NewPCG(6, 6))
	ai, am := nonZero(sparseOf(rng, testutil.SparseDist(rng, benchPoints, k)))
	bi, bm := nonZero(sparseOf(rng, testutil.SparseDist(rng, benchPoints, k)))
	x := s.SparseEmbed(tsw.SparseVec{}, ai, am)
	y := s.SparseEmbed(tsw.SparseVec{}, bi, bm)
	b.Run("SparseDistance", func(b *testing.B) {
		s.SparseDistance(ai, am, bi, bm)
		b.ReportAllocs()
		for b.Loop() {
			s.SparseDistance(ai, am, bi, bm)
		}
	})
	b.Run("L1", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			tsw.L1(x, y)
		}
		b.ReportMetric(float64(x.Len()+y.Len()), "nnz")
	})
	b.Run("SparseEmbed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			x = s.SparseEmbed(x, ai, am)
		}
	})
}
