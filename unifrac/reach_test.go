package unifrac

import (
	"math/rand/v2"
	"testing"
)

// bruteReach counts, for each position k ≥ 1, the samples with a nonzero
// count at a node whose root path passes through k, by climbing each such
// node's parents to the root and collecting each sample's positions in a
// set.
func bruteReach(parent, position []int32, tab *Table) []int32 {
	reach := make([]int32, len(parent))
	for s := range tab.Len() {
		seen := map[int32]bool{}
		for k := tab.Indptr[s]; k < tab.Indptr[s+1]; k++ {
			if tab.Values[k] == 0 {
				continue
			}
			for v := position[tab.Indices[k]]; v > 0; v = parent[v] {
				seen[v] = true
			}
		}
		for v := range seen {
			reach[v]++
		}
	}
	return reach
}

// TestReach compares both ways of counting the samples that reach each
// branch, and reach's choice between them, with bruteReach, on random
// trees and tables (samples with zero counts, counts at the root and at
// internal nodes, more and fewer than 64 samples), for 1 and 3 workers.
func TestReach(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct{ L, n, k int }{
		{1, 3, 1}, {2, 5, 2}, {40, 1, 5}, {40, 63, 5}, {200, 64, 20}, {300, 65, 30},
		{500, 200, 4}, {2000, 130, 200}, {5000, 10, 3},
	} {
		tr := randomTree(t, rng, c.L)
		tab := randomTable(rng, c.L, c.n, c.k)
		// A sample with only zero counts, and one with a count at the root.
		tab.Values[tab.Indptr[0]] = 0
		if c.n > 1 {
			tab.Indices[tab.Indptr[1]] = 0
		}
		ord := tr.Order()
		want := bruteReach(ord.Parent, ord.Position, tab)
		for _, workers := range []int{1, 3} {
			p := &prep{o: &ord, m: WeightedNormalized, workers: workers}
			for name, got := range map[string][]int32{
				"reachBits": p.reachBits(tab), "reachPaths": p.reachPaths(tab), "reach": p.reach(tab),
			} {
				for k := range want {
					if got[k] != want[k] {
						t.Fatalf("L %d n %d workers %d: %s gives %d samples at position %d, want %d",
							c.L, c.n, workers, name, got[k], k, want[k])
					}
				}
			}
		}
	}
}

// BenchmarkReach times both ways of counting the samples reaching each
// branch: 1000 samples of about 300 nodes on a tree of 20,000 positions.
func BenchmarkReach(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	tr := randomTree(b, rng, 20000)
	tab := randomTable(rng, 20000, 1000, 600)
	ord := tr.Order()
	p := &prep{o: &ord, m: WeightedNormalized, workers: 1}
	b.Run("bits", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p.reachBits(tab)
		}
	})
	b.Run("paths", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p.reachPaths(tab)
		}
	})
}
