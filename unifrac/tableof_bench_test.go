package unifrac

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/twl-ldl/twl/biom"
	"github.com/twl-ldl/twl/tree"
)

// BenchmarkTableOf maps a table of 1,000 samples with 300 observations
// each, out of 20,000, onto a random binary tree of 20,000 tips: the size
// of the c20k UniFrac case. MB/s counts the table's indices and counts
// (12 bytes a nonzero).
func BenchmarkTableOf(b *testing.B) {
	const tips, samples, per = 20_000, 1000, 300
	rng := rand.New(rand.NewPCG(1, 2))
	// A path of tips nodes with the other tips-1 nodes hung from random
	// nodes of it: about tips leaves.
	parent := make([]int, 2*tips-1)
	names := make([]string, len(parent))
	for i := range parent {
		switch {
		case i == 0:
			parent[i] = -1
		case i < tips:
			parent[i] = i - 1
		default:
			parent[i] = rng.IntN(tips)
		}
		names[i] = "n" + strconv.Itoa(i)
	}
	tr, err := tree.FromParents(parent, nil, names, nil)
	if err != nil {
		b.Fatal(err)
	}
	var leaves []string
	for i := range tr.Len() {
		if tr.IsLeaf(i) {
			leaves = append(leaves, tr.Name(i))
		}
	}
	bt := &biom.Table{Observations: leaves, Indptr: []int{0}}
	for s := range samples {
		bt.Samples = append(bt.Samples, "s"+strconv.Itoa(s))
		o := rng.IntN(len(leaves) - per*3)
		for range per {
			o += 1 + rng.IntN(2)
			bt.Indices = append(bt.Indices, int32(o))
			bt.Data = append(bt.Data, float64(1+rng.IntN(9)))
		}
		bt.Indptr = append(bt.Indptr, len(bt.Data))
	}
	b.SetBytes(int64(12 * len(bt.Data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := TableOf(tr, bt); err != nil {
			b.Fatal(err)
		}
	}
}
