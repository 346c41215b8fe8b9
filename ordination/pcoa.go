package ordination

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"
)

// Result is a principal coordinates analysis of N samples on K axes.
// PCoA fills it, reusing its slices and workspace when they are large
// enough.
type Result struct {
	// N is the number of samples and K the number of axes kept.
	N, K int
	// Coords holds the coordinates, N×K row-major: Coords[i*K+k] is sample
	// i on axis k. An axis whose eigenvalue is not positive has
	// coordinates 0.
	Coords []float64
	// Eigenvalues holds all N eigenvalues of the centred matrix (the top K
	// only when Exact is false), in descending order, negative ones
	// included. Values within rounding of zero (|λ| ≤ N·ε·max|λ|) are set
	// to 0.
	Eigenvalues []float64
	// Proportion holds, for each value of Eigenvalues, λ / Total; 0 for
	// an eigenvalue that is not positive (and for all of them when Total
	// is not positive).
	Proportion []float64

	// Exact reports whether all N eigenvalues were computed. When it is
	// false (the Krylov path of PCoAWith), Eigenvalues and Proportion
	// hold the top K values only, Total is the trace of the centred
	// matrix, and Negative returns −1, NaN.
	Exact bool
	// Total is the denominator of the proportions: the sum of the positive
	// eigenvalues when Exact, else the trace of the centred matrix (the
	// sum of all N eigenvalues, which is the sum of the positive ones
	// minus the magnitudes of the negative ones).
	Total float64

	work []float64 // N×N: the centred matrix, then its reflectors
	vecs []float64 // N×K: the unit eigenvectors

	kr     krylov // the workspace of the Krylov iteration
	blocks int    // block products of the last Krylov iteration
}

// DataError is an invalid entry of a distance matrix. Row and Col are
// 0-based sample indices.
type DataError struct {
	Row, Col int
	Msg      string
}

func (e *DataError) Error() string {
	return fmt.Sprintf("distance matrix: entry (%d, %d): %s", e.Row+1, e.Col+1, e.Msg)
}

// symTol is the relative difference allowed between d[i][j] and d[j][i].
const symTol = 1e-9

// Check reports the first invalid entry of the n×n distance matrix d
// (row-major, in row-major order): a NaN or infinite entry, a negative one,
// a non-zero diagonal, or d[i][j] and d[j][i] that differ by more than a
// relative 1e-9. It panics if len(d) != n*n. It reads d once, in tiles
// that compare each block of the lower triangle with its transpose, and
// allocates nothing unless d is invalid.
func Check(d []float64, n int) error {
	if n < 0 || len(d) != n*n {
		panic(fmt.Sprintf("ordination: distance matrix of length %d for %d samples", len(d), n))
	}
	if valid(d, n) {
		return nil
	}
	return firstInvalid(d, n)
}

// tile is the side of the square blocks in which Check and center walk a
// matrix and its transpose together.
const tile = 64

// valid reports whether d is a valid distance matrix, tile by tile.
func valid(d []float64, n int) bool {
	for ib := 0; ib < n; ib += tile {
		ie := min(ib+tile, n)
		for jb := 0; jb <= ib; jb += tile {
			je := min(jb+tile, n)
			for i := ib; i < ie; i++ {
				for j := jb; j < min(je, i+1); j++ {
					v, w := d[i*n+j], d[j*n+i]
					// NaN fails every comparison, so each test is
					// written to be true for a valid pair.
					if !(v >= 0 && v <= math.MaxFloat64 && w >= 0 && w <= math.MaxFloat64 && math.Abs(v-w) <= symTol*max(v, w)) {
						return false
					}
				}
				if i >= jb && i < je && d[i*n+i] != 0 {
					return false
				}
			}
		}
	}
	return true
}

// firstInvalid returns the error for the first invalid entry of d in
// row-major order, or nil.
func firstInvalid(d []float64, n int) error {
	for i := range n {
		for j := range n {
			v := d[i*n+j]
			switch {
			case math.IsNaN(v) || math.IsInf(v, 0):
				return &DataError{i, j, fmt.Sprintf("%v is not a finite number", v)}
			case v < 0:
				return &DataError{i, j, fmt.Sprintf("%v is negative", v)}
			case i == j && v != 0:
				return &DataError{i, j, fmt.Sprintf("%v on the diagonal, not 0", v)}
			case j < i:
				if w := d[j*n+i]; math.Abs(v-w) > symTol*max(v, w) {
					return &DataError{i, j, fmt.Sprintf("%v, but entry (%d, %d) is %v: not symmetric", v, j+1, i+1, w)}
				}
			}
		}
	}
	return nil
}

// Options are the settings of PCoAWith. The zero value is the default.
type Options struct {
	// Exact computes every eigenvalue (Householder tridiagonalization, or
	// the full decomposition), so that the proportions explained and
	// Result.Negative are exact. Without it, k ≪ n axes of n ≥ KrylovMin
	// samples are computed by block Krylov iteration, which finds only the
	// top k eigenvalues.
	Exact bool
	// Seed seeds the random start block of the Krylov iteration. The
	// result depends on it only within the convergence tolerance.
	Seed uint64
}

// KrylovMin is the least number of samples for which PCoA computes k ≤ n/4
// axes by block Krylov iteration rather than exactly.
const KrylovMin = 500

// PCoA computes the classical principal coordinates analysis (Gower 1966)
// of the n×n distance matrix d, given row-major, on k axes, into dst, with
// the default Options. k = 0 keeps all n axes. d is not modified; its lower
// triangle is used.
//
// It returns a *DataError for an invalid matrix (see Check) and an error
// for n < 2 or an eigendecomposition that fails to converge. It panics if
// len(d) != n*n or k is not in [0, n].
func PCoA(dst *Result, d []float64, n, k int) error {
	return PCoAWith(dst, d, n, k, nil)
}

// PCoAWith is PCoA with options; o may be nil.
//
// Unless o.Exact, k ≥ 1 axes with 4k ≤ n and n ≥ KrylovMin are computed by
// block Krylov iteration: dst.Exact is false, dst.Eigenvalues and
// dst.Proportion hold the top k values only, the proportions are relative
// to the trace of the centred matrix (the sum of all eigenvalues, negative
// ones included) and dst.Negative reports that the negative eigenvalues are
// unknown. If the iteration does not converge within its budget of block
// products, the exact path is taken instead.
func PCoAWith(dst *Result, d []float64, n, k int, o *Options) error {
	if n < 0 || len(d) != n*n {
		panic(fmt.Sprintf("ordination: distance matrix of length %d for %d samples", len(d), n))
	}
	if k < 0 || k > n {
		panic(fmt.Sprintf("ordination: %d axes for %d samples", k, n))
	}
	if n < 2 {
		return fmt.Errorf("ordination: PCoA needs at least 2 samples, not %d", n)
	}
	if o == nil {
		o = &Options{}
	}
	if err := Check(d, n); err != nil {
		return err
	}
	if k == 0 {
		k = n
	}
	dst.N, dst.K = n, k
	dst.Coords = resize(dst.Coords, n*k)
	dst.work = resize(dst.work, n*n)
	trace := center(dst.work, d, n)
	dst.vecs = resize(dst.vecs, n*k) // n×k, the unit eigenvectors
	vecs := dst.vecs
	if !o.Exact && krylovPath(n, k) {
		dst.Eigenvalues = resize(dst.Eigenvalues, k)
		dst.Proportion = resize(dst.Proportion, k)
		ok, blocks := krylovTopK(&dst.kr, dst.Eigenvalues, vecs, dst.work, n, k, o.Seed, krylovBudget(n, k))
		dst.blocks = blocks
		if ok {
			dst.Exact = false
			dst.finish(vecs, trace)
			return nil
		}
		center(dst.work, d, n)
	}
	dst.Eigenvalues = resize(dst.Eigenvalues, n)
	dst.Proportion = resize(dst.Proportion, n)
	var ok bool
	if partial(n, k) {
		ok = topK(dst.Eigenvalues, vecs, dst.work, n, k)
	} else {
		ok = full(dst.Eigenvalues, vecs, dst.work, n, k)
	}
	if !ok {
		return fmt.Errorf("ordination: the eigendecomposition of %d×%d did not converge", n, n)
	}
	dst.Exact = true
	dst.finish(vecs, math.NaN())
	return nil
}

// krylovPath reports whether PCoAWith tries the Krylov iteration by default.
func krylovPath(n, k int) bool { return n >= KrylovMin && 4*k <= n }

// krylovBudget is the most block products the Krylov iteration may take
// before PCoAWith falls back to the exact path: about the flops of the
// tridiagonalization (4n³/3) in products of 2n²·(block size) flops each.
func krylovBudget(n, k int) int {
	bs, _ := krylovBlock(n, k)
	return max(30, 2*n/(3*bs))
}

// partial reports whether PCoA computes only the top k eigenvectors.
func partial(n, k int) bool { return n >= 64 && 4*k <= n }

// resize returns s with length n, reallocated if its capacity is short.
func resize(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// center writes B = −½·J·D²·J into b (n×n, both triangles), J = I − 11ᵀ/n,
// from the lower triangle of d: b_ij = −½(d²_ij − r_i − r_j + g) with r_i the
// mean of row i of D² and g the mean of all of it. It reads the lower
// triangle of d twice (once for the means) and writes b once, tile by tile
// so that the mirrored writes stay in cache; it returns the trace of B,
// Σ_i (r_i − g/2).
func center(b, d []float64, n int) float64 {
	r := make([]float64, n)
	for i := range n {
		row := d[i*n : i*n+i]
		s := 0.0
		for j, v := range row {
			v *= v
			s += v
			r[j] += v
		}
		r[i] += s
	}
	g := 0.0
	for i := range r {
		g += r[i]
		r[i] /= float64(n)
	}
	g /= float64(n) * float64(n)
	for ib := 0; ib < n; ib += tile {
		ie := min(ib+tile, n)
		for jb := 0; jb <= ib; jb += tile {
			je := min(jb+tile, n)
			for i := ib; i < ie; i++ {
				ri := r[i]
				for j := jb; j < min(je, i); j++ {
					v := d[i*n+j]
					v *= v
					// The same rounding as the row-major formula on
					// each side: the two triangles may differ in the
					// last bit.
					b[i*n+j] = -0.5 * (v - ri - r[j] + g)
					b[j*n+i] = -0.5 * (v - r[j] - ri + g)
				}
			}
		}
	}
	trace := 0.0
	for i := range n {
		b[i*n+i] = -0.5 * (0 - r[i] - r[i] + g)
		trace += b[i*n+i]
	}
	return trace
}

// full computes all eigenvalues of the symmetric b (descending, into vals)
// and the eigenvectors of the k largest (into vecs, n×k) with gonum's
// EigenSym: O(n³) time and two more n×n matrices.
func full(vals, vecs, b []float64, n, k int) bool {
	var e mat.EigenSym
	if !e.Factorize(mat.NewSymDense(n, b), true) {
		return false
	}
	e.Values(vals)
	var v mat.Dense
	e.VectorsTo(&v)
	slices.Reverse(vals)
	for i := range n {
		for c := range k {
			vecs[i*k+c] = v.At(i, n-1-c)
		}
	}
	return true
}

// topK computes all eigenvalues of the symmetric b (descending, into vals)
// and the eigenvectors of the k largest (into vecs, n×k): Householder
// tridiagonalization (LAPACK dsytrd, 4n³/3 flops, in place in b), all
// eigenvalues of the tridiagonal matrix T by the root-free QR algorithm
// (dsterf, O(n²)), the k eigenvectors of T by inverse iteration (O(nk)
// with reorthogonalization within clusters of close eigenvalues), and
// their back-transformation by the Householder reflectors (dormqr, 2n²k
// flops).
func topK(vals, vecs, b []float64, n, k int) bool {
	impl := gonum.Implementation{}
	d := make([]float64, n)
	e := make([]float64, n-1)
	tau := make([]float64, n-1)
	work := make([]float64, 1)
	impl.Dsytrd(blas.Lower, n, b, n, d, e, tau, work, -1)
	work = make([]float64, max(int(work[0]), 1))
	impl.Dsytrd(blas.Lower, n, b, n, d, e, tau, work, len(work))
	copy(vals, d)
	ee := slices.Clone(e)
	if !impl.Dsterf(n, vals, ee) {
		return false
	}
	slices.Reverse(vals)
	inverseIteration(vecs, d, e, vals[:k], k)
	// vecs ← Q·vecs; Q = H(1)…H(n−1), whose reflectors lie below the
	// subdiagonal of b: rows 1..n−1 of vecs are multiplied by the QR-form
	// product stored from b[1][0] on.
	impl.Dormqr(blas.Left, blas.NoTrans, n-1, k, n-1, b[n:], n, tau, vecs[k:], k, work, -1)
	if need := int(work[0]); need > len(work) {
		work = make([]float64, need)
	}
	impl.Dormqr(blas.Left, blas.NoTrans, n-1, k, n-1, b[n:], n, tau, vecs[k:], k, work, len(work))
	return true
}

// inverseIteration writes into column c of z (n×k) a unit eigenvector of
// the symmetric tridiagonal matrix with diagonal d and off-diagonal e for
// each eigenvalue lam[c] (descending). Eigenvalues closer than 10⁻³‖T‖₁
// form a cluster, whose vectors are orthogonalized against each other;
// equal ones are perturbed apart by 10ε‖T‖₁ so that each gets its own
// vector. Start vectors come from a fixed seed: the result is
// deterministic.
func inverseIteration(z, d, e, lam []float64, k int) {
	n := len(d)
	norm := 0.0
	for i := range n {
		s := math.Abs(d[i])
		if i > 0 {
			s += math.Abs(e[i-1])
		}
		if i < n-1 {
			s += math.Abs(e[i])
		}
		norm = max(norm, s)
	}
	if norm == 0 {
		norm = 1
	}
	eps := 0x1p-52
	ortol, pertol, tiny := 1e-3*norm, 10*eps*norm, eps*norm
	rng := rand.New(rand.NewPCG(1, 2))
	lu := newTridiagLU(n)
	x := make([]float64, n)
	y := make([]float64, n)
	start := 0 // first column of the current cluster
	prev := math.Inf(1)
	for c, l := range lam {
		if c > 0 && lam[c-1]-l > ortol {
			start = c
		}
		if l > prev-pertol {
			l = prev - pertol
		}
		prev = l
		lu.factor(d, e, l, tiny)
		for i := range x {
			x[i] = 2*rng.Float64() - 1
		}
		for it := range 5 {
			for range 2 {
				for j := start; j < c; j++ {
					dot := 0.0
					for i := range n {
						dot += z[i*k+j] * x[i]
					}
					for i := range n {
						x[i] -= dot * z[i*k+j]
					}
				}
			}
			normalize(x)
			if it == 4 {
				break
			}
			copy(y, x)
			lu.solve(x, y)
		}
		for i := range n {
			z[i*k+c] = x[i]
		}
	}
}

// normalize scales x to unit 2-norm, or sets it to e₁ if it is 0.
func normalize(x []float64) {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	if s == 0 || math.IsInf(s, 0) || math.IsNaN(s) {
		m := 0.0
		for _, v := range x {
			if !math.IsNaN(v) {
				m = max(m, math.Abs(v))
			}
		}
		if m == 0 || math.IsInf(m, 0) {
			clear(x)
			x[0] = 1
			return
		}
		for i := range x {
			x[i] /= m
		}
		normalize(x)
		return
	}
	s = 1 / math.Sqrt(s)
	for i := range x {
		x[i] *= s
	}
}

// tridiagLU is the LU factorization with partial pivoting of T − λI for a
// symmetric tridiagonal T: U has two superdiagonals; row i of L has the
// multiplier m[i], applied after swapping rows i and i+1 if swap[i].
type tridiagLU struct {
	u0, u1, u2, m []float64
	swap          []bool
}

func newTridiagLU(n int) *tridiagLU {
	return &tridiagLU{make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]bool, n)}
}

// factor factorizes T − λI; pivots smaller than tiny in magnitude are
// replaced by ±tiny.
func (f *tridiagLU) factor(d, e []float64, lam, tiny float64) {
	n := len(d)
	p, q := d[0]-lam, 0.0 // the current row at columns i, i+1
	if n > 1 {
		q = e[0]
	}
	for i := 0; i < n-1; i++ {
		c, a, b := e[i], d[i+1]-lam, 0.0 // row i+1 at columns i, i+1, i+2
		if i+1 < n-1 {
			b = e[i+1]
		}
		if math.Abs(p) >= math.Abs(c) {
			if math.Abs(p) < tiny {
				p = math.Copysign(tiny, p)
			}
			m := c / p
			f.u0[i], f.u1[i], f.u2[i], f.m[i], f.swap[i] = p, q, 0, m, false
			p, q = a-m*q, b
		} else {
			m := p / c
			f.u0[i], f.u1[i], f.u2[i], f.m[i], f.swap[i] = c, a, b, m, true
			p, q = q-m*a, -m*b
		}
	}
	if math.Abs(p) < tiny {
		p = math.Copysign(tiny, p)
	}
	f.u0[n-1] = p
}

// solve solves (T − λI)·x = y, overwriting y.
func (f *tridiagLU) solve(x, y []float64) {
	n := len(y)
	for i := 0; i < n-1; i++ {
		if f.swap[i] {
			y[i], y[i+1] = y[i+1], y[i]-f.m[i]*y[i+1]
		} else {
			y[i+1] -= f.m[i] * y[i]
		}
	}
	for i := n - 1; i >= 0; i-- {
		s := y[i]
		if i+1 < n {
			s -= f.u1[i] * x[i+1]
		}
		if i+2 < n {
			s -= f.u2[i] * x[i+2]
		}
		x[i] = s / f.u0[i]
	}
}

// finish rounds the eigenvalues near zero to 0, computes the proportions
// relative to total (the sum of the positive eigenvalues if total is NaN),
// fixes each eigenvector's sign (its component of largest magnitude, the
// first of equals, is positive) and scales it by √λ into the coordinates.
func (r *Result) finish(vecs []float64, total float64) {
	n, k := r.N, r.K
	big := 0.0
	for _, v := range r.Eigenvalues {
		big = max(big, math.Abs(v))
	}
	tol := float64(n) * 0x1p-52 * big
	pos := 0.0
	for i, v := range r.Eigenvalues {
		if math.Abs(v) <= tol {
			r.Eigenvalues[i] = 0
		} else if v > 0 {
			pos += v
		}
	}
	if math.IsNaN(total) {
		total = pos
	}
	r.Total = total
	for i, v := range r.Eigenvalues {
		r.Proportion[i] = 0
		if v > 0 && total > 0 {
			r.Proportion[i] = v / total
		}
	}
	for c := range k {
		lam := r.Eigenvalues[c]
		best, at := -1.0, 0
		for i := range n {
			if a := math.Abs(vecs[i*k+c]); a > best {
				best, at = a, i
			}
		}
		s := math.Sqrt(max(lam, 0))
		if vecs[at*k+c] < 0 {
			s = -s
		}
		for i := range n {
			r.Coords[i*k+c] = s * vecs[i*k+c]
		}
	}
}

// Negative returns the number of negative eigenvalues and the ratio of
// their summed magnitude to the sum of the positive ones (0 when there is
// no positive eigenvalue): a measure of how far the distances are from
// Euclidean (Legendre & Legendre 2012, §9.2.3). It returns −1, NaN when
// they are unknown (r.Exact false: only the top K eigenvalues were
// computed).
func (r *Result) Negative() (count int, ratio float64) {
	if !r.Exact {
		return -1, math.NaN()
	}
	neg, pos := 0.0, 0.0
	for _, v := range r.Eigenvalues {
		if v < 0 {
			count++
			neg -= v
		} else {
			pos += v
		}
	}
	if pos > 0 {
		ratio = neg / pos
	}
	return count, ratio
}
