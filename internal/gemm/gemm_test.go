package gemm

import (
	"fmt"
	"github.com/twl-ldl/twl/internal/race"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// shape is one product to test: C (m×n, leading dimension ldc) from op(A)
// and op(B), with padded leading dimensions when pad > 0.
type shape struct {
	m, n, k        int
	transA, transB bool
	accumulate     bool
	pad            int
}

func (s shape) String() string {
	return fmt.Sprintf("m=%d n=%d k=%d tA=%v tB=%v acc=%v pad=%d", s.m, s.n, s.k, s.transA, s.transB, s.accumulate, s.pad)
}

// operands returns random A, B and C for s with their leading dimensions.
func (s shape) operands(rng *rand.Rand) (a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	ar, acols := s.m, s.k
	if s.transA {
		ar, acols = s.k, s.m
	}
	br, bcols := s.k, s.n
	if s.transB {
		br, bcols = s.n, s.k
	}
	lda, ldb, ldc = max(1, acols+s.pad), max(1, bcols+s.pad), max(1, s.n+s.pad)
	return randMatrix(rng, ar, acols, lda), lda, randMatrix(rng, br, bcols, ldb), ldb, randMatrix(rng, s.m, s.n, ldc), ldc
}

// config is a way to run a product: a worker count, a way of splitting
// the work (forceSplit), and whether the rows of C go through all blocks
// of k before the next rows (wholeB large) or not (wholeB = 0).
type config struct {
	workers, split int
	whole          bool
}

// configs are the ways to run every product of the tests.
var configs = []config{
	{1, splitAuto, true}, {2, splitAuto, true}, {3, splitAuto, true},
	{2, splitRows, true}, {3, splitRows, false}, {2, splitTiles, true}, {3, splitTiles, false},
	{2, splitShared, true}, {3, splitShared, false}, {1, splitRows, false},
}

// checkShape runs s through Mul and MulPacked in each configuration and
// compares every element of C, padding included, bit for bit with mulRef.
func checkShape(t *testing.T, rng *rand.Rand, s shape, cfgs []config) {
	t.Helper()
	defer func(f, b int) { forceSplit, wholeB = f, b }(forceSplit, wholeB)
	whole := wholeB
	a, lda, b, ldb, c0, ldc := s.operands(rng)
	want := slices.Clone(c0)
	mulRef(want, ldc, a, lda, s.transA, b, ldb, s.transB, s.m, s.n, s.k, s.accumulate)
	a0, b0 := slices.Clone(a), slices.Clone(b)
	for _, cf := range cfgs {
		forceSplit, wholeB = cf.split, whole
		if !cf.whole {
			wholeB = 0
		}
		w := NewWorkspace(cf.workers)
		got := slices.Clone(c0)
		w.Mul(got, ldc, a, lda, s.transA, b, ldb, s.transB, s.m, s.n, s.k, s.accumulate)
		compareC(t, fmt.Sprintf("%v %+v Mul", s, cf), got, want, ldc)
		var p Packed
		p.Pack(b, ldb, s.transB, s.k, s.n)
		got = slices.Clone(c0)
		w.MulPacked(got, ldc, a, lda, s.transA, &p, s.m, s.accumulate)
		compareC(t, fmt.Sprintf("%v %+v MulPacked", s, cf), got, want, ldc)
	}
	if !slices.Equal(a, a0) || !slices.Equal(b, b0) {
		t.Fatalf("%v: inputs modified", s)
	}
}

// compareC fails the test at the first element of got whose bits differ
// from want's.
func compareC(t *testing.T, what string, got, want []float32, ldc int) {
	t.Helper()
	for x := range want {
		if math.Float32bits(got[x]) != math.Float32bits(want[x]) {
			t.Fatalf("%s: C(%d, %d) = %v, reference %v", what, x/ldc, x%ldc, got[x], want[x])
		}
	}
}

// TestMulSmallShapes compares Mul with the reference on every m ≤ 2·mr+1,
// n ≤ 2·nr+1 and k ≤ 9 (the kernel's loop does four steps at a time), both
// transposes and accumulate
// on and off, each in three of the configurations (taken in turn), with
// loops cut into parts of a single panel, so that even these shapes are
// split.
func TestMulSmallShapes(t *testing.T) {
	defer func(f int) { minPartFlops = f }(minPartFlops)
	minPartFlops = 1
	rng := rand.New(rand.NewPCG(5, 6))
	for m := 0; m <= 2*mr+1; m++ {
		for n := 0; n <= 2*nr+1; n++ {
			for k := range 10 {
				for v := range 4 {
					s := shape{m: m, n: n, k: k, transA: v&1 != 0, transB: v&2 != 0, accumulate: rng.IntN(2) == 0, pad: rng.IntN(3)}
					x := 3 * ((m*(2*nr+2)+n)*4 + v) % len(configs)
					checkShape(t, rng, s, []config{configs[x], configs[(x+1)%len(configs)], configs[(x+2)%len(configs)]})
				}
			}
		}
	}
}

// TestMulDepths compares Mul with the reference for depths around the
// block depth kc and its multiples, where the sums over k are cut.
func TestMulDepths(t *testing.T) {
	defer func(f int) { minPartFlops = f }(minPartFlops)
	minPartFlops = 1
	rng := rand.New(rand.NewPCG(7, 8))
	for _, k := range []int{kc - 1, kc, kc + 1, 2*kc - 1, 2 * kc, 2*kc + 1, 3*kc + 7} {
		for _, mn := range [][2]int{{1, 1}, {mr, nr}, {mr + 1, nr + 1}, {2*mr + 1, 2*nr + 1}, {13, 40}} {
			for v := range 8 {
				s := shape{m: mn[0], n: mn[1], k: k, transA: v&1 != 0, transB: v&2 != 0, accumulate: v&4 != 0, pad: 3}
				checkShape(t, rng, s, configs)
			}
		}
	}
}

// TestMulWide compares Mul with the reference for C wider than nc, the
// columns done in one pass.
func TestMulWide(t *testing.T) {
	defer func(f int) { minPartFlops = f }(minPartFlops)
	minPartFlops = 1
	rng := rand.New(rand.NewPCG(23, 24))
	for _, n := range []int{nc + 1, 2*nc + nr + 3} {
		for _, m := range []int{1, mr + 1} {
			for v := range 8 {
				k := 3
				if v == 7 {
					k = kc + 1
				}
				s := shape{m: m, n: n, k: k, transA: v&1 != 0, transB: v&2 != 0, accumulate: v&4 != 0, pad: 1}
				cfgs := configs
				if testing.Short() || race.Enabled {
					cfgs = configs[:4] // one, two and three workers, two splits
				}
				checkShape(t, rng, s, cfgs)
			}
		}
	}
}

// TestMulRandomShapes compares Mul with the reference on random shapes up
// to a few hundred in each dimension, past the blockings mc and kc.
func TestMulRandomShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	runs := 60
	if testing.Short() || race.Enabled || !useAVX2 {
		runs = 12
	}
	for range runs {
		s := shape{m: 1 + rng.IntN(300), n: 1 + rng.IntN(300), k: 1 + rng.IntN(700),
			transA: rng.IntN(2) == 0, transB: rng.IntN(2) == 0, accumulate: rng.IntN(2) == 0, pad: rng.IntN(20)}
		checkShape(t, rng, s, configs)
	}
}

// lstmShapes are the products of the LSTM text classifier (batch 100,
// hidden 200, gates 800, embedding 100, T·B = 20000 tokens; see
// bench_test.go), with tokens rows, usually 20000.
func lstmShapes(tokens int) []shape {
	return []shape{
		{m: 100, n: 800, k: 200, transB: true, accumulate: true}, // recurrent forward
		{m: 100, n: 200, k: 800},                                 // recurrent backward
		{m: tokens, n: 800, k: 100, transB: true},                // input projection
		{m: 800, n: 200, k: tokens, transA: true, accumulate: true},
		{m: 800, n: 100, k: tokens, transA: true, accumulate: true}, // weight gradients
		{m: tokens, n: 100, k: 800},                                 // input gradient
		{m: 100, n: 200, k: 200, transB: true},                      // fully connected
		{m: 37, n: 200, k: 200, transB: true},
	}
}

// TestMulLSTMShapes runs the LSTM's shapes in every configuration (the
// largest, and all without the assembly kernel, in four) and requires the same bits from all, and the
// reference's bits on a sample of elements (the reference in Go takes
// minutes on all of them). With -short the token count is 2000; without
// the assembly kernel (whose Go form runs at about 1 GFLOPS), 500.
func TestMulLSTMShapes(t *testing.T) {
	defer func(f, b int) { forceSplit, wholeB = f, b }(forceSplit, wholeB)
	whole := wholeB
	tokens := 20000
	if testing.Short() || race.Enabled {
		tokens = 2000
	}
	if !useAVX2 {
		tokens = 500
	}
	few := []config{{1, splitAuto, true}, {2, splitAuto, true}, {3, splitTiles, false}, {3, splitShared, false}}
	rng := rand.New(rand.NewPCG(17, 18))
	for _, s := range lstmShapes(tokens) {
		a, lda, b, ldb, c0, ldc := s.operands(rng)
		var first []float32
		var p Packed
		p.Pack(b, ldb, s.transB, s.k, s.n)
		cfgs := configs
		if s.m*s.n*s.k > 1e8 || !useAVX2 {
			cfgs = few
		}
		for _, cf := range cfgs {
			forceSplit, wholeB = cf.split, whole
			if !cf.whole {
				wholeB = 0
			}
			w := NewWorkspace(cf.workers)
			got := slices.Clone(c0)
			w.Mul(got, ldc, a, lda, s.transA, b, ldb, s.transB, s.m, s.n, s.k, s.accumulate)
			if first == nil {
				first = got
				for range 500 {
					i, j := rng.IntN(s.m), rng.IntN(s.n)
					want := refElement(c0[i*ldc+j], a, lda, s.transA, b, ldb, s.transB, i, j, s.k, s.accumulate)
					if g := got[i*ldc+j]; math.Float32bits(g) != math.Float32bits(want) {
						t.Fatalf("%v: C(%d, %d) = %v, reference %v", s, i, j, g, want)
					}
				}
			} else {
				compareC(t, fmt.Sprintf("%v %+v Mul", s, cf), got, first, ldc)
			}
			got = slices.Clone(c0)
			w.MulPacked(got, ldc, a, lda, s.transA, &p, s.m, s.accumulate)
			compareC(t, fmt.Sprintf("%v %+v MulPacked", s, cf), got, first, ldc)
		}
	}
}

// TestReferenceAccuracy checks the reference order against the exact
// product: the float32 products are exact in float64 and the float64 sum
// of k of them is within k·2⁻⁵³ of the exact sum, negligible here. Any
// order of k fused multiply-adds and the additions into C, each rounded
// once with unit roundoff u = 2⁻²⁴, errs by at most about (k+1)·u·(Σ_p
// |a_ip||b_pj| + |c_ij|) (Higham, Accuracy and Stability of Numerical
// Algorithms, §3.1); the blocked order's bound is smaller, (kc + ⌈k/kc⌉
// + 1)·u·(…), which the test uses.
func TestReferenceAccuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	for _, s := range []shape{
		{m: 7, n: 9, k: 1}, {m: 7, n: 9, k: 100, accumulate: true}, {m: 5, n: 17, k: 1000, transA: true},
		{m: 3, n: 4, k: 20000, transB: true, accumulate: true}, {m: 13, n: 33, k: kc + 1},
	} {
		a, lda, b, ldb, c0, ldc := s.operands(rng)
		got := slices.Clone(c0)
		mulRef(got, ldc, a, lda, s.transA, b, ldb, s.transB, s.m, s.n, s.k, s.accumulate)
		// The Mul under test must equal the reference, so it inherits the
		// bound.
		w := NewWorkspace(0)
		mul := slices.Clone(c0)
		w.Mul(mul, ldc, a, lda, s.transA, b, ldb, s.transB, s.m, s.n, s.k, s.accumulate)
		compareC(t, s.String(), mul, got, ldc)
		gamma := float64(min(s.k, kc)+kBlocks(s.k)+1) * 0x1p-24
		for i := range s.m {
			for j := range s.n {
				var exact, mag float64
				if s.accumulate {
					exact, mag = float64(c0[i*ldc+j]), math.Abs(float64(c0[i*ldc+j]))
				}
				for p := range s.k {
					x := float64(opAt(a, lda, s.transA, i, p)) * float64(opAt(b, ldb, s.transB, p, j))
					exact += x
					mag += math.Abs(x)
				}
				if e := math.Abs(float64(got[i*ldc+j]) - exact); e > gamma*mag {
					t.Fatalf("%v: C(%d, %d) = %v, exact %v: error %.3g > %.3g", s, i, j, got[i*ldc+j], exact, e, gamma*mag)
				}
			}
		}
	}
}

// TestMulAllocs checks that Mul, MulPacked and Pack allocate nothing once
// the workspace and the packed matrix have grown, on one worker and on
// several, in every way of splitting the work.
func TestMulAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	shapes := []shape{
		{m: 100, n: 800, k: 200, transB: true, accumulate: true},
		{m: 100, n: 200, k: 800}, {m: 1000, n: 300, k: 600, transA: true},
		{m: 7, n: 200, k: 200, transB: true},
	}
	if !useAVX2 {
		shapes = []shape{{m: 50, n: 100, k: 300, transB: true}, {m: 7, n: 20, k: 20, transA: true}}
	}
	defer func(f int) { forceSplit = f }(forceSplit)
	for x, workers := range []int{1, 2, 3, 2, 2, 2} {
		forceSplit = max(0, x-2)
		for _, s := range shapes {
			a, lda, b, ldb, c, ldc := s.operands(rng)
			w := NewWorkspace(workers)
			if workers == 3 {
				w = new(Workspace) // the zero value: GOMAXPROCS workers
			}
			var p Packed
			p.Pack(b, ldb, s.transB, s.k, s.n)
			mul := func() { w.Mul(c, ldc, a, lda, s.transA, b, ldb, s.transB, s.m, s.n, s.k, s.accumulate) }
			mulPacked := func() { w.MulPacked(c, ldc, a, lda, s.transA, &p, s.m, s.accumulate) }
			pack := func() { p.Pack(b, ldb, s.transB, s.k, s.n) }
			for name, f := range map[string]func(){"Mul": mul, "MulPacked": mulPacked, "Pack": pack} {
				f()
				if n := testing.AllocsPerRun(5, f); n != 0 {
					t.Errorf("workers=%d split=%d %v: %s allocates %v times a call", workers, forceSplit, s, name, n)
				}
			}
		}
	}
}

// TestMulPanics checks that shape mistakes panic with a "gemm: " message.
func TestMulPanics(t *testing.T) {
	w := NewWorkspace(1)
	s := make([]float32, 100)
	var p Packed
	p.Pack(s, 5, false, 4, 5) // op(B) 4×5
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"negative m", func() { w.Mul(s, 5, s, 5, false, s, 5, false, -1, 5, 5, false) }},
		{"negative k", func() { w.Mul(s, 5, s, 5, false, s, 5, false, 5, 5, -1, false) }},
		{"ldc < n", func() { w.Mul(s, 4, s, 5, false, s, 5, false, 5, 5, 5, false) }},
		{"lda < k", func() { w.Mul(s, 5, s, 4, false, s, 5, false, 5, 5, 5, false) }},
		{"lda < m, transposed", func() { w.Mul(s, 6, s, 5, true, s, 6, false, 6, 6, 5, false) }},
		{"ldb < n", func() { w.Mul(s, 5, s, 5, false, s, 4, false, 5, 5, 5, false) }},
		{"ldb < k, transposed", func() { w.Mul(s, 5, s, 6, false, s, 5, true, 5, 5, 6, false) }},
		{"ld 0 with empty matrix", func() { w.Mul(s, 0, s, 1, false, s, 0, false, 0, 0, 1, false) }},
		{"C short", func() { w.Mul(s[:24], 5, s, 5, false, s, 5, false, 5, 5, 5, false) }},
		{"A short", func() { w.Mul(s, 5, s[:24], 5, false, s, 5, false, 5, 5, 5, false) }},
		{"B short", func() { w.Mul(s, 5, s, 5, false, s[:24], 5, false, 5, 5, 5, false) }},
		{"B short, transposed", func() { w.Mul(s, 10, s, 5, false, s[:44], 5, true, 5, 10, 5, false) }},
		{"packed, A short", func() { w.MulPacked(s, 5, s[:39], 4, false, &p, 10, false) }},
		{"packed, C short", func() { w.MulPacked(s[:49], 5, s, 4, false, &p, 10, false) }},
		{"pack, B short", func() { p.Pack(s[:19], 5, false, 4, 5) }},
		{"pack, negative n", func() { p.Pack(s, 5, false, 4, -1) }},
	} {
		func() {
			defer func() {
				r := recover()
				if msg, ok := r.(string); !ok || !strings.HasPrefix(msg, "gemm: ") {
					t.Errorf("%s: recovered %v, want a \"gemm: \" panic", c.name, r)
				}
			}()
			c.f()
		}()
	}
}
