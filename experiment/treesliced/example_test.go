package treesliced_test

import (
	"fmt"

	"github.com/twl-ldl/twl/experiment/treesliced"
)

// TSW on 8 quadtrees against the exact W1, over 10 pairs of clouds of 40
// points in the plane.
func Example() {
	res, err := treesliced.Run(treesliced.Config{
		Seed: 1, Dims: []int{2}, Sizes: []int{40}, Pairs: new(10), Trees: []int{8},
		Builders: []string{treesliced.BuilderQuad},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	row := res.Cell(2, 40).Row(treesliced.BuilderQuad, 8)
	fmt.Printf("correlation %.2f, TSW/W1 from %.1f to %.1f\n", float64(row.Corr), float64(row.RatioMin), float64(row.RatioMax))
	// Output:
	// correlation 0.86, TSW/W1 from 7.2 to 12.2
}
