package barycenter_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/barycenter"
	"github.com/twl-ldl/twl/labeldist"
	"github.com/twl-ldl/twl/tree"
)

// benchRows returns n random distributions on L labels, each on k
// distinct labels drawn uniformly from all nodes (internal ones
// included) with random masses; k = L gives dense rows.
func benchRows(rng *rand.Rand, n, L, k int) *labeldist.Rows {
	var rs labeldist.Rows
	mass := make([]float64, k)
	for range n {
		idx := rng.Perm(L)[:k]
		var s float64
		for j := range mass {
			mass[j] = rng.Float64()
			s += mass[j]
		}
		for j := range mass {
			mass[j] /= s
		}
		rs.Append(idx, mass)
	}
	return &rs
}

// recursiveTree returns a random recursive tree on n nodes: node i's
// parent is uniform among the nodes before it. Its depth grows as log n
// (about 12 on average for 10⁵ nodes), like label hierarchies, whereas a
// uniformly random tree (tree.Random) is some √n deep.
func recursiveTree(n int, rng *rand.Rand) *tree.Tree {
	parent := make([]int, n)
	parent[0] = -1
	for i := 1; i < n; i++ {
		parent[i] = rng.IntN(i)
	}
	t, err := tree.FromParents(parent, nil, nil, nil)
	if err != nil {
		panic(err)
	}
	return t.BreadthFirst()
}

// BenchmarkSolve times the barycenter of n distributions of k labels on a
// random tree of L nodes (unit weights, breadth-first order): a random
// recursive tree (shallow, as label hierarchies are) or a uniformly random
// one (deep), with mass allowed on every node and on leaves only.
func BenchmarkSolve(b *testing.B) {
	for _, c := range []struct {
		shape   string
		n, L, k int
	}{
		{"recursive", 1000, 100000, 30},
		{"uniform", 1000, 100000, 30},
		{"recursive", 1000, 1000, 1000},
		{"recursive", 100, 10000, 10000},
	} {
		for _, leaves := range []bool{false, true} {
			b.Run(fmt.Sprintf("tree=%s/n=%d/L=%d/k=%d/leaves=%v", c.shape, c.n, c.L, c.k, leaves), func(b *testing.B) {
				tr := tree.Random(c.L, rand.NewPCG(1, uint64(c.L))).BreadthFirst()
				if c.shape == "recursive" {
					tr = recursiveTree(c.L, rand.New(rand.NewPCG(1, uint64(c.L))))
				}
				rows := benchRows(rand.New(rand.NewPCG(2, uint64(c.n))), c.n, c.L, c.k)
				s := barycenter.New(tr)
				nu := make([]float64, c.L)
				opts := &barycenter.Options{Leaves: leaves}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := s.Solve(nu, rows, nil, opts); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
