package ordination

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// euclid returns the n×n Euclidean distances between the rows of x (n×p).
func euclid(x []float64, n, p int) []float64 {
	d := make([]float64, n*n)
	for i := range n {
		for j := range n {
			s := 0.0
			for c := range p {
				t := x[i*p+c] - x[j*p+c]
				s += t * t
			}
			d[i*n+j] = math.Sqrt(s)
		}
	}
	return d
}

func randPoints(r *rand.Rand, n, p int) []float64 {
	x := make([]float64, n*p)
	for i := range x {
		x[i] = r.NormFloat64() * float64(1+i%p) // unequal spreads: distinct eigenvalues
	}
	return x
}

// Points in R^p: the coordinates reproduce the distances, and the
// eigenvalues are the squared singular values of the centred points
// (computed by gonum's SVD, not by an eigensolver).
func TestEuclideanRecovered(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, c := range []struct{ n, p, k int }{{5, 2, 0}, {12, 3, 0}, {40, 4, 4}, {200, 5, 5}, {200, 5, 30}} {
		x := randPoints(r, c.n, c.p)
		d := euclid(x, c.n, c.p)
		var res Result
		if err := PCoA(&res, d, c.n, c.k); err != nil {
			t.Fatal(err)
		}
		k := res.K
		got := euclid(res.Coords, c.n, k)
		for i := range d {
			if math.Abs(got[i]-d[i]) > 1e-10*(1+d[i]) {
				t.Fatalf("n=%d k=%d: distance %d: %v from coordinates, %v given", c.n, c.k, i, got[i], d[i])
			}
		}
		// Centred points and their singular values.
		xc := mat.NewDense(c.n, c.p, nil)
		for j := range c.p {
			m := 0.0
			for i := range c.n {
				m += x[i*c.p+j]
			}
			m /= float64(c.n)
			for i := range c.n {
				xc.Set(i, j, x[i*c.p+j]-m)
			}
		}
		var svd mat.SVD
		if !svd.Factorize(xc, mat.SVDNone) {
			t.Fatal("svd failed")
		}
		sv := svd.Values(nil)
		for i, v := range res.Eigenvalues {
			want := 0.0
			if i < len(sv) {
				want = sv[i] * sv[i]
			}
			if math.Abs(v-want) > 1e-10*sv[0]*sv[0] {
				t.Fatalf("n=%d k=%d: eigenvalue %d = %v, squared singular value %v", c.n, c.k, i, v, want)
			}
		}
	}
}

// Three points on a line at 0, 1 and 3, worked by hand: centred at their
// mean 4/3 they are −4/3, −1/3, 5/3, so B = x·xᵀ has the one eigenvalue
// Σx² = 14/3 with coordinates x (the largest, 5/3, positive).
func TestThreePointsLine(t *testing.T) {
	d := []float64{0, 1, 3, 1, 0, 2, 3, 2, 0}
	var res Result
	if err := PCoA(&res, d, 3, 2); err != nil {
		t.Fatal(err)
	}
	wantVals := []float64{14.0 / 3, 0, 0}
	for i, v := range res.Eigenvalues {
		if math.Abs(v-wantVals[i]) > 1e-14 {
			t.Errorf("eigenvalue %d = %v, want %v", i, v, wantVals[i])
		}
	}
	want := []float64{-4.0 / 3, 0, -1.0 / 3, 0, 5.0 / 3, 0}
	for i, v := range res.Coords {
		if math.Abs(v-want[i]) > 1e-14 {
			t.Errorf("coords %v, want %v", res.Coords, want)
			break
		}
	}
	if res.Proportion[0] != 1 || res.Proportion[1] != 0 {
		t.Errorf("proportion %v, want [1 0 0]", res.Proportion)
	}
}

// Three points that break the triangle inequality (1 + 1 < 3), worked by
// hand: B = [[-5/9, 5/18, 5/18], [5/18, 19/9, -43/18], [5/18, -43/18, 19/9]]
// has eigenvalues 9/2 (vector (0, 1, −1)/√2), 0 (the ones) and −5/6
// (vector (2, −1, −1)/√6).
func TestThreePointsNonEuclidean(t *testing.T) {
	d := []float64{0, 1, 1, 1, 0, 3, 1, 3, 0}
	var res Result
	if err := PCoA(&res, d, 3, 0); err != nil {
		t.Fatal(err)
	}
	wantVals := []float64{4.5, 0, -5.0 / 6}
	for i, v := range res.Eigenvalues {
		if math.Abs(v-wantVals[i]) > 1e-14 {
			t.Errorf("eigenvalue %d = %v, want %v", i, v, wantVals[i])
		}
	}
	c := res.Coords // 3×3
	if math.Abs(c[0]) > 1e-14 || math.Abs(math.Abs(c[3])-1.5) > 1e-14 || math.Abs(c[3]+c[6]) > 1e-14 {
		t.Errorf("axis 1 = %v, %v, %v; want 0, ±1.5, ∓1.5", c[0], c[3], c[6])
	}
	for i := range 3 {
		if c[i*3+1] != 0 || c[i*3+2] != 0 {
			t.Errorf("axes with eigenvalues ≤ 0 have coordinates %v, want 0", c)
		}
	}
	if got := res.Proportion; got[0] != 1 || got[1] != 0 || got[2] != 0 {
		t.Errorf("proportion %v, want [1 0 0]", got)
	}
	if n, ratio := res.Negative(); n != 1 || math.Abs(ratio-5.0/27) > 1e-15 {
		t.Errorf("Negative() = %d, %v; want 1, 5/27", n, ratio)
	}
}

// numpy.linalg.eigh's PCoA of a non-Euclidean 6×6 matrix, recorded by
// testdata/numpy_pcoa.py.
func TestNumpy(t *testing.T) {
	b, err := os.ReadFile("testdata/numpy_pcoa.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Distances   [][]float64
		Eigenvalues []float64
		Proportion  []float64
		Coordinates [][]float64
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	n := len(ref.Distances)
	d := make([]float64, 0, n*n)
	for _, row := range ref.Distances {
		d = append(d, row...)
	}
	var res Result
	if err := PCoA(&res, d, n, 0); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if math.Abs(res.Eigenvalues[i]-ref.Eigenvalues[i]) > 1e-12 || math.Abs(res.Proportion[i]-ref.Proportion[i]) > 1e-12 {
			t.Errorf("axis %d: eigenvalue %v proportion %v; numpy %v, %v", i, res.Eigenvalues[i], res.Proportion[i], ref.Eigenvalues[i], ref.Proportion[i])
		}
		for c := range n {
			if math.Abs(res.Coords[i*n+c]-ref.Coordinates[i][c]) > 1e-10 {
				t.Errorf("sample %d axis %d: %v, numpy %v", i, c, res.Coords[i*n+c], ref.Coordinates[i][c])
			}
		}
	}
	if cnt, _ := res.Negative(); cnt != 2 {
		t.Errorf("%d negative eigenvalues, numpy has 2", cnt)
	}
}

// centred computes −½·J·D²·J by matrix products.
func centred(d []float64, n int) *mat.Dense {
	j := mat.NewDense(n, n, nil)
	d2 := mat.NewDense(n, n, nil)
	for r := range n {
		for c := range n {
			v := -1 / float64(n)
			if r == c {
				v++
			}
			j.Set(r, c, v)
			d2.Set(r, c, -0.5*d[r*n+c]*d[r*n+c])
		}
	}
	var b mat.Dense
	b.Product(j, d2, j)
	return &b
}

// The top-k path (tridiagonalization and inverse iteration) against the
// full eigendecomposition and against the definition: B·v = λ·v and
// orthogonal axes, for non-Euclidean matrices and for a matrix whose
// non-zero eigenvalues are all equal (every distance 1).
func TestTopK(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		n, k int
		kind string
	}{{100, 5, "random"}, {300, 10, "random"}, {120, 10, "ones"}, {200, 8, "clusters"}} {
		n, k := c.n, c.k
		if !partial(n, k) {
			t.Fatalf("n=%d k=%d does not take the top-k path", n, k)
		}
		d := make([]float64, n*n)
		for i := range n {
			for j := range i {
				var v float64
				switch c.kind {
				case "random":
					v = r.Float64()
				case "ones":
					v = 1
				case "clusters": // 4 groups, near-equal within
					v = 1 + 0.01*r.Float64()
					if i%4 == j%4 {
						v = 0.1 + 0.01*r.Float64()
					}
				}
				d[i*n+j], d[j*n+i] = v, v
			}
		}
		dc := append([]float64(nil), d...)
		var res Result
		if err := PCoA(&res, d, n, k); err != nil {
			t.Fatal(err)
		}
		for i := range d {
			if d[i] != dc[i] {
				t.Fatal("PCoA modified its input")
			}
		}
		b := centred(d, n)
		var ref mat.EigenSym
		ref.Factorize(mat.NewSymDense(n, append([]float64(nil), b.RawMatrix().Data...)), false)
		vals := ref.Values(nil)
		for i := range n {
			want := vals[n-1-i]
			if math.Abs(res.Eigenvalues[i]-want) > 1e-12*math.Abs(vals[n-1])+1e-12 {
				t.Fatalf("%s n=%d: eigenvalue %d = %v, EigenSym %v", c.kind, n, i, res.Eigenvalues[i], want)
			}
		}
		x := mat.NewDense(n, k, res.Coords)
		var bx, xtx mat.Dense
		bx.Mul(b, x)
		xtx.Mul(x.T(), x)
		scale := math.Abs(res.Eigenvalues[0])
		for col := range k {
			lam := res.Eigenvalues[col]
			for i := range n {
				if e := math.Abs(bx.At(i, col) - lam*x.At(i, col)); e > 1e-10*scale {
					t.Fatalf("%s n=%d axis %d: |Bx − λx| = %v", c.kind, n, col, e)
				}
			}
			for o := range k {
				want := 0.0
				if o == col {
					want = lam
				}
				if e := math.Abs(xtx.At(o, col) - want); e > 1e-10*scale {
					t.Fatalf("%s n=%d axes %d, %d: xᵀx = %v, want %v", c.kind, n, o, col, xtx.At(o, col), want)
				}
			}
		}
		if c.kind == "random" {
			// Distinct eigenvalues: the same axes, signs included, as
			// the full decomposition.
			var fr Result
			fr.N, fr.K = n, k
			fr.Coords, fr.Eigenvalues, fr.Proportion = make([]float64, n*k), make([]float64, n), make([]float64, n)
			w := make([]float64, n*n)
			center(w, d, n)
			vecs := make([]float64, n*k)
			full(fr.Eigenvalues, vecs, w, n, k)
			fr.finish(vecs, math.NaN())
			for i := range fr.Coords {
				if math.Abs(fr.Coords[i]-res.Coords[i]) > 1e-9 {
					t.Fatalf("%s n=%d coordinate %d: top-k %v, full %v", c.kind, n, i, res.Coords[i], fr.Coords[i])
				}
			}
		}
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		d    []float64
		n    int
		want string
	}{
		{[]float64{0, 1, 2, 1, 0, math.NaN(), 2, math.NaN(), 0}, 3, "entry (2, 3): NaN"},
		{[]float64{0, 1, 2, 1, 0, 1, 2, 1, 0.5}, 3, "entry (3, 3): 0.5 on the diagonal"},
		{[]float64{0, 1, -2, 1, 0, 1, -2, 1, 0}, 3, "entry (1, 3): -2 is negative"},
		{[]float64{0, 1, 2, 1, 0, 1, 2.1, 1, 0}, 3, "entry (3, 1): 2.1, but entry (1, 3) is 2"},
		{[]float64{0, 1, 2, 1, 0, 1, 2, math.Inf(1), 0}, 3, "+Inf is not a finite number"},
		{[]float64{0}, 1, "at least 2 samples"},
	} {
		var res Result
		err := PCoA(&res, c.d, c.n, 0)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
	for _, f := range []func(){
		func() { PCoA(&Result{}, make([]float64, 8), 3, 0) },
		func() { PCoA(&Result{}, make([]float64, 9), 3, 4) },
		func() { PCoA(&Result{}, make([]float64, 9), 3, -1) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic for a shape mistake")
				}
			}()
			f()
		}()
	}
}

// All distances 0: no positive eigenvalue, coordinates and proportions 0.
func TestZero(t *testing.T) {
	var res Result
	if err := PCoA(&res, make([]float64, 16), 4, 2); err != nil {
		t.Fatal(err)
	}
	for _, s := range [][]float64{res.Coords, res.Eigenvalues, res.Proportion} {
		for _, v := range s {
			if v != 0 {
				t.Fatalf("%v, want zeros", s)
			}
		}
	}
}

// benchPCoA times PCoA of n points in R¹⁰ whose distances are perturbed by
// up to 5% (non-Euclidean, as UniFrac distances are), on k axes.
func benchPCoA(b *testing.B, n, k int, o *Options) {
	r := rand.New(rand.NewPCG(1, 1))
	d := euclid(randPoints(r, n, 10), n, 10)
	for i := range d { // a non-Euclidean perturbation, as UniFrac distances are
		j := (i%n)*n + i/n
		if j > i {
			v := d[i] * (1 + 0.05*r.Float64())
			d[i], d[j] = v, v
		}
	}
	var res Result
	b.ReportAllocs()
	for b.Loop() {
		if err := PCoAWith(&res, d, n, k, o); err != nil {
			b.Fatal(err)
		}
	}
	if !res.Exact {
		b.ReportMetric(float64(res.blocks), "products")
	}
}

var exact = &Options{Exact: true}

func BenchmarkPCoA1000Top10(b *testing.B)      { benchPCoA(b, 1000, 10, nil) }
func BenchmarkPCoA1000Top10Exact(b *testing.B) { benchPCoA(b, 1000, 10, exact) }
func BenchmarkPCoA1000All(b *testing.B)        { benchPCoA(b, 1000, 0, nil) }
func BenchmarkPCoA3000Top10(b *testing.B)      { benchPCoA(b, 3000, 10, nil) }
func BenchmarkPCoA3000Top10Exact(b *testing.B) { benchPCoA(b, 3000, 10, exact) }
func BenchmarkPCoA3000All(b *testing.B)        { benchPCoA(b, 3000, 0, nil) }
func BenchmarkPCoA10000Top10(b *testing.B)     { benchPCoA(b, 10000, 10, nil) }

// BenchmarkCheck times Check of a valid 3000×3000 matrix.
func BenchmarkCheck3000(b *testing.B) {
	n := 3000
	d := euclid(randPoints(rand.New(rand.NewPCG(1, 1)), n, 10), n, 10)
	b.ReportAllocs()
	for b.Loop() {
		if err := Check(d, n); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCenter3000 times the double centring of a 3000×3000 matrix.
func BenchmarkCenter3000(b *testing.B) {
	n := 3000
	d := euclid(randPoints(rand.New(rand.NewPCG(1, 1)), n, 10), n, 10)
	w := make([]float64, n*n)
	b.ReportAllocs()
	for b.Loop() {
		center(w, d, n)
	}
}

// BenchmarkCheck3000RowMajor times the plain row-major scan that Check
// uses to name the first invalid entry, for comparison with the tiled pass.
func BenchmarkCheck3000RowMajor(b *testing.B) {
	n := 3000
	d := euclid(randPoints(rand.New(rand.NewPCG(1, 1)), n, 10), n, 10)
	b.ReportAllocs()
	for b.Loop() {
		if err := firstInvalid(d, n); err != nil {
			b.Fatal(err)
		}
	}
}
