package barycenter

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortCuts checks sortCuts against slices.Sort of the positions, on
// random lengths with few distinct positions (ties) and many, and with
// depth 0 (the fallback) and the usual depth; the multiset of pairs must
// be kept.
func TestSortCuts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for k := range 300 {
		n := rng.IntN(200)
		c := make([]cut, n)
		for i := range c {
			c[i] = cut{at: rng.Float64(), d: float64(i)}
			if k%2 == 0 {
				c[i].at = float64(rng.IntN(4)) / 4
			}
		}
		want := slices.Clone(c)
		slices.SortFunc(want, func(a, b cut) int {
			if a.at != b.at {
				if a.at < b.at {
					return -1
				}
				return 1
			}
			return int(a.d - b.d)
		})
		depth := 2 * bits.Len(uint(n))
		if k%3 == 0 {
			depth = 0
		}
		sortCuts(c, depth)
		if !slices.IsSortedFunc(c, func(a, b cut) int {
			if a.at < b.at {
				return -1
			}
			if a.at > b.at {
				return 1
			}
			return 0
		}) {
			t.Fatalf("case %d: not sorted", k)
		}
		got := slices.Clone(c)
		slices.SortFunc(got, func(a, b cut) int {
			if a.at != b.at {
				if a.at < b.at {
					return -1
				}
				return 1
			}
			return int(a.d - b.d)
		})
		if !slices.Equal(got, want) {
			t.Fatalf("case %d: the pairs changed", k)
		}
	}
}
