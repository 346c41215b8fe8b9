package tree_test

import (
	"fmt"
	"strings"

	"github.com/twl-ldl/twl/tree"
)

// The tree of Figure 1 of the paper, as a parent array in breadth-first
// order with unit weights.
func ExampleFromParents() {
	names := []string{"animal", "mammal", "reptile", "dog", "cat", "lizard", "snake"}
	parent := []int{-1, 0, 0, 1, 1, 2, 2}
	t, err := tree.FromParents(parent, nil, names, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(t)
	dog, _ := t.Index("dog")
	fmt.Println("parent of dog:", t.Name(t.Parent(dog)), "depth:", t.Depth(dog))
	fmt.Print(t.Format())
	// Output:
	// tree(7 nodes, root "animal")
	// parent of dog: mammal depth: 2
	// animal	mammal	1
	// animal	reptile	1
	// mammal	dog	1
	// mammal	cat	1
	// reptile	lizard	1
	// reptile	snake	1
}

// A forest read from an edge list is joined under a virtual root; errors
// name the file and line.
func ExampleRead() {
	const text = `# parent<TAB>child[<TAB>weight]
mammal	dog
mammal	cat	2
reptile	snake
`
	t, err := tree.Read(strings.NewReader(text), "animals.txt", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(t, "virtual:", t.Virtual())
	fmt.Println(t.Names())

	_, err = tree.Read(strings.NewReader("a\tb\nb\tc\nc\ta\n"), "bad.txt", nil)
	fmt.Println(err)
	// Output:
	// tree(5 nodes, root "<root>") virtual: true
	// [mammal dog cat reptile snake]
	// bad.txt:3: cycle: "b" → "c" → "a" → "b"
}

func ExampleTree_Distance() {
	// Figure 1 with weighted edges below mammal.
	var b tree.Builder
	b.AddEdge("animal", "mammal", 1)
	b.AddEdge("animal", "reptile", 1)
	b.AddEdge("mammal", "dog", 0.5)
	b.AddEdge("mammal", "cat", 0.5)
	b.AddEdge("reptile", "snake", 1)
	t, err := b.Build(nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	dog, _ := t.Index("dog")
	cat, _ := t.Index("cat")
	snake, _ := t.Index("snake")
	fmt.Println(t.Distance(dog, cat), t.Distance(dog, snake))
	// Output:
	// 1 3.5
}

func ExampleTree_LCA() {
	t, err := tree.ReadFile("testdata/figure1.txt", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	name := func(i int) string {
		if i < 0 {
			return t.RootName()
		}
		return t.Name(i)
	}
	idx := func(s string) int { i, _ := t.Index(s); return i }
	fmt.Println(name(t.LCA(idx("dog"), idx("cat"))))
	fmt.Println(name(t.LCA(idx("dog"), idx("snake"))))
	fmt.Println(name(t.LCA(idx("lizard"), idx("reptile"))))
	// Output:
	// mammal
	// animal
	// reptile
}
