package gemm

// The microkernel computes one mr×nr tile of a product over one block of
// k, from a panel of op(A) (mr rows, kc columns) and a panel of op(B) (kc
// rows, nr columns):
//
//	acc = +0;  acc = fma(a(i, p), b(p, j), acc) for p = 0, 1, …, kc−1 in order
//	c(i, j) = acc            (add false)
//	c(i, j) = c(i, j) + acc  (add true)
//
// for i < rows ≤ mr and j < cols ≤ nr (an edge tile of C is smaller than
// the panels, whose other rows and columns are computed but not stored),
// each fma rounded once to float32. Element (i, p) of the A panel is
// a[i·rsa + p·csa] (a packed panel has rsa = 1, csa = mr; A read in place
// has rsa = lda, csa = 1, or rsa = 1, csa = lda when transposed); element
// (p, j) of the B panel is b[p·csb + j]; element (i, j) of the tile is
// c[i·ldc + j].
//
// kernelGo is the reference; on amd64 an AVX2 + FMA assembly form
// (kernel_amd64.s) computes the same bits, and with AVX-512 kernel2
// computes two full row panels at once, each as kernelGo does.

// Register blocking of the microkernel: mr rows by nr columns of C, 12
// ymm accumulators of 8 floats.
const (
	mr = 6
	nr = 16
)

// kernelGo is the microkernel in Go.
func kernelGo(kc int, a []float32, rsa, csa int, b []float32, csb int, c []float32, ldc, rows, cols int, add bool) {
	var acc [mr][nr]float32
	var s [nr]float64
	for p := 0; p < kc; p++ {
		bp := b[p*csb : p*csb+cols]
		for i := range rows {
			ai := a[i*rsa+p*csa]
			row := acc[i][:len(bp)]
			// fma32(ai, bp[j], row[j]) for every j, its fast path written
			// out (without a call in the loop, the compiler keeps it in
			// registers).
			fai := float64(ai)
			once := true
			for j, bj := range bp {
				x := fai*float64(bj) + float64(row[j])
				s[j] = x
				once = once && roundsOnce(x)
			}
			if once {
				for j := range row {
					row[j] = float32(s[j])
				}
				continue
			}
			for j, bj := range bp {
				if roundsOnce(s[j]) {
					row[j] = float32(s[j])
				} else {
					row[j] = fma32Slow(ai, bj, row[j], s[j])
				}
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
