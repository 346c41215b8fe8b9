package synth_test

import (
	"fmt"

	"github.com/twl-ldl/twl/synth"
)

// The distribution F_vuσ on the chain 0 — 1 — 2 with centres v = 0 and
// u = 1, for the two signs of the exponent.
func ExampleF() {
	dv := []float64{0, 1, 2} // distances from v = 0
	du := []float64{1, 0, 1} // distances from u = 1
	fmt.Printf("decay: %.4f\n", synth.F(nil, dv, du, 1, synth.Decay))
	fmt.Printf("grow:  %.4f\n", synth.F(nil, dv, du, 1, synth.Grow))
	fmt.Printf("σ = 0: %.4f\n", synth.F(nil, dv, du, 0, synth.Decay))
	// Output:
	// decay: [0.4223 0.4223 0.1554]
	// grow:  [0.2119 0.2119 0.5761]
	// σ = 0: [0.5000 0.5000 0.0000]
}

// A small synthetic data set: 100 nodes, 5 training and 2 test samples.
func ExampleGenerate() {
	d, err := synth.Generate(synth.Config{Nodes: 100, Features: 10, Hidden: 10}, 1, 5, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, c := d.Train.X.Dims()
	_, l := d.Train.Y.Dims()
	fmt.Println(d.Tree.Len(), "nodes;", r, "training samples of", c, "features and", l, "label masses;", d.Test.Len(), "test samples")
	// Output:
	// 100 nodes; 5 training samples of 10 features and 100 label masses; 2 test samples
}
