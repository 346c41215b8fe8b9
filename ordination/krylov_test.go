package ordination

import (
	"github.com/twl-ldl/twl/internal/race"
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

// kinds are the matrices of distances that the Krylov tests use.
var kinds = []string{"random", "clusters", "perturbed", "near-equal", "ones"}

// The Krylov iteration against gonum's full EigenSym of the same centred
// matrix (computed by the matrix product J·(−½D²)·J, not by center): the
// top k eigenvalues agree to 1e-9 of |λ₁|, each pair's residual
// ‖B·v − λ·v‖, recomputed here by a matrix product, is within 1e-9·|λ₁|,
// and the vectors are orthonormal. The kinds include a bulk spectrum with
// no gap (random), eigenvalues equal within 1e-5 (near-equal), a rank-8
// matrix whose 9th and 10th eigenvalues are zero (clusters), one eigenvalue
// of multiplicity n−1 (ones), and non-Euclidean distances.
func TestKrylov(t *testing.T) {
	n, k := 400, 10
	if testing.Short() || race.Enabled {
		n = 200
	}
	for seed := range uint64(2) {
		for _, kind := range kinds {
			d := distances(rand.New(rand.NewPCG(5, seed)), kind, n)
			b := centred(d, n)
			var ref mat.EigenSym
			if !ref.Factorize(mat.NewSymDense(n, slices.Clone(b.RawMatrix().Data)), false) {
				t.Fatal("EigenSym failed")
			}
			all := ref.Values(nil)
			slices.Reverse(all)
			scale := math.Abs(all[0])

			w := make([]float64, n*n)
			center(w, d, n)
			vals, vecs := make([]float64, k), make([]float64, n*k)
			ok, prods := krylovTopK(&krylov{}, vals, vecs, w, n, k, seed, 1000)
			if !ok {
				t.Fatalf("%s seed %d: no convergence in %d block products", kind, seed, prods)
			}
			for c := range k {
				if e := math.Abs(vals[c] - all[c]); e > 1e-9*scale {
					t.Errorf("%s seed %d: eigenvalue %d = %v, EigenSym %v", kind, seed, c, vals[c], all[c])
				}
			}
			v := mat.NewDense(n, k, vecs)
			var bv, vtv mat.Dense
			bv.Mul(b, v)
			vtv.Mul(v.T(), v)
			for c := range k {
				res := 0.0
				for i := range n {
					r := bv.At(i, c) - vals[c]*v.At(i, c)
					res += r * r
				}
				if res = math.Sqrt(res); res > 1e-9*scale {
					t.Errorf("%s seed %d: pair %d: residual %v > 1e-9·|λ₁| = %v", kind, seed, c, res, 1e-9*scale)
				}
				for o := range k {
					want := 0.0
					if o == c {
						want = 1
					}
					if e := math.Abs(vtv.At(o, c) - want); e > 1e-9 {
						t.Errorf("%s seed %d: vᵀv[%d][%d] = %v", kind, seed, o, c, vtv.At(o, c))
					}
				}
			}
			t.Logf("%s seed %d: %d block products", kind, seed, prods)
		}
	}
}

// PCoA's default (Krylov) path against its exact path on the same matrix:
// the same top eigenvalues, the same coordinates (distinct eigenvalues, so
// the axes and signs are determined), proportions relative to the trace,
// which is Σ d²_ij / (2n) (the trace of −½·J·D²·J worked by hand) and equals
// the sum of all exact eigenvalues, and Negative reporting that it does not
// know.
func TestPCoAKrylov(t *testing.T) {
	n, k := KrylovMin+100, 6
	d := distances(rand.New(rand.NewPCG(9, 9)), "perturbed", n)
	var fast, ex Result
	if err := PCoA(&fast, d, n, k); err != nil {
		t.Fatal(err)
	}
	if err := PCoAWith(&ex, d, n, k, &Options{Exact: true}); err != nil {
		t.Fatal(err)
	}
	if fast.Exact || !ex.Exact {
		t.Fatalf("Exact: default %v, with Options.Exact %v", fast.Exact, ex.Exact)
	}
	if len(fast.Eigenvalues) != k || len(fast.Proportion) != k || len(ex.Eigenvalues) != n {
		t.Fatalf("lengths %d, %d, %d", len(fast.Eigenvalues), len(fast.Proportion), len(ex.Eigenvalues))
	}
	trace, sum := 0.0, 0.0
	for _, v := range d {
		trace += v * v
	}
	trace /= 2 * float64(n)
	for _, v := range ex.Eigenvalues {
		sum += v
	}
	if math.Abs(fast.Total-trace) > 1e-12*trace || math.Abs(sum-trace) > 1e-9*trace {
		t.Errorf("Total %v, Σd²/2n %v, Σ exact eigenvalues %v", fast.Total, trace, sum)
	}
	scale := ex.Eigenvalues[0]
	for c := range k {
		if e := math.Abs(fast.Eigenvalues[c] - ex.Eigenvalues[c]); e > 1e-9*scale {
			t.Errorf("eigenvalue %d: Krylov %v, exact %v", c, fast.Eigenvalues[c], ex.Eigenvalues[c])
		}
		if want := fast.Eigenvalues[c] / trace; math.Abs(fast.Proportion[c]-want) > 1e-12*want {
			t.Errorf("proportion %d = %v, want λ/trace = %v", c, fast.Proportion[c], want)
		}
	}
	for i := range fast.Coords {
		if e := math.Abs(fast.Coords[i] - ex.Coords[i]); e > 1e-6 {
			t.Fatalf("coordinate %d: Krylov %v, exact %v", i, fast.Coords[i], ex.Coords[i])
		}
	}
	if cnt, ratio := fast.Negative(); cnt != -1 || !math.IsNaN(ratio) {
		t.Errorf("Negative() = %d, %v on the Krylov path; want -1, NaN", cnt, ratio)
	}
	if cnt, _ := ex.Negative(); cnt == 0 {
		t.Error("the perturbed distances have no negative eigenvalue")
	}
}

// The Krylov path gives bit-identical results for any number of
// goroutines, and for the same seed; another seed agrees within the
// tolerance.
func TestKrylovDeterministic(t *testing.T) {
	n, k := KrylovMin, 5
	d := distances(rand.New(rand.NewPCG(2, 3)), "perturbed", n)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var ref Result
	for i, procs := range []int{1, 2, 3, 8} {
		runtime.GOMAXPROCS(procs)
		var r Result
		if err := PCoAWith(&r, d, n, k, &Options{Seed: 7}); err != nil {
			t.Fatal(err)
		}
		if r.Exact {
			t.Fatal("the exact path was taken")
		}
		if i == 0 {
			ref = r
			continue
		}
		if !slices.Equal(r.Coords, ref.Coords) || !slices.Equal(r.Eigenvalues, ref.Eigenvalues) {
			t.Fatalf("GOMAXPROCS %d: results differ from GOMAXPROCS 1", procs)
		}
	}
	var other Result
	if err := PCoAWith(&other, d, n, k, &Options{Seed: 8}); err != nil {
		t.Fatal(err)
	}
	for c := range k {
		if e := math.Abs(other.Eigenvalues[c] - ref.Eigenvalues[c]); e > 1e-9*ref.Eigenvalues[0] {
			t.Errorf("seed 8: eigenvalue %d = %v, seed 7 %v", c, other.Eigenvalues[c], ref.Eigenvalues[c])
		}
	}
}

// center against the matrix product J·(−½D²)·J, across tile boundaries.
func TestCenter(t *testing.T) {
	for _, n := range []int{2, 63, 64, 65, 150} {
		d := distances(rand.New(rand.NewPCG(4, uint64(n))), "perturbed", n)
		w := make([]float64, n*n)
		trace := center(w, d, n)
		want := centred(d, n)
		wt := 0.0
		for i := range n {
			wt += want.At(i, i)
			for j := range n {
				if e := math.Abs(w[i*n+j] - want.At(i, j)); e > 1e-12*(1+math.Abs(want.At(i, j))) {
					t.Fatalf("n=%d: b[%d][%d] = %v, J·D·J %v", n, i, j, w[i*n+j], want.At(i, j))
				}
			}
		}
		if math.Abs(trace-wt) > 1e-12*math.Abs(wt) {
			t.Errorf("n=%d: trace %v, want %v", n, trace, wt)
		}
	}
}

// Check (tiled) against the plain row-major scan firstInvalid, for one
// fault of each kind put at random places of matrices that span several
// tiles: the same error, and nil for the valid matrix.
func TestCheckTiled(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	for _, n := range []int{3, 64, 130} {
		d := distances(r, "random", n)
		if err := Check(d, n); err != nil {
			t.Fatalf("n=%d: valid matrix: %v", n, err)
		}
		for trial := range 200 {
			e := slices.Clone(d)
			i, j := r.IntN(n), r.IntN(n)
			switch trial % 5 {
			case 0:
				e[i*n+j] = math.NaN()
			case 1:
				e[i*n+j] = math.Inf(1)
			case 2:
				e[i*n+j], e[j*n+i] = -e[i*n+j], -e[j*n+i]
			case 3:
				e[i*n+i] = 0.5
			case 4:
				e[i*n+j] *= 1 + 1e-6
			}
			got, want := Check(e, n), firstInvalid(e, n)
			if (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() {
				t.Fatalf("n=%d trial %d: Check %v, row-major scan %v", n, trial, got, want)
			}
			if i != j && want == nil && trial%5 != 2 {
				t.Fatalf("n=%d trial %d: fault at (%d, %d) not found", n, trial, i, j)
			}
		}
	}
}

// Uniform random distances have no gap after the top eigenvalues: at
// n = KrylovMin the iteration exceeds its budget and PCoA falls back to the
// exact path, with the same result as asking for it.
func TestKrylovFallback(t *testing.T) {
	n, k := KrylovMin, 5
	d := distances(rand.New(rand.NewPCG(2, 3)), "random", n)
	var r, ex Result
	if err := PCoA(&r, d, n, k); err != nil {
		t.Fatal(err)
	}
	if err := PCoAWith(&ex, d, n, k, &Options{Exact: true}); err != nil {
		t.Fatal(err)
	}
	if !r.Exact || r.blocks <= krylovBudget(n, k)-1 {
		t.Fatalf("Exact %v after %d block products (budget %d)", r.Exact, r.blocks, krylovBudget(n, k))
	}
	if !slices.Equal(r.Coords, ex.Coords) || !slices.Equal(r.Eigenvalues, ex.Eigenvalues) {
		t.Error("the fallback differs from the exact path")
	}
}
