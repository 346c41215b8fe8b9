package metric_test

import (
	"fmt"

	"github.com/twl-ldl/twl/metric"
	"github.com/twl-ldl/twl/tree"
	"github.com/twl-ldl/twl/tsw"
)

func ExampleKL() {
	pred := []float64{0.5, 0.5, 0}
	target := []float64{1, 0, 0}
	// KL(target ‖ pred): the prediction covers the target's mass.
	fmt.Printf("%.4f\n", metric.KL(pred, target))
	// Swapped, the prediction misses mass of the target: +Inf, unless the
	// vectors are clipped to [ε, 1] first, as PyLDL does: then KL =
	// .5 ln(.5/1) + .5 ln(.5/ε) + ε ln(ε/ε) = 25 ln 2, with ε = 2⁻⁵².
	fmt.Println(metric.KL(target, pred))
	p, q := metric.Clip(make([]float64, 3), target), metric.Clip(make([]float64, 3), pred)
	fmt.Printf("%.4f\n", metric.KL(p, q))
	// Output:
	// 0.6931
	// +Inf
	// 17.3287
}

func ExampleEvaluator_Evaluate() {
	// The tree of Figure 1 of the paper: animal → mammal → {dog, cat},
	// animal → reptile → {lizard, snake}, unit weights.
	t, err := tree.FromParents([]int{-1, 0, 0, 1, 1, 2, 2}, nil,
		[]string{"animal", "mammal", "reptile", "dog", "cat", "lizard", "snake"}, nil)
	if err != nil {
		panic(err)
	}
	// Two predictions, row-major: all on dog; .9 cat, .1 snake. Both targets
	// are cat.
	pred := []float64{
		0, 0, 0, 1, 0, 0, 0,
		0, 0, 0, 0, 0.9, 0, 0.1,
	}
	target := []float64{
		0, 0, 0, 0, 1, 0, 0,
		0, 0, 0, 0, 1, 0, 0,
	}
	res := metric.NewEvaluator(t, nil).Evaluate(pred, target)
	for _, name := range metric.Names {
		arrow := "↑"
		if metric.LowerIsBetter(name) {
			arrow = "↓"
		}
		fmt.Printf("%-12s %s  %.4f  %.4f  mean %.4f\n", name, arrow,
			res.Values[name][0], res.Values[name][1], res.Mean[name])
	}
	// Output:
	// wasserstein  ↓  2.0000  0.4000  mean 1.2000
	// kl           ↓  +Inf  0.1054  mean +Inf
	// chebyshev    ↓  1.0000  0.1000  mean 0.5500
	// clark        ↓  1.4142  1.0014  mean 1.2078
	// canberra     ↓  2.0000  1.0526  mean 1.5263
	// cosine       ↑  0.0000  0.9939  mean 0.4969
	// intersection ↑  0.0000  0.9000  mean 0.4500
}

func ExampleNewSlicedEvaluator() {
	// Two trees over the labels a, b, c: a star with unit weights, and
	// r → x → {a, b} with unit weights beside r → c of weight 2.
	star, err := tree.FromParents([]int{-1, 0, 0, 0}, nil, []string{"r", "a", "b", "c"}, nil)
	if err != nil {
		panic(err)
	}
	deep, err := tree.FromParents([]int{-1, 0, 1, 1, 0}, []float64{0, 1, 1, 1, 2}, []string{"r", "x", "a", "b", "c"}, nil)
	if err != nil {
		panic(err)
	}
	s, err := tsw.New([]*tree.Tree{star, deep}, []string{"a", "b", "c"})
	if err != nil {
		panic(err)
	}
	// Prediction a .5, b .25, c .25 against the target b .5, c .5: TW is 1
	// on the star and 1.5 on the other tree, so TSW is 1.25.
	ev := metric.NewSlicedEvaluator(s, nil)
	row := make([]float64, len(ev.Names()))
	ev.Row(row, []float64{0.5, 0.25, 0.25}, []float64{0, 0.5, 0.5})
	for m, name := range ev.Names() {
		fmt.Printf("%-12s %.4f\n", name, row[m])
	}
	// Output:
	// tsw          1.2500
	// kl           0.6931
	// chebyshev    0.5000
	// clark        1.1055
	// canberra     1.6667
	// cosine       0.5774
	// intersection 0.5000
}
