package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
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
	{2, splitRows, true}, {3, splitRows, false}, {2, splitCols, true}, {3, splitCols, false},
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

func compareC(t *testing.T, what string, got, want []float32, ldc int) {
	t.Helper()
	for x := range want {
		if math.Float32bits(got[x]) != math.Float32bits(want[x]) {
			t.Fatalf("%s: C(%d, %d) = %v, reference %v", what, x/ldc, x%ldc, got[x], want[x])
		}
	}
}

// TestMulSmallShapes compares Mul with the reference on every m ≤ 2·mr+1
// and n ≤ 2·nr+1, for depths up to a few, both transposes and accumulate
// on and off, each in three of the configurations (taken in turn), with
// loops cut into parts of a single panel, so that even these shapes are
// split.
func TestMulSmallShapes(t *testing.T) {
	defer func(f int) { minPartFlops = f }(minPartFlops)
	minPartFlops = 1
	rng := rand.New(rand.NewPCG(5, 6))
	for m := 0; m <= 2*mr+1; m++ {
		for n := 0; n <= 2*nr+1; n++ {
			for _, k := range []int{0, 1, 2, 3, 5, 8, 9} {
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

// TestMulRandomShapes compares Mul with the reference on random shapes up
// to a few hundred in each dimension, past the blockings mc and kc.
func TestMulRandomShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	runs := 60
	if testing.Short() {
		runs = 15
	}
	for range runs {
		s := shape{m: 1 + rng.IntN(300), n: 1 + rng.IntN(300), k: 1 + rng.IntN(700),
			transA: rng.IntN(2) == 0, transB: rng.IntN(2) == 0, accumulate: rng.IntN(2) == 0, pad: rng.IntN(20)}
		checkShape(t, rng, s, configs)
	}
}
