package treesliced

import (
	"github.com/twl-ldl/twl/experiment/report"

	"fmt"
	"github.com/twl-ldl/twl/internal/fmath"
	"math"
	"math/rand/v2"
)

// Mass schemes of the clouds (Config.Masses).
const (
	MassesUniform = "uniform" // every point 1/n
	MassesRandom  = "random"  // Dirichlet(1, …, 1): exponential draws, normalized
)

// Cloud shape: the component means have standard normal coordinates, the
// points standard deviation Spread around them per coordinate.
const (
	Spread = 0.3
)

// Pair is one pair of point clouds of a cell: A and B hold n points of
// dimension d each, row-major (point i is A[i·d : (i+1)·d]), with masses MA
// and MB, each summing to 1. Shift is the s of the package documentation,
// the fraction of a standard normal draw by which B's component means move.
type Pair struct {
	D, N   int
	A, B   []float64
	MA, MB []float64
	Shift  float64
}

// Union returns the 2n points of A then B, row-major: the points the trees
// of the pair are built on (point i < n is A's i-th, point n+i B's i-th).
func (p *Pair) Union() []float64 {
	u := make([]float64, 0, len(p.A)+len(p.B))
	return append(append(u, p.A...), p.B...)
}

// Cost returns the n×n Euclidean distances between A's and B's points,
// row-major: the ground cost of the exact W1. dst is reused when its
// capacity allows.
func (p *Pair) Cost(dst []float64) []float64 {
	n, d := p.N, p.D
	if cap(dst) < n*n {
		dst = make([]float64, n*n)
	}
	dst = dst[:n*n]
	for i := range n {
		x := p.A[i*d : (i+1)*d]
		row := dst[i*n : (i+1)*n]
		for j := range n {
			row[j] = math.Sqrt(fmath.SqDist(x, p.B[j*d:(j+1)*d]))
		}
	}
	return dst
}

// Dense returns the masses as two vectors over the 2n union points: a is
// MA on the first n and zero on the rest, b zero on the first n and MB on
// the rest, the form tsw.Sliced.Distance takes.
func (p *Pair) Dense() (a, b []float64) {
	n := p.N
	a = make([]float64, 2*n)
	b = make([]float64, 2*n)
	copy(a, p.MA)
	copy(b[n:], p.MB)
	return a, b
}

// pairKey is the PCG stream of pair k of the cell (d, n): distinct cells
// and pairs draw independent data from one seed.
func pairKey(d, n, k int) uint64 {
	return uint64(d)<<40 ^ uint64(n)<<16 ^ uint64(k) ^ 0x636c6f756473 // "clouds"
}

// NewPair draws pair k of the cell (d, n) from seed, as the package
// documentation describes: the same arguments give the same bits. masses
// is MassesUniform or MassesRandom, components the number of mixture
// components. It panics on d, n or components below 1 and on an unknown
// mass scheme.
func NewPair(seed uint64, d, n, k, components int, masses string) *Pair {
	if d < 1 || n < 1 || components < 1 {
		panic(fmt.Sprintf("treesliced: NewPair with d = %d, n = %d, components = %d", d, n, components))
	}
	if masses != MassesUniform && masses != MassesRandom {
		panic(fmt.Sprintf("treesliced: NewPair with masses %q", masses))
	}
	rng := rand.New(rand.NewPCG(seed, pairKey(d, n, k)))
	C := components
	meanA := make([]float64, C*d)
	for i := range meanA {
		meanA[i] = rng.NormFloat64()
	}
	s := rng.Float64()
	meanB := make([]float64, C*d)
	for i := range meanB {
		meanB[i] = meanA[i] + s*rng.NormFloat64()
	}
	p := &Pair{D: d, N: n, Shift: s}
	p.A, p.MA = sample(rng, meanA, dirichlet(rng, C), n, d, masses)
	p.B, p.MB = sample(rng, meanB, dirichlet(rng, C), n, d, masses)
	return p
}

// dirichlet draws a point of the simplex from Dirichlet(1, …, 1).
func dirichlet(rng *rand.Rand, k int) []float64 {
	w := make([]float64, k)
	for i := range w {
		w[i] = rng.ExpFloat64()
	}
	return report.Normalize(w)
}

// sample draws n points of the mixture with the given component means and
// weights, and their masses.
func sample(rng *rand.Rand, mean, weight []float64, n, d int, masses string) (pts, mass []float64) {
	cum := make([]float64, len(weight))
	var c float64
	for i, w := range weight {
		c += w
		cum[i] = c
	}
	pts = make([]float64, n*d)
	for i := range n {
		u := rng.Float64() * c
		comp := len(weight) - 1
		for j, v := range cum {
			if u < v {
				comp = j
				break
			}
		}
		mu := mean[comp*d : (comp+1)*d]
		x := pts[i*d : (i+1)*d]
		for j := range x {
			x[j] = mu[j] + Spread*rng.NormFloat64()
		}
	}
	if masses == MassesUniform {
		mass = make([]float64, n)
		for i := range mass {
			mass[i] = 1 / float64(n)
		}
		return pts, mass
	}
	return pts, dirichlet(rng, n)
}
