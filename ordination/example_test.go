package ordination_test

import (
	"fmt"
	"os"

	"github.com/twl-ldl/twl/ordination"
)

// Three samples whose distances break the triangle inequality: one
// positive eigenvalue, one negative.
func ExamplePCoA() {
	d := []float64{
		0, 1, 1,
		1, 0, 3,
		1, 3, 0,
	}
	var r ordination.Result
	if err := ordination.PCoA(&r, d, 3, 2); err != nil {
		panic(err)
	}
	fmt.Printf("eigenvalues %.4g\n", r.Eigenvalues)
	fmt.Printf("proportion  %.4g\n", r.Proportion)
	n, ratio := r.Negative()
	fmt.Printf("%d negative, %.3f of the positive sum\n", n, ratio)
	fmt.Println(r.AxisLabel(0))
	// Output:
	// eigenvalues [4.5 0 -0.8333]
	// proportion  [1 0 0]
	// 1 negative, 0.185 of the positive sum
	// PC1 (100.0%)
}

// Points on a line at 0, 1 and 3: PCoA recovers them, centred at their
// mean 4/3 (to rounding).
func ExampleWriteTSV() {
	d := []float64{
		0, 1, 3,
		1, 0, 2,
		3, 2, 0,
	}
	var r ordination.Result
	if err := ordination.PCoA(&r, d, 3, 1); err != nil {
		panic(err)
	}
	ordination.WriteTSV(os.Stdout, &r, []string{"a", "b", "c"})
	// Output:
	// # PCoA of 3 samples on 1 axis; eigenvalues: 1 positive, 2 zero, 0 negative (negative/positive 0)
	// #eigenvalue	4.666666666666667
	// #proportion_explained	1
	// sample-id	PC1
	// a	-1.333333333333334
	// b	-0.33333333333333326
	// c	1.6666666666666667
}

// Options: Exact computes every eigenvalue whatever the size (small
// matrices such as this one always take the exact path); Seed seeds the
// random start of the Krylov iteration used for few axes of many samples.
func ExamplePCoAWith() {
	d := []float64{
		0, 1, 3,
		1, 0, 2,
		3, 2, 0,
	}
	var r ordination.Result
	if err := ordination.PCoAWith(&r, d, 3, 1, &ordination.Options{Exact: true, Seed: 1}); err != nil {
		panic(err)
	}
	fmt.Println(r.Exact, len(r.Eigenvalues), r.Total)
	fmt.Printf("%.4g\n", r.Coords)
	// Output:
	// true 3 4.666666666666667
	// [-1.333 -0.3333 1.667]
}
