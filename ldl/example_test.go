package ldl_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/twl-ldl/twl/ldl"
)

// Train a model on ordinal labels (a chain of 3 labels: low, mid, high)
// with KL + 0.5·TW, and predict the distribution of new samples.
func Example() {
	// A small data set in JSON Lines: one feature, and a distribution
	// over the labels "0", "1", "2" peaked at the feature's level.
	dir, err := os.MkdirTemp("", "ldl-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "train.jsonl")
	var lines []byte
	for i := range 90 {
		level := i % 3
		x := float64(level) + 0.1*float64(i%5)
		y := [3]string{"0.1", "0.1", "0.1"}
		y[level] = "0.8"
		lines = fmt.Appendf(lines, `{"x": [%g], "y": {"0": %s, "1": %s, "2": %s}}`+"\n", x, y[0], y[1], y[2])
	}
	if err := os.WriteFile(path, lines, 0o644); err != nil {
		log.Fatal(err)
	}

	// Load the data with its label tree, a chain of 3 ordinal labels.
	d, err := ldl.Load(context.Background(), path, "chain:3", nil)
	if err != nil {
		log.Fatal(err)
	}
	// Fit a linear model: 200 epochs, the other settings the defaults.
	f, h, err := ldl.Fit(context.Background(), d, &ldl.Options{Loss: "kl+0.5tw", Epochs: 200, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s on %d rows, %d epochs, loss %s\n", f.Model, d.Len(), len(h.Epochs), f.Loss)

	// Predict new samples (raw features: the model standardizes them).
	X := []float64{0, 1.2, 2.1}
	P := make([]float64, len(X)*len(f.Labels))
	f.Predict(P, X)
	for i, x := range X {
		p := P[i*3 : (i+1)*3]
		fmt.Printf("x %.1f: %s %.2f  %s %.2f  %s %.2f\n", x, f.Labels[0], p[0], f.Labels[1], p[1], f.Labels[2], p[2])
	}
	// Output:
	// softmax-linear on 90 rows, 200 epochs, loss kl+0.5·tw
	// x 0.0: 0 0.53  1 0.36  2 0.10
	// x 1.2: 0 0.26  1 0.44  2 0.31
	// x 2.1: 0 0.11  1 0.37  2 0.52
}
