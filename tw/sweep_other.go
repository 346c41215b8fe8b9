//go:build !amd64 || purego

package tw

func upUnit(d, a, b []float64, par []int32, off, lo, hi int, s float64, _ bool) float64 {
	return upUnitGo(d, a, b, par, off, lo, hi, s)
}

func upWeighted(d, a, b, wt []float64, par []int32, off, lo, hi int, s float64, _ bool) float64 {
	return upWeightedGo(d, a, b, wt, par, off, lo, hi, s)
}

func downUnit(p, d, g []float64, par []int32, u float64, lo, hi int, _ bool) {
	downUnitGo(p, d, g, par, u, lo, hi)
}

func downWeighted(p, d, g, wt []float64, par []int32, lo, hi int, _ bool) {
	downWeightedGo(p, d, g, wt, par, lo, hi)
}
