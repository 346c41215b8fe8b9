package parallel

import "testing"

// TestForCovers checks that the ranges cover [0, n) exactly once, for
// sizes around the chunking thresholds.
func TestForCovers(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 7, 64, 65, 1000} {
		for _, w := range []int{0, 1, 2, 3, 16} {
			for _, c := range []int{0, 1, 10} {
				hits := make([]int32, n)
				For(n, w, c, func(lo, hi int) {
					for i := lo; i < hi; i++ {
						hits[i]++
					}
				})
				for i, h := range hits {
					if h != 1 {
						t.Fatalf("n=%d workers=%d chunk=%d: index %d visited %d times", n, w, c, i, h)
					}
				}
			}
		}
	}
}
