package synthetic_test

import (
	"fmt"

	"github.com/twl-ldl/twl/experiment/synthetic"
)

// A paired comparison of two losses on one metric across four seeds:
// B is higher than A on every seed, which for a distance (lower is
// better) means A won every time.
func ExamplePairedT() {
	a := []float64{1, 2, 3, 4}         // loss A, seeds 1 … 4
	b := []float64{1.5, 2.1, 3.9, 4.2} // loss B, same seeds
	c := synthetic.PairedT(a, b, true)
	fmt.Printf("mean B − A = %.3f, t = %.3f, p = %.4f; B better on %d of %d seeds\n",
		float64(c.MeanDiff), float64(c.T), float64(c.P), c.BBetter, c.N)
	// Output:
	// mean B − A = 0.425, t = 2.365, p = 0.0989; B better on 0 of 4 seeds
}

// A tiny run of the experiment: two losses, two seeds, two epochs.
func ExampleRun() {
	res, err := synthetic.Run(synthetic.Config{
		Nodes: 20, Train: 30, Test: 20, Epochs: 2, Seeds: 2,
		Losses: []string{"kl", "kl+tw"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(res.Runs), "runs; differences from the paper:")
	for _, d := range res.Differences {
		fmt.Println(" ", d)
	}
	// Output:
	// 4 runs; differences from the paper:
	//   20 tree nodes instead of 1000
	//   30 training samples instead of 1000
	//   20 test samples instead of 1000
	//   2 epochs instead of 500
	//   2 seeds instead of 10
	//   losses [kl kl+tw] only
}
