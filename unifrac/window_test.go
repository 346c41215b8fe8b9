package unifrac

import (
	"math"
	"math/rand/v2"
	"testing"
)

// winCase returns the entries of a branch in a block: each of the block's
// samples with probability density, with a random value (some equal, some
// tiny).
func winCase(rng *rand.Rand, density float64) ([]uint8, []float64) {
	var loc []uint8
	var val []float64
	for s := range blockSize {
		if rng.Float64() < density {
			loc = append(loc, uint8(s))
			v := rng.ExpFloat64()
			switch rng.IntN(8) {
			case 0:
				v = 0.5
			case 1:
				v *= 1e-300
			}
			val = append(val, v)
		}
	}
	return loc, val
}

// TestMinWin checks minWin (the assembly kernel where there is one) and
// minWinGo against addMins, the definition, bit for bit: on the pairs of a
// branch's entries (tri) and on two blocks' entries, at densities from a
// few samples per window to full windows, onto sums that are not zero.
func TestMinWin(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, d := range []float64{0.02, 0.1, 0.3, 0.6, 0.95, 1} {
		for _, tri := range []bool{true, false} {
			cl, cv := winCase(rng, d)
			rl, rv := cl, cv
			if !tri {
				rl, rv = winCase(rng, rng.Float64())
			}
			if len(cl) == 0 || len(rl) == 0 {
				continue
			}
			var win [blockSize / 8]uint64
			nw := windows(&win, cl)
			want := make([]float64, blockSize*blockSize)
			for k := range want {
				want[k] = rng.Float64()
			}
			got := append([]float64(nil), want...)
			ref := append([]float64(nil), want...)
			for r, x := range rl {
				if tri {
					addMins(want, x, rv[r], cl[r+1:], cv[r+1:])
				} else {
					addMins(want, x, rv[r], cl, cv)
				}
			}
			minWin(got, rl, rv, win[:nw], cv, tri)
			minWinGo(ref, rl, rv, win[:nw], cv, tri)
			for k := range want {
				if math.Float64bits(got[k]) != math.Float64bits(want[k]) || math.Float64bits(ref[k]) != math.Float64bits(want[k]) {
					t.Fatalf("density %g, tri %v: sum %d = %v (Go form %v), addMins %v", d, tri, k, got[k], ref[k], want[k])
				}
			}
		}
	}
}

// TestWindows checks the windows of a set of entries against their
// definition, bit by bit.
func TestWindows(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for range 50 {
		loc, _ := winCase(rng, rng.Float64())
		var win [blockSize / 8]uint64
		nw := windows(&win, loc)
		t0 := 0
		for _, w := range win[:nw] {
			mask, load := int(w&0xFF), int(w>>8&0xFF)
			s, first := int(uint32(w)>>19), int(w>>35)
			if s%8 != 0 || first != t0 || mask == 0 {
				t.Fatalf("window %#x: start %d, first entry %d (want %d)", w, s, first, t0)
			}
			c := 0
			for b := range 8 {
				if mask>>b&1 == 1 {
					if int(loc[t0+c]) != s+b {
						t.Fatalf("window %#x: bit %d, entry %d is sample %d", w, b, t0+c, loc[t0+c])
					}
					c++
				}
			}
			if load != 1<<c-1 {
				t.Fatalf("window %#x: load mask %#x for %d entries", w, load, c)
			}
			t0 += c
		}
		if t0 != len(loc) {
			t.Fatalf("windows hold %d entries of %d", t0, len(loc))
		}
	}
}

// BenchmarkWin times the pairs of a branch's entries in one block by
// windows (minWin) and one at a time (addMins), per pair.
func BenchmarkWin(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, d := range []float64{0.9, 0.5, 0.25} {
		loc, val := winCase(rng, d)
		acc := make([]float64, blockSize*blockSize)
		var win [blockSize / 8]uint64
		nw := windows(&win, loc)
		pairs := float64(len(loc) * (len(loc) - 1) / 2)
		b.Run("windows", func(b *testing.B) {
			for b.Loop() {
				minWin(acc, loc, val, win[:nw], val, true)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/pairs, "ns/pair")
		})
		b.Run("entries", func(b *testing.B) {
			for b.Loop() {
				for p := range loc {
					addMins(acc, loc[p], val[p], loc[p+1:], val[p+1:])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/pairs, "ns/pair")
		})
	}
}

// TestLargestFirst checks that the tiles come once each, by decreasing
// work as sharedWork counts it, and sharedWork against a count of the
// pairs of entries on shared branches by brute force.
func TestLargestFirst(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	const n = 3*blockSize + 17
	var blocks []block
	for lo := 0; lo < n; lo += blockSize {
		var ent entries
		ent.reserve(0, true, false)
		for s := range min(blockSize, n-lo) {
			for br := range int32(40) {
				if rng.IntN(3) == 0 {
					ent.add(br+int32(lo/blockSize)*10, uint8(s), 1, 0)
				}
			}
		}
		var scratch []int32
		blocks = append(blocks, makeBlock(&ent, &scratch))
	}
	brute := func(a, b *block, same bool) int64 {
		var w int64
		for k, x := range a.br {
			for q, y := range b.br {
				if x != y {
					continue
				}
				ma, mb := int64(a.ptr[k+1]-a.ptr[k]), int64(b.ptr[q+1]-b.ptr[q])
				if same {
					w += ma * (ma - 1) / 2
				} else {
					w += ma * mb
				}
			}
		}
		return w
	}
	tiles := largestFirst(blocks, n, 8)
	seen := map[tile]bool{}
	last := int64(-1)
	for _, tl := range tiles {
		a, b := &blocks[tl.bi], &blocks[tl.bj]
		same := tl.bi == tl.bj
		if got, want := sharedWork(a, b, same), brute(a, b, same); got != want {
			t.Fatalf("tile %v: sharedWork %d, brute force %d", tl, got, want)
		}
		rows, cols := int64(min(blockSize, n-int(tl.bi)*blockSize)), int64(min(blockSize, n-int(tl.bj)*blockSize))
		w := sharedWork(a, b, same) + rows*cols*8/4
		if last >= 0 && w > last {
			t.Fatalf("tile %v (work %d) after one of work %d", tl, w, last)
		}
		last = w
		if tl.bi > tl.bj || seen[tl] {
			t.Fatalf("tile %v repeated or below the diagonal", tl)
		}
		seen[tl] = true
	}
	if nb := len(blocks); len(seen) != nb*(nb+1)/2 {
		t.Fatalf("%d tiles, want %d", len(seen), nb*(nb+1)/2)
	}
}
