package metric_test

import (
	"fmt"

	"github.com/twl-ldl/twl/metric"
	"github.com/twl-ldl/twl/tree"
)

func ExampleAUC() {
	// Positives .9, .4 against .5, .4, .1: .9 beats all three, .4 beats .1
	// and ties .4 (one half): U = 4.5 of 2·3 pairs.
	scores := []float64{0.9, 0.5, 0.4, 0.4, 0.1}
	positive := []bool{true, false, true, false, false}
	fmt.Printf("%.4f\n", metric.AUC(scores, positive))
	// Output:
	// 0.7500
}

func ExampleMultiLabel_Evaluate() {
	// The tree of Figure 1 of the paper: animal → mammal → {dog, cat},
	// animal → reptile → {lizard, snake}, unit weights.
	t, err := tree.FromParents([]int{-1, 0, 0, 1, 1, 2, 2}, nil,
		[]string{"animal", "mammal", "reptile", "dog", "cat", "lizard", "snake"}, nil)
	if err != nil {
		panic(err)
	}
	// Two documents, row-major predicted distributions. The first is about
	// a cat (true labels animal, mammal, cat) and the model ranks cat, dog,
	// snake first; the second about a lizard, ranked second after snake.
	pred := []float64{
		0, 0.1, 0, 0.2, 0.5, 0, 0.2,
		0.1, 0, 0.2, 0, 0, 0.3, 0.4,
	}
	labels := [][]int{{0, 1, 4}, {0, 2, 5}}
	res := metric.NewMultiLabel(t, 3).Evaluate(pred, labels)
	for _, name := range []string{"pseudo_recall", "top_k_cost", "roc_auc_samples"} {
		v := res.Values[name]
		fmt.Printf("%-15s %.4f  %.4f  mean %.4f\n", name, v[0], v[1], res.Mean[name])
	}
	fmt.Printf("roc_auc         %.4f\n", res.Mean["roc_auc"])
	// Per label over the documents: animal is true in both and dog and
	// snake in neither, so they are skipped; mammal, reptile, cat and
	// lizard each score higher where they are true.
	fmt.Printf("roc_auc_macro   %.4f over %d labels\n", res.Mean["roc_auc_macro"], t.Len()-res.SkippedLabels)
	// Output:
	// pseudo_recall   0.3333  0.6667  mean 0.5000
	// top_k_cost      1.0000  0.3333  mean 0.6667
	// roc_auc_samples 0.5833  0.7500  mean 0.6667
	// roc_auc         0.6979
	// roc_auc_macro   1.0000 over 4 labels
}
