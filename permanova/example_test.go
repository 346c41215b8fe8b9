package permanova_test

import (
	"context"
	"fmt"

	"github.com/twl-ldl/twl/permanova"
)

// Four samples in two groups: {s1, s2} close together, {s3, s4} too. Of
// the three ways to pair them, two give an F at least this large (the
// exact p-value is 1/3).
func ExampleMatrix_Test() {
	d := []float64{
		0, 1, 5, 4,
		1, 0, 3, 2,
		5, 3, 0, 3,
		4, 2, 3, 0,
	}
	m, err := permanova.New(d, 4, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := m.Test(context.Background(), []string{"control", "control", "fast", "fast"}, &permanova.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d samples, %d groups: pseudo-F %.4g, p-value %.3f (%d permutations)\n", r.N, r.Groups, r.F, r.P, r.Permutations)
	// Output:
	// 4 samples, 2 groups: pseudo-F 4.4, p-value 0.331 (999 permutations)
}
