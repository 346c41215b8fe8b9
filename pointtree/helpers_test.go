package pointtree_test

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// gaussian returns n standard normal points of dimension d.
func gaussian(rng *rand.Rand, n, d int) []float64 {
	x := make([]float64, n*d)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	return x
}

// blobs returns k·per points of dimension d, per points around each of k
// centres drawn in [−sep, sep]^d, with unit standard deviation.
func blobs(rng *rand.Rand, k, per, d int, sep float64) []float64 {
	x := make([]float64, 0, k*per*d)
	c := make([]float64, d)
	for range k {
		for j := range c {
			c[j] = sep * (2*rng.Float64() - 1)
		}
		for range per {
			for j := range c {
				x = append(x, c[j]+rng.NormFloat64())
			}
		}
	}
	return x
}

// euclid returns the Euclidean distance between points i and j, summed
// left to right: a reference independent of the package's kernel.
func euclid(x []float64, d, i, j int) float64 {
	var s float64
	for t := range d {
		e := x[i*d+t] - x[j*d+t]
		s += e * e
	}
	return math.Sqrt(s)
}

// names returns "p0" … "p(n−1)".
func names(n int) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = "p" + strconv.Itoa(i)
	}
	return s
}

// checkStructure checks the shape every tree of the package has: point i
// is node i, a leaf named names[i] (or "i") whose parent is internal; the
// internal nodes n… are named prefix, prefix/i, prefix/i/j … by their
// rank among their parent's internal children, the root being n; every
// weight is finite and non-negative; internal nodes have children.
func checkStructure(t *testing.T, tr *tree.Tree, n int, pnames []string, prefix string) {
	t.Helper()
	if tr.Virtual() {
		t.Fatalf("tree is a forest")
	}
	if tr.Root() != n || tr.Name(n) != prefix {
		t.Fatalf("root is node %d %q, want node %d %q", tr.Root(), tr.RootName(), n, prefix)
	}
	rank := map[int]int{}
	for i := range tr.Len() {
		w := tr.Weight(i)
		if !(w >= 0 && w <= math.MaxFloat64) {
			t.Errorf("node %d %q has weight %v", i, tr.Name(i), w)
		}
		if i < n {
			want := strconv.Itoa(i)
			if pnames != nil {
				want = pnames[i]
			}
			if tr.Name(i) != want || !tr.IsLeaf(i) || tr.Parent(i) < n {
				t.Errorf("point %d: name %q leaf %v parent %d; want name %q, a leaf below an internal node",
					i, tr.Name(i), tr.IsLeaf(i), tr.Parent(i), want)
			}
			continue
		}
		if tr.IsLeaf(i) {
			t.Errorf("internal node %d %q is a leaf", i, tr.Name(i))
		}
		if i == n {
			continue
		}
		p := tr.Parent(i)
		if p < n {
			t.Errorf("internal node %d %q has parent %d, a point", i, tr.Name(i), p)
			continue
		}
		want := tr.Name(p) + "/" + strconv.Itoa(rank[p])
		rank[p]++
		if tr.Name(i) != want {
			t.Errorf("internal node %d is named %q, want %q", i, tr.Name(i), want)
		}
		if !strings.HasPrefix(tr.Name(i), prefix+"/") {
			t.Errorf("internal node %d %q lacks the prefix %q", i, tr.Name(i), prefix)
		}
	}
}

// sameTree reports whether a and b have the same names, parents and
// weights, bit for bit.
func sameTree(a, b *tree.Tree) bool {
	if a.Len() != b.Len() {
		return false
	}
	for i := range a.Len() {
		if a.Name(i) != b.Name(i) || a.Parent(i) != b.Parent(i) ||
			math.Float64bits(a.Weight(i)) != math.Float64bits(b.Weight(i)) {
			return false
		}
	}
	return true
}

// subtreePoints returns, for every node, the points (nodes < n) in its
// subtree, found by walking up from each point: independent of the order
// in which the package built the tree.
func subtreePoints(tr *tree.Tree, n int) [][]int {
	sets := make([][]int, tr.Len())
	for i := range n {
		for v := i; v >= 0; v = tr.Parent(v) {
			sets[v] = append(sets[v], i)
		}
	}
	return sets
}

// near reports whether got is within tol of want, relatively (absolutely
// for |want| < 1).
func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*max(1, math.Abs(want))
}
