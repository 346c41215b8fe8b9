package report_test

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/twl-ldl/twl/experiment/report"
)

// Two conditions over five seeds: the table's cells, the paired t-test of
// B against A, and the JSON of a Stat over one seed, whose standard
// deviation is NaN.
func Example() {
	values := map[string][]float64{
		"A": {0.30, 0.32, 0.31, 0.33, 0.29},
		"B": {0.25, 0.27, 0.27, 0.28, 0.24},
	}
	sum := report.Summarize([]string{"A", "B"}, []string{"kl"},
		func(id, _ string) []float64 { return values[id] }, report.LowerIsBetter, "A")
	fmt.Println("A:", report.Cell(sum.Table["A"]["kl"]))
	fmt.Println("B:", report.Cell(sum.Table["B"]["kl"]))
	fmt.Println("best:", sum.Best["kl"])
	c := sum.Comparisons[0]
	fmt.Printf("B − A = %+.3f, t = %.1f, p = %.5f, B better on %d of %d seeds\n",
		float64(c.MeanDiff), float64(c.T), float64(c.P), c.BBetter, c.N)
	b, _ := json.Marshal(report.Stat{Mean: 0.5, Std: report.Float(math.NaN())})
	fmt.Println(string(b))
	// Output:
	// A: 0.310 ± 0.016
	// B: 0.262 ± 0.016
	// best: B
	// B − A = -0.048, t = -24.0, p = 0.00002, B better on 5 of 5 seeds
	// {"mean":0.5,"std":"NaN"}
}

// A paired comparison of two losses on one metric across four seeds:
// B is higher than A on every seed, which for a distance (lower is
// better) means A won every time.
func ExamplePairedT() {
	a := []float64{1, 2, 3, 4}         // loss A, seeds 1 … 4
	b := []float64{1.5, 2.1, 3.9, 4.2} // loss B, same seeds
	c := report.PairedT(a, b, true)
	fmt.Printf("mean B − A = %.3f, t = %.3f, p = %.4f; B better on %d of %d seeds\n",
		float64(c.MeanDiff), float64(c.T), float64(c.P), c.BBetter, c.N)
	// Output:
	// mean B − A = 0.425, t = 2.365, p = 0.0989; B better on 0 of 4 seeds
}
