package ordination

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// krylovTol is the residual the Krylov path reaches for each of the k
// eigenpairs it returns: ‖B·v − λ·v‖ ≤ krylovTol·|λ₁| (|λ₁| the largest
// Ritz value, or the largest magnitude when no Ritz value is positive).
const krylovTol = 1e-11

// krylov is the workspace of the block Krylov eigensolver.
type krylov struct {
	n, k, bs, mMax int
	q, w, tmp      []float64 // n×mMax: the orthonormal basis Q, B·Q, scratch
	h              []float64 // mMax×mMax: Qᵀ·B·Q
	c              []float64 // n×bs: the next block
	ct             []float64 // bs×n: a block of Q, transposed
	cw             []float64 // mMax×bs: projections
	x              []float64 // n: a Ritz vector
	col            []float64 // max(n, mMax): a column
	yk             []float64 // mMax×mMax: kept Ritz coefficients
	theta          []float64 // mMax: Ritz values
	eig            mat.EigenSym
	y              mat.Dense
}

// krylovTopK writes the k largest eigenvalues of the symmetric n×n matrix b
// (row-major, both triangles) into vals (descending) and their unit
// eigenvectors into vecs (n×k), by block Krylov iteration with full
// reorthogonalization, Rayleigh–Ritz and thick restarts. It stops when
// every one of the k Ritz pairs has a residual within krylovTol·|λ₁|, and
// reports false if that takes more than maxBlocks block products. The
// start block comes from seed; each product B·X is one blocked GEMM whose
// summation order does not depend on the number of goroutines, so the
// result depends on seed alone. It returns the number of block products.
func krylovTopK(s *krylov, vals, vecs, b []float64, n, k int, seed uint64, maxBlocks int) (bool, int) {
	s.init(n, k)
	bs, mMax := s.bs, s.mMax
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))

	// The first block: random, orthonormalized.
	for i := range s.c {
		s.c[i] = rng.NormFloat64()
	}
	m := 0
	got := s.orthonormalize(0, bs, rng)
	products := 0
	eig, y, theta := &s.eig, &s.y, s.theta
	for {
		// Append the block c[:, :got] to Q and B·c to W.
		for i := range n {
			copy(s.q[i*mMax+m:i*mMax+m+got], s.c[i*bs:i*bs+got])
		}
		s.product(b, m, got)
		products++
		m += got

		// Rayleigh–Ritz: H = Qᵀ·W (mMax×mMax, upper triangle), whose
		// new columns are Qᵀ times the new block of W.
		qm := blas64.General{Rows: n, Cols: m, Stride: mMax, Data: s.q}
		wn := blas64.General{Rows: n, Cols: got, Stride: mMax, Data: s.w[m-got:]}
		hn := blas64.General{Rows: m, Cols: got, Stride: mMax, Data: s.h[m-got:]}
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, qm, wn, 0, hn)
		for i := m - got; i < m; i++ { // symmetrize the new diagonal block
			for j := i + 1; j < m; j++ {
				s.h[i*mMax+j] = 0.5 * (s.h[i*mMax+j] + s.h[j*mMax+i])
			}
		}
		var hs mat.SymDense
		hs.SetRawSymmetric(blas64.Symmetric{N: m, Stride: mMax, Data: s.h, Uplo: blas.Upper})
		if !eig.Factorize(&hs, true) {
			return false, products
		}
		eig.Values(theta[:m])
		y.Reset()
		eig.VectorsTo(y)
		// Descending order: column m−1−c of y belongs to theta[m−1−c].
		big := max(math.Abs(theta[0]), math.Abs(theta[m-1]))
		scale := theta[m-1]
		if scale <= 0 {
			scale = big
		}
		tol := max(krylovTol*scale, 64*0x1p-52*big*math.Sqrt(float64(n)))
		if big == 0 {
			tol = 0
		}
		kk := min(k, m)
		done := kk == k
		for c := 0; c < kk && done; c++ {
			done = s.residual(y, m, m-1-c, theta[m-1-c]) <= tol
		}
		if done || m == n {
			if m < k {
				return false, products
			}
			for c := range k {
				vals[c] = theta[m-1-c]
				s.ritz(y, m, m-1-c)
				for i := range n {
					vecs[i*k+c] = s.x[i]
				}
			}
			return true, products
		}
		if products >= maxBlocks {
			return false, products
		}

		// The next block: the last block of W, orthogonalized against Q.
		next := min(bs, n-m)
		for i := range n {
			copy(s.c[i*bs:i*bs+got], s.w[i*mMax+m-got:i*mMax+m])
			clear(s.c[i*bs+got : i*bs+bs])
		}
		if got < next { // deflated: fill with random columns
			for i := range n {
				for j := got; j < next; j++ {
					s.c[i*bs+j] = rng.NormFloat64()
				}
			}
		}
		got = s.orthonormalize(m, next, rng)
		// Thick restart: keep the leading Ritz vectors. The residuals of
		// all Ritz vectors lie in the span of the next block, which is
		// orthogonal to Q and therefore to the kept vectors.
		if m+got > mMax {
			keep := min(m, max(k+bs, (mMax+k)/2))
			keep = min(keep, mMax-got)
			s.restart(y, m, keep)
			// Qᵀ·B·Q for the kept Ritz vectors is diagonal.
			for i := range keep {
				clear(s.h[i*mMax : i*mMax+keep])
				s.h[i*mMax+i] = theta[m-1-i]
			}
			m = keep
		}
	}
}

// product writes B·Q[:, m:m+cols] into W[:, m:m+cols]. Each entry is one
// dot product of a row of B with a column of Q (held transposed in s.ct),
// so the result does not depend on how the rows are shared among the
// goroutines, one per processor.
func (s *krylov) product(b []float64, m, cols int) {
	n, mm := s.n, s.mMax
	ct := s.ct[:cols*n]
	for i := range n {
		for c := range cols {
			ct[c*n+i] = s.q[i*mm+m+c]
		}
	}
	rows := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := b[i*n : (i+1)*n]
			out := s.w[i*mm+m : i*mm+m+cols]
			for c := range cols {
				out[c] = floats.Dot(row, ct[c*n:(c+1)*n])
			}
		}
	}
	workers := min(runtime.GOMAXPROCS(0), (n+63)/64)
	if workers <= 1 {
		rows(0, n)
		return
	}
	var wg sync.WaitGroup
	chunk := (n + workers - 1) / workers
	for lo := 0; lo < n; lo += chunk {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			rows(lo, hi)
		}(lo, min(lo+chunk, n))
	}
	wg.Wait()
}

// krylovBlock returns the block size and the largest basis of the Krylov
// iteration for k eigenpairs of an n×n matrix.
func krylovBlock(n, k int) (bs, mMax int) {
	bs = min(n, k+max(6, k/2))
	return bs, min(n, max(10*bs, k+4*bs))
}

// init sizes the workspace for k eigenpairs of an n×n matrix, reusing its
// slices when they are large enough.
func (s *krylov) init(n, k int) {
	s.n, s.k = n, k
	s.bs, s.mMax = krylovBlock(n, k)
	s.q = resize(s.q, n*s.mMax)
	s.w = resize(s.w, n*s.mMax)
	s.tmp = resize(s.tmp, n*s.mMax)
	s.h = resize(s.h, s.mMax*s.mMax)
	s.c = resize(s.c, n*s.bs)
	s.ct = resize(s.ct, n*s.bs)
	s.cw = resize(s.cw, s.mMax*s.bs)
	s.x = resize(s.x, n)
	s.col = resize(s.col, max(n, s.mMax))
	s.yk = resize(s.yk, s.mMax*s.mMax)
	s.theta = resize(s.theta, s.mMax)
}

// residual returns ‖W·y_c − θ·Q·y_c‖ for column c of y (m×m).
func (s *krylov) residual(y mat.Matrix, m, c int, theta float64) float64 {
	n, mm := s.n, s.mMax
	sum := 0.0
	yc := s.col[:m]
	for j := range m {
		yc[j] = y.At(j, c)
	}
	for i := range n {
		qr, wr := s.q[i*mm:i*mm+m], s.w[i*mm:i*mm+m]
		a, b := 0.0, 0.0
		for j, v := range yc {
			a += wr[j] * v
			b += qr[j] * v
		}
		r := a - theta*b
		sum += r * r
	}
	return math.Sqrt(sum)
}

// ritz writes Q·y_c into s.x.
func (s *krylov) ritz(y mat.Matrix, m, c int) {
	mm := s.mMax
	yc := s.col[:m]
	for j := range m {
		yc[j] = y.At(j, c)
	}
	for i := range s.n {
		qr := s.q[i*mm : i*mm+m]
		a := 0.0
		for j, v := range yc {
			a += qr[j] * v
		}
		s.x[i] = a
	}
}

// restart replaces Q and W by Q·Y and W·Y for the keep columns of y
// (m×m) of the largest Ritz values.
func (s *krylov) restart(y *mat.Dense, m, keep int) {
	n, mm := s.n, s.mMax
	yk := s.yk[:m*keep]
	for j := range m {
		for c := range keep {
			yk[j*keep+c] = y.At(j, m-1-c)
		}
	}
	ykm := blas64.General{Rows: m, Cols: keep, Stride: keep, Data: yk}
	for _, a := range [][]float64{s.q, s.w} {
		src := blas64.General{Rows: n, Cols: m, Stride: mm, Data: a}
		dst := blas64.General{Rows: n, Cols: keep, Stride: mm, Data: s.tmp}
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, src, ykm, 0, dst)
		for i := range n {
			copy(a[i*mm:i*mm+keep], s.tmp[i*mm:i*mm+keep])
		}
	}
}

// orthonormalize makes the first cols columns of c orthonormal and
// orthogonal to the first m columns of Q (block classical Gram–Schmidt,
// twice), then orthonormalizes them among themselves by modified
// Gram–Schmidt, twice. A column that vanishes (it lay in the span of the
// others) is replaced by a random one, so that the block has cols columns
// unless Q and the block span the whole space; it returns the number of
// columns, which are moved to the front of c.
func (s *krylov) orthonormalize(m, cols int, rng *rand.Rand) int {
	n, bs, mm := s.n, s.bs, s.mMax
	cm := blas64.General{Rows: n, Cols: cols, Stride: bs, Data: s.c}
	project := func() {
		if m == 0 {
			return
		}
		qm := blas64.General{Rows: n, Cols: m, Stride: mm, Data: s.q}
		p := blas64.General{Rows: m, Cols: cols, Stride: bs, Data: s.cw}
		for range 2 {
			blas64.Gemm(blas.Trans, blas.NoTrans, 1, qm, cm, 0, p)
			blas64.Gemm(blas.NoTrans, blas.NoTrans, -1, qm, p, 1, cm)
		}
	}
	project()
	got := 0
	col := s.x
	retries := 0
	for j := 0; j < cols; j++ {
		for i := range n {
			col[i] = s.c[i*bs+j]
		}
		orig := norm(col)
		ok := orig > 0
		for range 2 {
			for p := range got {
				d := 0.0
				for i := range n {
					d += s.c[i*bs+p] * col[i]
				}
				for i := range n {
					col[i] -= d * s.c[i*bs+p]
				}
			}
		}
		if ok {
			nv := norm(col)
			ok = nv > 1e-10*orig
			if ok {
				for i := range n {
					s.c[i*bs+got] = col[i] / nv
				}
				got++
			}
		}
		if !ok && retries < 3*cols && m+got < n {
			// Replace the column by a random one orthogonal to Q.
			retries++
			for i := range n {
				s.c[i*bs+j] = rng.NormFloat64()
			}
			one := blas64.General{Rows: n, Cols: 1, Stride: bs, Data: s.c[j:]}
			if m > 0 {
				qm := blas64.General{Rows: n, Cols: m, Stride: mm, Data: s.q}
				p := blas64.General{Rows: m, Cols: 1, Stride: 1, Data: s.cw[:m]}
				for range 2 {
					blas64.Gemm(blas.Trans, blas.NoTrans, 1, qm, one, 0, p)
					blas64.Gemm(blas.NoTrans, blas.NoTrans, -1, qm, p, 1, one)
				}
			}
			j--
		}
	}
	return got
}

func norm(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s)
}
