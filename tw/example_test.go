package tw_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tw"
)

// animals returns the tree of Figure 1 of the paper, unit weights.
func animals() *tree.Tree {
	t, err := tree.FromParents([]int{-1, 0, 0, 1, 1, 2, 2}, nil,
		[]string{"animal", "mammal", "reptile", "dog", "cat", "lizard", "snake"}, nil)
	if err != nil {
		panic(err)
	}
	return t
}

// Read a tree from an edge list (parent, TAB, child) and compare two
// distributions over its nodes.
func Example() {
	const edges = "animal\tmammal\nanimal\treptile\nmammal\tdog\nmammal\tcat\nreptile\tsnake\n"
	t, err := tree.Read(strings.NewReader(edges), "animals.tree", nil)
	if err != nil {
		log.Fatal(err)
	}
	// Masses in the tree's order: animal, mammal, reptile, dog, cat, snake.
	a := []float64{0, 0, 0, 1, 0, 0}     // all on dog
	b := []float64{0, 0, 0, 0, 0.5, 0.5} // half on cat, half on snake
	fmt.Println(tw.NewWorkspace(t).Distance(a, b))
	// Output: 3
}

func ExampleWorkspace_Distance() {
	t := animals()
	ws := tw.NewWorkspace(t)
	// Order: animal, mammal, reptile, dog, cat, lizard, snake.
	dog := []float64{0, 0, 0, 1, 0, 0, 0}
	cat := []float64{0, 0, 0, 0, 1, 0, 0}
	snake := []float64{0, 0, 0, 0, 0, 0, 1}
	pet := []float64{0, 0, 0, 0.5, 0.5, 0, 0}
	fmt.Println(ws.Distance(dog, cat))   // dog → mammal → cat
	fmt.Println(ws.Distance(dog, snake)) // dog → mammal → animal → reptile → snake
	fmt.Println(ws.Distance(pet, dog))   // half the mass moves 2 edges
	// Output:
	// 2
	// 4
	// 1
}

func ExampleWorkspace_DistanceGrad() {
	t := animals()
	ws := tw.NewWorkspace(t)
	a := []float64{0, 0, 0, 1, 0, 0, 0} // δ_dog
	b := []float64{0, 0, 0, 0, 0, 0, 1} // δ_snake
	grad := make([]float64, t.Len())
	v := ws.DistanceGrad(grad, a, b)
	fmt.Println(v)
	for i, g := range grad {
		fmt.Printf("%-7s %+g\n", t.Name(i), g)
	}
	// Output:
	// 4
	// animal  +0
	// mammal  +1
	// reptile -1
	// dog     +2
	// cat     +1
	// lizard  -1
	// snake   -2
}

func ExampleBatch_Pairwise() {
	t := tree.Chain(3) // ordinal labels 0 — 1 — 2
	A := []float64{
		1, 0, 0,
		0, 0, 1,
	}
	B := []float64{
		1, 0, 0,
		0, 1, 0,
		0.5, 0, 0.5,
	}
	dst := make([]float64, 2*3)
	tw.NewBatch(t, 2).Pairwise(dst, A, B)
	for i := 0; i < 2; i++ {
		fmt.Println(dst[i*3 : (i+1)*3])
	}
	// Output:
	// [0 1 1]
	// [2 1 1]
}

func ExampleWorkspace_Embed() {
	t := animals()
	ws := tw.NewWorkspace(t)
	a := []float64{0, 0, 0, 0.5, 0.5, 0, 0}
	b := []float64{0, 0.5, 0, 0, 0, 0.25, 0.25}
	pa, pb := make([]float64, t.Len()), make([]float64, t.Len())
	ws.Embed(pa, a) // Φ(a)_v = w_v · a(Γ(v))
	ws.Embed(pb, b)
	var l1 float64
	for i := range pa {
		l1 += max(pa[i]-pb[i], pb[i]-pa[i])
	}
	fmt.Println(pa)
	fmt.Println(pb)
	fmt.Println(l1, ws.Distance(a, b))
	// Output:
	// [0 1 0 0.5 0.5 0 0]
	// [0 0.5 0.5 0 0 0.25 0.25]
	// 2.5 2.5
}

// A plan says which mass moves where: dog's unit splits between cat (two
// edges) and snake (four), at a cost of TW = 3.
func ExamplePlanner_Plan() {
	t := animals() // animal, mammal, reptile, dog, cat, lizard, snake
	a := []float64{0, 0, 0, 1, 0, 0, 0}
	b := []float64{0, 0, 0, 0, 0.5, 0, 0.5}
	plan, cost := tw.NewPlanner(t).Plan(nil, a, b)
	fmt.Println("cost", cost)
	for _, m := range plan {
		fmt.Println(t.Name(int(m.From)), "→", t.Name(int(m.To)), m.Mass)
	}
	// Unordered output:
	// cost 3
	// dog → cat 0.5
	// dog → snake 0.5
}
