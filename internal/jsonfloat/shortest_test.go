package jsonfloat

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// sameAsStrconv fails unless AppendShortest writes v as
// strconv.AppendFloat(…, 'g', -1, 64) does, after the bytes of dst.
func sameAsStrconv(tb testing.TB, v float64) {
	tb.Helper()
	dst := []byte("x\t")
	got := string(AppendShortest(dst, v))
	want := string(strconv.AppendFloat(dst, v, 'g', -1, 64))
	if got != want {
		tb.Fatalf("%v (bits %#x): AppendShortest gives %q, strconv %q", v, math.Float64bits(v), got, want)
	}
}

// TestAppendShortest checks AppendShortest against strconv, the
// reference, on both signs of: the special values; every power of two
// (the significands whose lower bound is nearer) and its neighbours; the
// powers of ten and their neighbours; the subnormals of the smallest and
// largest significands; integers, where the form changes from %f to %e
// and at 2^53; the bounds of the %f form (1e-4, 1e6); and random bits and
// random numbers in [0, 100).
func TestAppendShortest(t *testing.T) {
	check := func(v float64) {
		sameAsStrconv(t, v)
		sameAsStrconv(t, -v)
	}
	for _, v := range []float64{0, 1, 2, 0.5, 0.1, 0.3, 1e6, 999999, 1e6 + 1, 123456, 1234567, 1e-5, 1e-4, 0.0001234, 0.00001234,
		5e-324, 1e-323, 1.5e-323, math.MaxFloat64, math.SmallestNonzeroFloat64, 2.2250738585072014e-308, 2.225073858507201e-308,
		1e23, 9007199254740992, 9007199254740993, 9007199254740994, 1 << 63, 1e21, 1e22, math.Inf(1), math.NaN(), 51.20351841010106} {
		check(v)
	}
	for e := -1074; e <= 1023; e++ {
		p := math.Ldexp(1, e)
		check(p)
		check(math.Nextafter(p, 0))
		check(math.Nextafter(p, math.Inf(1)))
	}
	for e := -325; e <= 309; e++ {
		p, err := strconv.ParseFloat("1e"+strconv.Itoa(e), 64)
		if err != nil && p == 0 {
			continue
		}
		check(p)
		check(math.Nextafter(p, 0))
		check(math.Nextafter(p, math.Inf(1)))
	}
	for s := range uint64(100_000) {
		check(math.Float64frombits(s))
		check(math.Float64frombits(1<<52 - 1 - s))
	}
	for i := range 2_000_000 {
		check(float64(i))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1_000_000 {
		check(math.Float64frombits(rng.Uint64()))
		check(rng.Float64() * 100)
		check(float64(rng.Uint64() >> 11))
	}
}

// FuzzAppendShortest checks AppendShortest against strconv on any bits.
func FuzzAppendShortest(f *testing.F) {
	for _, u := range []uint64{0, 1, 3, 1 << 52, 0x7ff0000000000000, 0x4049999999999999, 0x3ff0000000000001} {
		f.Add(u)
	}
	f.Fuzz(func(t *testing.T, u uint64) {
		sameAsStrconv(t, math.Float64frombits(u))
	})
}

// BenchmarkAppendShortest formats distances of the size twl distance
// writes (random numbers in [0, 100), most of 16 or 17 digits), with
// AppendShortest and, as the baseline, strconv.
func BenchmarkAppendShortest(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	vs := make([]float64, 4096)
	for i := range vs {
		vs[i] = rng.Float64() * 100
	}
	for _, c := range []struct {
		name string
		f    func([]byte, float64) []byte
	}{
		{"jsonfloat", AppendShortest},
		{"strconv", func(b []byte, v float64) []byte { return strconv.AppendFloat(b, v, 'g', -1, 64) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]byte, 0, 32*len(vs))
			for b.Loop() {
				buf = buf[:0]
				for _, v := range vs {
					buf = c.f(buf, v)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(vs)), "ns/number")
		})
	}
}
