package tw_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/twl-ldl/twl/internal/lpref"
	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tw"
)

// figure1 returns the tree of Figure 1 of the paper: animal → mammal →
// {dog, cat}, animal → reptile → {lizard, snake}, with the given weights on
// the edges above mammal, reptile, dog, cat, lizard, snake (nil: unit).
// User indices: animal 0, mammal 1, reptile 2, dog 3, cat 4, lizard 5,
// snake 6. It is built by name in a non-breadth-first order so that the
// workspace has to permute.
func figure1(t testing.TB, w []float64) *tree.Tree {
	if w == nil {
		w = []float64{1, 1, 1, 1, 1, 1}
	}
	var b tree.Builder
	for _, s := range []string{"animal", "mammal", "reptile", "dog", "cat", "lizard", "snake"} {
		b.AddNode(s)
	}
	b.AddEdge("reptile", "snake", w[5])
	b.AddEdge("mammal", "dog", w[2])
	b.AddEdge("animal", "reptile", w[1])
	b.AddEdge("reptile", "lizard", w[4])
	b.AddEdge("mammal", "cat", w[3])
	b.AddEdge("animal", "mammal", w[0])
	tr, err := b.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestFigure1 checks distances and gradients on the tree of Figure 1,
// computed by hand from TW = Σ_e w_e |a(Γ(v_e)) − b(Γ(v_e))| and
// grad_v = Σ_{e on the root path of v} w_e sign(a(Γ(v_e)) − b(Γ(v_e))),
// sign(0) = 0. Node order: animal, mammal, reptile, dog, cat, lizard, snake.
// Every value is dyadic, so the comparison is exact.
func TestFigure1(t *testing.T) {
	const (
		animal = iota
		mammal
		reptile
		dog
		cat
		lizard
		snake
	)
	delta := func(i int) []float64 { return testutil.PointMass(7, i) }
	for _, tc := range []struct {
		name     string
		w        []float64 // weights above mammal, reptile, dog, cat, lizard, snake
		a, b     []float64
		want     float64
		wantGrad []float64
	}{
		// Γ(dog) and Γ(cat) differ by 1, Γ(mammal) by 0: edges e3, e4.
		// grad: dog +1, cat −1, mammal's edge contributes sign(0) = 0.
		{"dog-cat", nil, delta(dog), delta(cat), 2, []float64{0, 0, 0, 1, -1, 0, 0}},
		// Path dog → mammal → animal → reptile → snake: 4 unit edges.
		// Subtree differences: mammal +1, dog +1, reptile −1, snake −1.
		{"dog-snake", nil, delta(dog), delta(snake), 4, []float64{0, 1, -1, 2, 1, -1, -2}},
		// Subtree differences: mammal −1, dog −1; the root has no edge.
		{"animal-dog", nil, delta(animal), delta(dog), 2, []float64{0, -1, 0, -2, -1, 0, 0}},
		// a = ½δ_dog + ½δ_cat, b = ½δ_mammal + ¼δ_lizard + ¼δ_snake.
		// Subtree differences: mammal 1 − ½ = ½, reptile 0 − ½ = −½,
		// dog ½, cat ½, lizard −¼, snake −¼:
		// TW = ½ + ½ + ½ + ½ + ¼ + ¼ = 2.5. (Transport: ½ dog → mammal
		// costs ½; cat → lizard and cat → snake, ¼ each over 4 edges, 2.)
		{"mixed", nil,
			[]float64{0, 0, 0, 0.5, 0.5, 0, 0},
			[]float64{0, 0.5, 0, 0, 0, 0.25, 0.25},
			2.5, []float64{0, 1, -1, 2, 2, -2, -2}},
		// a = ⅛ on every node but snake, ¼ on snake; b = δ_animal.
		// Subtree masses of a: mammal ⅜, reptile ½, dog ⅛, cat ⅛,
		// lizard ⅛, snake ¼: TW = ⅜ + ½ + ⅛ + ⅛ + ⅛ + ¼ = 1.5.
		{"spread vs root", nil,
			[]float64{0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.25},
			delta(animal), 1.5, []float64{0, 1, 1, 2, 2, 2, 2}},
		// Weighted: w(mammal) 2, w(reptile) 3, w(dog) ½, w(cat) ¼,
		// w(lizard) 1, w(snake) 1. d(dog, snake) = ½ + 2 + 3 + 1 = 6.5.
		// grad: mammal +2, reptile −3, dog 2 + ½, cat 2 + 0, lizard −3 + 0,
		// snake −3 − 1.
		{"weighted dog-snake", []float64{2, 3, 0.5, 0.25, 1, 1}, delta(dog), delta(snake),
			6.5, []float64{0, 2, -3, 2.5, 2, -3, -4}},
		// Zero-weight edges cost nothing: w(mammal) 0, w(dog) 0 make dog,
		// mammal and animal the same point; d(dog, cat) = w(cat) = 1.
		{"zero weights", []float64{0, 1, 0, 1, 1, 1}, delta(dog), delta(cat),
			1, []float64{0, 0, 0, 0, -1, 0, 0}},
		{"identical", nil, delta(lizard), delta(lizard), 0, make([]float64, 7)},
	} {
		tr := figure1(t, tc.w)
		for _, bf := range []bool{false, true} {
			tt := tr
			a, b, wantGrad := tc.a, tc.b, tc.wantGrad
			if bf {
				// The same tree renumbered breadth-first: permute the
				// vectors by name.
				tt = tr.BreadthFirst()
				a, b, wantGrad = permute(tr, tt, a), permute(tr, tt, b), permute(tr, tt, wantGrad)
			}
			ws := tw.NewWorkspace(tt)
			grad := make([]float64, 7)
			got := ws.DistanceGrad(grad, a, b)
			if got != tc.want || ws.Distance(a, b) != tc.want || tw.Distance(tt, a, b) != tc.want {
				t.Errorf("%s (breadth-first %v): TW = %v, want %v", tc.name, bf, got, tc.want)
			}
			if !slices.Equal(grad, wantGrad) {
				t.Errorf("%s (breadth-first %v): grad = %v, want %v", tc.name, bf, grad, wantGrad)
			}
		}
		// The LP agrees with the hand value.
		D := tr.DistanceMatrix(nil)
		lp, err := lpref.W1(D.RawMatrix().Data, tc.a, tc.b)
		if err != nil || math.Abs(lp-tc.want) > 1e-12 {
			t.Errorf("%s: LP = %v, %v; want %v", tc.name, lp, err, tc.want)
		}
	}
}

// permute maps a vector in the user order of from to the user order of to,
// matching nodes by name.
func permute(from, to *tree.Tree, x []float64) []float64 {
	y := make([]float64, len(x))
	for i, v := range x {
		j, _ := to.Index(from.Name(i))
		y[j] = v
	}
	return y
}

// TestChainCDF checks that on the chain 0 — 1 — … — n−1 TW is the 1-D
// Wasserstein distance Σ_i w_{i+1}·|CDF_a(i) − CDF_b(i)|, with the CDFs
// accumulated here.
func TestChainCDF(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, n := range []int{1, 2, 3, 10, 64, 257} {
		for _, weighted := range []bool{false, true} {
			tr := tree.Chain(n)
			w := make([]float64, n) // w[i]: weight of the edge (i−1, i)
			for i := range w {
				w[i] = 1
				if weighted {
					w[i] = 3 * rng.Float64()
				}
			}
			if weighted {
				var err error
				if tr, err = tr.Reweight(w); err != nil {
					t.Fatal(err)
				}
			}
			ws := tw.NewWorkspace(tr)
			for k := range 5 {
				a, b := testutil.Dist(rng, n), testutil.SparseDist(rng, n, 1+k)
				var ca, cb, want float64
				for i := 0; i < n-1; i++ {
					ca += a[i]
					cb += b[i]
					want += w[i+1] * math.Abs(ca-cb)
				}
				if got := ws.Distance(a, b); math.Abs(got-want) > 1e-12*math.Max(1, want) {
					t.Errorf("n=%d weighted=%v: TW = %.17g, CDF formula %.17g", n, weighted, got, want)
				}
			}
		}
	}
}

// TestStarL1 checks that on a star of unit edges TW(a, b) = Σ_i |a_i − b_i|
// (every unit of mass that moves travels two edges), and w times that with
// edges of weight w.
func TestStarL1(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, n := range []int{1, 2, 5, 33} {
		for _, w := range []float64{0, 0.25, 3} { // 0: default unit edges
			tr, err := tree.FromParents(slices.Repeat([]int{-1}, n), nil, nil, &tree.Options{VirtualRootWeight: w})
			if err != nil {
				t.Fatal(err)
			}
			scale := w
			if w == 0 {
				tr, scale = tree.Star(n), 1
			}
			ws := tw.NewWorkspace(tr)
			for range 5 {
				a, b := testutil.Dist(rng, n), testutil.SparseDist(rng, n, 2)
				var want float64
				for i := range a {
					want += math.Abs(a[i] - b[i])
				}
				want *= scale
				if n == 1 {
					want = 0 // a single node has no edge
				}
				if got := ws.Distance(a, b); math.Abs(got-want) > 1e-12*math.Max(1, want) {
					t.Errorf("%s, w=%v: TW = %.17g, want %.17g", fmt.Sprint(tr), w, got, want)
				}
			}
		}
	}
}
