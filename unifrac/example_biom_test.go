package unifrac_test

import (
	"context"
	"fmt"

	"github.com/twl-ldl/twl/biom"
	"github.com/twl-ldl/twl/newick"
	"github.com/twl-ldl/twl/unifrac"
)

// A BIOM table on the tips of a Newick tree: the unweighted distances of
// its three samples (ssu gives 0.52, 0.4117647058823529 and 0.72).
func ExampleTableOf() {
	tr, err := newick.ReadFile("../testdata/unifrac/tree.nwk", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	b, err := biom.ReadFile("../testdata/unifrac/table.biom", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	tab, err := unifrac.TableOf(tr, b)
	if err != nil {
		fmt.Println(err)
		return
	}
	e, err := unifrac.New(tr, tab, unifrac.Unweighted, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	d := make([]float64, 3)
	e.Condensed(context.Background(), d)
	fmt.Println(tab.IDs, d)
	// Output:
	// [S1 S2 S3] [0.52 0.4117647058823529 0.72]
}
