//go:build amd64 && !purego

package unifrac

import "golang.org/x/sys/cpu"

var hasAVX2 = cpu.X86.HasAVX2

// minSum2x4AVX2 is minSum2x4Go on raw pointers, for n a positive multiple
// of 4 elements per row.
//
//go:noescape
func minSum2x4AVX2(acc *float64, ld int, x0, x1, y *float64, ys, n int)

// minSum2x4 adds minSum(x_r, y_q) to acc[r*ld+q] for r < 2, q < 4 (see
// minSum2x4Go). The assembly trusts its arguments; the checks here make a
// caller's mistake panic instead of reading out of bounds.
func minSum2x4(acc []float64, ld int, x0, x1, y []float64, ys int) {
	n := len(x0)
	if !hasAVX2 || n == 0 {
		minSum2x4Go(acc, ld, x0, x1, y, ys)
		return
	}
	if n%4 != 0 || len(x1) < n || ld < 4 || len(acc) < ld+4 || ys < n || len(y) < 3*ys+n {
		panic("unifrac: kernel arguments out of bounds")
	}
	minSum2x4AVX2(&acc[0], ld, &x0[0], &x1[0], &y[0], ys, n)
}
