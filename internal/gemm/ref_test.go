package gemm

import (
	"math"
	"math/rand/v2"
)

// mulRef is the reference product: the arithmetic order of doc.go written
// as plain loops over the elements of C, with fma32 for the fused
// multiply-adds. Mul must give its bits exactly.
func mulRef(c []float32, ldc int, a []float32, lda int, transA bool, b []float32, ldb int, transB bool, m, n, k int, accumulate bool) {
	for i := range m {
		for j := range n {
			c[i*ldc+j] = refElement(c[i*ldc+j], a, lda, transA, b, ldb, transB, i, j, k, accumulate)
		}
	}
}

// refElement returns element (i, j) of the product in the order of
// doc.go, c being its value before.
func refElement(c float32, a []float32, lda int, transA bool, b []float32, ldb int, transB bool, i, j, k int, accumulate bool) float32 {
	if !accumulate {
		c = 0
	}
	nb := kBlocks(k)
	for t := range nb {
		var acc float32
		for p := t * k / nb; p < (t+1)*k/nb; p++ {
			acc = fma32(opAt(a, lda, transA, i, p), opAt(b, ldb, transB, p, j), acc)
		}
		if t == 0 && !accumulate {
			c = acc
		} else {
			c += acc
		}
	}
	return c
}

// opAt returns element (i, j) of op(X).
func opAt(x []float32, ld int, trans bool, i, j int) float32 {
	if trans {
		return x[j*ld+i]
	}
	return x[i*ld+j]
}

// randMatrix returns a rows×cols matrix with leading dimension ld, filled
// (padding included) with values of random sign and magnitudes spread
// over a few binades.
func randMatrix(rng *rand.Rand, rows, cols, ld int) []float32 {
	n := 0
	if rows > 0 {
		n = (rows-1)*ld + cols
	}
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(rng.NormFloat64() * math.Exp2(float64(rng.IntN(7)-3)))
	}
	return s
}
