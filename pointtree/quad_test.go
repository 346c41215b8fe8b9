package pointtree_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/pointtree"
)

// Hand calculations on the line, with s = 16 (so that 1/(2s) is exact), a
// root cell of side 32 and cells of side 16, 8, 4, 2 at levels 1 … 4 =
// Depth; in one dimension a cell's diameter is its side, and a point's
// edge below a cell of level ℓ weighs 32/2^(ℓ+1).
//
// Shift 0, points 0, 1, 10, 16: level 1 parts {0, 1, 10} from {16} (16/16
// = 1 starts cell 1), so 16 hangs below the root (16) and cell A = {0, 1,
// 10} weighs 16; level 2 parts {0, 1} from {10}: 10 hangs below A (8), and
// cell B = {0, 1} weighs 8; levels 3 and 4 do not part 0 and 1, so B's
// chain collapses (8 + 4 + 2 = 14) and at Depth 4 the points hang at 1.
//
// Shift ½ (u = 8), shifted points 8, 9, 18, 24: level 1 parts {8, 9} from
// {18, 24}; level 2 parts 18 (cell 2) from 24 (cell 3), both hanging at 8
// below C; 8 and 9 share a cell down to level 4: A weighs 16 + 8 + 4 + 2
// = 30, and they hang at 1.
func TestQuadHand(t *testing.T) {
	x := []float64{0, 1, 10, 16}
	for _, tc := range []struct {
		name  string
		shift float64
		want  []edge
	}{
		{"shift 0", 0, []edge{
			{"·q", "3", 16}, {"·q", "·q/0", 16},
			{"·q/0", "2", 8}, {"·q/0", "·q/0/0", 14},
			{"·q/0/0", "0", 1}, {"·q/0/0", "1", 1},
		}},
		{"shift 1/2", 0.5, []edge{
			{"·q", "·q/0", 30}, {"·q", "·q/1", 16},
			{"·q/0", "0", 1}, {"·q/0", "1", 1},
			{"·q/1", "2", 8}, {"·q/1", "3", 8},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := pointtree.Quad(x, 4, 1, nil, &pointtree.QuadOptions{Depth: 4, Shift: []float64{tc.shift}})
			if err != nil {
				t.Fatal(err)
			}
			checkStructure(t, tr, 4, nil, pointtree.QuadPrefix)
			checkEdges(t, tr, tc.want, 0)
		})
	}
}

// quadLevels computes, by brute force, the level of the deepest cell that
// points i and j share (capped at depth): the largest ℓ such that
// ⌊(x_t − min_t + u_t)/side_ℓ⌋ agree for every t, side_ℓ = 2s/2^ℓ.
func quadLevels(x []float64, n, d, depth int, shift []float64) (lca [][]int, s float64) {
	lo, hi := make([]float64, d), make([]float64, d)
	for t := range d {
		lo[t], hi[t] = math.Inf(1), math.Inf(-1)
		for i := range n {
			lo[t] = min(lo[t], x[i*d+t])
			hi[t] = max(hi[t], x[i*d+t])
		}
		s = max(s, hi[t]-lo[t])
	}
	cell := func(i, l int) []float64 {
		side := 2 * s / math.Pow(2, float64(l))
		c := make([]float64, d)
		for t := range d {
			c[t] = math.Floor((x[i*d+t] - lo[t] + shift[t]*s) / side)
		}
		return c
	}
	lca = make([][]int, n)
	for i := range n {
		lca[i] = make([]int, n)
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			l := 0
			for l < depth {
				a, b := cell(i, l+1), cell(j, l+1)
				same := true
				for t := range d {
					same = same && a[t] == b[t]
				}
				if !same {
					break
				}
				l++
			}
			lca[i][j], lca[j][i] = l, l
		}
	}
	return lca, s
}

// The tree distances of the quadtree against an independent computation:
// with side_ℓ = 2s/2^ℓ, L the level of the deepest cell two points x, y
// share and m_x the deepest level at which x shares a cell with any other
// point, x lies below the chain of cells of levels L+1 … m_x and its own
// edge of √d·side_(m_x+1), so
//
//	d_T(x, y) = √d·(2·side_L − side_(m_x)/2 − side_(m_y)/2).
//
// Every distance is also at least the Euclidean one, and a point's own
// edge is √d·2s/2^(ℓ+1) for an integer ℓ ≤ Depth: the cell sizes.
func TestQuadBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, tc := range []struct {
		n, d, depth int
		lattice     bool
	}{
		{40, 1, 12, false}, {60, 2, 6, false}, {60, 3, 12, false}, {30, 10, 4, false},
		{50, 2, 8, true}, {40, 1, 3, true}, {20, 40, 12, false},
	} {
		n, d := tc.n, tc.d
		x := gaussian(rng, n, d)
		if tc.lattice { // few distinct values: duplicates and shared cells
			for i := range x {
				x[i] = math.Round(2 * x[i])
			}
		}
		shift := make([]float64, d)
		for t := range shift {
			shift[t] = rng.Float64()
		}
		tr, err := pointtree.Quad(x, n, d, nil, &pointtree.QuadOptions{Depth: tc.depth, Shift: shift})
		if err != nil {
			t.Fatal(err)
		}
		checkStructure(t, tr, n, nil, pointtree.QuadPrefix)
		lca, s := quadLevels(x, n, d, tc.depth, shift)
		side := func(l int) float64 { return 2 * s / math.Pow(2, float64(l)) }
		deepest := make([]int, n)
		for i := range n {
			for j := range n {
				if j != i {
					deepest[i] = max(deepest[i], lca[i][j])
				}
			}
		}
		rd := math.Sqrt(float64(d))
		for i := range n {
			ratio := tr.Weight(i) / (rd * 2 * s)
			l := -math.Log2(ratio) - 1
			if l != math.Round(l) || l < 0 || l > float64(tc.depth) {
				t.Errorf("%+v: point %d's edge is √d·2s·%v, not √d·2s/2^(ℓ+1) with ℓ ≤ Depth", tc, i, ratio)
			}
			for j := i + 1; j < n; j++ {
				got := tr.Distance(i, j)
				want := rd * (2*side(lca[i][j]) - side(deepest[i])/2 - side(deepest[j])/2)
				if !near(got, want, 1e-12) {
					t.Errorf("%+v: d_T(%d, %d) = %v, want %v", tc, i, j, got, want)
				}
				if e := euclid(x, d, i, j); got < e*(1-1e-12) {
					t.Errorf("%+v: d_T(%d, %d) = %v < Euclidean %v", tc, i, j, got, e)
				}
			}
		}
	}
}

// The Euclidean bound on larger clouds in higher dimensions, with the
// shift drawn from the seed.
func TestQuadDominates(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for _, d := range []int{1, 3, 50, 300} {
		n := 400
		x := blobs(rng, 8, n/8, d, 5)
		tr, err := pointtree.Quad(x, n, d, nil, &pointtree.QuadOptions{Seed: rng.Uint64()})
		if err != nil {
			t.Fatal(err)
		}
		checkStructure(t, tr, n, nil, pointtree.QuadPrefix)
		for range 2000 {
			i, j := rng.IntN(n), rng.IntN(n)
			if got, e := tr.Distance(i, j), euclid(x, d, i, j); got < e*(1-1e-12) {
				t.Errorf("d = %d: d_T(%d, %d) = %v < Euclidean %v", d, i, j, got, e)
			}
		}
	}
}

func TestQuadDeterminism(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	const n, d = 3000, 20
	x := blobs(rng, 10, n/10, d, 4)
	a, err := pointtree.Quad(x, n, d, nil, &pointtree.QuadOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := pointtree.Quad(x, n, d, nil, &pointtree.QuadOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !sameTree(a, b) {
		t.Errorf("the same seed gives two trees")
	}
	c, err := pointtree.Quad(x, n, d, nil, &pointtree.QuadOptions{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if sameTree(a, c) {
		t.Errorf("seeds 1 and 2 give the same tree")
	}
}

// Coinciding points: every distance is zero, so is every weight.
func TestQuadIdentical(t *testing.T) {
	for _, n := range []int{1, 5} {
		x := make([]float64, 3*n)
		for i := range x {
			x[i] = float64(i%3) - 0.3
		}
		tr, err := pointtree.Quad(x, n, 3, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkStructure(t, tr, n, nil, pointtree.QuadPrefix)
		if tr.Len() != n+1 {
			t.Errorf("n = %d: %d nodes, want %d", n, tr.Len(), n+1)
		}
		for i := range n {
			if tr.Weight(i) != 0 {
				t.Errorf("n = %d: point %d's edge weighs %v", n, i, tr.Weight(i))
			}
		}
	}
}

// Ranges near the ends of float64: the cells still part the points, and
// the tree distances still bound the Euclidean ones (computed here on
// rescaled copies, whose squares do not underflow).
func TestQuadExtremeRanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	const n, d = 50, 3
	base := gaussian(rng, n, d)
	for _, scale := range []float64{1e-300, 1e-150, 1e-15, 1e90} {
		x := make([]float64, len(base))
		for i, v := range base {
			x[i] = v * scale
		}
		tr, err := pointtree.Quad(x, n, d, nil, &pointtree.QuadOptions{Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		checkStructure(t, tr, n, nil, pointtree.QuadPrefix)
		if tr.Len() == n+1 {
			t.Errorf("scale %g: every point hangs below the root", scale)
		}
		for i := range n {
			for j := i + 1; j < n; j++ {
				if got, e := tr.Distance(i, j)/scale, euclid(base, d, i, j); got < e*(1-1e-9) {
					t.Errorf("scale %g: d_T(%d, %d)/scale = %v < Euclidean %v", scale, i, j, got, e)
				}
			}
		}
	}
	// Points 1 + k·ε: a range of a few ulps.
	x := []float64{1, 1 + 0x1p-52, 1 + 0x1p-51, 1 + 3*0x1p-52}
	tr, err := pointtree.Quad(x, 4, 1, nil, &pointtree.QuadOptions{Depth: pointtree.MaxQuadDepth})
	if err != nil {
		t.Fatal(err)
	}
	checkStructure(t, tr, 4, nil, pointtree.QuadPrefix)
	for i := range 4 {
		for j := i + 1; j < 4; j++ {
			if got, e := tr.Distance(i, j), x[j]-x[i]; got < e {
				t.Errorf("few ulps: d_T(%d, %d) = %v < %v", i, j, got, e)
			}
		}
	}
}
