package tw

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// sweepParents returns breadth-first parent arrays to test the sweeps on:
// random trees (whose narrow first and last levels put parents inside
// four-position blocks), a chain (every block), a star and a binary heap.
func sweepParents() [][]int32 {
	var out [][]int32
	for _, n := range []int{2, 3, 5, 8, 17, 100, 1000} {
		out = append(out, tree.Random(n, rand.NewPCG(uint64(n), 3)).BreadthFirst().Order().Parent)
	}
	for _, f := range []func(k int) int{
		func(k int) int { return k - 1 },
		func(k int) int { return 0 },
		func(k int) int { return (k - 1) / 2 },
	} {
		par := make([]int32, 37)
		par[0] = -1
		for k := 1; k < len(par); k++ {
			par[k] = int32(f(k))
		}
		out = append(out, par)
	}
	return out
}

// TestSweepKernels checks the sweeps that run on this platform (assembly on
// amd64: AVX2 where the processor has it, and the one-position forms) against
// their Go forms in sweep.go, bit for bit, on the parent arrays of
// sweepParents with and without a virtual root, unit and random weights, and
// differences that are exactly zero (equal masses).
func TestSweepKernels(t *testing.T) {
	for _, vec := range []bool{true, false} {
		testSweepKernels(t, vec)
	}
}

func testSweepKernels(t *testing.T, vec bool) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, par := range sweepParents() {
		n := len(par)
		for _, off := range []int{0, 1} {
			m := n - off // user vector length
			a := make([]float64, m)
			b := make([]float64, m)
			wt := make([]float64, n)
			for i := range a {
				switch rng.IntN(4) {
				case 0: // equal masses: zero difference
					a[i] = rng.Float64()
					b[i] = a[i]
				case 1:
					a[i], b[i] = 0, 0
				default:
					a[i], b[i] = rng.Float64(), rng.Float64()
				}
			}
			for k := 1; k < n; k++ {
				wt[k] = rng.Float64() * 3
			}
			wt[min(1, n-1)] = 0 // a zero weight

			for _, weighted := range []bool{false, true} {
				d1 := make([]float64, n)
				d2 := make([]float64, n)
				var s1, s2 float64
				// In two ranges, as a split sweeps: [mid, n), then [1, mid),
				// carrying the sum.
				mid := 1 + rng.IntN(n)
				if weighted {
					s1 = upWeighted(d1, a, b, wt, par, off, mid, n, 0.25, vec)
					s1 = upWeighted(d1, a, b, wt, par, off, 1, mid, s1, vec)
					s2 = upWeightedGo(d2, a, b, wt, par, off, mid, n, 0.25)
					s2 = upWeightedGo(d2, a, b, wt, par, off, 1, mid, s2)
				} else {
					s1 = upUnit(d1, a, b, par, off, mid, n, 0.25, vec)
					s1 = upUnit(d1, a, b, par, off, 1, mid, s1, vec)
					s2 = upUnitGo(d2, a, b, par, off, mid, n, 0.25)
					s2 = upUnitGo(d2, a, b, par, off, 1, mid, s2)
				}
				if math.Float64bits(s1) != math.Float64bits(s2) {
					t.Fatalf("vec=%v n=%d off=%d weighted=%v: up sum %v, Go %v", vec, n, off, weighted, s1, s2)
				}
				sameBits(t, "up d", d1[1:], d2[1:])

				// Both output forms of the down sweep.
				for _, withG := range []bool{false, true} {
					p1 := append([]float64(nil), d1...)
					p2 := append([]float64(nil), d1...)
					p1[0], p2[0] = 0, 0
					var g1, g2 []float64
					if withG {
						g1 = make([]float64, n-1)
						g2 = make([]float64, n-1)
					}
					// In place, as Workspace.down calls it below a virtual root.
					for _, r := range [][2]int{{1, mid}, {mid, n}} {
						if weighted {
							downWeighted(p1, p1, g1, wt, par, r[0], r[1], vec)
							downWeightedGo(p2, p2, g2, wt, par, r[0], r[1])
						} else {
							downUnit(p1, p1, g1, par, 0.5, r[0], r[1], vec)
							downUnitGo(p2, p2, g2, par, 0.5, r[0], r[1])
						}
					}
					sameBits(t, "down p", p1, p2)
					sameBits(t, "down g", g1, g2)
					if withG {
						continue
					}
					// Into a separate p, as Workspace.down calls it without
					// a virtual root: the differences read are zeroed.
					q1 := make([]float64, n)
					q2 := make([]float64, n)
					e1 := append([]float64(nil), d1...)
					e2 := append([]float64(nil), d1...)
					if weighted {
						downWeighted(q1, e1, nil, wt, par, 1, n, vec)
						downWeightedGo(q2, e2, nil, wt, par, 1, n)
					} else {
						downUnit(q1, e1, nil, par, 0.5, 1, n, vec)
						downUnitGo(q2, e2, nil, par, 0.5, 1, n)
					}
					sameBits(t, "down p", q1, q2)
					sameBits(t, "down p", q1, p1)
					sameBits(t, "zeroed d", e1, e2)
					for k := 1; k < n; k++ {
						if e1[k] != 0 {
							t.Fatalf("d[%d] = %v after the downward sweep, want 0", k, e1[k])
						}
					}
				}
			}
		}
	}
}

func sameBits(t *testing.T, what string, x, y []float64) {
	t.Helper()
	if len(x) != len(y) {
		t.Fatalf("%s: lengths %d, %d", what, len(x), len(y))
	}
	for i := range x {
		if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
			t.Fatalf("%s[%d] = %v, Go form %v", what, i, x[i], y[i])
		}
	}
}

// TestSignedWeight checks w·sign(x) at the special values, against the
// definition: 0 at ±0, ±w elsewhere (and for NaN, as the assembly's
// unordered compare gives).
func TestSignedWeight(t *testing.T) {
	for _, c := range []struct{ w, x, want float64 }{
		{2, 3, 2}, {2, -3, -2}, {2, 0, 0}, {2, math.Copysign(0, -1), 0},
		{2, 5e-324, 2}, {2, -5e-324, -2}, {0, 1, 0}, {0, -1, math.Copysign(0, -1)},
		{1.5, math.Inf(1), 1.5}, {1.5, math.Inf(-1), -1.5},
	} {
		if got := signedWeight(c.w, c.x); math.Float64bits(got) != math.Float64bits(c.want) {
			t.Errorf("signedWeight(%v, %v) = %v, want %v", c.w, c.x, got, c.want)
		}
	}
	if got := signedWeight(2, math.NaN()); math.Abs(got) != 2 {
		t.Errorf("signedWeight(2, NaN) = %v, want ±2", got)
	}
}
