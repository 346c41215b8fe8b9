package fmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ulps returns |got − want| in units of the last place of want.
func ulps(got, want float64) float64 {
	if got == want {
		return 0
	}
	ulp := math.Nextafter(want, math.Inf(1)) - want
	return math.Abs(got-want) / ulp
}

// TestExpAccuracy compares Exp with math.Exp (itself accurate to < 1 ulp) on
// random arguments over the whole range, dense near 0 and at the softmax
// range [−50, 0]. The bound of 2.5 ulps allows for both functions' errors
// (each is within about one ulp of the true value).
func TestExpAccuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	worst := 0.0
	for i := 0; i < 2_000_000; i++ {
		var x float64
		switch i % 4 {
		case 0:
			x = (rng.Float64()*2 - 1) * 745
		case 1:
			x = -50 * rng.Float64()
		case 2:
			x = (rng.Float64()*2 - 1) * 1e-3
		case 3:
			x = (rng.Float64()*2 - 1) * 1e-12
		}
		if u := ulps(Exp(x), math.Exp(x)); u > worst {
			worst = u
			if u > 2.5 {
				t.Fatalf("Exp(%v) = %v, math.Exp = %v: %.2f ulps", x, Exp(x), math.Exp(x), u)
			}
		}
	}
	t.Logf("worst error %.2f ulps", worst)
}

// TestExpSpecial checks the edges against math.Exp's documented values.
func TestExpSpecial(t *testing.T) {
	for _, x := range []float64{0, math.Copysign(0, -1), 1, -1, 708, -708, 709, 709.5, 710, -745, -746, -1000,
		math.Inf(1), math.Inf(-1), math.NaN(), math.SmallestNonzeroFloat64, math.Nextafter(708, 0), math.Nextafter(-708, 0)} {
		got, want := Exp(x), math.Exp(x)
		if math.IsNaN(want) {
			if !math.IsNaN(got) {
				t.Errorf("Exp(%v) = %v, want NaN", x, got)
			}
			continue
		}
		if ulps(got, want) > 2.5 {
			t.Errorf("Exp(%v) = %v, want %v", x, got, want)
		}
	}
	// Exact values: e^0 = 1, by the table entry 2^0 and p(0) = 0.
	if Exp(0) != 1 {
		t.Errorf("Exp(0) = %v", Exp(0))
	}
}

// TestSoftmax compares with a direct evaluation by math.Exp in log space.
func TestSoftmax(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 7, 100} {
		z := make([]float64, n)
		for i := range z {
			z[i] = 30 * rng.NormFloat64()
		}
		p := make([]float64, n)
		lse := Softmax(p, z)
		m := math.Inf(-1)
		for _, v := range z {
			m = max(m, v)
		}
		var s float64
		for _, v := range z {
			s += math.Exp(v - m)
		}
		wantLSE := m + math.Log(s)
		if math.Abs(lse-wantLSE) > 1e-13*math.Max(1, math.Abs(wantLSE)) {
			t.Errorf("n=%d: logsumexp %v, want %v", n, lse, wantLSE)
		}
		var sum float64
		for i, v := range z {
			want := math.Exp(v-m) / s
			if math.Abs(p[i]-want) > 1e-14*math.Max(want, 1e-300)+1e-300 {
				t.Errorf("n=%d: p[%d] = %v, want %v", n, i, p[i], want)
			}
			sum += p[i]
		}
		if math.Abs(sum-1) > 1e-14 {
			t.Errorf("n=%d: Σp = %v", n, sum)
		}
	}
	// In place, and huge logits do not overflow.
	z := []float64{1000, 1000}
	Softmax(z, z)
	if z[0] != 0.5 || z[1] != 0.5 {
		t.Errorf("softmax(1000, 1000) = %v", z)
	}
}

var sink float64

func BenchmarkExp(b *testing.B) {
	x := make([]float64, 1000)
	for i := range x {
		x[i] = -float64(i) / 50
	}
	b.Run("fmath", func(b *testing.B) {
		for b.Loop() {
			var s float64
			for _, v := range x {
				s += Exp(v)
			}
			sink = s
		}
	})
	b.Run("math", func(b *testing.B) {
		for b.Loop() {
			var s float64
			for _, v := range x {
				s += math.Exp(v)
			}
			sink = s
		}
	})
}

// TestSqDist compares SqDist with a plain running sum of squares: equal
// for small integer coordinates (every partial sum exact), within 1e-15
// relative for random ones, and for every length 0 … 9 (the tail).
func TestSqDist(t *testing.T) {
	for n := range 10 {
		x, y := make([]float64, n), make([]float64, n+1) // y may be longer
		for i := range x {
			x[i], y[i] = float64(i*i%7), float64(3-i)
		}
		var want float64
		for i := range x {
			want += (x[i] - y[i]) * (x[i] - y[i])
		}
		if got := SqDist(x, y); got != want {
			t.Errorf("n=%d: %v, want %v", n, got, want)
		}
	}
	x, y := make([]float64, 101), make([]float64, 101)
	for i := range x {
		x[i], y[i] = math.Sin(float64(i)), math.Cos(float64(i)*0.7)
	}
	var want float64
	for i := range x {
		want += (x[i] - y[i]) * (x[i] - y[i])
	}
	if got := SqDist(x, y); math.Abs(got-want) > 1e-15*want {
		t.Errorf("random: %v, want %v", got, want)
	}
}
