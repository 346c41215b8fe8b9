package pointtree_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/pointtree"
	"github.com/twl-ldl/twl/tree"
)

// edge is an expected edge: the parent's name, the child's, the weight.
type edge struct {
	parent, child string
	w             float64
}

// checkEdges checks that tr has exactly the given edges.
func checkEdges(t *testing.T, tr *tree.Tree, want []edge, tol float64) {
	t.Helper()
	if tr.Edges() != len(want) {
		t.Errorf("%d edges, want %d:\n%s", tr.Edges(), len(want), tr.Format())
	}
	for _, e := range want {
		c, ok := tr.Index(e.child)
		if !ok {
			t.Errorf("no node %q:\n%s", e.child, tr.Format())
			continue
		}
		parent := "(none)"
		if p := tr.Parent(c); p >= 0 {
			parent = tr.Name(p)
		}
		if parent != e.parent || !near(tr.Weight(c), e.w, tol) {
			t.Errorf("edge above %q: from %q, weight %v; want %q, %v", e.child, parent, tr.Weight(c), e.parent, e.w)
		}
	}
}

// Hand calculations on the line. For 0, 1, 10, 11 and K = 2 the only
// fixed point of Lloyd's iterations that k-means++ can reach is
// {0, 1}, {10, 11}: centres 5.5 (root), 0.5 and 10.5, edges of 5; each
// pair then splits into single points, leaves at 0.5 from their centre.
// For 0, 1, 2, 10, 11 with Depth 1 every seeding ends, within a few
// iterations, at {0, 1, 2}, {10, 11} (a tie at 1 between seeds 0 and 2
// goes to the first, {0, 1}, then 2 moves over): centres 24/5 = 4.8, 1 and
// 10.5, edges |1 − 4.8| = 3.8 and |10.5 − 4.8| = 5.7, and the points hang
// at 1, 0, 1, 0.5, 0.5 from their centres.
func TestClusterHand(t *testing.T) {
	for _, tc := range []struct {
		name   string
		points []float64
		opts   pointtree.ClusterOptions
		want   []edge
		tol    float64
	}{
		{"4 points, K=2", []float64{0, 1, 10, 11}, pointtree.ClusterOptions{K: 2}, []edge{
			{"·c", "·c/0", 5}, {"·c", "·c/1", 5},
			{"·c/0", "0", 0.5}, {"·c/0", "1", 0.5}, {"·c/1", "2", 0.5}, {"·c/1", "3", 0.5},
		}, 0}, // every number is exact in binary
		{"5 points, K=2, Depth=1", []float64{0, 1, 2, 10, 11}, pointtree.ClusterOptions{K: 2, Depth: 1}, []edge{
			{"·c", "·c/0", 3.8}, {"·c", "·c/1", 5.7},
			{"·c/0", "0", 1}, {"·c/0", "1", 0}, {"·c/0", "2", 1}, {"·c/1", "3", 0.5}, {"·c/1", "4", 0.5},
		}, 1e-15},
		{"fewer points than K", []float64{0, 1, 5}, pointtree.ClusterOptions{}, []edge{
			{"·c", "0", 2}, {"·c", "1", 1}, {"·c", "2", 3},
		}, 0},
		{"one point", []float64{7}, pointtree.ClusterOptions{}, []edge{{"·c", "0", 0}}, 0},
		{"identical points", []float64{0.25, 0.25, 0.25, 0.25, 0.25}, pointtree.ClusterOptions{K: 2}, []edge{
			{"·c", "0", 0}, {"·c", "1", 0}, {"·c", "2", 0}, {"·c", "3", 0}, {"·c", "4", 0},
		}, 0},
		// Two groups of copies of dyadic values: the root splits them
		// (centres exact), each group's seeding finds a single distinct
		// point and stops.
		{"two groups of duplicates", []float64{0.5, 3.25, 0.5, 3.25, 0.5, 3.25}, pointtree.ClusterOptions{K: 3}, []edge{
			{"·c", "·c/0", 1.375}, {"·c", "·c/1", 1.375},
			{"·c/0", "0", 0}, {"·c/0", "2", 0}, {"·c/0", "4", 0},
			{"·c/1", "1", 0}, {"·c/1", "3", 0}, {"·c/1", "5", 0},
		}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.points)
			for seed := range uint64(40) {
				opts := tc.opts
				opts.Seed = seed
				tr, err := pointtree.Cluster(tc.points, n, 1, nil, &opts)
				if err != nil {
					t.Fatal(err)
				}
				checkStructure(t, tr, n, nil, pointtree.ClusterPrefix)
				checkEdges(t, tr, tc.want, tc.tol)
				if t.Failed() {
					t.Fatalf("seed %d", seed)
				}
			}
		})
	}
}

// The documented rule, checked from the outside on random clouds: the
// centre of a cluster node is the mean of the points of its subtree,
// computed here by brute force from the tree alone; an internal edge is
// the distance between the centres of its ends, a point's edge the
// distance from the point to its parent's centre. Depths stay within
// Depth, a cluster node holds at least two points, and no node has more
// than K cluster children.
func TestClusterRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct {
		n, d, k, depth int
		clustered      bool
	}{
		{200, 3, 3, 3, false}, {300, 5, 4, 6, true}, {100, 1, 2, 10, false}, {150, 20, 5, 2, true},
	} {
		var x []float64
		if tc.clustered {
			x = blobs(rng, 6, tc.n/6, tc.d, 10)
		} else {
			x = gaussian(rng, tc.n, tc.d)
		}
		n, d := len(x)/tc.d, tc.d
		tr, err := pointtree.Cluster(x, n, d, names(n), &pointtree.ClusterOptions{K: tc.k, Depth: tc.depth, Seed: rng.Uint64()})
		if err != nil {
			t.Fatal(err)
		}
		checkStructure(t, tr, n, names(n), pointtree.ClusterPrefix)
		sets := subtreePoints(tr, n)
		centre := make([][]float64, tr.Len())
		for v := n; v < tr.Len(); v++ {
			c := make([]float64, d)
			for _, i := range sets[v] {
				for j := range d {
					c[j] += x[i*d+j]
				}
			}
			for j := range c {
				c[j] /= float64(len(sets[v]))
			}
			centre[v] = c
		}
		dist := func(a, b []float64) float64 {
			var s float64
			for j := range a {
				s += (a[j] - b[j]) * (a[j] - b[j])
			}
			return math.Sqrt(s)
		}
		kids := map[int]int{}
		for v := range tr.Len() {
			p := tr.Parent(v)
			if p < 0 {
				continue
			}
			var want float64
			if v < n {
				want = dist(x[v*d:(v+1)*d], centre[p])
			} else {
				want = dist(centre[v], centre[p])
				kids[p]++
				if len(sets[v]) < 2 {
					t.Errorf("cluster node %q holds %d points", tr.Name(v), len(sets[v]))
				}
				if tr.Depth(v) > tc.depth {
					t.Errorf("cluster node %q at depth %d > %d", tr.Name(v), tr.Depth(v), tc.depth)
				}
			}
			if !near(tr.Weight(v), want, 1e-9) {
				t.Errorf("%+v: edge above %q weighs %v, want %v", tc, tr.Name(v), tr.Weight(v), want)
			}
		}
		for p, k := range kids {
			if k > tc.k {
				t.Errorf("%q has %d cluster children > K = %d", tr.Name(p), k, tc.k)
			}
		}
	}
}

// Four blobs far apart (centres at distance ≥ 40, unit spread) and K = 4:
// the root's children are the blobs.
func TestClusterBlobs(t *testing.T) {
	const per, d = 25, 5
	var x []float64
	for b := range 4 {
		rng := rand.New(rand.NewPCG(2, uint64(b)))
		for range per {
			for j := range d {
				c := 0.0
				if j == b {
					c = 30
				}
				x = append(x, c+rng.NormFloat64())
			}
		}
	}
	n := len(x) / d
	for seed := range uint64(10) {
		tr, err := pointtree.Cluster(x, n, d, nil, &pointtree.ClusterOptions{K: 4, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		kids := tr.Children(nil, n)
		if len(kids) != 4 {
			t.Fatalf("seed %d: root has %d children, want 4", seed, len(kids))
		}
		sets := subtreePoints(tr, n)
		for b, k := range kids {
			s := sets[k]
			if len(s) != per || s[0] != b*per || s[per-1] != (b+1)*per-1 {
				t.Errorf("seed %d: child %d holds %v, want points %d…%d", seed, b, s, b*per, (b+1)*per-1)
			}
		}
	}
}

// The same seed gives the same tree bit for bit, whatever Workers; the
// largest nodes (3000 × 96 × 4 ≥ 2²⁰) split with parallel loops inside
// them, the others beside each other.
func TestClusterDeterminism(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	const n, d = 3000, 96
	x := blobs(rng, 20, n/20, d, 3)
	opts := pointtree.ClusterOptions{Seed: 9, Depth: 4, Workers: 1}
	ref, err := pointtree.Cluster(x, n, d, nil, &opts)
	if err != nil {
		t.Fatal(err)
	}
	checkStructure(t, ref, n, nil, pointtree.ClusterPrefix)
	for _, w := range []int{1, 2, 4} {
		opts.Workers = w
		tr, err := pointtree.Cluster(x, n, d, nil, &opts)
		if err != nil {
			t.Fatal(err)
		}
		if !sameTree(tr, ref) {
			t.Errorf("Workers = %d gives another tree", w)
		}
	}
	opts.Seed = 10
	other, err := pointtree.Cluster(x, n, d, nil, &opts)
	if err != nil {
		t.Fatal(err)
	}
	if sameTree(other, ref) {
		t.Errorf("seeds 9 and 10 give the same tree")
	}
}

// The inputs are not modified.
func TestClusterNoMutation(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	x := gaussian(rng, 300, 4)
	nm := names(300)
	x0 := append([]float64(nil), x...)
	nm0 := append([]string(nil), nm...)
	if _, err := pointtree.Cluster(x, 300, 4, nm, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := pointtree.Quad(x, 300, 4, nm, nil); err != nil {
		t.Fatal(err)
	}
	for i := range x {
		if math.Float64bits(x[i]) != math.Float64bits(x0[i]) {
			t.Fatal("points modified")
		}
	}
	for i := range nm {
		if nm[i] != nm0[i] {
			t.Fatal("names modified")
		}
	}
}

// Scaling the points by a power of two scales every weight by it, bit for
// bit, for both builders: their arithmetic is exact under such scaling,
// down to 2^−1000 (where Cluster's squared distances would underflow
// without its rescaling) and up to 2^300.
func TestScaleEquivariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	const n, d = 300, 6
	x := blobs(rng, 5, n/5, d, 4)
	for _, b := range builders {
		ref, err := b.build(x, n, d, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range []int{-1000, -500, -3, 7, 300} {
			y := make([]float64, len(x))
			for i, v := range x {
				y[i] = math.Ldexp(v, e)
			}
			tr, err := b.build(y, n, d, nil)
			if err != nil {
				t.Fatal(err)
			}
			same := tr.Len() == ref.Len()
			for i := 0; same && i < ref.Len(); i++ {
				same = tr.Name(i) == ref.Name(i) && tr.Parent(i) == ref.Parent(i) &&
					tr.Weight(i) == math.Ldexp(ref.Weight(i), e)
			}
			if !same {
				t.Errorf("%s: the points scaled by 2^%d do not give the tree scaled by 2^%d", b.name, e, e)
			}
		}
	}
}
