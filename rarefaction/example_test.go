package rarefaction_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/twl-ldl/twl/biom"
	"github.com/twl-ldl/twl/rarefaction"
)

func ExampleSubsample() {
	t := &biom.Table{
		Samples:      []string{"deep", "shallow"},
		Observations: []string{"OTU1", "OTU2", "OTU3"},
		Indptr:       []int{0, 3, 4},
		Indices:      []int32{0, 1, 2, 1},
		Data:         []float64{60, 30, 10, 5},
	}
	r, err := rarefaction.Subsample(t, 10, rand.NewPCG(1, 2), nil)
	if err != nil {
		panic(err)
	}
	idx, val := r.Row(0)
	total := 0.0
	for _, v := range val {
		total += v
	}
	fmt.Println(r.Samples, len(idx) <= 3, total)
	// Output: [deep] true 10
}
