package metric

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/twl-ldl/twl/internal/testutil"
)

var (
	inf = math.Inf(1)
	nan = math.NaN()
)

// same reports whether got equals want within the absolute tolerance tol,
// with NaN equal to NaN and ±Inf equal only to itself.
func same(got, want, tol float64) bool {
	switch {
	case math.IsNaN(want):
		return math.IsNaN(got)
	case math.IsInf(want, 0):
		return got == want
	}
	return math.Abs(got-want) <= tol
}

// metricFuncs are the per-row functions, in the order of Names (without
// wasserstein, which needs a tree).
var metricFuncs = []struct {
	name string
	f    func(p, q []float64) float64
}{
	{"kl", KL}, {"chebyshev", Chebyshev}, {"clark", Clark}, {"canberra", Canberra},
	{"cosine", Cosine}, {"intersection", Intersection},
}

func TestMetrics(t *testing.T) {
	// Expected values by hand; each want lists kl, chebyshev, clark,
	// canberra, cosine, intersection, with the arithmetic beside the case.
	for _, tc := range []struct {
		name string
		p, q []float64
		want [6]float64
		tol  float64
	}{
		{
			// |p−q| = (.25, .05, .3, 0); p+q = (.75, .55, .7, 0), the last a 0/0
			// term. KL = .25 ln(.25/.5) + .25 ln(.25/.3) + .5 ln(.5/.2).
			// Clark² = (1/3)² + (1/11)² + (3/7)²; Canberra = 1/3 + 1/11 + 3/7 =
			// 197/231. Cosine = (.125+.075+.1) / sqrt((.25+.09+.04)(.0625+.0625+.25))
			// = .3/sqrt(.1425). Intersection = .25 + .25 + .2.
			"general", []float64{0.5, 0.3, 0.2, 0}, []float64{0.25, 0.25, 0.5, 0},
			[6]float64{
				0.25*math.Log(0.5) + 0.25*math.Log(5.0/6) + 0.5*math.Log(2.5),
				0.3,
				math.Sqrt(1.0/9 + 1.0/121 + 9.0/49),
				197.0 / 231,
				0.3 / math.Sqrt(0.1425),
				0.7,
			}, 1e-15,
		},
		{
			// q_2 = .5 > 0 = p_2: KL = +Inf. Clark² = (.5/1.5)² + (.5/.5)² + 0/0
			// = 1/9 + 1; Canberra = 1/3 + 1; Cosine = .5/(1·sqrt(.5)).
			"prediction misses target mass", []float64{1, 0, 0}, []float64{0.5, 0.5, 0},
			[6]float64{inf, 0.5, math.Sqrt(10.0 / 9), 4.0 / 3, math.Sqrt(0.5), 0.5}, 1e-15,
		},
		{
			// The same pair swapped: every metric but KL is symmetric. KL(q‖p)
			// = 1·ln(1/.5) + 0·ln(0/.5) = ln 2, the second term counting 0.
			"target misses predicted mass", []float64{0.5, 0.5, 0}, []float64{1, 0, 0},
			[6]float64{math.Ln2, 0.5, math.Sqrt(10.0 / 9), 4.0 / 3, math.Sqrt(0.5), 0.5}, 1e-15,
		},
		{
			"identical", []float64{0.2, 0.8}, []float64{0.2, 0.8},
			[6]float64{0, 0, 0, 0, 1, 1}, 1e-15,
		},
		{
			// Disjoint supports: every term of Clark and Canberra is 1.
			"disjoint", []float64{0, 0.25, 0.75}, []float64{1, 0, 0},
			[6]float64{inf, 1, math.Sqrt(3), 3, 0, 0}, 0,
		},
		{
			// A zero prediction: Cosine is 0/0; KL = 1·(ln 1 − ln 0) = +Inf;
			// Clark = Canberra = 1 + the 0/0 term.
			"zero prediction", []float64{0, 0}, []float64{1, 0},
			[6]float64{inf, 1, 1, 1, nan, 0}, 0,
		},
		{
			// ln(q/p) would overflow for this p: q/p = 1/4.9e-324 = +Inf;
			// ln q − ln p = 0 − ln(2⁻¹⁰⁷⁴) = 1074 ln 2 (math.Log alone gives
			// 1023 ln 2 on amd64, Go issue 56600).
			"subnormal prediction", []float64{1 - 0x1p-1074, 0x1p-1074}, []float64{0, 1},
			[6]float64{1074 * math.Ln2, 1, math.Sqrt(2), 2, 0x1p-1074, 0x1p-1074}, 1e-12,
		},
		{
			"empty", nil, nil, [6]float64{0, 0, 0, 0, nan, 0}, 0,
		},
		{
			// NaN propagates.
			"NaN", []float64{nan, 1}, []float64{0.5, 0.5},
			[6]float64{nan, nan, nan, nan, nan, nan}, 0,
		},
	} {
		for i, m := range metricFuncs {
			if got := m.f(tc.p, tc.q); !same(got, tc.want[i], tc.tol) {
				t.Errorf("%s: %s = %v, want %v", tc.name, m.name, got, tc.want[i])
			}
		}
	}
}

func TestLn(t *testing.T) {
	// ln(2^k) = k ln 2, across the subnormal range and its edges.
	for _, k := range []int{-1074, -1060, -1040, -1023, -1022, -1021, -500, -1, 0, 1, 1023} {
		if got, want := ln(math.Ldexp(1, k)), float64(k)*math.Ln2; math.Abs(got-want) > 1e-12 {
			t.Errorf("ln(2^%d) = %v, want %v", k, got, want)
		}
	}
	// 3·2⁻¹⁰⁶⁰ is subnormal with two bits set.
	if got, want := ln(3*0x1p-1060), math.Log(3)-1060*math.Ln2; math.Abs(got-want) > 1e-12 {
		t.Errorf("ln(3·2^-1060) = %v, want %v", got, want)
	}
	for _, x := range []float64{0, -1, inf, nan} {
		if got, want := ln(x), math.Log(x); !same(got, want, 0) {
			t.Errorf("ln(%v) = %v, want %v", x, got, want)
		}
	}
}

func TestClip(t *testing.T) {
	x := []float64{-1, 0, 1e-300, 0.5, 1, 2, nan}
	want := []float64{Eps, Eps, Eps, 0.5, 1, 1, nan}
	got := Clip(make([]float64, len(x)), x)
	for i := range x {
		if !same(got[i], want[i], 0) {
			t.Errorf("Clip(%v) = %v, want %v", x[i], got[i], want[i])
		}
	}
	if eps, pyldl := float64(Eps), 2.220446049250313e-16; eps != math.Nextafter(1, 2)-1 || eps != pyldl {
		t.Errorf("Eps = %v, want the float64 machine epsilon", Eps)
	}
	// In place.
	Clip(x, x)
	if x[0] != Eps || x[5] != 1 {
		t.Errorf("Clip in place gave %v", x)
	}
}

// TestClipHand checks the metrics on clipped vectors against a hand
// computation, the way PyLDL evaluates Clark, Canberra and KL.
func TestClipHand(t *testing.T) {
	// p = (1, 0), q = (0, 1) clip to p̃ = (1, ε), q̃ = (ε, 1):
	//   KL(q̃‖p̃)  = ε ln(ε/1) + 1·ln(1/ε) = (1 − ε)·ln(1/ε) = (1 − ε)·52 ln 2
	//   Clark     = sqrt(2·((1 − ε)/(1 + ε))²) = sqrt(2)·(1 − ε)/(1 + ε)
	//   Canberra  = 2·(1 − ε)/(1 + ε)
	// against +Inf, sqrt(2) and 2 unclipped.
	p, q := []float64{1, 0}, []float64{0, 1}
	pc, qc := Clip(make([]float64, 2), p), Clip(make([]float64, 2), q)
	const e = Eps
	for _, tc := range []struct {
		name      string
		f         func(p, q []float64) float64
		exact, pl float64
	}{
		{"kl", KL, inf, (1 - e) * 52 * math.Ln2},
		{"clark", Clark, math.Sqrt2, math.Sqrt2 * (1 - e) / (1 + e)},
		{"canberra", Canberra, 2, 2 * (1 - e) / (1 + e)},
	} {
		if got := tc.f(p, q); !same(got, tc.exact, 1e-15) {
			t.Errorf("%s = %v, want %v", tc.name, got, tc.exact)
		}
		if got := tc.f(pc, qc); !same(got, tc.pl, 1e-14) {
			t.Errorf("%s clipped = %v, want %v", tc.name, got, tc.pl)
		}
	}
	if got, want := KL(pc, qc), 36.04365338911715; !same(got, want, 1e-13) {
		t.Errorf("clipped KL = %v, want 52 ln 2 ≈ %v", got, want)
	}
}

func TestLowerIsBetter(t *testing.T) {
	want := map[string]bool{"wasserstein": true, "kl": true, "chebyshev": true, "clark": true,
		"canberra": true, "cosine": false, "intersection": false}
	if len(Names) != len(want) {
		t.Fatalf("Names = %q", Names)
	}
	for _, n := range Names {
		if got := LowerIsBetter(n); got != want[n] {
			t.Errorf("LowerIsBetter(%q) = %v", n, got)
		}
	}
	if p, v := testutil.Panics(func() { LowerIsBetter("euclidean") }); !p || !strings.HasPrefix(v.(string), "metric: ") {
		t.Errorf("LowerIsBetter of an unknown name: panicked %v with %v", p, v)
	}
}

func TestLengthPanics(t *testing.T) {
	a, b := make([]float64, 3), make([]float64, 2)
	for _, m := range metricFuncs {
		if p, v := testutil.Panics(func() { m.f(a, b) }); !p || !strings.HasPrefix(v.(string), "metric: ") {
			t.Errorf("%s of lengths 3 and 2: panicked %v with %v", m.name, p, v)
		}
	}
	if p, _ := testutil.Panics(func() { Clip(a, b) }); !p {
		t.Error("Clip of lengths 3 and 2 did not panic")
	}
}

// TestProperties checks identities and inequalities that hold for every
// pair of distributions, on seeded random ones, dense and sparse.
func TestProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const tol = 1e-13
	for i := range 500 {
		n := 1 + rng.IntN(20)
		var p, q []float64
		switch i % 3 {
		case 0:
			p, q = testutil.Dist(rng, n), testutil.Dist(rng, n)
		case 1:
			p, q = testutil.SparseDist(rng, n, 3), testutil.Dist(rng, n)
		default:
			p, q = testutil.SparseDist(rng, n, 2), testutil.SparseDist(rng, n, 2)
		}
		var l1 float64
		for j := range p {
			l1 += math.Abs(p[j] - q[j])
		}
		tv := l1 / 2
		cheb, clark, canb := Chebyshev(p, q), Clark(p, q), Canberra(p, q)
		kl, cos, inter := KL(p, q), Cosine(p, q), Intersection(p, q)

		// Intersection = 1 − total variation, an identity computed another way.
		if math.Abs(inter-(1-tv)) > tol {
			t.Errorf("Intersection = %v, 1 − ½‖p−q‖₁ = %v", inter, 1-tv)
		}
		// One coordinate moves at most the total variation.
		if cheb > tv+tol {
			t.Errorf("Chebyshev %v > ½‖p−q‖₁ = %v", cheb, tv)
		}
		// Each Canberra term r ∈ [0, 1] and Clark² sums r² ≤ r.
		if clark*clark > canb+tol || canb > float64(n)+tol {
			t.Errorf("Clark² %v, Canberra %v, L %d", clark*clark, canb, n)
		}
		// Pinsker: KL(q‖p) ≥ 2·TV² (+Inf when p misses mass of q).
		if !(kl >= 2*tv*tv-tol) {
			t.Errorf("KL %v < 2·TV² = %v", kl, 2*tv*tv)
		}
		if !(cos >= -tol && cos <= 1+tol) {
			t.Errorf("Cosine %v outside [0, 1]", cos)
		}
		// Symmetry, and the value at p = p.
		for _, m := range metricFuncs {
			if m.name != "kl" {
				if d := m.f(p, q) - m.f(q, p); math.Abs(d) > tol {
					t.Errorf("%s not symmetric: difference %v", m.name, d)
				}
			}
		}
		for _, m := range metricFuncs {
			want := 0.0
			if !LowerIsBetter(m.name) {
				want = 1
			}
			if got := m.f(p, p); math.Abs(got-want) > tol {
				t.Errorf("%s(p, p) = %v, want %v", m.name, got, want)
			}
		}
	}
}

// TestTotalVariation: ½ Σ |p − q| by hand.
func TestTotalVariation(t *testing.T) {
	// ½ (|.5 − 0| + |.5 − .25| + |0 − .75|) = ½ (.5 + .25 + .75) = .75
	if got := TotalVariation([]float64{0.5, 0.5, 0}, []float64{0, 0.25, 0.75}); got != 0.75 {
		t.Errorf("got %v, want 0.75", got)
	}
}
