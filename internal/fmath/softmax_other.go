//go:build !amd64 || purego

package fmath

func maxOf(z []float64) float64                       { return maxGo(z) }
func expShiftSum(dst, z []float64, m float64) float64 { return expShiftSumGo(dst, z, m) }
func scaleAll(dst []float64, c float64)               { scaleGo(dst, c) }

func expShiftSum2(d0, d1, z0, z1 []float64, m0, m1 float64) (float64, float64) {
	return expShiftSumGo(d0, z0, m0), expShiftSumGo(d1, z1, m1)
}

func mixedGradVec(g, p, y, gp []float64, inv, lam, dot float64) int { return 0 }
