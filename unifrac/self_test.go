package unifrac

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/tw"
)

// queryAll returns Query of the columns' own table B: the full N×N matrix
// that Self computes half of.
func queryAll(t *testing.T, cols *Columns, B *Table) []float64 {
	t.Helper()
	n := B.Len()
	q := make([]float64, n*n)
	if err := cols.Query(context.Background(), q, B); err != nil {
		t.Fatal(err)
	}
	return q
}

// selfOf runs Self and returns the condensed pairs and the diagonal.
func selfOf(t *testing.T, cols *Columns) (cond, diag []float64) {
	t.Helper()
	n := cols.Len()
	cond, diag = make([]float64, n*(n-1)/2), make([]float64, n)
	for k := range cond {
		cond[k] = math.NaN()
	}
	for k := range diag {
		diag[k] = math.NaN()
	}
	if err := cols.Self(context.Background(), cond, diag); err != nil {
		t.Fatal(err)
	}
	return cond, diag
}

// TestSelfQuery checks Self against Query of the columns' own table, bit
// for bit: the condensed pairs against both triangles of Query's matrix
// (Query is symmetric bit for bit) and the diagonal against its diagonal,
// for every method, proportions and raw masses, on tables whose sizes
// fall on both sides of the block size, with one to three workers.
// The values themselves are checked against the definitions
// (bruteForceRaw) on the smaller tables.
func TestSelfQuery(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for ci, c := range underRace([]struct{ L, n, k int }{
		{5, 1, 3}, {5, 2, 3}, {40, 17, 6}, {300, 255, 30}, {300, 256, 30},
		{200, 257, 12}, {600, 300, 250}, {300, 530, 25},
	}, 6) {
		c.L, c.k = shrinkTree(c.L, c.k)
		tr := randomTree(t, rng, c.L)
		B := rescale(rng, randomTable(rng, c.L, c.n, c.k))
		n := B.Len()
		for _, raw := range []bool{false, true} {
			for _, m := range methods {
				for _, alpha := range []float64{0, 0.5} {
					if m != Generalized && alpha != 0 {
						continue
					}
					var want []float64
					if n <= 256 {
						want = bruteForceRaw(tr, B, m, alpha, raw)
					}
					for _, workers := range []int{1 + ci%3} {
						cols, err := NewColumns(tr, B, m, &Options{Alpha: alpha, Raw: raw, Workers: workers})
						if err != nil {
							t.Fatal(err)
						}
						q := queryAll(t, cols, B)
						cond, diag := selfOf(t, cols)
						for i := range n {
							if math.Float64bits(diag[i]) != math.Float64bits(q[i*n+i]) {
								t.Fatalf("n=%d raw=%v %v α=%g: diagonal %d = %v, Query %v", n, raw, m, alpha, i, diag[i], q[i*n+i])
							}
							for j := i + 1; j < n; j++ {
								g := cond[i*n-i*(i+1)/2+j-i-1]
								if math.Float64bits(g) != math.Float64bits(q[i*n+j]) || math.Float64bits(g) != math.Float64bits(q[j*n+i]) {
									t.Fatalf("n=%d raw=%v %v α=%g workers=%d: (%d, %d) = %.17g, Query %.17g and %.17g",
										n, raw, m, alpha, workers, i, j, g, q[i*n+j], q[j*n+i])
								}
								if want != nil {
									if w := want[i*n+j]; math.Abs(g-w) > 1e-12*math.Abs(w) && math.Abs(g-w) > 1e-13 {
										t.Fatalf("n=%d raw=%v %v α=%g: (%d, %d) = %.17g, definition %.17g", n, raw, m, alpha, i, j, g, w)
									}
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestSelfSparse checks the weighted unnormalized distances of raw masses
// that Self computes against tw.Sparse (the tree-Wasserstein distance of
// the two count vectors, an independent computation), to rounding
// relative to the two samples' distances to the empty sample, on tables
// with empty samples and copies, whose diagonal and copies must be
// exactly 0.
func TestSelfSparse(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	for _, c := range underRace([]struct{ L, n, k int }{{50, 40, 5}, {400, 513, 40}, {1000, 300, 200}}, 2) {
		tr := randomTree(t, rng, c.L)
		B := rescale(rng, randomTable(rng, c.L, c.n, c.k))
		empty := &Table{Indptr: []int{0, 0, 1}, Indices: []int32{3}, Values: []float64{0}}
		B = join(join(B, empty), sampleRange(B, 0, 5))
		n := B.Len()
		cols, err := NewColumns(tr, B, WeightedUnnormalized, &Options{Raw: true})
		if err != nil {
			t.Fatal(err)
		}
		cond, diag := selfOf(t, cols)
		sp := tw.NewSparse(tr)
		row := func(s int) ([]int, []float64) {
			var idx []int
			for _, i := range B.Indices[B.Indptr[s]:B.Indptr[s+1]] {
				idx = append(idx, int(i))
			}
			return idx, B.Values[B.Indptr[s]:B.Indptr[s+1]]
		}
		zi, zm := []int(nil), []float64(nil)
		for i := range n {
			if diag[i] != 0 {
				t.Fatalf("L=%d: sample %d against itself = %g", c.L, i, diag[i])
			}
			ai, am := row(i)
			si := sp.Distance(ai, am, zi, zm)
			for j := i + 1; j < n; j++ {
				bi, bm := row(j)
				sj := sp.Distance(bi, bm, zi, zm)
				g := cond[i*n-i*(i+1)/2+j-i-1]
				w := sp.Distance(ai, am, bi, bm)
				if math.Abs(g-w) > 1e-12*(si+sj) {
					t.Fatalf("L=%d: (%d, %d) = %.17g, tw.Sparse %.17g (S %g + %g)", c.L, i, j, g, w, si, sj)
				}
				if j >= n-5 && i == j-(n-5) && g != 0 {
					t.Fatalf("L=%d: sample %d and its copy %d at %g", c.L, i, j, g)
				}
			}
		}
	}
}

// TestSelfCancel checks that a cancelled context stops Self with its
// error, and that a nil diag is allowed.
func TestSelfCancel(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	tr := randomTree(t, rng, 100)
	B := randomTable(rng, 100, 600, 10)
	tiles := 0
	cols, err := NewColumns(tr, B, WeightedNormalized, &Options{Workers: 1, Progress: func(done, total int) { tiles = total }})
	if err != nil {
		t.Fatal(err)
	}
	n := B.Len()
	cond := make([]float64, n*(n-1)/2)
	if err := cols.Self(context.Background(), cond, nil); err != nil {
		t.Fatal(err)
	}
	if nb := (n + blockSize - 1) / blockSize; tiles != nb*(nb+1)/2 {
		t.Fatalf("progress counted %d tiles, want %d", tiles, nb*(nb+1)/2)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := cols.Self(ctx, cond, nil); err != context.Canceled {
		t.Fatalf("cancelled Self returned %v", err)
	}
}
