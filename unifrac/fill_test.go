package unifrac

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// TestFillBlocks compares the sparse blocks fill makes with blocks built
// from each sample's entries found independently: the positions on the
// root paths of the sample's nodes with a nonzero count (climbing the
// parents), of positive length and sparse in the layout; each entry's mass
// is the sum of the proportions of the sample's nodes whose root path
// passes through the branch. The branches, bounds and samples must be the
// same; the values equal up to rounding (they are summed in another
// order).
func TestFillBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, c := range underRace([]struct{ L, n, k int }{{60, 300, 8}, {500, 700, 40}, {3000, 520, 100}}, 2) {
		tr := randomTree(t, rng, c.L)
		tab := randomTable(rng, c.L, c.n, c.k)
		ord := tr.Order()
		for _, m := range []Method{WeightedNormalized, Unweighted, Generalized} {
			for _, frac := range []float64{0.2, 2} {
				p := &prep{o: &ord, m: m, alpha: 0.5, workers: 3}
				p.perm = cladeOrder(&ord, tab, 3, m == Unweighted)
				lay := p.classify(p.reach(tab), tab.Len(), frac)
				sd := p.fill(tab, &lay)
				for b, got := range sd.blocks {
					want := bruteBlock(&ord, tab, &lay, m, p.perm, b*blockSize, min((b+1)*blockSize, tab.Len()))
					if m == Unweighted {
						want = bruteGroups(want)
						for j := range want.bits {
							if got.bits[j] != want.bits[j] {
								t.Fatalf("L %d block %d: entry %d reaches %#x of its group, want %#x", c.L, b, j, got.bits[j], want.bits[j])
							}
						}
					}
					if len(got.br) != len(want.br) || len(got.loc) != len(want.loc) {
						t.Fatalf("L %d %v frac %g block %d: %d branches, %d entries; want %d, %d",
							c.L, m, frac, b, len(got.br), len(got.loc), len(want.br), len(want.loc))
					}
					for k := range want.br {
						if got.br[k] != want.br[k] || got.ptr[k] != want.ptr[k] {
							t.Fatalf("L %d %v block %d: branch %d is %d at %d, want %d at %d", c.L, m, b, k, got.br[k], got.ptr[k], want.br[k], want.ptr[k])
						}
					}
					for j := range want.loc {
						if got.loc[j] != want.loc[j] {
							t.Fatalf("L %d %v block %d: entry %d of sample %d, want %d", c.L, m, b, j, got.loc[j], want.loc[j])
						}
						if (got.val == nil) != (m == Unweighted) || (got.pw == nil) != (m != Generalized) {
							t.Fatalf("%v: values kept %v, terms kept %v", m, got.val != nil, got.pw != nil)
						}
						if got.val != nil && !near(got.val[j], want.val[j]) {
							t.Fatalf("L %d %v block %d entry %d: value %v, want %v", c.L, m, b, j, got.val[j], want.val[j])
						}
						if got.pw != nil && !near(got.pw[j], want.pw[j]) {
							t.Fatalf("L %d %v block %d entry %d: term %v, want %v", c.L, m, b, j, got.pw[j], want.pw[j])
						}
					}
				}
			}
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// bruteGroups returns the block by branch b indexed by group of groupBits
// branches as Unweighted blocks are: for each group holding branches of b,
// in increasing order, the samples reaching any of them, in increasing
// place, each with the bits of the branches it reaches (bit i for branch
// group·groupBits + i), gathered here with a map.
func bruteGroups(b block) block {
	masks := map[int32]map[uint8]groupMask{}
	for k, br := range b.br {
		g := br / groupBits
		if masks[g] == nil {
			masks[g] = map[uint8]groupMask{}
		}
		for j := b.ptr[k]; j < b.ptr[k+1]; j++ {
			masks[g][b.loc[j]] |= 1 << (br % groupBits)
		}
	}
	var out block
	for g := int32(0); len(masks) > 0; g++ {
		ms, ok := masks[g]
		if !ok {
			continue
		}
		delete(masks, g)
		out.br = append(out.br, g)
		out.ptr = append(out.ptr, int32(len(out.loc)))
		for l := 0; l < blockSize; l++ {
			if m, ok := ms[uint8(l)]; ok {
				out.loc = append(out.loc, uint8(l))
				out.bits = append(out.bits, m)
			}
		}
	}
	out.ptr = append(out.ptr, int32(len(out.loc)))
	return out
}

// bruteBlock builds the block of samples perm[lo..hi) from their entries
// found by climbing each node's root path (see TestFillBlocks).
func bruteBlock(o *tree.Order, tab *Table, lay *layout, m Method, perm []int32, lo, hi int) block {
	type entry struct {
		loc     uint8
		val, pw float64
	}
	byBranch := map[int32][]entry{}
	for smp := lo; smp < hi; smp++ {
		s := int(perm[smp])
		var sum float64
		for k := tab.Indptr[s]; k < tab.Indptr[s+1]; k++ {
			sum += tab.Values[k]
		}
		mass := map[int32]float64{}
		for k := tab.Indptr[s]; k < tab.Indptr[s+1]; k++ {
			if tab.Values[k] == 0 {
				continue
			}
			for v := o.Position[tab.Indices[k]]; v > 0; v = o.Parent[v] {
				mass[v] += tab.Values[k] / sum
			}
		}
		for v := int32(0); v < int32(len(o.Parent)); v++ {
			a, ok := mass[v]
			if !ok || !(o.Weight[v] > 0) || lay.code[v] > -2 {
				continue
			}
			e := entry{loc: uint8(smp - lo)}
			switch m {
			case Unweighted:
			case Generalized:
				e.val, e.pw = a, o.Weight[v]*math.Pow(a, 0.5)
			default:
				e.val = o.Weight[v] * a
			}
			byBranch[-2-lay.code[v]] = append(byBranch[-2-lay.code[v]], e)
		}
	}
	var b block
	for br := int32(0); br < int32(len(o.Parent)); br++ {
		es, ok := byBranch[br]
		if !ok {
			continue
		}
		b.br = append(b.br, br)
		b.ptr = append(b.ptr, int32(len(b.loc)))
		for _, e := range es {
			b.loc = append(b.loc, e.loc)
			b.val = append(b.val, e.val)
			b.pw = append(b.pw, e.pw)
		}
	}
	b.ptr = append(b.ptr, int32(len(b.loc)))
	return b
}
