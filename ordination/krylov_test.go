package ordination

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// distances returns an n×n distance matrix of the given kind:
//
//   - "random": independent uniform distances (non-Euclidean, a bulk
//     spectrum with no gap after the top eigenvalues);
//   - "clusters": 6 groups of points, near-equal distances within a group;
//   - "perturbed": Euclidean distances of points in R¹⁰ times 1 + 5% noise
//     (non-Euclidean, as UniFrac distances are);
//   - "near-equal": points in R¹² whose coordinates have spreads 1, 1, 1,
//     1+1e-6, 1+2e-6, … : top eigenvalues clustered within a relative 1e-5;
//   - "ones": every distance 1 (one eigenvalue of multiplicity n−1).
func distances(r *rand.Rand, kind string, n int) []float64 {
	d := make([]float64, n*n)
	switch kind {
	case "random", "ones":
		for i := range n {
			for j := range i {
				v := 1.0
				if kind == "random" {
					v = r.Float64()
				}
				d[i*n+j], d[j*n+i] = v, v
			}
		}
	case "clusters":
		const p = 8
		centres := randPoints(r, 6, p)
		x := make([]float64, n*p)
		for i := range n {
			for c := range p {
				x[i*p+c] = 5*centres[(i%6)*p+c] + 0.3*r.NormFloat64()
			}
		}
		d = euclid(x, n, p)
	case "perturbed":
		d = euclid(randPoints(r, n, 10), n, 10)
		for i := range n {
			for j := range i {
				v := d[i*n+j] * (1 + 0.05*r.Float64())
				d[i*n+j], d[j*n+i] = v, v
			}
		}
	case "near-equal":
		const p = 12
		x := make([]float64, n*p)
		for i := range n {
			for c := range p {
				s := 1.0
				if c >= 3 {
					s += 1e-6 * float64(c-2)
				}
				x[i*p+c] = s * r.NormFloat64()
			}
		}
		// Orthogonalize the columns to equal norms so that the spreads
		// are exact: the eigenvalues of B are then n·s_c² exactly.
		xm := mat.NewDense(n, p, x)
		for c := range p {
			col := mat.Col(nil, c, xm)
			m := 0.0
			for _, v := range col {
				m += v
			}
			m /= float64(n)
			for i := range col {
				col[i] -= m
			}
			xm.SetCol(c, col)
		}
		var qr mat.QR
		qr.Factorize(xm)
		var q mat.Dense
		qr.QTo(&q)
		for i := range n {
			for c := range p {
				s := 1.0
				if c >= 3 {
					s += 1e-6 * float64(c-2)
				}
				x[i*p+c] = q.At(i, c) * s * math.Sqrt(float64(n))
			}
		}
		d = euclid(x, n, p)
	}
	return d
}

func TestKrylovExplore(t *testing.T) {
	for seed := range uint64(3) {
	for _, kind := range []string{"random", "clusters", "perturbed", "near-equal", "ones"} {
		r := rand.New(rand.NewPCG(5, seed))
		n, k := 400, 10
		d := distances(r, kind, n)
		b := make([]float64, n*n)
		center(b, d, n)
		vals := make([]float64, k)
		vecs := make([]float64, n*k)
		ok, prods := krylovTopK(vals, vecs, slices.Clone(b), n, k, 1, 100)
		var ref mat.EigenSym
		ref.Factorize(mat.NewSymDense(n, slices.Clone(b)), false)
		all := ref.Values(nil)
		slices.Reverse(all)
		worst := 0.0
		for c := range k {
			worst = max(worst, math.Abs(vals[c]-all[c])/math.Abs(all[0]))
		}
		t.Logf("%s: ok %v products %d, top %.6g..%.6g next %.6g, max eig err %.3g", kind, ok, prods, all[0], all[k-1], all[k], worst)
	}
	}
	_ = runtime.GOMAXPROCS
}
