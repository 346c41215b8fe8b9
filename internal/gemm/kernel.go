package gemm

// The microkernel computes one mr×nr tile of a product from a panel of
// op(A) (mr rows, kc columns) and a panel of op(B) (kc rows, nr columns):
//
//	acc = 0;  acc = fma(a(i, p), b(p, j), acc) for p = 0, 1, …, kc−1 in order
//	c(i, j) = acc            (add false)
//	c(i, j) = c(i, j) + acc  (add true)
//
// for i < rows ≤ mr, j < cols ≤ nr (an edge tile of C is smaller than
// the panels, which are then zero-padded or hold data past C's edge), each
// fma rounded once to float32. Element (i, p) of the
// A panel is a[i·rsa + p·csa] (a packed panel has rsa = 1, csa = mr; rows of
// a row-major A read in place have rsa = lda, csa = 1); element (p, j) of the
// B panel is b[p·csb + j]; element (i, j) of the tile is c[i·ldc + j].
//
// kernelGo is the reference; on amd64 an AVX2 + FMA assembly form
// (kernel_amd64.s) computes the same bits.

// Register blocking of the microkernel: mr rows by nr columns of C, 12
// ymm accumulators of 8 floats.
const (
	mr = 6
	nr = 16
)

// kernelGo is the microkernel in Go.
func kernelGo(kc int, a []float32, rsa, csa int, b []float32, csb int, c []float32, ldc, rows, cols int, add bool) {
	var acc [mr][nr]float32
	for p := 0; p < kc; p++ {
		bp := b[p*csb : p*csb+cols]
		for i := range rows {
			ai := a[i*rsa+p*csa]
			row := &acc[i]
			for j, bj := range bp {
				row[j] = fma32(ai, bj, row[j])
			}
		}
	}
	for i := range rows {
		ci := c[i*ldc : i*ldc+cols]
		if add {
			for j := range ci {
				ci[j] += acc[i][j]
			}
		} else {
			copy(ci, acc[i][:cols])
		}
	}
}
