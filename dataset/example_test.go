package dataset_test

import (
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/twl-ldl/twl/dataset"
	"github.com/twl-ldl/twl/tree"
)

func ExampleReadJSONL() {
	t, err := tree.FromParents([]int{-1, 0, 0, 1}, nil, []string{"animal", "mammal", "reptile", "dog"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	const data = `{"x": [0.5, -1], "y": {"dog": 0.7, "mammal": 0.3}}
{"x": [2, 0], "y": {"reptile": 2, "animal": 2}}
`
	ds, rep, err := dataset.ReadJSONL(strings.NewReader(data), "pets.jsonl", t, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ds.Labels)
	fmt.Printf("X =\n%v\nY =\n%v\n", mat.Formatted(ds.X), mat.Formatted(ds.Y))
	fmt.Println(rep)

	_, _, err = dataset.ReadJSONL(strings.NewReader(`{"x": [1], "y": {"cat": 1}}`), "pets.jsonl", t, nil)
	fmt.Println(err)
	// Output:
	// [animal mammal reptile dog]
	// X =
	// ⎡0.5   -1⎤
	// ⎣  2    0⎦
	// Y =
	// ⎡  0  0.3    0  0.7⎤
	// ⎣0.5    0  0.5    0⎦
	// pets.jsonl:2: 1 of 2 label rows did not sum to 1 within 1e-06 (largest deviation 3) and were rescaled; the first is on this line
	// pets.jsonl:1: unknown label: "cat" is not a node of the tree
}

func ExampleWriteJSONL() {
	ds := &dataset.Dataset{
		X:      mat.NewDense(2, 2, []float64{0.1, 2e-7, 3, 4}),
		Y:      mat.NewDense(2, 3, []float64{0.25, 0, 0.75, 0, 1, 0}),
		Labels: []string{"0", "1", "2"},
	}
	if err := dataset.WriteJSONL(os.Stdout, ds, tree.Chain(3)); err != nil {
		log.Fatal(err)
	}
	// Output:
	// {"x":[0.1,2e-7],"y":{"0":0.25,"2":0.75}}
	// {"x":[3,4],"y":{"1":1}}
}

// Five-fold cross validation with features standardized on each training
// part only.
func ExampleKFold() {
	x := mat.NewDense(10, 1, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	folds := dataset.KFold(10, 5, rand.NewPCG(1, 2))
	for f, test := range folds {
		train := dataset.Complement(10, test)
		var s dataset.Standardizer
		s.Fit(x, train)
		fmt.Printf("fold %d: test %v, train mean %.3g\n", f, test, s.Mean[0])
	}
	// Output:
	// fold 0: test [2 4], train mean 5.88
	// fold 1: test [3 6], train mean 5.5
	// fold 2: test [1 9], train mean 5.38
	// fold 3: test [0 8], train mean 5.62
	// fold 4: test [5 7], train mean 5.12
}

// Reading samples one at a time, with label distributions held sparsely:
// the second line has no "y", which TargetsOptional allows, and the "id"
// keys are skipped.
func ExampleReader() {
	t, err := tree.FromParents([]int{-1, 0, 0, 1}, nil, []string{"animal", "mammal", "reptile", "dog"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	const data = `{"id": "rex", "x": [0.5, -1], "y": {"dog": 0.7, "mammal": 0.3}}
{"id": "new", "x": [2, 0]}
{"id": "liz", "x": [1, 1], "y": {"reptile": 1}}
`
	rd := dataset.NewReader(strings.NewReader(data), "pets.jsonl", t, &dataset.ReaderOptions{Targets: dataset.TargetsOptional})
	for rd.Next() {
		s := rd.Sample()
		fmt.Printf("line %d: x %v", s.Line, s.X)
		if s.HasY {
			fmt.Printf(", y labels %v masses %v", s.Y.Index, s.Y.Mass)
		}
		fmt.Println()
	}
	if err := rd.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// line 1: x [0.5 -1], y labels [1 3] masses [0.3 0.7]
	// line 2: x [2 0]
	// line 3: x [1 1], y labels [2] masses [1]
}
