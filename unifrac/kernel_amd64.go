//go:build amd64 && !purego

package unifrac

import (
	"math/bits"

	"golang.org/x/sys/cpu"
)

var (
	hasAVX2   = cpu.X86.HasAVX2
	hasAVX512 = cpu.X86.HasAVX512F
)

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

// minWinAVX512 is minWinGo on raw pointers; tri is 0 or 1.
//
//go:noescape
func minWinAVX512(acc *float64, rl *uint8, rv *float64, nr int, win *uint64, nw int, cv *float64, tri int)

// minWin is minWinGo. Its windows must come from windows: the assembly
// trusts their offsets to lie inside a row and cv.
func minWin(acc []float64, rl []uint8, rv []float64, win []uint64, cv []float64, tri bool) {
	if !hasAVX512 || len(rl) == 0 || len(win) == 0 {
		minWinGo(acc, rl, rv, win, cv, tri)
		return
	}
	if len(acc) < blockSize*blockSize || len(rv) < len(rl) || int(win[len(win)-1]>>35)+bits.OnesCount64(win[len(win)-1]&0xFF) > len(cv) {
		panic("unifrac: kernel arguments out of bounds")
	}
	t := 0
	if tri {
		t = 1
	}
	minWinAVX512(&acc[0], &rl[0], &rv[0], len(rl), &win[0], len(win), &cv[0], t)
}

// oneSidedRowAVX512 and oneSidedRowAVX2 are oneSidedRowGo on raw
// pointers, for n a positive multiple of 8 and of 4.
//
//go:noescape
func oneSidedRowAVX512(row, cls *float64, n int, c, k, w float64)

//go:noescape
func oneSidedRowAVX2(row, cls *float64, n int, c, k, w float64)

// oneSidedRow is oneSidedRowGo: the assembly takes the longest prefix of a
// multiple of its width, the Go form the rest.
func oneSidedRow(row, cls []float64, c, K, g float64) {
	n := len(cls)
	if len(row) < n {
		panic("unifrac: kernel arguments out of bounds")
	}
	m := 0
	switch {
	case hasAVX512 && n >= 8:
		m = n &^ 7
		oneSidedRowAVX512(&row[0], &cls[0], m, c, K, g)
	case hasAVX2 && n >= 4:
		m = n &^ 3
		oneSidedRowAVX2(&row[0], &cls[0], m, c, K, g)
	}
	if m < n {
		oneSidedRowGo(row[m:n], cls[m:], c, K, g)
	}
}

// vawTermsWAVX512 and vawTermsUAVX512 are vawTermsWGo and vawTermsUGo on
// raw pointers, for n a positive multiple of 8.
//
//go:noescape
func vawTermsWAVX512(fn, fd, o, c2, a2, t2 *float64, n int, c1, a1, cs1, w, g1, k1 float64)

//go:noescape
func vawTermsUAVX512(fd, o, c2, t2 *float64, n int, c1, cs1, w, k1 float64)

// vawTermsW is vawTermsWGo: the assembly takes the longest prefix of a
// multiple of 8 entries, the Go form the rest.
func vawTermsW(fn, fd, o, c2, a2, t2 []float64, c1, a1, C1, w, g1, K1 float64) {
	n := len(fn)
	if len(fd) < n || len(o) < n || len(c2) < n || len(a2) < n || len(t2) < n {
		panic("unifrac: kernel arguments out of bounds")
	}
	m := 0
	if hasAVX512 && n >= 8 {
		m = n &^ 7
		vawTermsWAVX512(&fn[0], &fd[0], &o[0], &c2[0], &a2[0], &t2[0], m, c1, a1, C1, w, g1, K1)
	}
	if m < n {
		vawTermsWGo(fn[m:], fd[m:n], o[m:n], c2[m:n], a2[m:n], t2[m:n], c1, a1, C1, w, g1, K1)
	}
}

// vawTermsU is vawTermsUGo, as vawTermsW is vawTermsWGo.
func vawTermsU(fd, o, c2, t2 []float64, c1, C1, w, K1 float64) {
	n := len(fd)
	if len(o) < n || len(c2) < n || len(t2) < n {
		panic("unifrac: kernel arguments out of bounds")
	}
	m := 0
	if hasAVX512 && n >= 8 {
		m = n &^ 7
		vawTermsUAVX512(&fd[0], &o[0], &c2[0], &t2[0], m, c1, C1, w, K1)
	}
	if m < n {
		vawTermsUGo(fd[m:], o[m:n], c2[m:n], t2[m:n], c1, C1, w, K1)
	}
}
