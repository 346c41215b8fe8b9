//go:build !amd64 || purego

package unifrac

// minSum2x4 adds minSum(x_r, y_q) to acc[r*ld+q] for r < 2, q < 4 (see
// minSum2x4Go).
func minSum2x4(acc []float64, ld int, x0, x1, y []float64, ys int) {
	minSum2x4Go(acc, ld, x0, x1, y, ys)
}

// minWin is minWinGo.
func minWin(acc []float64, rl []uint8, rv []float64, win []uint64, cv []float64, tri bool) {
	minWinGo(acc, rl, rv, win, cv, tri)
}

// oneSidedRow is oneSidedRowGo.
func oneSidedRow(row, cls []float64, c, K, g float64) { oneSidedRowGo(row, cls, c, K, g) }

// vawTermsW is vawTermsWGo.
func vawTermsW(fn, fd, o, c2, a2, t2 []float64, c1, a1, C1, w, g1, K1 float64) {
	vawTermsWGo(fn, fd, o, c2, a2, t2, c1, a1, C1, w, g1, K1)
}

// vawTermsU is vawTermsUGo.
func vawTermsU(fd, o, c2, t2 []float64, c1, C1, w, K1 float64) {
	vawTermsUGo(fd, o, c2, t2, c1, C1, w, K1)
}
