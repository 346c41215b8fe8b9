package distmat_test

import (
	"fmt"
	"os"

	"github.com/twl-ldl/twl/distmat"
)

// A 3×3 matrix written in two stripes, in ssu's TSV layout.
func Example() {
	ids := []string{"S1", "S2", "S3"}
	d := []float64{
		0, 0.52, 0.4117647058823529,
		0.52, 0, 0.72,
		0.4117647058823529, 0.72, 0,
	}
	w, err := distmat.NewWriter(os.Stdout, distmat.TSV, ids, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	w.WriteRows(d[:3]) // row 0
	w.WriteRows(d[3:]) // rows 1 and 2
	fmt.Println(w.Close())
	// Output:
	// 	S1	S2	S3
	// S1	0	0.52	0.4117647058823529
	// S2	0.52	0	0.72
	// S3	0.4117647058823529	0.72	0
	// <nil>
}

// The row ranges of 3 shards of 1000 rows computed in blocks of 256.
func ExampleStripe() {
	for s := 1; s <= 3; s++ {
		lo, hi := distmat.Stripe(s, 3, 1000, 256)
		fmt.Printf("shard %d/3: rows [%d, %d)\n", s, lo, hi)
	}
	// Output:
	// shard 1/3: rows [0, 256)
	// shard 2/3: rows [256, 512)
	// shard 3/3: rows [512, 1000)
}
