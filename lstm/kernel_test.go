package lstm

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// randSlice returns n values drawn to exercise the kernels: mostly normal
// with scale s, some huge (saturating the gates), some tiny (flushed) and
// some zero of either sign.
func randSlice(rng *rand.Rand, n int, s float64) []float32 {
	x := make([]float32, n)
	for i := range x {
		switch k := rng.IntN(40); {
		case k == 0:
			x[i] = float32(rng.NormFloat64() * 200)
		case k == 1:
			x[i] = float32(rng.NormFloat64() * 0x1p-62)
		case k == 2:
			x[i] = float32(math.Copysign(0, rng.NormFloat64()))
		default:
			x[i] = float32(rng.NormFloat64() * s)
		}
	}
	return x
}

// TestCellKernelsMatchReference runs the cell kernels in use (AVX2 where
// the processor has it) and the Go references on the same random inputs,
// for widths below, at and between multiples of 8, with and without a
// previous cell state, and compares every output bit for bit.
func TestCellKernelsMatchReference(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 kernels in this build")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, H := range []int{8, 9, 15, 16, 17, 40, 200, 203} {
		for _, rows := range []int{1, 3, 7} {
			for _, prev := range []bool{false, true} {
				g := randSlice(rng, rows*4*H, 3)
				bias := randSlice(rng, 4*H, 1)
				var cp []float32
				if prev {
					cp = randSlice(rng, rows*H, 2)
				}
				// Forward.
				g1, g2 := slices.Clone(g), slices.Clone(g)
				c1, tc1, h1 := make([]float32, rows*H), make([]float32, rows*H), make([]float32, rows*H)
				c2, tc2, h2 := make([]float32, rows*H), make([]float32, rows*H), make([]float32, rows*H)
				cellForward(rows, H, g1, bias, cp, c1, tc1, h1)
				cellForwardGo(rows, H, g2, bias, cp, c2, tc2, h2)
				for name, p := range map[string][2][]float32{"gates": {g1, g2}, "c": {c1, c2}, "tc": {tc1, tc2}, "h": {h1, h2}} {
					if i := firstDiff(p[0], p[1]); i >= 0 {
						t.Fatalf("forward H=%d rows=%d prev=%v: %s[%d] = %v, reference %v", H, rows, prev, name, i, p[0][i], p[1][i])
					}
				}
				// Backward, from the gates and states of the forward pass.
				dh := randSlice(rng, rows*H, 1)
				dc := randSlice(rng, rows*H, 1)
				gb1, gb2 := slices.Clone(g1), slices.Clone(g1)
				dc1, dc2 := slices.Clone(dc), slices.Clone(dc)
				cellBackward(rows, H, gb1, cp, tc1, dh, dc1)
				cellBackwardGo(rows, H, gb2, cp, tc1, dh, dc2)
				for name, p := range map[string][2][]float32{"gradients": {gb1, gb2}, "dc": {dc1, dc2}} {
					if i := firstDiff(p[0], p[1]); i >= 0 {
						t.Fatalf("backward H=%d rows=%d prev=%v: %s[%d] = %v, reference %v", H, rows, prev, name, i, p[0][i], p[1][i])
					}
				}
			}
		}
	}
}

// firstDiff returns the first index where a and b differ in their bits, or
// −1.
func firstDiff(a, b []float32) int {
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return i
		}
	}
	return -1
}

// TestExpKernelEdges runs the forward kernel on gate inputs at the edges of
// expf (the clamp at ±80, the rounding of n, ±0, infinities,
// subnormals) through the AVX2 and AVX-512 paths and the reference.
func TestExpKernelEdges(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 kernels in this build")
	}
	// Eight units go through the AVX2 kernel, sixteen through the AVX-512
	// one where the processor has it.
	for _, H := range []int{8, 16} {
		edges := []float32{-80, 80, -80.5, 80.5, 40, -40, 0.3465736, -0.3465736, 0, float32(math.Copysign(0, -1)), 1e-30, -1e-30, 88, -88, 1e30, -1e30, 44.4, -44.4,
			float32(math.Inf(1)), float32(math.Inf(-1)), 1e-39, -1e-39}
		for len(edges)%(4*H) != 0 {
			edges = append(edges, 0.5)
		}
		rows := len(edges) / (4 * H)
		bias := make([]float32, 4*H)
		g1, g2 := slices.Clone(edges), slices.Clone(edges)
		c1, tc1, h1 := make([]float32, rows*H), make([]float32, rows*H), make([]float32, rows*H)
		c2, tc2, h2 := make([]float32, rows*H), make([]float32, rows*H), make([]float32, rows*H)
		cellForward(rows, H, g1, bias, nil, c1, tc1, h1)
		cellForwardGo(rows, H, g2, bias, nil, c2, tc2, h2)
		if i := firstDiff(g1, g2); i >= 0 {
			t.Errorf("H=%d: gate %d (input %v): %v, reference %v", H, i, edges[i], g1[i], g2[i])
		}
		for name, p := range map[string][2][]float32{"c": {c1, c2}, "tc": {tc1, tc2}, "h": {h1, h2}} {
			if i := firstDiff(p[0], p[1]); i >= 0 {
				t.Errorf("H=%d: %s[%d] = %v, reference %v", H, name, i, p[0][i], p[1][i])
			}
		}
	}
}

// BenchmarkCell times one time step of the cell for 100 rows of 200 units
// (the paper's sizes), forward and backward, with the kernels in use and
// with the Go references.
func BenchmarkCell(b *testing.B) {
	const rows, H = 100, 200
	rng := rand.New(rand.NewPCG(1, 2))
	g := randSlice(rng, rows*4*H, 2)
	bias := randSlice(rng, 4*H, 1)
	cp := randSlice(rng, rows*H, 1)
	c, tc, h := make([]float32, rows*H), make([]float32, rows*H), make([]float32, rows*H)
	dh, dc := randSlice(rng, rows*H, 1), randSlice(rng, rows*H, 1)
	work := make([]float32, len(g))
	for _, k := range []struct {
		name     string
		fwd      func(rows, H int, g, bias, cp, c, tc, h []float32)
		bwd      func(rows, H int, g, cp, tc, dh, dc []float32)
		disabled bool
	}{
		{"kernel", cellForward, cellBackward, !useAVX2},
		{"go", cellForwardGo, cellBackwardGo, false},
	} {
		if k.disabled {
			continue
		}
		b.Run(k.name+"/forward", func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				copy(work, g)
				k.fwd(rows, H, work, bias, cp, c, tc, h)
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(rows*H), "ns/unit")
		})
		b.Run(k.name+"/backward", func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				copy(work, g)
				k.bwd(rows, H, work, cp, tc, dh, dc)
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(rows*H), "ns/unit")
		})
	}
}
