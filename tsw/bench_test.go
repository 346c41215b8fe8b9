package tsw_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
	"github.com/twl-ldl/twl/tw"
)

// The benchmark trees have 10⁴ nodes: benchPoints points at the leaves
// under 2500 internal nodes of their own (a random recursive tree, of
// logarithmic depth like a clustering tree), numbered in random order, with
// uniform random weights.
const (
	benchPoints   = 7500
	benchInternal = 2500
	benchSparseK  = 32 // listed points per distribution of the sparse benchmarks
)

var benchCache []*tree.Tree // made once; benchmarks run one at a time

// benchTrees returns the 100 benchmark trees.
func benchTrees(b *testing.B) []*tree.Tree {
	if benchCache == nil {
		rng := rand.New(rand.NewPCG(1, 1))
		names := pointNames(benchPoints)
		trees := make([]*tree.Tree, 100)
		for k := range trees {
			trees[k] = newPointTree(b, rng, names, treeSpec{internal: benchInternal}).t
		}
		benchCache = trees
	}
	return benchCache
}

// benchSliced returns a Sliced on the first T benchmark trees.
func benchSliced(b *testing.B, T int) *tsw.Sliced {
	s, err := tsw.New(benchTrees(b)[:T], pointNames(benchPoints))
	if err != nil {
		b.Fatal(err)
	}
	return s
}

func forTrees(b *testing.B, Ts []int, f func(b *testing.B, T int)) {
	for _, T := range Ts {
		b.Run(fmt.Sprintf("T=%d", T), func(b *testing.B) { f(b, T) })
	}
}

func BenchmarkDistance(b *testing.B) {
	forTrees(b, []int{1, 10, 100}, func(b *testing.B, T int) {
		s := benchSliced(b, T)
		rng := rand.New(rand.NewPCG(2, 2))
		x, y := testutil.Dist(rng, benchPoints), testutil.Dist(rng, benchPoints)
		s.Distance(x, y) // the first call makes the workspaces
		b.ReportAllocs()
		for b.Loop() {
			s.Distance(x, y)
		}
	})
}

// BenchmarkTW is the floor of BenchmarkDistance/T=1 and
// BenchmarkDistanceGrad/T=1: tw.Workspace on the same tree renumbered
// breadth-first, on vectors already scattered.
func BenchmarkTW(b *testing.B) {
	t := benchTrees(b)[0].BreadthFirst()
	rng := rand.New(rand.NewPCG(2, 2))
	x, y := testutil.Dist(rng, benchPoints), testutil.Dist(rng, benchPoints)
	X, Y := make([]float64, t.Len()), make([]float64, t.Len())
	for i := range x {
		k, _ := t.Index(fmt.Sprintf("p%d", i))
		X[k], Y[k] = x[i], y[i]
	}
	ws := tw.NewWorkspace(t)
	b.Run("Distance", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ws.Distance(X, Y)
		}
	})
	b.Run("DistanceGrad", func(b *testing.B) {
		g := make([]float64, t.Len())
		b.ReportAllocs()
		for b.Loop() {
			ws.DistanceGrad(g, X, Y)
		}
	})
}

func BenchmarkDistanceGrad(b *testing.B) {
	forTrees(b, []int{1, 10, 100}, func(b *testing.B, T int) {
		s := benchSliced(b, T)
		rng := rand.New(rand.NewPCG(2, 2))
		x, y := testutil.Dist(rng, benchPoints), testutil.Dist(rng, benchPoints)
		g := make([]float64, benchPoints)
		s.DistanceGrad(g, x, y)
		b.ReportAllocs()
		for b.Loop() {
			s.DistanceGrad(g, x, y)
		}
	})
}

func BenchmarkSparseDistance(b *testing.B) {
	forTrees(b, []int{1, 10, 100}, func(b *testing.B, T int) {
		s := benchSliced(b, T)
		rng := rand.New(rand.NewPCG(3, 3))
		ai, am := sparseOf(rng, testutil.SparseDist(rng, benchPoints, benchSparseK))
		bi, bm := sparseOf(rng, testutil.SparseDist(rng, benchPoints, benchSparseK))
		// sparseOf lists a random eighth of the zeros too; keep the masses.
		ai, am = nonZero(ai, am)
		bi, bm = nonZero(bi, bm)
		s.SparseDistance(ai, am, bi, bm)
		b.ReportAllocs()
		for b.Loop() {
			s.SparseDistance(ai, am, bi, bm)
		}
	})
}

func nonZero(idx []int, m []float64) ([]int, []float64) {
	var i2 []int
	var m2 []float64
	for k, v := range m {
		if v != 0 {
			i2 = append(i2, idx[k])
			m2 = append(m2, v)
		}
	}
	return i2, m2
}

func BenchmarkEmbed(b *testing.B) {
	forTrees(b, []int{1, 10, 100}, func(b *testing.B, T int) {
		s := benchSliced(b, T)
		x := testutil.Dist(rand.New(rand.NewPCG(4, 4)), benchPoints)
		e := make([]float64, s.EmbedLen())
		s.Embed(e, x)
		b.ReportAllocs()
		for b.Loop() {
			s.Embed(e, x)
		}
	})
}

// BenchmarkPairwise: the 32×32 matrix of distances, through the embedding,
// on all processors.
func BenchmarkPairwise(b *testing.B) {
	const rows = 32
	forTrees(b, []int{1, 10}, func(b *testing.B, T int) {
		s := benchSliced(b, T)
		rng := rand.New(rand.NewPCG(5, 5))
		var A, B []float64
		for range rows {
			A = append(A, testutil.Dist(rng, benchPoints)...)
			B = append(B, testutil.Dist(rng, benchPoints)...)
		}
		dst := make([]float64, rows*rows)
		bt := tsw.NewBatch(s, 0)
		b.ReportAllocs()
		for b.Loop() {
			bt.Pairwise(dst, A, B)
		}
	})
}
