package lstm

// matmul computes C = op(A)·op(B) (acc false) or C += op(A)·op(B) (acc
// true), row-major, op(A) m×k, op(B) k×n. A placeholder in plain Go.
func matmul(c []float32, ldc int, a []float32, lda int, ta bool, b []float32, ldb int, tb bool, m, n, k int, acc bool) {
	for i := range m {
		for j := range n {
			var s float32
			for p := range k {
				var av, bv float32
				if ta {
					av = a[p*lda+i]
				} else {
					av = a[i*lda+p]
				}
				if tb {
					bv = b[j*ldb+p]
				} else {
					bv = b[p*ldb+j]
				}
				s += float32(av * bv)
			}
			if acc {
				c[i*ldc+j] += s
			} else {
				c[i*ldc+j] = s
			}
		}
	}
}
