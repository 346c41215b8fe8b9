//go:build amd64 && !purego

package tw

import "golang.org/x/sys/cpu"

// The assembly kernels trust their arguments; these wrappers check every
// length and index they rely on, so a caller's mistake panics in Go instead
// of reading out of bounds. (Parent positions are trusted: package tree
// guarantees 0 ≤ par[k] < k.)

// hasAVX2 allows the AVX2 kernels. Callers pass vec = false for trees whose
// blocks of four positions often hold a parent and its child, or that are
// small (see blockFriendly); the tests run both forms through vec.
var hasAVX2 = cpu.X86.HasAVX2

//go:noescape
func upUnitAVX2(d, a, b []float64, par []int32, off, lo, hi int, s float64) float64

//go:noescape
func upWeightedAVX2(d, a, b, wt []float64, par []int32, off, lo, hi int, s float64) float64

//go:noescape
func downUnitAVX2(p, d, g []float64, par []int32, u float64, lo, hi int)

//go:noescape
func downUnitGAVX2(p, d, g []float64, par []int32, u float64, lo, hi int)

//go:noescape
func downWeightedAVX2(p, d, g, wt []float64, par []int32, lo, hi int)

//go:noescape
func downWeightedGAVX2(p, d, g, wt []float64, par []int32, lo, hi int)

//go:noescape
func upUnitSSE2(d, a, b []float64, par []int32, off, lo, hi int, s float64) float64

//go:noescape
func upWeightedSSE2(d, a, b, wt []float64, par []int32, off, lo, hi int, s float64) float64

//go:noescape
func downUnitSSE2(p, d, g []float64, par []int32, u float64, lo, hi int)

//go:noescape
func downWeightedSSE2(p, d, g, wt []float64, par []int32, lo, hi int)

func checkRange(d []float64, par []int32, lo, hi int) {
	if lo < 1 || hi > len(d) || len(par) < len(d) {
		panic("tw: sweep range out of bounds")
	}
}

func checkUp(d, a, b []float64, par []int32, off, lo, hi int) {
	checkRange(d, par, lo, hi)
	if off < 0 || off > 1 || len(a) < hi-off || len(b) < hi-off {
		panic("tw: sweep buffer lengths")
	}
}

func upUnit(d, a, b []float64, par []int32, off, lo, hi int, s float64, vec bool) float64 {
	checkUp(d, a, b, par, off, lo, hi)
	switch {
	case hi <= lo:
		return s
	case vec && hasAVX2:
		return upUnitAVX2(d, a, b, par, off, lo, hi, s)
	default:
		return upUnitSSE2(d, a, b, par, off, lo, hi, s)
	}
}

func upWeighted(d, a, b, wt []float64, par []int32, off, lo, hi int, s float64, vec bool) float64 {
	checkUp(d, a, b, par, off, lo, hi)
	if len(wt) < hi {
		panic("tw: sweep buffer lengths")
	}
	switch {
	case hi <= lo:
		return s
	case vec && hasAVX2:
		return upWeightedAVX2(d, a, b, wt, par, off, lo, hi, s)
	default:
		return upWeightedSSE2(d, a, b, wt, par, off, lo, hi, s)
	}
}

func checkDown(p, d, g []float64, par []int32, lo, hi int) {
	checkRange(d, par, lo, hi)
	if len(p) < len(d) || (g != nil && len(g) < hi-1) {
		panic("tw: sweep buffer lengths")
	}
}

func downUnit(p, d, g []float64, par []int32, u float64, lo, hi int, vec bool) {
	checkDown(p, d, g, par, lo, hi)
	switch {
	case hi <= lo:
	case !vec || !hasAVX2:
		downUnitSSE2(p, d, g, par, u, lo, hi)
	case g == nil:
		downUnitAVX2(p, d, g, par, u, lo, hi)
	default:
		downUnitGAVX2(p, d, g, par, u, lo, hi)
	}
}

func downWeighted(p, d, g, wt []float64, par []int32, lo, hi int, vec bool) {
	checkDown(p, d, g, par, lo, hi)
	if len(wt) < hi {
		panic("tw: sweep buffer lengths")
	}
	switch {
	case hi <= lo:
	case !vec || !hasAVX2:
		downWeightedSSE2(p, d, g, wt, par, lo, hi)
	case g == nil:
		downWeightedAVX2(p, d, g, wt, par, lo, hi)
	default:
		downWeightedGAVX2(p, d, g, wt, par, lo, hi)
	}
}
