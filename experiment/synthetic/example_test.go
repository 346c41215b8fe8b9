package synthetic_test

import (
	"fmt"

	"github.com/twl-ldl/twl/experiment/synthetic"
)

// A tiny run of the experiment: two losses, two seeds, two epochs.
func ExampleRun() {
	res, err := synthetic.Run(synthetic.Config{
		Nodes: new(20), Train: new(30), Test: new(20), Epochs: new(2), Seeds: new(2),
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
