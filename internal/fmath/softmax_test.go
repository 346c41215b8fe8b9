package fmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The kernels behind Softmax (softmax_amd64.s, and their Go forms with
// -tags purego) must give the bits of the Go forms maxGo, expShiftSumGo and
// scaleGo, which are the definition: these tests compare them bit for bit
// on edge cases and random inputs. (Exp's accuracy is tested against
// math.Exp in fmath_test.go.)

// edges are arguments at Exp's edges: zeros, the ends of the range done
// by the polynomial (±708, 709) and beyond, results that are subnormal or
// underflow to zero, overflow, ±Inf and NaN.
var edges = []float64{
	0, math.Copysign(0, -1), 1, -1, 1e-300, -1e-300, 5e-324, 0.5, -0.5,
	708, -708, math.Nextafter(-708, 0), math.Nextafter(-708, -1000), 709, math.Nextafter(709, 0),
	math.Nextafter(709, 1000), 709.5, 710, -709, -720, -740, -745, -745.2, -746, -1000,
	1e300, -1e300, math.MaxFloat64, -math.MaxFloat64, math.Inf(1), math.Inf(-1),
	math.NaN(), math.Float64frombits(0x7ff8_0000_dead_beef), math.Float64frombits(0xfff0_0000_0000_0001),
	0x1p-1074 * 3, 44.36, -44.36, 0.00541, -0.00541, 1.0 / 128 * math.Ln2, -1.0 / 128 * math.Ln2,
}

// softmaxGo is Softmax made of the Go forms alone.
func softmaxGo(dst, z []float64) float64 {
	m := maxGo(z)
	s := expShiftSumGo(dst, z, m)
	scaleGo(dst, 1/s)
	return m + math.Log(s)
}

// sameBits reports whether a and b have the same bits, or are both NaN: Go
// does not define which operand's NaN payload a sum carries (the compiler
// may swap the operands of an addition), so neither does Softmax.
func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b
}

// inputs returns test vectors of every length 0 … 20 and some long ones,
// with edge values and random values at every position.
func inputs(rng *rand.Rand) [][]float64 {
	var out [][]float64
	random := func(n int, spread float64) []float64 {
		z := make([]float64, n)
		for i := range z {
			z[i] = spread * rng.NormFloat64()
		}
		return z
	}
	for n := range 21 {
		for _, spread := range []float64{1, 30, 400} {
			out = append(out, random(n, spread))
		}
		// Each edge value at each position of a random vector.
		for _, e := range edges {
			for pos := range n {
				z := random(n, 5)
				z[pos] = e
				out = append(out, z)
			}
		}
	}
	for _, n := range []int{64, 1000, 1003} {
		for _, spread := range []float64{1, 30, 400, 1e4} {
			out = append(out, random(n, spread))
		}
		z := random(n, 3)
		for i := range z {
			if rng.IntN(7) == 0 {
				z[i] = edges[rng.IntN(len(edges))]
			}
		}
		out = append(out, z)
	}
	// All edges together, in several orders.
	for range 20 {
		z := append([]float64(nil), edges...)
		rng.Shuffle(len(z), func(i, j int) { z[i], z[j] = z[j], z[i] })
		out = append(out, z)
	}
	return out
}

// TestExpShiftSumBits compares expShiftSum with expShiftSumGo, for shifts
// m at the edges too (m = 0 gives Exp itself).
func TestExpShiftSumBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	shifts := append([]float64{3.25, -17, 1e-9}, edges...)
	for _, z := range inputs(rng) {
		for _, m := range shifts {
			got, want := make([]float64, len(z)), make([]float64, len(z))
			sGot, sWant := expShiftSum(got, z, m), expShiftSumGo(want, z, m)
			if !sameBits(sGot, sWant) {
				t.Fatalf("z=%v m=%v: sum %v (%#x), want %v (%#x)", z, m, sGot, math.Float64bits(sGot), sWant, math.Float64bits(sWant))
			}
			for i := range got {
				if !sameBits(got[i], want[i]) {
					t.Fatalf("z=%v m=%v: e[%d] = %v (%#x), want %v (%#x)", z, m, i, got[i], math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
				}
			}
		}
	}
}

// TestExpShiftSumRandom compares expShiftSum with Exp on a million random
// arguments over Exp's whole domain, one vector at a time.
func TestExpShiftSumRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	x, got := make([]float64, 1000), make([]float64, 1000)
	for range 1000 {
		for i := range x {
			switch i % 3 {
			case 0:
				x[i] = (rng.Float64()*2 - 1) * 760
			case 1:
				x[i] = -50 * rng.Float64()
			case 2:
				x[i] = (rng.Float64()*2 - 1) * 1e-3
			}
		}
		expShiftSum(got, x, 0)
		for i, v := range x {
			if want := Exp(v); !sameBits(got[i], want) {
				t.Fatalf("Exp(%v): kernel %v, Go form %v", v, got[i], want)
			}
		}
	}
}

// TestMaxOf compares maxOf with maxGo: the same value, NaN payload
// included, except that a zero maximum may have either sign (which
// changes no result of Softmax: e^(±0) = 1 and ±0 + log s = +0 + log s
// for s ≥ 1).
func TestMaxOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, z := range inputs(rng) {
		if len(z) == 0 {
			continue
		}
		got, want := maxOf(z), maxGo(z)
		if !sameBits(got, want) && !(got == 0 && want == 0) {
			t.Fatalf("max %v = %v, want %v", z, got, want)
		}
	}
}

// TestSoftmax2Bits compares Softmax2 with softmaxGo on each of its two
// rows, bit for bit, in place and not: every input of inputs is paired
// with every input of the same length (so that an argument out of the
// kernel's range in one row sends the block of both rows to the scalar
// form), and the rows of 1000 entries also with out-of-range values at
// every position of one block.
func TestSoftmax2Bits(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	byLen := map[int][][]float64{}
	for _, z := range inputs(rng) {
		if len(z) > 0 {
			byLen[len(z)] = append(byLen[len(z)], z)
		}
	}
	for pos := 992; pos < 1000; pos++ {
		z := make([]float64, 1000)
		for i := range z {
			z[i] = rng.NormFloat64()
		}
		z[pos] = -800 // below expMin: Exp's math.Exp path (e^(z − m) is 0)
		byLen[1000] = append(byLen[1000], z)
	}
	check := func(z0, z1 []float64) {
		t.Helper()
		n := len(z0)
		w0, w1 := make([]float64, n), make([]float64, n)
		l0Want, l1Want := softmaxGo(w0, z0), softmaxGo(w1, z1)
		g0, g1 := make([]float64, n), make([]float64, n)
		l0, l1 := Softmax2(g0, g1, z0, z1)
		i0, i1 := append([]float64(nil), z0...), append([]float64(nil), z1...)
		li0, li1 := Softmax2(i0, i1, i0, i1)
		if !sameBits(l0, l0Want) || !sameBits(l1, l1Want) || !sameBits(li0, l0Want) || !sameBits(li1, l1Want) {
			t.Fatalf("z0=%v z1=%v: log-partitions %v %v, in place %v %v, want %v %v", z0, z1, l0, l1, li0, li1, l0Want, l1Want)
		}
		for i := range n {
			if !sameBits(g0[i], w0[i]) || !sameBits(i0[i], w0[i]) || !sameBits(g1[i], w1[i]) || !sameBits(i1[i], w1[i]) {
				t.Fatalf("z0=%v z1=%v: entry %d: %v %v (in place %v %v), want %v %v", z0, z1, i, g0[i], g1[i], i0[i], i1[i], w0[i], w1[i])
			}
		}
	}
	pairs := 0
	for _, zs := range byLen {
		for a := range zs {
			// Each input against a few others of its length, both ways.
			for k := range min(len(zs), 4) {
				check(zs[a], zs[(a+k)%len(zs)])
				pairs++
			}
		}
	}
	if pairs < 1000 {
		t.Fatalf("only %d pairs checked", pairs)
	}
	if l0, l1 := Softmax2(nil, nil, nil, nil); !math.IsInf(l0, -1) || !math.IsInf(l1, -1) {
		t.Fatalf("empty rows: %v %v, want -Inf (as Softmax)", l0, l1)
	}
}

// TestSoftmaxBits compares Softmax with softmaxGo bit for bit, results and
// log-partition, in place and not.
func TestSoftmaxBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, z := range inputs(rng) {
		if len(z) == 0 {
			continue
		}
		got, want := make([]float64, len(z)), make([]float64, len(z))
		lGot, lWant := Softmax(got, z), softmaxGo(want, z)
		inPlace := append([]float64(nil), z...)
		lIn := Softmax(inPlace, inPlace)
		if !sameBits(lGot, lWant) || !sameBits(lIn, lWant) {
			t.Fatalf("z=%v: log-partition %v, in place %v, want %v", z, lGot, lIn, lWant)
		}
		for i := range got {
			if !sameBits(got[i], want[i]) || !sameBits(inPlace[i], want[i]) {
				t.Fatalf("z=%v: p[%d] = %v (%#x), in place %v, want %v (%#x)", z, i, got[i], math.Float64bits(got[i]), inPlace[i], want[i], math.Float64bits(want[i]))
			}
		}
	}
}

// BenchmarkSoftmax times Softmax on rows of 1000 logits (the synthetic
// training benchmark's label count), and Softmax2 on two such rows.
func BenchmarkSoftmax(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	z, p := make([]float64, 1000), make([]float64, 1000)
	for i := range z {
		z[i] = 3 * rng.NormFloat64()
	}
	b.Run("kernel", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink = Softmax(p, z)
		}
	})
	b.Run("go", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink = softmaxGo(p, z)
		}
	})
	// Two rows a call: the time per row, for comparison with kernel.
	z1, p1 := make([]float64, 1000), make([]float64, 1000)
	for i := range z1 {
		z1[i] = 3 * rng.NormFloat64()
	}
	b.Run("pair", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink, _ = Softmax2(p, p1, z, z1)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N), "ns/row")
	})
}
