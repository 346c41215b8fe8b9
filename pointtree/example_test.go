package pointtree_test

import (
	"fmt"
	"math"

	"github.com/twl-ldl/twl/pointtree"
	"github.com/twl-ldl/twl/tw"
)

// Four words with one-dimensional "embeddings": a clustering tree of
// branching 2 groups the animals and the vehicles. Its points are its
// first nodes, so a bag of words is a vector over the tree with zeros on
// the internal nodes, and the tree-Wasserstein distance applies as it is.
func ExampleCluster() {
	points := []float64{0, 1, 10, 11}
	names := []string{"cat", "dog", "car", "bus"}
	t, err := pointtree.Cluster(points, 4, 1, names, &pointtree.ClusterOptions{K: 2, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(t.Format())

	a := make([]float64, t.Len()) // half cat, half dog
	a[0], a[1] = 0.5, 0.5
	b := make([]float64, t.Len()) // all bus
	b[3] = 1
	fmt.Println("TW:", tw.Distance(t, a, b))
	// Output:
	// ·c	·c/0	5
	// ·c	·c/1	5
	// ·c/0	cat	0.5
	// ·c/0	dog	0.5
	// ·c/1	car	0.5
	// ·c/1	bus	0.5
	// TW: 11
}

// A quadtree of five points in the plane. The largest coordinate range is
// s = 8, so the root cell has side 16 and diameter 16√2 = 22.627; every
// edge is the diameter of the cell below it (for a point: of the cell it
// would have on its own), so tree distances bound the Euclidean ones from
// above. The cell ·q/0 of level 3 collapses a chain of cells of levels 1,
// 2 and 3 (11.314 + 5.657 + 2.828); its points hang at the diameter of
// level 4.
func ExampleQuad() {
	points := []float64{
		0, 0,
		1, 0,
		0, 1,
		8, 8,
		8, 7,
	}
	t, err := pointtree.Quad(points, 5, 2, nil, &pointtree.QuadOptions{Depth: 5, Shift: []float64{0.25, 0.5}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := range t.Len() {
		if p := t.Parent(i); p >= 0 {
			fmt.Printf("%-5s → %-2s %6.3f\n", t.Name(p), t.Name(i), t.Weight(i))
		}
	}
	fmt.Printf("d_T(0, 1) = %.3f ≥ 1, d_T(0, 3) = %.3f ≥ %.3f\n", t.Distance(0, 1), t.Distance(0, 3), 8*math.Sqrt2)
	// Output:
	// ·q/0  → 0   1.414
	// ·q/0  → 1   1.414
	// ·q/0  → 2   1.414
	// ·q/1  → 3   5.657
	// ·q/1  → 4   5.657
	// ·q    → ·q/0 19.799
	// ·q    → ·q/1 11.314
	// d_T(0, 1) = 2.828 ≥ 1, d_T(0, 3) = 38.184 ≥ 11.314
}

// Fitting the weights of a quadtree of five points on a line (on all ten
// pairs, since 20·n exceeds them; run to convergence with a small Tol)
// brings its distances, upper bounds, down to the Euclidean ones as far
// as its shape allows.
func ExampleFitWeights() {
	points := []float64{0, 1, 3, 7, 15}
	t, err := pointtree.Quad(points, 5, 1, nil, &pointtree.QuadOptions{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fit, err := pointtree.FitWeights(t, points, 5, 1, nil, &pointtree.FitOptions{Tol: 1e-12})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range [][2]int{{0, 1}, {1, 2}, {0, 4}, {3, 4}} {
		fmt.Printf("|x%d − x%d| = %2.0f   quadtree %6.2f   fitted %6.2f\n",
			p[0], p[1], points[p[1]]-points[p[0]], t.Distance(p[0], p[1]), fit.Distance(p[0], p[1]))
	}
	// Output:
	// |x0 − x1| =  1   quadtree   3.75   fitted   1.00
	// |x1 − x2| =  2   quadtree  54.38   fitted   3.78
	// |x0 − x4| = 15   quadtree  50.62   fitted  14.11
	// |x3 − x4| =  8   quadtree  18.75   fitted  11.56
}
