//go:build !amd64 || purego

package permanova

// maskSum returns maskSumGo(row, mask).
func maskSum(row []float64, mask []byte) float64 { return maskSumGo(row, mask) }

// maskSum4 is maskSum4Go.
func maskSum4(s *[4]float64, row []float64, m0, m1, m2, m3 []byte) {
	maskSum4Go(s, row, m0, m1, m2, m3)
}
