package unifrac

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twl-ldl/twl/tree"
)

// benchCase builds a random binary tree with tips leaves (random joins,
// lengths uniform in (0.01, 1)) and n samples of k distinct tips each.
func benchCase(b *testing.B, tips, n, k int) (*tree.Tree, *Table) {
	rng := rand.New(rand.NewPCG(uint64(tips), uint64(n)))
	parent := make([]int, 2*tips-1)
	weight := make([]float64, 2*tips-1)
	roots := make([]int, tips)
	for i := range roots {
		roots[i] = i
	}
	next := tips
	for len(roots) > 1 {
		i := rng.IntN(len(roots))
		a := roots[i]
		roots[i] = roots[len(roots)-1]
		roots = roots[:len(roots)-1]
		j := rng.IntN(len(roots))
		parent[a], parent[roots[j]] = next, next
		roots[j] = next
		next++
	}
	parent[roots[0]] = -1
	for i := range weight {
		weight[i] = 0.01 + 0.99*rng.Float64()
	}
	tr, err := tree.FromParents(parent, weight, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	tab := &Table{Indptr: []int{0}}
	for range n {
		for _, t := range rng.Perm(tips)[:k] {
			tab.Indices = append(tab.Indices, int32(t))
			tab.Values = append(tab.Values, float64(1+rng.IntN(20)))
		}
		tab.Indptr = append(tab.Indptr, len(tab.Indices))
	}
	return tr, tab
}

// cladeCase builds the tree of benchCase and n samples that each hold k
// distinct tips of one clade: a node drawn among those with between k and
// 4k tips below it, as communities of related taxa are.
func cladeCase(b *testing.B, tips, n, k int) (*tree.Tree, *Table) {
	tr, _ := benchCase(b, tips, 1, 1)
	rng := rand.New(rand.NewPCG(uint64(tips), uint64(n)+1))
	ord := tr.Order()
	L := len(ord.Parent)
	below := make([][]int32, L) // tips below each position, for small clades
	var clades []int
	for v := L - 1; v >= 0; v-- {
		if lab := ord.Label[v]; lab >= 0 && int(lab) < tips {
			below[v] = append(below[v], lab)
		}
		if len(below[v]) >= k && len(below[v]) <= 4*k {
			clades = append(clades, v)
		}
		if p := ord.Parent[v]; p >= 0 && len(below[v]) <= 4*k {
			below[p] = append(below[p], below[v]...)
		}
	}
	tab := &Table{Indptr: []int{0}}
	for range n {
		c := below[clades[rng.IntN(len(clades))]]
		for _, t := range rng.Perm(len(c))[:k] {
			tab.Indices = append(tab.Indices, c[t])
			tab.Values = append(tab.Values, float64(1+rng.IntN(20)))
		}
		tab.Indptr = append(tab.Indptr, len(tab.Indices))
	}
	return tr, tab
}

// BenchmarkCladeCondensed times all pairs of clade-biased samples: 3,000
// samples of 400 tips on a 50,000-tip tree.
func BenchmarkCladeCondensed(b *testing.B) {
	tr, tab := cladeCase(b, 50000, 3000, 400)
	for _, m := range methods[1:3] {
		b.Run(m.String(), func(b *testing.B) { benchCondensed(b, tr, tab, m) })
	}
}

// benchCondensed times Condensed of an engine of tab on tr for method m.
func benchCondensed(b *testing.B, tr *tree.Tree, tab *Table, m Method) {
	e, err := New(tr, tab, m, nil)
	if err != nil {
		b.Fatal(err)
	}
	n := e.Len()
	d := make([]float64, n*(n-1)/2)
	b.ReportAllocs()
	for b.Loop() {
		e.Condensed(context.Background(), d)
	}
}

// BenchmarkCladeRows times a shard of 256 rows of the clade-biased case.
func BenchmarkCladeRows(b *testing.B) {
	tr, tab := cladeCase(b, 50000, 3000, 400)
	e, err := New(tr, tab, WeightedNormalized, nil)
	if err != nil {
		b.Fatal(err)
	}
	n := e.Len()
	d := make([]float64, 256*n)
	b.ReportAllocs()
	for b.Loop() {
		e.Rows(context.Background(), d, 1000, 1256)
	}
}

// BenchmarkCondensed times all pairs (preparation excluded) of samples of
// 400 random tips.
func BenchmarkCondensed(b *testing.B) {
	for _, c := range []struct{ tips, n int }{{20000, 1000}, {50000, 1000}} {
		tr, tab := benchCase(b, c.tips, c.n, 400)
		for _, m := range methods[:3] {
			b.Run(fmt.Sprintf("%v/tips=%d/n=%d", m, c.tips, c.n), func(b *testing.B) {
				e, err := New(tr, tab, m, nil)
				if err != nil {
					b.Fatal(err)
				}
				d := make([]float64, c.n*(c.n-1)/2)
				b.ReportAllocs()
				for b.Loop() {
					e.Condensed(context.Background(), d)
				}
			})
		}
	}
}

// BenchmarkCladeNew times the preparation of the clade-biased case.
func BenchmarkCladeNew(b *testing.B) {
	tr, tab := cladeCase(b, 50000, 3000, 400)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(tr, tab, WeightedNormalized, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNew times the preparation.
func BenchmarkNew(b *testing.B) {
	tr, tab := benchCase(b, 50000, 1000, 400)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(tr, tab, WeightedNormalized, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCladeRich times all unweighted pairs of rich clade-biased
// samples: 1,000 samples of 1,600 tips on a 50,000-tip tree.
func BenchmarkCladeRich(b *testing.B) {
	tr, tab := cladeCase(b, 50000, 1000, 1600)
	benchCondensed(b, tr, tab, Unweighted)
}

// BenchmarkSparseGroups times the unweighted sparse sums of one tile of
// two blocks of 256 samples reaching half of the branches of their ranges
// among 2,000 sparse branches.
func BenchmarkSparseGroups(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	wsp := make([]float64, 2000)
	for i := range wsp {
		wsp[i] = rng.Float64()
	}
	var scratch []int32
	ea, _ := groupCase(rng, blockSize, len(wsp), 0.5)
	ba := makeGroupBlock(ea, &scratch)
	eb, _ := groupCase(rng, blockSize, len(wsp), 0.5)
	bb := makeGroupBlock(eb, &scratch)
	acc := make([]float64, blockSize*blockSize)
	b.ReportAllocs()
	for b.Loop() {
		sparseMin(acc, &ba, &bb, wsp, false, false)
	}
}

// BenchmarkVarianceAdjusted times the preparation (with the one-sided
// sums) and all pairs of variance-adjusted UniFrac on clade-biased
// samples: 1,000 samples of 300 tips on a 10,000-tip tree.
func BenchmarkVarianceAdjusted(b *testing.B) {
	tr, tab := cladeCase(b, 10000, 1000, 300)
	for _, m := range []Method{WeightedNormalized, Unweighted, Generalized} {
		o := &Options{VarianceAdjusted: true, Alpha: 0.5}
		b.Run("New/"+m.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := New(tr, tab, m, o); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Condensed/"+m.String(), func(b *testing.B) {
			e, err := New(tr, tab, m, o)
			if err != nil {
				b.Fatal(err)
			}
			d := make([]float64, e.Len()*(e.Len()-1)/2)
			b.ReportAllocs()
			for b.Loop() {
				e.Condensed(context.Background(), d)
			}
		})
	}
}

// BenchmarkFaithPD times Faith's PD of 3,000 clade-biased samples of 400
// tips on a 50,000-tip tree.
func BenchmarkFaithPD(b *testing.B) {
	tr, tab := cladeCase(b, 50000, 3000, 400)
	d := make([]float64, tab.Len())
	b.ReportAllocs()
	for b.Loop() {
		if err := FaithPD(d, tr, tab, nil); err != nil {
			b.Fatal(err)
		}
	}
}
